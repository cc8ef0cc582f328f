//! `bcdump --diagnostics` against clang's own text output: for the .dia files of
//! ../shared/corpus (their .stderr holds what clang printed) and for the fixtures of
//! tests/data/diagnostics compiled here by clang 14 and 16 with `--serialize-diagnostics`,
//! the lines of the form `file:line:col: severity: message [-Wflag]` equal clang's stderr
//! lines, line for line, notes after their diagnostic.
//!
//! One thing clang prints is not in the file: the pass name after a backend remark's flag
//! (`[-Rpass=inline]`); the serialized flag is `pass`, so those lines are compared without it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const TEST: &str = "diagnostics";

/// The clangs whose serialized diagnostics are compared with their text output.
const CLANGS: &[u32] = &[14, 16];

/// Each fixture, the compiler (C or C++), and its flags.
const FIXTURES: &[(&str, bool, &[&str])] = &[
    ("warnings.c", false, &["-fsyntax-only", "-Wall", "-Wextra", "-Wconversion"]),
    ("errors.cpp", true, &["-fsyntax-only"]),
    ("fatal.c", false, &["-fsyntax-only", "-Wall"]),
    ("remarks.c", false, &["-c", "-O2", "-g", "-Rpass=inline", "-Rpass-missed=inline", "-o", "/dev/null"]),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diagnostics")
}

/// True for a line of the form `file:line:col: severity: ...`.
fn is_located(line: &str) -> bool {
    let mut parts = line.splitn(4, ':');
    let (Some(file), Some(l), Some(c), Some(rest)) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    !file.is_empty()
        && !file.contains(' ')
        && number(l)
        && number(c)
        && ["note", "warning", "error", "fatal error", "remark"]
            .iter()
            .any(|s| rest.strip_prefix(' ').is_some_and(|r| r.starts_with(&format!("{s}: "))))
}

/// A backend remark's flag without the pass name clang prints after it (not serialized).
fn without_pass_name(line: &str) -> String {
    match line.rfind(" [-R") {
        Some(at) if line.ends_with(']') => match line[at..].find('=') {
            Some(eq) => format!("{}]", &line[..at + eq]),
            None => line.to_string(),
        },
        _ => line.to_string(),
    }
}

/// clang's located stderr lines, and ours.
fn located_lines(text: &str) -> String {
    text.lines().filter(|l| is_located(l)).map(|l| without_pass_name(l) + "\n").collect()
}

/// Compares `bcdump --diagnostics dia` with clang's `stderr`; returns the lines compared.
fn compare(dia: &Path, stderr: &str) -> Result<String, String> {
    let ours = run(Command::new(bcdump()).arg("--diagnostics").arg(dia))?;
    let (expected, actual) = (located_lines(stderr), located_lines(&String::from_utf8_lossy(&ours)));
    if expected.is_empty() {
        return Err(format!("{}: clang printed no located diagnostic", dia.display()));
    }
    compare_lines(&expected, &actual).map_err(|e| format!("{}: {e}", dia.display()))?;
    Ok(expected)
}

pub fn corpus_diagnostics_print_as_clang_printed_them() {
    let Some(shared) = require_shared(TEST) else { return };
    let mut compared = 0;
    for dir in corpus_dirs(&shared) {
        for dia in bitstream_files(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "dia")) {
            let stderr_path = PathBuf::from(format!("{}.stderr", dia.display()));
            let Ok(stderr) = std::fs::read_to_string(&stderr_path) else { continue };
            compare(&dia, &stderr).unwrap();
            compared += 1;
        }
    }
    assert!(compared >= 3, "only {compared} .dia files with their .stderr in the corpus");
}

pub fn clang_14_and_16_diagnostics_print_as_clang_prints_them() {
    let scratch = tempfile::tempdir().unwrap();
    let mut jobs = Vec::new();
    for &v in CLANGS {
        for &(source, cxx, flags) in FIXTURES {
            let compiler = if cxx { format!("clang++-{v}") } else { format!("clang-{v}") };
            if require_tool(TEST, &compiler).is_none() {
                return;
            }
            jobs.push((compiler, source, flags, scratch.path().join(format!("{source}.{v}.dia"))));
        }
    }
    let results = parallel_map(&jobs, |(compiler, source, flags, dia)| {
        // Run in the fixtures' directory with a relative path, as a user would; the
        // diagnostics fail the compilation, so the exit status is not checked.
        let out = Command::new(compiler)
            .current_dir(fixtures())
            .args(*flags)
            .arg("--serialize-diagnostics")
            .arg(dia)
            .arg(source)
            .output()
            .map_err(|e| format!("cannot run {compiler}: {e}"))?;
        compare(dia, &String::from_utf8_lossy(&out.stderr))
    });
    let mut severities = std::collections::BTreeSet::new();
    let mut lines = 0;
    for result in results {
        let text = result.unwrap();
        for line in text.lines() {
            lines += 1;
            let rest = line.splitn(4, ':').nth(3).unwrap_or("");
            severities.insert(rest.trim_start().split(':').next().unwrap_or("").to_string());
        }
    }
    // The fixtures exercise every severity clang writes.
    for s in ["note", "warning", "error", "fatal error", "remark"] {
        assert!(severities.contains(s), "no {s} among {lines} lines: {severities:?}");
    }
}

/// Ranges and fix-its are in the typed data: the typed dump shows them with their fields,
/// and every record of every .dia decodes with the schema.
pub fn typed_dump_shows_ranges_and_fixits() {
    let Some(shared) = require_shared(TEST) else { return };
    let dia = shared.join("corpus/clang14__bad.dia");
    let text = String::from_utf8(run(Command::new(bcdump()).arg(&dia)).unwrap()).unwrap();
    assert!(text.starts_with("clang serialized diagnostics stream"), "{text}");
    for expected in [
        "META {",
        "VERSION version=2",
        "FILENAME id=1 ",
        "DIAG severity=warning file=1 line=16 column=9 ",
        "DIAG_FLAG id=1 name_length=11 name=\"parentheses\"",
        "SOURCE_RANGE start_file=1 start_line=16 start_column=7 ",
        "FIXIT start_file=1 start_line=16 start_column=7 ",
        "text=\"(\"",
    ] {
        assert!(text.contains(expected), "missing {expected}:\n{text}");
    }
    for dir in corpus_dirs(&shared) {
        for dia in bitstream_files(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "dia")) {
            let text = String::from_utf8(run(Command::new(bcdump()).arg(&dia)).unwrap()).unwrap();
            let bad = typed_dump_problems(&text);
            assert!(bad.is_empty(), "{}: {bad:?}", dia.display());
        }
    }
}
