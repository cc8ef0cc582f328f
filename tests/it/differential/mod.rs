//! Differential tests against LLVM's bitstream reader, as llvm-bcanalyzer runs it (through
//! ../shared/oracle/bcanalyzer-jsonl): the project must accept exactly the streams LLVM
//! accepts and read them the same, entry by entry.
//!
//! - Random valid streams (`generate.rs`): llvm-bcanalyzer reads every one, and the
//!   project's trace equals its trace. 2,000 under `cargo test`, against the analyzer on
//!   PATH (LLVM 14 in CI: it takes fixed fields up to 64 bits wide), and 300 with fields of
//!   at most 32 bits against each newer analyzer installed (LLVM 15 to 19 refuse wider).
//! - Mutants of those streams and of the corpus files (`mutate.rs`), against LLVM 14's
//!   analyzer and the newest installed: where the analyzer stops with an error the project
//!   must reject the mutant too; where it reads the mutant to its end the traces must
//!   agree. Passed over and counted: mutants on which the analyzer crashes or runs out of
//!   its limits, and each place where the project means to differ ([`Verdict`]): what LLVM
//!   14 reads with undefined behaviour and LLVM 15 refuses, fields over 32 bits that LLVM 14
//!   reads and LLVM 15 refuses, nesting past the project's limit, BLOCKINFO records through
//!   abbreviations (which the analyzer's dump reads a second time with others), and block
//!   15's record 35 outside LLVM IR (which the analyzer splits as metadata strings).
//! - Every stream on which the two ever disagreed, and every one on which LLVM's versions
//!   differ (`cases.rs`): the verdict each must get from LLVM 14 and from LLVM 15 and later.
//!
//! Larger runs, outside CI: `BITCODE_DIFFERENTIAL_STREAMS=200000 BITCODE_DIFFERENTIAL_SEED=7
//! cargo test --release --test it -- differential:: --nocapture` (mutants: a quarter as many of
//! each kind, and a quarter of that against the newest analyzer). A stream or mutant on which
//! they disagree is written to target/differential-failures/, to become a case of
//! `cases.rs` once understood.

mod cases;
use crate::common;
mod generate;
mod mutate;

use std::path::{Path, PathBuf};

use bitcode_schema::{AbbrevProblem, ErrorKind};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::oracle::{first_difference, Analyzer, Answer, ProjectTrace};
use common::*;
use generate::Shape;
use mutate::Mutation;

const TEST: &str = "differential";

/// Streams of the main run, unless `BITCODE_DIFFERENTIAL_STREAMS` says otherwise.
const STREAMS: usize = 2000;
/// Streams for each newer analyzer.
const STREAMS_PER_NEWER_ANALYZER: usize = 300;
/// Streams handed to the oracle at a time (bounds the files and traces held at once).
const CHUNK: usize = 5000;
/// Corpus files larger than this are left out of the mutants (the analyzer dumps a large
/// file for a long time, and the corpus tests read them whole).
const MAX_CORPUS_FILE_BYTES: u64 = 64 << 10;
/// What some of the generated streams of any run must show in their traces.
const FEATURES: &[&str] = &[
    "a wrapper header",
    "an operand of 2^64-1",
    "an empty blob",
    "a blob",
    "an unabbreviated record without operands",
    "an unabbreviated record of over 100 operands",
    "a BLOCKINFO record through an abbreviation",
    "several top-level blocks",
    "a second BLOCKINFO block",
    "blocks nested to the depth limit",
];

/// The newer analyzers, each run when installed (CI installs all of them).
const NEWER_ANALYZERS: &[&str] = &["llvm-bcanalyzer-15", "llvm-bcanalyzer-16", "llvm-bcanalyzer-19"];

/// What LLVM 15 and later say of a field or abbreviation id wider than 32 bits.
const WIDER_THAN_32_BITS: &[&str] = &["size > MaxChunkData", "can't read more than 32 at a time"];

