//! Every bitstream file under ../shared (corpus and corpus-old): the trace of
//! `bcdump --trace FILE` equals what `oracle/bcanalyzer-jsonl FILE` makes of llvm-bcanalyzer's
//! dump, every entry, under the rule of `oracle/compare-trace` (a blob the analyzer prints as
//! decoded strings matches any blob). The oracle's conversion runs many files to a Python
//! process (`crate::oracle`) and the traces are compared here: one process per file, or
//! compare-trace's own parsing, cost more than the analyzer does. Native objects are
//! compared with the analyzer run on their `.llvmbc` section as llvm-objcopy extracts it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use common::*;
use serde_json::Value;

use crate::oracle::{first_difference, Analyzer, Answer};

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

/// What the analyzer reads for `file`: a native object's `.llvmbc` section as llvm-objcopy
/// extracts it (into `scratch`), any other file as it is.
fn oracle_input(file: &Path, scratch: &Path, index: usize) -> Result<PathBuf, String> {
    if file.extension().is_none_or(|e| e != "o") {
        return Ok(file.to_path_buf());
    }
    let section = scratch.join(format!("{index}.llvmbc"));
    let out = scratch.join(format!("{index}.o"));
    let dump = format!(".llvmbc={}", section.display());
    run(Command::new("llvm-objcopy").arg("--dump-section").arg(dump).arg(file).arg(&out))?;
    Ok(section)
}

/// `bcdump --trace file` held against the analyzer's answer for it.
fn judge(file: &Path, answer: Answer) -> Outcome {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let ours = run(Command::new(bcdump()).arg("--trace").arg(file));
    let known = ORACLE_REJECTS.iter().find(|(n, _)| *n == name);
    let expected = match (answer, known) {
        (Answer::Trace(entries), None) => entries,
        (Answer::Rejected(_), Some((_, must_reject))) => {
            return match (ours, must_reject) {
                (Err(_), true) | (Ok(_), false) => Outcome::ExpectedRejection,
                (Ok(_), true) => Outcome::Failed(format!("{name}: malformed, yet bcdump read it")),
                (Err(e), false) => Outcome::Failed(format!("{name}: {e}")),
            };
        }
        (Answer::Rejected(e), None) => {
            return Outcome::Failed(format!("{name}: llvm-bcanalyzer rejected it: {e}"))
        }
        (Answer::Crashed(e), _) => {
            return Outcome::Failed(format!("{name}: llvm-bcanalyzer did not answer: {e}"))
        }
        (Answer::Trace(_), Some(_)) => {
            return Outcome::Failed(format!("{name}: listed as rejected, yet the oracle read it"))
        }
    };
    let ours = match ours {
        Ok(trace) => trace,
        Err(e) => return Outcome::Failed(format!("{name}: {e}")),
    };
    let actual: Result<Vec<Value>, _> =
        ours.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(serde_json::from_slice).collect();
    match actual {
        Err(e) => Outcome::Failed(format!("{name}: bcdump --trace printed a line that is not JSON: {e}")),
        Ok(actual) => match first_difference(&expected, &actual) {
            None => Outcome::Agree { entries: expected.len() },
            Some(difference) => Outcome::Failed(format!("{name}: {difference}")),
        },
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
    let inputs = parallel_map(&indexed, |(i, f)| oracle_input(f, scratch.path(), *i));

    let mut failures = Vec::new();
    let mut oracle_files = Vec::new();
    let mut oracle_index = Vec::new();
    for (i, input) in inputs.into_iter().enumerate() {
        match input {
            Ok(path) => {
                oracle_files.push(path);
                oracle_index.push(i);
            }
            Err(e) => failures.push(format!("{}: {e}", files[i].display())),
        }
    }
    let outcomes: Vec<Mutex<Option<Outcome>>> = oracle_files.iter().map(|_| Mutex::new(None)).collect();
    Analyzer::new(&shared, "llvm-bcanalyzer").answer_each(&oracle_files, |i, answer| {
        *outcomes[i].lock().unwrap() = Some(judge(&files[oracle_index[i]], answer));
    });

    let (mut agreed, mut entries, mut rejected) = (0, 0, 0);
    for outcome in outcomes {
        match outcome.into_inner().unwrap().expect("an outcome for every file") {
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
