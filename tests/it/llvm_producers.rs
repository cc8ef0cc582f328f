//! The LLVM IR schema against real producers of several LLVM versions, built here: the C,
//! C++ and typed-pointer IR fixtures of tests/data/producers compiled by clang 13, 14, 15,
//! 16 and 19 (and rustc's LLVM 22), and random C programs from csmith compiled by two
//! clangs. For each bitcode file `bcdump --check` finds no unknown record and no error, and
//! `bcdump --symbols` equals `../shared/oracle/ll-symbols` of the same compilation's .ll.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const TEST: &str = "llvm_producers";

/// The clang versions whose output the schema must read.
const CLANGS: &[u32] = &[13, 14, 15, 16, 19];
/// The last LLVM whose textual IR has typed pointers.
const LAST_TYPED_POINTERS: u32 = 16;
/// csmith seeds (fixed, so that failures reproduce) and the clangs that compile them.
const CSMITH_SEEDS: &[u64] = &[1, 2, 3, 5, 8, 13];
const CSMITH_CLANGS: &[u32] = &[14, 19];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/producers")
}

/// Compiles `source` with `compiler` and `flags` twice: to bitcode and to textual IR.
fn compile(compiler: &str, source: &Path, flags: &[&str], out: &Path) -> Result<(PathBuf, PathBuf), String> {
    let bc = out.with_extension("bc");
    let ll = out.with_extension("ll");
    run(Command::new(compiler).args(flags).args(["-c", "-emit-llvm"]).arg(source).arg("-o").arg(&bc))?;
    run(Command::new(compiler).args(flags).args(["-S", "-emit-llvm"]).arg(source).arg("-o").arg(&ll))?;
    Ok((bc, ll))
}

/// `--check` has no unknown record and no error; `--symbols` equals the oracle's.
fn check(bc: &Path, ll: &Path, oracle: &Path) -> Result<(), String> {
    let name = bc.display();
    let out = run(Command::new(bcdump()).arg("--check").arg(bc)).map_err(|e| format!("{name}: {e}"))?;
    let line = String::from_utf8_lossy(&out);
    let counts =
        parse_check(line.trim()).ok_or_else(|| format!("{name}: unexpected --check output {line}"))?;
    if counts.unknown != 0 || counts.errors != 0 {
        return Err(format!("{name}: {}", line.trim()));
    }
    let ours = run(Command::new(bcdump()).arg("--symbols").arg(bc)).map_err(|e| format!("{name}: {e}"))?;
    let theirs = run(Command::new(oracle).arg(ll)).map_err(|e| format!("{name}: ll-symbols: {e}"))?;
    compare_lines(&String::from_utf8_lossy(&theirs), &String::from_utf8_lossy(&ours))
        .map_err(|e| format!("{name}: --symbols differs from ll-symbols: {e}"))
}

pub fn clang_13_to_19_and_rustc_output_decodes_and_lists_its_symbols() {
    let Some(shared) = require_shared(TEST) else { return };
    let oracle = shared.join("oracle/ll-symbols");
    let scratch = tempfile::tempdir().unwrap();
    let mut jobs: Vec<(String, Vec<String>, PathBuf, String)> = Vec::new();
    for &v in CLANGS {
        let (cc, cxx) = (format!("clang-{v}"), format!("clang++-{v}"));
        if require_tool(TEST, &cc).is_none() || require_tool(TEST, &cxx).is_none() {
            return;
        }
        for opt in ["-O0", "-O2"] {
            let c_flags = vec![opt.to_string(), "-fcommon".to_string()];
            jobs.push((cc.clone(), c_flags, fixtures().join("features.c"), format!("features{v}{opt}")));
            jobs.push((
                cxx.clone(),
                vec![opt.to_string()],
                fixtures().join("exceptions.cpp"),
                format!("exceptions{v}{opt}"),
            ));
        }
        if v <= LAST_TYPED_POINTERS {
            jobs.push((cc.clone(), vec![], fixtures().join("history.ll"), format!("history{v}")));
        }
    }
    let results = parallel_map(&jobs, |(compiler, flags, source, tag)| {
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let (bc, ll) = compile(compiler, source, &flags, &scratch.path().join(tag))?;
        check(&bc, &ll, &oracle)
    });
    assert_builds_pass(results);

    // rustc (LLVM 22): the value-numbering fixture, at two optimisation levels.
    if require_tool(TEST, "rustc").is_none() {
        return;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/values/values22.rs");
    for opt in ["0", "2"] {
        let out = scratch.path().join(format!("rust{opt}"));
        let (bc, ll) = (out.with_extension("bc"), out.with_extension("ll"));
        let emit = format!("--emit=llvm-bc={},llvm-ir={}", bc.display(), ll.display());
        run(Command::new("rustc")
            .args(["--edition", "2021", "-C", &format!("opt-level={opt}")])
            .arg(&emit)
            .arg(&source))
        .unwrap();
        check(&bc, &ll, &oracle).unwrap();
    }
}

pub fn random_csmith_programs_compiled_by_two_clangs() {
    let Some(shared) = require_shared(TEST) else { return };
    if require_tool(TEST, "csmith").is_none() {
        return;
    }
    for v in CSMITH_CLANGS {
        if require_tool(TEST, &format!("clang-{v}")).is_none() {
            return;
        }
    }
    let oracle = shared.join("oracle/ll-symbols");
    let scratch = tempfile::tempdir().unwrap();
    let include = ["/usr/include/csmith", "/usr/include/csmith-2.3.0"]
        .iter()
        .find(|d| Path::new(d).is_dir())
        .map(|d| format!("-I{d}"))
        .unwrap_or_default();
    let mut jobs = Vec::new();
    for seed in CSMITH_SEEDS {
        let source = scratch.path().join(format!("csmith{seed}.c"));
        // csmith writes platform.info into its working directory: the scratch one.
        let program =
            run(Command::new("csmith").args(["--seed", &seed.to_string()]).current_dir(scratch.path()))
                .unwrap();
        std::fs::write(&source, program).unwrap();
        for v in CSMITH_CLANGS {
            jobs.push((format!("clang-{v}"), source.clone(), format!("csmith{seed}_{v}")));
        }
    }
    let results = parallel_map(&jobs, |(compiler, source, tag)| {
        let flags = ["-O1", "-w", include.as_str()];
        let (bc, ll) = compile(compiler, source, &flags, &scratch.path().join(tag))?;
        check(&bc, &ll, &oracle)
    });
    assert_builds_pass(results);
}

/// Fails with every build's error when any of them failed.
fn assert_builds_pass<T>(results: Vec<Result<T, String>>) {
    let builds = results.len();
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{} of {builds} builds fail:\n{}", failures.len(), failures.join("\n"));
}