/// The project's default nesting limit, which the generated streams reach.
fn max_depth() -> usize {
    bitcode_schema::Limits::default().max_depth
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// The number of streams of the main run, and the seed all streams and mutants derive from.
fn run_size() -> (usize, u64) {
    (
        env_number("BITCODE_DIFFERENTIAL_STREAMS", STREAMS as u64) as usize,
        env_number("BITCODE_DIFFERENTIAL_SEED", 0),
    )
}

/// The number of mutants of each kind (of generated streams, of corpus files): a quarter of the
/// streams of the run. (llvm-bcanalyzer takes 25 ms to start, most of the run's time.)
fn mutant_count() -> usize {
    run_size().0 / 4
}

/// The stream of `seed` and `index`: the same on every machine and run.
fn generated(seed: u64, index: usize, shape: Shape) -> Vec<u8> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    generate::stream(&mut rng, shape)
}

/// Where streams that disagree are kept for the reader of the failure.
fn failures_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/differential-failures");
    std::fs::create_dir_all(&dir).expect("target/differential-failures");
    dir
}

/// How a stream fared, both sides seen.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Verdict {
    /// Both read it to its end, with the same trace.
    BothRead,
    /// Both stopped with an error.
    BothRejected,
    /// The analyzer did not answer (crash, assertion, limits); passed over.
    AnalyzerCrashed,
    /// Nested deeper than the project's limit, which LLVM does not have.
    DeeperThanTheLimit,
    /// A record through a VBR field with chunks over 32 bits (LLVM 14: undefined shifts).
    WideVbrChunks,
    /// A VBR field that goes on past its value's 64 (or 32) bits (LLVM 14: undefined
    /// shifts; LLVM 15 and later: "Unterminated VBR").
    UnterminatedVbr,
    /// A blob that runs past the end of the input (LLVM 14 gives the record that many zero
    /// operands and reads on from stale cached bits; LLVM 15 and later: "Blob ends too soon").
    BlobPastTheEnd,
    /// A record of a BLOCKINFO block through an abbreviation: LLVM reads BLOCKINFO with
    /// the abbreviations it inherited, but the analyzer dumps it in a second pass with
    /// others (what it declares for block 0, then its own definitions), so the dump can
    /// show other records, or stop where LLVM's reader does not.
    BlockinfoDumpedWithOtherAbbrevs,
    /// A block 15 record 35 with a blob outside LLVM IR, which the analyzer splits as LLVM
    /// IR's metadata strings (and refuses when they do not split).
    MetadataStringsOutsideIr,
    /// A fixed field or abbreviation id wider than 32 bits, which LLVM 14 reads and LLVM 15
    /// and later refuse.
    WiderThan32Bits,
}

/// Compares the two sides on one stream: the verdict, or what differs.
fn judge(bytes: &[u8], answer: &Answer) -> Result<Verdict, String> {
    let ours = ProjectTrace::of(bytes);
    let blockinfo_reread = ours.has_abbreviated_blockinfo_record();
    let strings_outside_ir = ours.has_metadata_strings_outside_ir(bytes);
    match (answer, ours.error) {
        (Answer::Crashed(_), _) => Ok(Verdict::AnalyzerCrashed),
        (Answer::Rejected(_), Some(_)) => Ok(Verdict::BothRejected),
        (Answer::Rejected(_), None) if strings_outside_ir => Ok(Verdict::MetadataStringsOutsideIr),
        (Answer::Rejected(why), None) if WIDER_THAN_32_BITS.iter().any(|m| why.contains(m)) => {
            Ok(Verdict::WiderThan32Bits)
        }
        _ if blockinfo_reread => match answer {
            Answer::Trace(theirs) if first_difference(theirs, &ours.entries).is_none() => {
                Ok(Verdict::BothRead)
            }
            _ => Ok(Verdict::BlockinfoDumpedWithOtherAbbrevs),
        },
        (Answer::Rejected(why), None) => {
            Err(format!("llvm-bcanalyzer stops ({why}), the project reads {} entries", ours.entries.len()))
        }
        (Answer::Trace(theirs), None) => match first_difference(theirs, &ours.entries) {
            None => Ok(Verdict::BothRead),
            Some(difference) => Err(difference),
        },
        (Answer::Trace(theirs), Some(e)) => match e.kind() {
            ErrorKind::TooDeep { .. } => Ok(Verdict::DeeperThanTheLimit),
            ErrorKind::UnusableAbbrev { problem: AbbrevProblem::VbrChunkTooWide(_), .. } => {
                Ok(Verdict::WideVbrChunks)
            }
            ErrorKind::VbrOverflow { .. } => Ok(Verdict::UnterminatedVbr),
            ErrorKind::CountTooLarge { what: "blob bytes", .. } => Ok(Verdict::BlobPastTheEnd),
            _ => Err(format!("llvm-bcanalyzer reads {} entries, the project stops: {e}", theirs.len())),
        },
    }
}

