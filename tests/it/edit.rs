//! Editing bitcode without LLVM: examples/set-linkage changes the linkage and visibility of
//! named global values through the typed records; LLVM 14's, 19's and 22's own llvm-dis
//! must read the result, show exactly that change and nothing else, and `opt` must verify
//! it, on corpus modules those versions wrote.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

const TEST: &str = "edit";

/// An LLVM version's corpus files (by name prefix) and its llvm-dis and opt.
struct Version {
    name: &'static str,
    prefix: &'static str,
    llvm_dis: PathBuf,
    opt: PathBuf,
}

fn versions() -> Option<Vec<Version>> {
    let (Some(dis22), Some(opt22)) = (rustc_llvm_tool("llvm-dis"), rustc_llvm_tool("opt")) else {
        missing(TEST, "rustc's llvm-tools (LLVM 22's llvm-dis and opt: rustup component add llvm-tools)");
        return None;
    };
    let mut out = Vec::new();
    for (name, prefix, v) in [("LLVM 14", "clang14__", "14"), ("LLVM 19", "clang19__", "19")] {
        let llvm_dis = require_tool(TEST, &format!("llvm-dis-{v}"))?;
        let opt = require_tool(TEST, &format!("opt-{v}"))?;
        out.push(Version { name, prefix, llvm_dis, opt });
    }
    out.push(Version { name: "LLVM 22", prefix: "rustc195__", llvm_dis: dis22, opt: opt22 });
    Some(out)
}

/// One change to make: the value, the options, and what its line must then say.
struct Change {
    name: String,
    args: [&'static str; 4],
    /// What the edited line must hold (`define internal `, `@g = weak hidden `).
    shows: String,
}

/// A plain name (no quotes needed in the .ll) and its line, for each definition.
fn definitions(ll: &str) -> (Vec<String>, Vec<String>) {
    let plain =
        |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.$".contains(&b));
    let mut functions = Vec::new();
    let mut globals = Vec::new();
    for line in ll.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            // Only the default linkage: the head before `@` holds no linkage word.
            let Some((head, tail)) = rest.split_once('@') else { continue };
            let name = tail.split('(').next().unwrap_or_default();
            let external =
                !["internal", "private", "weak", "linkonce", "available_externally", "hidden", "protected"]
                    .iter()
                    .any(|w| head.split_whitespace().any(|x| x.starts_with(w)));
            if plain(name) && external {
                functions.push(name.to_string());
            }
        } else if let Some(rest) = line.strip_prefix('@') {
            let Some((name, def)) = rest.split_once(" = ") else { continue };
            let words: Vec<&str> = def.split_whitespace().collect();
            // A definition of default linkage and visibility: `[dso_local] [unnamed_addr ...] global|constant T init`.
            let external = words.first().is_some_and(|w| {
                ["dso_local", "global", "constant", "local_unnamed_addr", "unnamed_addr"].contains(w)
            });
            if plain(name) && external && !def.contains("external ") {
                globals.push(name.to_string());
            }
        }
    }
    (functions, globals)
}

/// The .ll's lines that differ from `before`'s, as (before, after) pairs: the ModuleID
/// aside, and the ThinLTO summary entries (`^N = ...`, which rustc writes): the edit leaves
/// the summary as it was, and llvm-dis orders its entries by GUID, which an internal name
/// changes.
fn changed_lines<'a>(before: &'a str, after: &'a str) -> Result<Vec<(&'a str, &'a str)>, String> {
    let module_lines =
        |text: &'a str| -> Vec<&'a str> { text.lines().filter(|l| !l.starts_with('^')).collect() };
    let (b, a) = (module_lines(before), module_lines(after));
    if a.len() != b.len() {
        return Err(format!("{} lines became {}", b.len(), a.len()));
    }
    Ok(b.into_iter().zip(a).filter(|(x, y)| x != y && !x.starts_with("; ModuleID")).collect())
}

fn disassemble(llvm_dis: &Path, file: &Path) -> Result<String, String> {
    run(Command::new(llvm_dis).arg(file).arg("-o").arg("-")).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Edits `file` as `change` says and checks the result with `v`'s tools.
fn check_change(v: &Version, file: &Path, before: &str, change: &Change, out: &Path) -> Result<(), String> {
    let status = Command::new(workspace_binary("set-linkage"))
        .arg(file)
        .arg(&change.name)
        .args(change.args)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| e.to_string())?;
    if !status.status.success() {
        return Err(format!("set-linkage failed: {}", String::from_utf8_lossy(&status.stderr)));
    }
    let after = disassemble(&v.llvm_dis, out)?;
    let changed = changed_lines(before, &after)?;
    let [(_, line)] = changed.as_slice() else {
        return Err(format!("{} lines changed, not one: {changed:?}", changed.len()));
    };
    if !line.contains(&change.shows) || !line.contains(&format!("@{}", change.name)) {
        return Err(format!("the changed line does not show `{}` @{}: {line}", change.shows, change.name));
    }
    run(Command::new(&v.opt).args(["-passes=verify", "-disable-output"]).arg(out))
        .map_err(|e| format!("opt -passes=verify: {e}"))?;
    Ok(())
}

/// On up to four modules of each version: a defined function made internal, a defined
/// global made weak and hidden; each edit shows in the .ll as the only change, and verifies.
pub fn linkage_and_visibility_edits_read_back_in_llvm_14_19_and_22() {
    let Some(shared) = require_shared(TEST) else { return };
    let Some(versions) = versions() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for v in &versions {
        let files: Vec<PathBuf> = bitstream_files(&shared.join("corpus"))
            .into_iter()
            .filter(|f| {
                f.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(v.prefix) && n.ends_with(".bc"))
            })
            .collect();
        let (mut modules, mut edits) = (0, 0);
        for file in &files {
            let Ok(before) = disassemble(&v.llvm_dis, file) else { continue };
            let (functions, globals) = definitions(&before);
            let mut changes = Vec::new();
            if let Some(f) = functions.first() {
                changes.push(Change {
                    name: f.clone(),
                    args: ["--linkage", "internal", "--visibility", "default"],
                    shows: "define internal ".into(),
                });
            }
            if let Some(g) = globals.first() {
                changes.push(Change {
                    name: g.clone(),
                    args: ["--linkage", "weak", "--visibility", "hidden"],
                    shows: format!("@{g} = weak hidden "),
                });
            }
            if changes.is_empty() {
                continue;
            }
            modules += 1;
            for change in &changes {
                let out = dir.path().join("edited.bc");
                edits += 1;
                if let Err(e) = check_change(v, file, &before, change, &out) {
                    failures.push(format!("{} {} @{}: {e}", v.name, file.display(), change.name));
                }
            }
            if modules == 4 {
                break;
            }
        }
        eprintln!("{}: {edits} edits of {modules} modules", v.name);
        if modules < 2 {
            failures.push(format!(
                "{}: only {modules} modules with plain definitions among {} files",
                v.name,
                files.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{} edits fail:\n{}", failures.len(), failures.join("\n"));
}
