//! Every bitstream file under ../shared (corpus and corpus-old): the trace of
//! `bcdump --trace FILE` equals `oracle/bcanalyzer-jsonl FILE` under the rules of
//! `oracle/compare-trace`, every entry. Native objects are compared with the oracle run on
//! their `.llvmbc` section as llvm-objcopy extracts it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// Files LLVM 14's analyzer rejects on purpose (see corpus-old/README.md), with whether
/// the bitstream itself is malformed (and so must be rejected by us too).
const ORACLE_REJECTS: &[(&str, bool)] = &[
    // A block with abbreviation id width 0.
    ("llvmtest__null-type.bc", true),
    // A valid stream followed by four zero bytes, which the analyzer (and we) read as an
    // END_BLOCK at the top level.
    ("llvmtest__invalid-type-for-null-constant.bc", true),
];

enum Outcome {
    Agree { entries: usize },
    ExpectedRejection,
    Failed(String),
}

fn check(file: &Path, shared: &Path, scratch: &Path, index: usize) -> Outcome {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let expected = scratch.join(format!("{index}.expected.jsonl"));
    let actual = scratch.join(format!("{index}.actual.jsonl"));
    let oracle_input: PathBuf = if name.ends_with(".o") {
        let section = scratch.join(format!("{index}.llvmbc"));
        let out = scratch.join(format!("{index}.o"));
        let dump = format!(".llvmbc={}", section.display());
        if let Err(e) = run(Command::new("llvm-objcopy").arg("--dump-section").arg(dump).arg(file).arg(&out))
        {
            return Outcome::Failed(format!("{name}: {e}"));
        }
        section
    } else {
        file.to_path_buf()
    };
    let oracle = run(Command::new(shared.join("oracle/bcanalyzer-jsonl")).arg(&oracle_input));
    let ours = run(Command::new(bcdump()).arg("--trace").arg(file));
    let known = ORACLE_REJECTS.iter().find(|(n, _)| *n == name);
    let oracle = match (oracle, known) {
        (Ok(trace), None) => trace,
        (Err(_), Some((_, must_reject))) => {
            return match (ours, must_reject) {
                (Err(_), true) | (Ok(_), false) => Outcome::ExpectedRejection,
                (Ok(_), true) => Outcome::Failed(format!("{name}: malformed, yet bcdump read it")),
                (Err(e), false) => Outcome::Failed(format!("{name}: {e}")),
            };
        }
        (Err(e), None) => return Outcome::Failed(format!("{name}: the oracle failed: {e}")),
        (Ok(_), Some(_)) => {
            return Outcome::Failed(format!("{name}: listed as rejected, yet the oracle read it"))
        }
    };
    let ours = match ours {
        Ok(trace) => trace,
        Err(e) => return Outcome::Failed(format!("{name}: {e}")),
    };
    let write = std::fs::write(&expected, &oracle).and_then(|_| std::fs::write(&actual, &ours));
    if let Err(e) = write {
        return Outcome::Failed(format!("{name}: writing traces: {e}"));
    }
    let compared = run(Command::new(shared.join("oracle/compare-trace")).arg(&expected).arg(&actual));
    let _ = std::fs::remove_file(&expected);
    let _ = std::fs::remove_file(&actual);
    match compared {
        Ok(_) => Outcome::Agree { entries: oracle.iter().filter(|&&b| b == b'\n').count() },
        Err(e) => Outcome::Failed(format!("{name}: {e}")),
    }
}

pub fn every_corpus_file_traces_exactly_as_llvm_bcanalyzer() {
    const TEST: &str = "corpus_trace";
    let Some(shared) = require_shared(TEST) else { return };
    if require_tool(TEST, "llvm-bcanalyzer").is_none() || require_tool(TEST, "llvm-objcopy").is_none() {
        return;
    }
    let files: Vec<PathBuf> = corpus_dirs(&shared).iter().flat_map(|d| bitstream_files(d)).collect();
    assert!(files.len() > 400, "expected the whole corpus, found {} files", files.len());
    let scratch = tempfile::tempdir().expect("temporary directory");
    let indexed: Vec<(usize, &PathBuf)> = files.iter().enumerate().collect();
    let outcomes = parallel_map(&indexed, |(i, f)| check(f, &shared, scratch.path(), *i));

    let mut failures = Vec::new();
    let (mut agreed, mut entries, mut rejected) = (0, 0, 0);
    for outcome in outcomes {
        match outcome {
            Outcome::Agree { entries: n } => {
                agreed += 1;
                entries += n;
            }
            Outcome::ExpectedRejection => rejected += 1,
            Outcome::Failed(msg) => failures.push(msg),
        }
    }
    eprintln!(
        "{agreed} files agree with llvm-bcanalyzer ({entries} entries); {rejected} rejected as expected"
    );
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    assert_eq!(rejected, ORACLE_REJECTS.len());
}