/// Tallies verdicts; keeps the streams that disagree.
#[derive(Default)]
struct Tally {
    counts: std::collections::BTreeMap<Verdict, usize>,
    /// Why the analyzer did not answer, with how often.
    crashes: std::collections::BTreeMap<String, usize>,
    failures: Vec<String>,
}

impl Tally {
    /// Judges `bytes` (named `name`) against `answer`; a disagreement keeps the stream in
    /// the failures directory.
    fn add(&mut self, name: &str, bytes: &[u8], answer: &Answer) {
        if let Answer::Crashed(why) = answer {
            *self.crashes.entry(why.chars().take(90).collect()).or_default() += 1;
        }
        match judge(bytes, answer) {
            Ok(verdict) => *self.counts.entry(verdict).or_default() += 1,
            Err(difference) => {
                let kept = failures_dir().join(format!("{}.bc", name.trim_end_matches(".bc")));
                std::fs::write(&kept, bytes).expect("keeping a failing stream");
                self.failures.push(format!("{name} (kept as {}): {difference}", kept.display()));
            }
        }
    }

    fn count(&self, verdict: Verdict) -> usize {
        self.counts.get(&verdict).copied().unwrap_or(0)
    }

    fn total(&self) -> usize {
        self.counts.values().sum::<usize>() + self.failures.len()
    }

    fn summary(&self) -> String {
        let parts: Vec<String> = self.counts.iter().map(|(v, n)| format!("{v:?} {n}")).collect();
        let crashes: Vec<String> = self.crashes.iter().map(|(why, n)| format!("{n} × {why}")).collect();
        let crashes =
            if crashes.is_empty() { String::new() } else { format!(" (analyzer: {})", crashes.join("; ")) };
        format!("{} streams: {}{crashes}; {} disagree", self.total(), parts.join(", "), self.failures.len())
    }

