//! Hostile inputs: every bitstream file of the corpora under ../shared (corpus and
//! corpus-old, native objects embedding bitcode included), truncated at hundreds of points
//! and with a thousand single bits flipped, goes through the whole pipeline —
//! `Input::parse`, then every stream walked with `Cursor::next_entry` to its end or its
//! first error.
//!
//! It shows that malformed input never panics (overflow checks and debug assertions stay on
//! in the test profile), never makes the walk run on (at most one entry per bit of input),
//! never allocates from a claimed length beyond what the input could hold (a counting global
//! allocator records the largest single request of each decode), and that every error gives
//! a bit offset within the input and says "at bit N".

use crate::common;

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;

use common::*;

/// Single bits flipped per file (the minimum).
const FLIPS: usize = 1000;
/// Truncation points spread evenly over each file, besides its first and last 64 bytes.
const SPREAD: usize = 200;
/// Bytes at each end of a file where every truncation length is tried.
const EDGE: usize = 64;
/// Failures reported in full per file (the rest are counted).
const FAILURES_SHOWN: usize = 5;

thread_local! {
    /// The largest single allocation or reallocation this thread asked for since the last
    /// reset.
    static LARGEST_ALLOCATION: Cell<usize> = const { Cell::new(0) };
    /// True while this thread decodes a mutant (its panics are caught and reported).
    static IN_MUTANT: Cell<bool> = const { Cell::new(false) };
    /// The message and location of the last panic caught in a mutant.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Called by the test binary's allocator (main.rs) on every request.
pub(crate) fn note_allocation(size: usize) {
    // `try_with`: the slot is gone while the thread shuts down; those requests do not count.
    let _ = LARGEST_ALLOCATION.try_with(|largest| {
        if size > largest.get() {
            largest.set(size);
        }
    });
}

/// A seed from the file name (FNV-1a), so each file gets the same flips in any order.
fn seed_for(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

/// Decodes `bytes` as a user would: the input's streams, each walked to its end. Gives the
/// first error, or a message when the walk returns more entries than the input has bits.
fn decode(bytes: &[u8]) -> Result<Option<bitcode_schema::Error>, String> {
    let bound = bytes.len() as u64 * 8 + 1;
    let input = match bitcode_schema::Input::parse(bytes) {
        Ok(input) => input,
        Err(e) => return Ok(Some(e)),
    };
    let streams = match input.streams() {
        Ok(streams) => streams,
        Err(e) => return Ok(Some(e)),
    };
    for stream in &streams {
        let mut cursor = stream.cursor();
        let mut entries = 0u64;
        loop {
            match cursor.next_entry() {
                Ok(Some(entry)) => {
                    entries += 1;
                    if entries > bound {
                        return Err(format!(
                            "the walk returned more than {bound} entries (the input's bits + 1) and \
                             goes on; last entry {entry:?}"
                        ));
                    }
                }
                Ok(None) => break,
                Err(e) => return Ok(Some(e)),
            }
        }
    }
    Ok(None)
}

/// How one mutant went: whether it decoded without error, and its largest allocation.
struct Survived {
    ok: bool,
    largest_allocation: usize,
}

/// Decodes one mutant and checks it; a failure says what went wrong.
fn check_mutant(bytes: &[u8]) -> Result<Survived, String> {
    LARGEST_ALLOCATION.set(0);
    IN_MUTANT.set(true);
    let result = panic::catch_unwind(AssertUnwindSafe(|| decode(bytes)));
    IN_MUTANT.set(false);
    let largest_allocation = LARGEST_ALLOCATION.get();
    let error = match result {
        Ok(Ok(error)) => error,
        Ok(Err(hang)) => return Err(hang),
        Err(_) => {
            let message = LAST_PANIC.take().unwrap_or_else(|| "(no message)".into());
            return Err(format!("panicked: {message}"));
        }
    };
    let limit = allocation_limit(bytes.len());
    if largest_allocation > limit {
        return Err(format!(
            "allocated {largest_allocation} bytes at once for a {}-byte input (limit {limit}); {}",
            bytes.len(),
            error.map_or("decoded without error".into(), |e| format!("then: {e}"))
        ));
    }
    if let Some(e) = &error {
        let bits = bytes.len() as u64 * 8;
        let text = e.to_string();
        if e.bit_offset() > bits + 32 {
            return Err(format!("error offset {} is beyond the {bits}-bit input: {text}", e.bit_offset()));
        }
        if !text.contains("at bit") {
            return Err(format!("the message does not say \"at bit\": {text}"));
        }
    }
    Ok(Survived { ok: error.is_none(), largest_allocation })
}

/// The largest single allocation a decode of `len` bytes may ask for: 64 bytes per input
/// byte (operands are `u64`, and an array of 1-bit elements holds 8 per byte) and 1 MiB.
fn allocation_limit(len: usize) -> usize {
    64 * len + (1 << 20)
}

/// The truncation lengths for an `n`-byte file: every length in the first and last 64
/// bytes, and 200 spread evenly between (all distinct once `n` exceeds 200).
fn truncation_lengths(n: usize) -> BTreeSet<usize> {
    let mut lengths: BTreeSet<usize> = (0..n.min(EDGE)).chain(n.saturating_sub(EDGE)..n).collect();
    lengths.extend((1..=SPREAD).map(|i| i * n / (SPREAD + 1)));
    lengths
}

/// A share of the work on one file: its truncations, or a run of its bit flips. Large
/// files are split into several jobs so that both cores stay busy to the end.
struct Job {
    file: usize,
    work: Work,
}

enum Work {
    Truncations,
    /// Indices into the file's list of flipped bits.
    Flips(std::ops::Range<usize>),
}

/// The bytes of flip walks one job should take at most (about a second's work).
const JOB_BYTES: usize = 64 << 20;

/// What a job (and then, merged, all jobs on a file) found.
#[derive(Default)]
struct Report {
    truncations: usize,
    flips: usize,
    ok: usize,
    err: usize,
    /// The largest allocation as a fraction of the limit, its size and the mutant's length.
    worst_fraction: f64,
    worst_allocation: usize,
    worst_len: usize,
    failures: Vec<String>,
    failure_count: usize,
    seconds: f64,
}

impl Report {
    fn record(
        &mut self,
        name: &str,
        len: usize,
        result: Result<Survived, String>,
        mutation: impl FnOnce() -> String,
    ) {
        match result {
            Ok(s) => {
                if s.ok {
                    self.ok += 1;
                } else {
                    self.err += 1;
                }
                let fraction = s.largest_allocation as f64 / allocation_limit(len) as f64;
                if fraction > self.worst_fraction {
                    self.worst_fraction = fraction;
                    self.worst_allocation = s.largest_allocation;
                    self.worst_len = len;
                }
            }
            Err(message) => {
                self.failure_count += 1;
                if self.failures.len() < FAILURES_SHOWN {
                    self.failures.push(format!("{name}: {}: {message}", mutation()));
                }
            }
        }
    }

    fn merge(&mut self, other: Report) {
        self.truncations += other.truncations;
        self.flips += other.flips;
        self.ok += other.ok;
        self.err += other.err;
        if other.worst_fraction > self.worst_fraction {
            self.worst_fraction = other.worst_fraction;
            self.worst_allocation = other.worst_allocation;
            self.worst_len = other.worst_len;
        }
        let room = FAILURES_SHOWN.saturating_sub(self.failures.len());
        self.failures.extend(other.failures.into_iter().take(room));
        self.failure_count += other.failure_count;
        self.seconds += other.seconds;
    }
}

/// One corpus file, read once, with the bits its flips will flip.
struct Corpus {
    name: String,
    bytes: Vec<u8>,
    flips: Vec<u64>,
}

/// Runs one job's mutants.
fn run_job(job: &Job, files: &[Corpus]) -> Report {
    let started = Instant::now();
    let file = &files[job.file];
    let n = file.bytes.len();
    let mut report = Report::default();
    match &job.work {
        Work::Truncations => {
            for len in truncation_lengths(n) {
                let result = check_mutant(&file.bytes[..len]);
                report.record(&file.name, len, result, || format!("truncated to {len} of {n} bytes"));
                report.truncations += 1;
            }
        }
        Work::Flips(range) => {
            let mut bytes = file.bytes.clone();
            for &bit in &file.flips[range.clone()] {
                let (byte, mask) = ((bit / 8) as usize, 1u8 << (bit % 8));
                bytes[byte] ^= mask;
                let result = check_mutant(&bytes);
                bytes[byte] ^= mask;
                report.record(&file.name, n, result, || {
                    format!("bit {bit} flipped (byte {byte} ^= {mask:#04x})")
                });
                report.flips += 1;
            }
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    report
}

/// Every corpus file, truncated at >= 200 points (every length in its first and last 64
/// bytes and 200 spread between) and with 1,000 random single-bit flips, decodes to Ok or a
/// clean error: no panic, no endless walk, no allocation beyond 64 bytes per input byte
/// plus 1 MiB, error offsets within the input (+32 bits) and messages that say "at bit".
pub fn every_corpus_file_survives_truncations_and_bit_flips() {
    const TEST: &str = "hostile";
    let Some(shared) = require_shared(TEST) else { return };
    let files: Vec<PathBuf> = corpus_dirs(&shared).iter().flat_map(|d| bitstream_files(d)).collect();
    assert!(files.len() > 400, "expected the whole corpus, found {} files", files.len());

    let files: Vec<Corpus> = files
        .iter()
        .map(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!bytes.is_empty(), "{name} is empty");
            let mut rng = SplitMix64(seed_for(&name));
            let bits = bytes.len() as u64 * 8;
            let flips = (0..FLIPS).map(|_| rng.next() % bits).collect();
            Corpus { name, bytes, flips }
        })
        .collect();
    let mut jobs = Vec::new();
    for (file, corpus) in files.iter().enumerate() {
        jobs.push(Job { file, work: Work::Truncations });
        let per_job = (JOB_BYTES / corpus.bytes.len()).clamp(1, FLIPS);
        for start in (0..FLIPS).step_by(per_job) {
            jobs.push(Job { file, work: Work::Flips(start..(start + per_job).min(FLIPS)) });
        }
    }
    // Longest first, so that the last jobs to finish are short ones.
    let cost = |job: &Job| match &job.work {
        Work::Truncations => files[job.file].bytes.len(),
        Work::Flips(range) => range.len() * files[job.file].bytes.len(),
    };
    jobs.sort_by_key(|job| std::cmp::Reverse(cost(job)));

    // Panics inside a mutant are caught and reported with the file and the mutation; keep
    // their message, and let every other panic through to the default hook.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if IN_MUTANT.try_with(Cell::get).unwrap_or(false) {
            let _ = LAST_PANIC.try_with(|p| *p.borrow_mut() = Some(info.to_string()));
        } else {
            default_hook(info);
        }
    }));
    let started = Instant::now();
    let job_reports = parallel_map(&jobs, |job| run_job(job, &files));
    let seconds = started.elapsed().as_secs_f64();
    drop(panic::take_hook()); // back to the default hook

    let mut reports: Vec<Report> = files.iter().map(|_| Report::default()).collect();
    for (job, report) in jobs.iter().zip(job_reports) {
        reports[job.file].merge(report);
    }
    let mut failures = Vec::new();
    let mut total = Report::default();
    let mut originals_rejected = Vec::new();
    for (corpus, r) in files.iter().zip(&reports) {
        assert!(r.truncations >= 200, "{}: only {} truncations", corpus.name, r.truncations);
        assert_eq!(r.flips, FLIPS, "{}", corpus.name);
        if !matches!(check_mutant(&corpus.bytes), Ok(Survived { ok: true, .. })) {
            originals_rejected.push(corpus.name.as_str());
        }
        failures.extend(r.failures.iter().cloned());
    }
    let mut slowest: Vec<(&Corpus, &Report)> = files.iter().zip(&reports).collect();
    slowest.sort_by(|a, b| b.1.seconds.total_cmp(&a.1.seconds));
    for (corpus, r) in slowest.iter().take(5) {
        eprintln!("  {:>7.1}s of work  {} ({} bytes)", r.seconds, corpus.name, corpus.bytes.len());
    }
    let mut worst_file = "";
    for (corpus, r) in files.iter().zip(reports.iter_mut()) {
        if r.worst_fraction > total.worst_fraction {
            worst_file = &corpus.name;
        }
        total.merge(std::mem::take(r));
    }
    eprintln!(
        "hostile: {} files, {} mutants ({} truncations, {} bit flips): {} Ok, {} Err, {} failures; \
         largest allocation {} bytes for a {}-byte mutant of {worst_file} ({:.2}x its length, {:.1}% of the \
         limit); originals rejected: {originals_rejected:?}; {} jobs in {seconds:.1}s",
        files.len(),
        total.truncations + total.flips,
        total.truncations,
        total.flips,
        total.ok,
        total.err,
        total.failure_count,
        total.worst_allocation,
        total.worst_len,
        total.worst_allocation as f64 / total.worst_len.max(1) as f64,
        total.worst_fraction * 100.0,
        jobs.len(),
    );
    assert!(
        total.failure_count == 0,
        "{} mutants failed (at most {FAILURES_SHOWN} shown per file):\n{}",
        total.failure_count,
        failures.join("\n")
    );
}
