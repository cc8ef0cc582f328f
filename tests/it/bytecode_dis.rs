//! The slot layer and printer of LLVM 1.x bytecode against each release's own `llvm-dis`:
//! every module of ../shared/corpus-bytecode with a `.dis.ll` is built from its bytes
//! (`bytecode::build`) and printed as the release that wrote it (chosen from the file by
//! `release_of`); the text must equal the `.dis.ll` byte for byte. The `llvc` copies
//! (compressed) must print the same text.

use std::path::Path;

use bitcode_schema::bytecode::build::{disassemble_bytes, release_of};
use bitcode_schema::bytecode::dis::Release;

use crate::common::*;

const TEST: &str = "bytecode_dis";

/// Mismatches allowed per release folder (plain files and `llvc` copies together): a
/// ratchet toward 0. Every release is at 0; the test fails as soon as one gets worse.
const CEILINGS: &[(&str, usize)] = &[
    ("llvm11", 0),
    ("llvm12", 0),
    ("llvm13", 0),
    ("llvm15", 0),
    ("llvm18", 0),
    ("llvm19", 0),
    ("llvm20dev", 0),
];

/// The first line where two texts differ, both sides.
fn first_difference(got: &str, expected: &str) -> String {
    let mut g = got.lines();
    let mut e = expected.lines();
    let mut n = 1;
    loop {
        match (g.next(), e.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (None, None) => return "(line endings differ)".to_string(),
            (a, b) => return format!("line {n}:\n      got      {a:?}\n      expected {b:?}"),
        }
    }
}

/// Prints `bytes` as its release and compares; `None` when it matches, else the problem.
fn check(bytes: &[u8], name: &str, release: Option<Release>, expected: &str) -> Option<String> {
    match release_of(bytes) {
        Ok(r) if Some(r) == release => {}
        Ok(r) => return Some(format!("release_of says {r:?}")),
        Err(e) => return Some(format!("release_of: {e}")),
    }
    match disassemble_bytes(bytes, &format!("{name}.bc")) {
        Ok(got) if got == expected => None,
        Ok(got) => Some(first_difference(&got, expected)),
        Err(e) => Some(format!("error: {e}")),
    }
}

/// The module names of a folder that have a `.dis.ll`.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".dis.ll").map(str::to_string))
        .collect();
    names.sort();
    names
}

/// Every module (and `llvc` copy) prints exactly as its release's llvm-dis printed it.
pub fn every_module_prints_as_its_release() {
    let Some(shared) = require_shared(TEST) else { return };
    let root = shared.join("corpus-bytecode");
    let mut regressions = Vec::new();
    for (folder, ceiling) in CEILINGS {
        let release = Release::from_folder(folder);
        let dir = root.join(folder);
        let names = names(&dir);
        let (mut matched, mut copies, mut copies_matched, mut failures) = (0, 0, 0, Vec::new());
        for name in &names {
            let bytes = std::fs::read(dir.join(format!("{name}.bc"))).unwrap();
            let expected = std::fs::read_to_string(dir.join(format!("{name}.dis.ll"))).unwrap();
            match check(&bytes, name, release, &expected) {
                None => matched += 1,
                Some(problem) => failures.push(format!("{name}: {problem}")),
            }
            let copy = dir.join("compressed-llvc").join(format!("{name}.llvc.bc"));
            if let Ok(bytes) = std::fs::read(copy) {
                copies += 1;
                match check(&bytes, name, release, &expected) {
                    None => copies_matched += 1,
                    Some(problem) => failures.push(format!("{name}.llvc: {problem}")),
                }
            }
        }
        println!(
            "{TEST}: {folder}: {matched} / {} match, llvc copies {copies_matched} / {copies}",
            names.len()
        );
        for f in failures.iter().take(5) {
            println!("  {f}");
        }
        assert!(!names.is_empty(), "{folder}: no modules with a .dis.ll");
        if failures.len() > *ceiling {
            regressions.push(format!("{folder}: {} mismatches, ceiling {ceiling}", failures.len()));
        }
    }
    assert!(regressions.is_empty(), "{regressions:?}");
}