    #[track_caller]
    fn assert_agreement(&self, what: &str) {
        eprintln!("{what}: {}", self.summary());
        let shown: Vec<&String> = self.failures.iter().take(20).collect();
        assert!(
            self.failures.is_empty(),
            "{what}: {} of {} disagree with llvm-bcanalyzer:\n{}",
            self.failures.len(),
            self.total(),
            shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
    }
}

/// Writes `streams` into `dir` and asks `analyzer` about them.
fn answers_for(analyzer: &Analyzer, dir: &Path, streams: &[(String, Vec<u8>)]) -> Vec<Answer> {
    let files: Vec<PathBuf> = streams
        .iter()
        .map(|(name, bytes)| {
            let file = dir.join(format!("{name}.bc"));
            std::fs::write(&file, bytes).expect("a scratch file");
            file
        })
        .collect();
    let answers = analyzer.answer(&files);
    for file in files {
        let _ = std::fs::remove_file(file);
    }
    answers
}

/// Generated streams `0..count` of `seed` against `tool`: every one must be read by the
/// analyzer (they are valid) and traced the same by the project.
fn generated_streams_agree(tool: &str, shape: Shape, count: usize, seed: u64) -> Option<Tally> {
    let shared = require_shared(TEST)?;
    require_tool(TEST, tool)?;
    let analyzer = Analyzer::new(&shared, tool);
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let mut tally = Tally::default();
    let mut refused = Vec::new();
    let mut seen: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for start in (0..count).step_by(CHUNK) {
        let indices: Vec<usize> = (start..(start + CHUNK).min(count)).collect();
        let streams: Vec<(String, Vec<u8>)> = indices
            .iter()
            .map(|&i| {
                (format!("{tool}-w{}-seed{seed}-{i}", shape.max_fixed_width), generated(seed, i, shape))
            })
            .collect();
        let answers = answers_for(&analyzer, scratch.path(), &streams);
        for ((name, bytes), answer) in streams.iter().zip(&answers) {
            for feature in ProjectTrace::of(bytes).features(bytes) {
                *seen.entry(feature).or_default() += 1;
            }
            match answer {
                Answer::Trace(_) => tally.add(name, bytes, answer),
                // A generated stream is valid: the analyzer refusing it is the generator's bug.
                other => {
                    let kept = failures_dir().join(format!("{name}.bc"));
                    std::fs::write(&kept, bytes).expect("keeping a refused stream");
                    refused.push(format!("{name} (kept as {}): {other:?}", kept.display()));
                }
            }
        }
    }
    assert!(
        refused.is_empty(),
        "{tool} refuses {} generated streams:\n{}",
        refused.len(),
        refused.join("\n")
    );
    // The streams hold what the generator means them to hold.
    eprintln!("{tool}: streams with {seen:?}");
    if count >= STREAMS_PER_NEWER_ANALYZER {
        let missing: Vec<&&str> = FEATURES.iter().filter(|f| !seen.contains_key(**f)).collect();
        assert!(missing.is_empty(), "no generated stream has {missing:?}");
    }
    Some(tally)
}

pub fn generated_streams_trace_as_llvm_bcanalyzer() {
    let (count, seed) = run_size();
    let shape = Shape { max_fixed_width: 64, max_depth: max_depth() };
    if let Some(tally) = generated_streams_agree("llvm-bcanalyzer", shape, count, seed) {
        tally.assert_agreement("generated streams, llvm-bcanalyzer");
        assert_eq!(tally.count(Verdict::BothRead), count);
    }
}

pub fn generated_streams_of_32_bit_fields_trace_as_newer_analyzers() {
    let (_, seed) = run_size();
    let shape = Shape { max_fixed_width: 32, max_depth: max_depth() };
    for tool in NEWER_ANALYZERS {
        let count = STREAMS_PER_NEWER_ANALYZER;
        if let Some(tally) = generated_streams_agree(tool, shape, count, seed.wrapping_add(1)) {
            tally.assert_agreement(&format!("generated streams, {tool}"));
            assert_eq!(tally.count(Verdict::BothRead), count);
        }
    }
}

/// The bitstream files of both corpora small enough for the mutant run.
fn small_corpus_files(shared: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in corpus_dirs(shared) {
        for file in bitstream_files(&dir) {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let small = std::fs::metadata(&file).is_ok_and(|m| m.len() <= MAX_CORPUS_FILE_BYTES);
            if small && !name.ends_with(".o") {
                files.push((name, std::fs::read(&file).expect("a corpus file")));
            }
        }
    }
    files
}

/// `count` mutants of generated streams and `count` of corpus files against `tool`: where it
/// stops the project must refuse the mutant, where it reads to the end the traces must agree.
fn mutants_agree(tool: &str, count: usize, seed: u64) {
    let Some(shared) = require_shared(TEST) else { return };
    if require_tool(TEST, tool).is_none() {
        return;
    }
    let analyzer = Analyzer::new(&shared, tool);
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let corpus = small_corpus_files(&shared);
    assert!(corpus.len() > 300, "expected the corpora, found {} small files", corpus.len());
    let shape = Shape { max_fixed_width: 64, max_depth: max_depth() };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x6d75_7461_6e74);
    let (mut of_generated, mut of_corpus) = (Tally::default(), Tally::default());
    for start in (0..count).step_by(CHUNK) {
        let n = (start + CHUNK).min(count) - start;
        // Half of the mutants from generated streams, half from corpus files.
        let mut mutants = Vec::with_capacity(2 * n);
        for i in start..start + n {
            let original = generated(seed.wrapping_add(2), i, shape);
            if original.len() >= 8 {
                let mutation = Mutation::random(&mut rng, original.len());
                mutants.push((
                    format!("{tool}-mutant-seed{seed}-{i}"),
                    mutation.apply(&original),
                    mutation,
                    true,
                ));
            }
            let (name, bytes) = &corpus[rng.random_range(0..corpus.len())];
            let mutation = Mutation::random(&mut rng, bytes.len());
            mutants.push((
                format!("{tool}-mutant-seed{seed}-{i}-{name}"),
                mutation.apply(bytes),
                mutation,
                false,
            ));
        }
        let streams: Vec<(String, Vec<u8>)> =
            mutants.iter().map(|(n, b, _, _)| (n.clone(), b.clone())).collect();
        let answers = answers_for(&analyzer, scratch.path(), &streams);
        for ((name, bytes, mutation, from_generated), answer) in mutants.iter().zip(&answers) {
            let tally = if *from_generated { &mut of_generated } else { &mut of_corpus };
            let before = tally.failures.len();
            tally.add(name, bytes, answer);
            if tally.failures.len() > before {
                if let Some(last) = tally.failures.last_mut() {
                    last.push_str(&format!(" [{mutation}]"));
                }
            }
        }
    }
    of_generated.assert_agreement(&format!("mutants of generated streams, {tool}"));
    of_corpus.assert_agreement(&format!("mutants of corpus files, {tool}"));
    // The mutants must exercise both outcomes.
    for tally in [&of_generated, &of_corpus] {
        assert!(tally.count(Verdict::BothRejected) > tally.total() / 10, "{}", tally.summary());
        assert!(tally.count(Verdict::BothRead) > tally.total() / 10, "{}", tally.summary());
    }
}

pub fn mutants_are_rejected_where_llvm_bcanalyzer_stops_and_read_alike_elsewhere() {
    mutants_agree("llvm-bcanalyzer", mutant_count(), run_size().1);
}

pub fn mutants_agree_with_the_newest_analyzer() {
    let newest = NEWER_ANALYZERS[NEWER_ANALYZERS.len() - 1];
    mutants_agree(newest, mutant_count() / 4, run_size().1.wrapping_add(3));
}

/// The regression cases (`cases.rs`) get their verdicts from every analyzer installed.
pub fn regression_cases_get_their_verdicts() {
    let Some(shared) = require_shared(TEST) else { return };
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let cases = cases::all();
    let streams: Vec<(String, Vec<u8>)> =
        cases.iter().map(|c| (c.name.to_string(), c.bytes.clone())).collect();
    if std::env::var_os("BITCODE_DIFFERENTIAL_WRITE_CASES").is_some() {
        // To look at the cases with LLVM's tools: they are written where failures go.
        for (name, bytes) in &streams {
            std::fs::write(failures_dir().join(format!("{name}.bc")), bytes).expect("writing a case");
        }
    }
    let mut checked = 0;
    for tool in std::iter::once(&"llvm-bcanalyzer").chain(NEWER_ANALYZERS) {
        if require_tool(TEST, tool).is_none() {
            continue;
        }
        let answers = answers_for(&Analyzer::new(&shared, tool), scratch.path(), &streams);
        for (case, answer) in cases.iter().zip(&answers) {
            let expected = if *tool == "llvm-bcanalyzer" { case.llvm_14 } else { case.llvm_15 };
            let verdict = judge(&case.bytes, answer);
            assert_eq!(verdict, Ok(expected), "{}: {tool} answers {answer:?}", case.name);
            checked += 1;
        }
    }
    eprintln!("regression cases: {checked} verdicts");
}
