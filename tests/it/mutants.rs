//! Over 10,000 mutants of the LLVM IR bitcode of both corpora under ../shared — single bits
//! flipped, truncations, and spliced blocks — go through the full typed decode (what
//! `bcdump --check` and `bcdump --symbols` run) and the raw walk: the bodies of the fuzz
//! targets `llvm_module` and `raw_walk` (fuzz/bodies.rs), with their invariants (no panic,
//! errors "at bit N" within the input, the typed decode failing exactly where the raw walk
//! fails, parallel and sequential checks alike, skipping and walking alike).
//!
//! A spliced mutant takes one block of a file (its length word and body, which start and
//! end on 32-bit boundaries) and either swaps it for a block of another file (mostly one
//! with the same block id: a function body of another module, say) or inserts it, behind a
//! block header of its own, right after the end of a block; the length words of the
//! enclosing blocks are corrected, so that the damage is in what the blocks mean rather
//! than in their lengths.
//!
//! The mutants are decoded in child processes (this test binary again, one per core) under
//! `prlimit --as` (a hard memory limit), with a watchdog thread that ends the child when one
//! mutant takes longer than [`MUTANT_SECONDS`]; a global allocator counts live bytes, and
//! the peak of each mutant's decode must stay within [`live_bytes_limit`]. A mutant that
//! kills its child is named with the file and the mutation.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bitcode_schema::runtime::container::WRAPPER_MAGIC;
use bitcode_schema::runtime::writer::BitWriter;
use bitcode_schema::{Bitstream, Entry, Magic};
use common::*;

#[path = "../../fuzz/bodies.rs"]
#[allow(dead_code)] // the diagnostics and writer bodies are not used here
#[allow(clippy::duplicate_mod)] // fuzz_smoke loads it too, each with its own `schemas`
mod bodies;

/// The schemas the fuzz bodies' diagnostics and remarks body needs (unused here).
mod schemas {
    /// clang serialized diagnostics (`DIAG`).
    pub use bitcode_schema::diagnostics::schema as diagnostics;
    /// LLVM bitstream remarks (`RMRK`).
    pub use bitcode_schema::remarks::schema as remarks;
}

const TEST: &str = "mutants";

/// Files larger than this are left out (the hostile test walks them raw).
const MAX_FILE_BYTES: u64 = 256 << 10;
/// Single-bit flips per file.
const FLIPS: usize = 20;
/// Truncations per file (half at block boundaries).
const TRUNCATIONS: usize = 8;
/// Spliced blocks per file (half swapped, half inserted).
const SPLICES: usize = 24;
/// Child processes (one per core of the CI machine).
const SHARDS: usize = 2;
/// A mutant whose decode takes longer than this is a hang.
const MUTANT_SECONDS: u64 = 10;
/// A child that takes longer than this in all is killed.
const CHILD_SECONDS: u64 = 600;
/// The address space each child may use (`prlimit --as`), in bytes.
const ADDRESS_SPACE: u64 = 2 << 30;
/// Set in a child's environment to the shard it decodes.
const CHILD_ENV: &str = "BITCODE_MUTANTS_SHARD";
/// The test that is the child's entry point.
const CHILD_TEST: &str = "mutants::mutant_shard_in_child_process";

/// Bytes allocated and not yet freed, by any thread.
static LIVE: AtomicU64 = AtomicU64::new(0);
/// The most bytes live at once since the last reset.
static PEAK: AtomicU64 = AtomicU64::new(0);

/// The live bytes and their peak, counted by the test binary's allocator (main.rs).
pub(crate) struct CountingAllocator;

impl CountingAllocator {
    pub(crate) fn grew(size: usize) {
        let live = LIVE.fetch_add(size as u64, Ordering::Relaxed) + size as u64;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }

    pub(crate) fn shrank(size: usize) {
        LIVE.fetch_sub(size as u64, Ordering::Relaxed);
    }
}

/// The most bytes a decode of a `len`-byte mutant may hold live at once: 64 per input
/// byte (operands are `u64`; an array of 1-bit elements holds 8 per byte) and 64 MiB for
/// the rest (thread pools, tables of fixed size).
fn live_bytes_limit(len: usize) -> u64 {
    64 * len as u64 + (64 << 20)
}

/// A block of a file, as the cursor found it: where its length word and its end are (both
/// on 32-bit boundaries), and what encloses it.
#[derive(Clone, Debug)]
struct BlockSpan {
    id: u32,
    abbrev_width: u32,
    /// Bit offset of the block's length word; its body follows.
    length_word_bit: u64,
    /// Bit offset just past its END_BLOCK and padding.
    end_bit: u64,
    /// The abbreviation id width of the block that holds it (2 at the top level).
    parent_width: u32,
    /// Bit offsets of the length words of the enclosing blocks.
    ancestors: Vec<u64>,
}

impl BlockSpan {
    /// The block's length word and body, in bytes of the file.
    fn bytes(&self) -> std::ops::Range<usize> {
        (self.length_word_bit / 8) as usize..(self.end_bit / 8) as usize
    }
}

/// The blocks of an LLVM IR stream (plain or behind a wrapper header; none for other
/// files), in file order, up to the first error. Bit offsets count from the file's start.
fn block_spans(bytes: &[u8]) -> Vec<BlockSpan> {
    let Ok(stream) = Bitstream::new(bytes) else { return Vec::new() };
    if stream.magic() != Magic::LlvmIr {
        return Vec::new();
    }
    let mut cursor = stream.cursor();
    let mut open: Vec<(u64, u32)> = Vec::new();
    let mut spans = Vec::new();
    while let Ok(Some(entry)) = cursor.next_entry() {
        match entry {
            Entry::Block(header) => {
                let length_word_bit = cursor.position() - 32;
                spans.push(BlockSpan {
                    id: header.id,
                    abbrev_width: header.abbrev_width,
                    length_word_bit,
                    end_bit: cursor.position() + u64::from(header.words) * 32,
                    parent_width: open.last().map_or(2, |&(_, width)| width),
                    ancestors: open.iter().map(|&(at, _)| at).collect(),
                });
                open.push((length_word_bit, header.abbrev_width));
            }
            Entry::EndBlock(_) => {
                open.pop();
            }
            Entry::Record(_) => {}
        }
    }
    spans
}

/// One corpus file with its blocks.
struct CorpusFile {
    name: String,
    bytes: Vec<u8>,
    spans: Vec<BlockSpan>,
}

/// How a mutant differs from its file.
#[derive(Clone, Debug)]
enum Mutation {
    /// One bit flipped.
    Flip { bit: u64 },
    /// The first `len` bytes kept.
    Truncate { len: usize },
    /// Block `block` replaced by block `donor_block` of file `donor`.
    Swap { block: usize, donor: usize, donor_block: usize },
    /// Block `donor_block` of file `donor` inserted after block `after` as a block `id`.
    Insert { after: usize, donor: usize, donor_block: usize, id: u32 },
}

/// A mutant: a file and a mutation of it.
#[derive(Clone, Debug)]
struct Mutant {
    file: usize,
    mutation: Mutation,
}

impl Mutant {
    /// What the mutant is, in words.
    fn describe(&self, files: &[CorpusFile]) -> String {
        let file = &files[self.file];
        match self.mutation {
            Mutation::Flip { bit } => format!("{}: bit {bit} flipped", file.name),
            Mutation::Truncate { len } => {
                format!("{}: truncated to {len} of {} bytes", file.name, file.bytes.len())
            }
            Mutation::Swap { block, donor, donor_block } => {
                let (ours, theirs) = (&file.spans[block], &files[donor].spans[donor_block]);
                format!(
                    "{}: block {} at bit {} swapped for block {} at bit {} of {}",
                    file.name,
                    ours.id,
                    ours.length_word_bit,
                    theirs.id,
                    theirs.length_word_bit,
                    files[donor].name
                )
            }
            Mutation::Insert { after, donor, donor_block, id } => {
                let (ours, theirs) = (&file.spans[after], &files[donor].spans[donor_block]);
                format!(
                    "{}: block {} at bit {} of {} inserted as block {id} at bit {} (after block {})",
                    file.name, theirs.id, theirs.length_word_bit, files[donor].name, ours.end_bit, ours.id
                )
            }
        }
    }

    /// The mutant's bytes.
    fn bytes(&self, files: &[CorpusFile]) -> Vec<u8> {
        let file = &files[self.file];
        match self.mutation {
            Mutation::Flip { bit } => {
                let mut bytes = file.bytes.clone();
                bytes[(bit / 8) as usize] ^= 1 << (bit % 8);
                bytes
            }
            Mutation::Truncate { len } => file.bytes[..len].to_vec(),
            Mutation::Swap { block, donor, donor_block } => {
                let ours = &file.spans[block];
                let theirs = &files[donor].bytes[files[donor].spans[donor_block].bytes()];
                let range = ours.bytes();
                let delta_words = (theirs.len() as i64 - range.len() as i64) / 4;
                let mut bytes = file.bytes.clone();
                bytes.splice(range, theirs.iter().copied());
                add_to_length_words(&mut bytes, &ours.ancestors, delta_words);
                add_to_wrapper_size(&mut bytes, delta_words * 4);
                bytes
            }
            Mutation::Insert { after, donor, donor_block, id } => {
                let ours = &file.spans[after];
                let theirs = &files[donor].spans[donor_block];
                // ENTER_SUBBLOCK in the enclosing block's width, the id, the donor's width.
                let mut header = BitWriter::new();
                header.write(1, ours.parent_width);
                header.write_vbr(u64::from(id), 8).unwrap();
                header.write_vbr(u64::from(theirs.abbrev_width), 4).unwrap();
                header.align32();
                let mut inserted = header.into_bytes();
                inserted.extend_from_slice(&files[donor].bytes[theirs.bytes()]);
                let at = (ours.end_bit / 8) as usize;
                let mut bytes = file.bytes.clone();
                let words = inserted.len() as i64 / 4;
                bytes.splice(at..at, inserted);
                add_to_length_words(&mut bytes, &ours.ancestors, words);
                add_to_wrapper_size(&mut bytes, words * 4);
                bytes
            }
        }
    }
}

/// Adds `delta` to the little-endian length words at the bit offsets `at` (before the
/// splice point, so unmoved).
fn add_to_length_words(bytes: &mut [u8], at: &[u64], delta: i64) {
    for &bit in at {
        let i = (bit / 8) as usize;
        let word: [u8; 4] = bytes[i..i + 4].try_into().unwrap();
        let words = u32::from_le_bytes(word).wrapping_add_signed(delta as i32);
        bytes[i..i + 4].copy_from_slice(&words.to_le_bytes());
    }
}

/// Adds `delta` to the size field of the bitcode wrapper header, when there is one.
fn add_to_wrapper_size(bytes: &mut [u8], delta: i64) {
    if bytes.get(..4) == Some(&WRAPPER_MAGIC.to_le_bytes()) {
        let size = u32::from_le_bytes(bytes[12..16].try_into().unwrap()).wrapping_add_signed(delta as i32);
        bytes[12..16].copy_from_slice(&size.to_le_bytes());
    }
}

/// The files and every mutant of them, the same in the parent and in each child.
fn corpus_and_mutants(shared: &Path) -> (Vec<CorpusFile>, Vec<Mutant>) {
    let files: Vec<CorpusFile> = corpus_bc_files(shared)
        .into_iter()
        .filter(|p| p.metadata().is_ok_and(|m| m.len() <= MAX_FILE_BYTES && m.len() >= 4))
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            let dir = path.parent().and_then(Path::file_name).unwrap_or_default().to_string_lossy();
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let spans = block_spans(&bytes);
            CorpusFile { name, bytes, spans }
        })
        .collect();
    // Donor blocks by id, for swaps that put a block where one of its kind was.
    let mut by_id: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
    for (f, file) in files.iter().enumerate() {
        for (b, span) in file.spans.iter().enumerate() {
            by_id.entry(span.id).or_default().push((f, b));
        }
    }
    let all: Vec<(usize, usize)> = by_id.values().flatten().copied().collect();
    let mut mutants = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let mut rng = SplitMix64(
            file.name
                .bytes()
                .fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)),
        );
        let n = file.bytes.len();
        for _ in 0..FLIPS {
            mutants.push(Mutant { file: f, mutation: Mutation::Flip { bit: rng.next() % (n as u64 * 8) } });
        }
        for i in 0..TRUNCATIONS {
            let len = match file.spans.len() {
                spans if spans > 0 && i % 2 == 0 => {
                    // At a block's length word or end, give or take a few bytes.
                    let span = &file.spans[rng.below(spans)];
                    let edge = if rng.below(2) == 0 { span.length_word_bit } else { span.end_bit } / 8;
                    (edge as usize + rng.below(9)).saturating_sub(4).min(n - 1)
                }
                _ => rng.below(n),
            };
            mutants.push(Mutant { file: f, mutation: Mutation::Truncate { len } });
        }
        if file.spans.is_empty() {
            continue;
        }
        for i in 0..SPLICES {
            let block = rng.below(file.spans.len());
            let id = file.spans[block].id;
            let same_id = &by_id[&id];
            let (donor, donor_block) = if rng.below(5) > 0 && same_id.len() > 1 {
                same_id[rng.below(same_id.len())]
            } else {
                all[rng.below(all.len())]
            };
            let mutation = if i % 2 == 0 {
                Mutation::Swap { block, donor, donor_block }
            } else {
                let donor_id = files[donor].spans[donor_block].id;
                let id = if rng.below(4) == 0 { rng.below(27) as u32 } else { donor_id };
                Mutation::Insert { after: block, donor, donor_block, id }
            };
            mutants.push(Mutant { file: f, mutation });
        }
    }
    (files, mutants)
}

/// The mutation kinds, in the order the outcome counts are printed.
const KINDS: [&str; 4] = ["flip", "truncate", "swap", "insert"];

impl Mutation {
    /// The index of the kind in [`KINDS`].
    fn kind(&self) -> usize {
        match self {
            Mutation::Flip { .. } => 0,
            Mutation::Truncate { .. } => 1,
            Mutation::Swap { .. } => 2,
            Mutation::Insert { .. } => 3,
        }
    }
}

/// How far a mutant decodes: 0, the stream fails to read (an error with its bit offset);
/// 1, it reads, but some records do not fit their schema types (or are unknown); 2, it
/// reads and every record decodes.
fn outcome(bytes: &[u8]) -> usize {
    let Ok(input) = bitcode_schema::Input::parse(bytes) else { return 0 };
    let Ok(streams) = input.streams() else { return 0 };
    let mut clean = true;
    for stream in &streams {
        match bitcode_schema::llvm::check_stream(stream) {
            Ok(report) => clean &= report.errors + report.unknown == 0,
            Err(_) => return 0,
        }
    }
    1 + usize::from(clean)
}

/// The mutant the child is decoding, plus one (0: none).
static CURRENT: AtomicUsize = AtomicUsize::new(0);
/// When the current mutant started, in milliseconds since the child started.
static STARTED_MS: AtomicU64 = AtomicU64::new(0);

/// The child's side: decodes every mutant of its shard (given in [`CHILD_ENV`]) and prints
/// `begin I` before each, `failure I MESSAGE` for each that fails a check, and a summary
/// line `summary mutants=N seconds=S peak=P`. A no-op in an ordinary test run.
pub fn mutant_shard_in_child_process() {
    let Ok(shard) = std::env::var(CHILD_ENV) else { return };
    let shard: usize = shard.parse().unwrap();
    let shared = shared_dir().expect("the parent found ../shared");
    let (files, mutants) = corpus_and_mutants(&shared);
    let started = Instant::now();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(50));
        let current = CURRENT.load(Ordering::SeqCst);
        let ran = (started.elapsed().as_millis() as u64).saturating_sub(STARTED_MS.load(Ordering::SeqCst));
        if current != 0 && ran > MUTANT_SECONDS * 1000 {
            println!("hang {} {ran}", current - 1);
            std::process::exit(3);
        }
    });
    // Panics are caught and reported with the mutant; keep their message quiet here.
    panic::set_hook(Box::new(|_| {}));
    let (mut count, mut worst_fraction) = (0usize, 0f64);
    let mut outcomes = [[0usize; 3]; KINDS.len()];
    for (i, mutant) in mutants.iter().enumerate().filter(|(i, _)| i % SHARDS == shard) {
        let bytes = mutant.bytes(&files);
        println!("begin {i}");
        let base = LIVE.load(Ordering::SeqCst);
        PEAK.store(base, Ordering::SeqCst);
        STARTED_MS.store(started.elapsed().as_millis() as u64, Ordering::SeqCst);
        CURRENT.store(i + 1, Ordering::SeqCst);
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            bodies::raw_walk(&bytes);
            bodies::llvm_module(&bytes);
        }));
        CURRENT.store(0, Ordering::SeqCst);
        let peak = PEAK.load(Ordering::SeqCst).saturating_sub(base);
        if result.is_ok() {
            outcomes[mutant.mutation.kind()][outcome(&bytes)] += 1;
        }
        count += 1;
        if let Err(payload) = result {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            println!("failure {i} panicked: {}", message.replace('\n', " | "));
        }
        let limit = live_bytes_limit(bytes.len());
        worst_fraction = worst_fraction.max(peak as f64 / limit as f64);
        if peak > limit {
            println!(
                "failure {i} {peak} bytes live at once for a {}-byte mutant (limit {limit})",
                bytes.len()
            );
        }
    }
    for (kind, [failed, unclean, clean]) in KINDS.iter().zip(outcomes) {
        println!("outcome {kind} {failed} {unclean} {clean}");
    }
    println!(
        "summary mutants={count} seconds={:.1} worst_live_fraction={worst_fraction:.3}",
        started.elapsed().as_secs_f64()
    );
}

/// What one child printed, and how it ended.
struct ChildReport {
    failures: Vec<String>,
    /// `KIND FAILED UNCLEAN CLEAN` per mutation kind (see [`outcome`]).
    outcomes: Vec<String>,
    summary: Option<String>,
    last_begun: Option<usize>,
    hang: Option<String>,
    status: String,
    stderr: String,
}

/// Runs the child for `shard` under the memory limit, killing it after [`CHILD_SECONDS`].
fn run_child(shard: usize) -> ChildReport {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new("prlimit")
        .arg(format!("--as={ADDRESS_SPACE}"))
        .arg("--")
        .arg(&exe)
        .args([CHILD_TEST, "--exact", "--nocapture", "--test-threads", "1"])
        .env(CHILD_ENV, shard.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run prlimit: {e}"));
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut text);
        text
    });
    let out_reader = std::thread::spawn(move || {
        let mut report = ChildReport {
            failures: Vec::new(),
            outcomes: Vec::new(),
            summary: None,
            last_begun: None,
            hang: None,
            status: String::new(),
            stderr: String::new(),
        };
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(i) = line.strip_prefix("begin ") {
                report.last_begun = i.parse().ok();
            } else if let Some(rest) = line.strip_prefix("failure ") {
                report.failures.push(rest.to_string());
            } else if let Some(rest) = line.strip_prefix("hang ") {
                report.hang = Some(rest.to_string());
            } else if let Some(rest) = line.strip_prefix("outcome ") {
                report.outcomes.push(rest.to_string());
            } else if line.starts_with("summary ") {
                report.summary = Some(line);
            }
        }
        report
    });
    let deadline = Instant::now() + Duration::from_secs(CHILD_SECONDS);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.to_string();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break format!("killed after {CHILD_SECONDS}s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut report = out_reader.join().unwrap();
    report.status = status;
    report.stderr = err_reader.join().unwrap();
    report
}

/// Every mutant (>= 10,000: bit flips, truncations, swapped and inserted blocks) of the
/// corpora's LLVM IR files up to 256 KiB decodes, typed and raw, to Ok or a clean error:
/// no panic, no mutant over [`MUTANT_SECONDS`], no more live memory than
/// [`live_bytes_limit`], the child within [`ADDRESS_SPACE`] bytes of address space, and
/// every check of the fuzz bodies `raw_walk` and `llvm_module` holding.
pub fn mutants_decode_typed_and_raw_without_panic_hang_or_runaway_memory() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let Some(shared) = require_shared(TEST) else { return };
    if require_tool(TEST, "prlimit").is_none() {
        return;
    }
    let started = Instant::now();
    let (files, mutants) = corpus_and_mutants(&shared);
    assert!(files.len() > 400, "expected both corpora's .bc files, found {}", files.len());
    let kinds = |pick: fn(&Mutation) -> bool| mutants.iter().filter(|m| pick(&m.mutation)).count();
    let flips = kinds(|m| matches!(m, Mutation::Flip { .. }));
    let truncations = kinds(|m| matches!(m, Mutation::Truncate { .. }));
    let swaps = kinds(|m| matches!(m, Mutation::Swap { .. }));
    let inserts = kinds(|m| matches!(m, Mutation::Insert { .. }));
    assert!(mutants.len() >= 10_000, "only {} mutants", mutants.len());
    assert!(swaps + inserts >= 8000, "only {swaps} swapped and {inserts} inserted blocks");

    let reports: Vec<ChildReport> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..SHARDS).map(|shard| s.spawn(move || run_child(shard))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    for (shard, report) in reports.iter().enumerate() {
        for failure in &report.failures {
            let (index, message) = failure.split_once(' ').unwrap_or((failure, ""));
            let what = index.parse::<usize>().ok().and_then(|i| mutants.get(i)).map(|m| m.describe(&files));
            failures.push(format!("{}: {message}", what.unwrap_or_default()));
        }
        if let Some(hang) = &report.hang {
            let (index, ms) = hang.split_once(' ').unwrap_or((hang, "?"));
            let what = index.parse::<usize>().ok().and_then(|i| mutants.get(i)).map(|m| m.describe(&files));
            failures.push(format!("{}: still decoding after {ms} ms", what.unwrap_or_default()));
        } else if report.summary.is_none() {
            let what = report.last_begun.and_then(|i| mutants.get(i)).map(|m| m.describe(&files));
            let tail: Vec<&str> = report.stderr.lines().rev().take(5).collect();
            failures.push(format!(
                "shard {shard} died ({}) while decoding {}: {}",
                report.status,
                what.unwrap_or_else(|| "no mutant yet".into()),
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            ));
        }
    }
    let summaries: Vec<&str> = reports.iter().filter_map(|r| r.summary.as_deref()).collect();
    let mut outcomes: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    for line in reports.iter().flat_map(|r| &r.outcomes) {
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap_or_default().to_string();
        let counts = outcomes.entry(kind).or_default();
        for (total, word) in counts.iter_mut().zip(words) {
            *total += word.parse::<usize>().unwrap_or(0);
        }
    }
    for (kind, [failed, unclean, clean]) in &outcomes {
        eprintln!(
            "  {kind:>8}: {failed} fail to read (a clean error), {unclean} read with records that do not \
             decode, {clean} read and decode"
        );
    }
    eprintln!(
        "mutants: {} files, {} mutants ({flips} bit flips, {truncations} truncations, {swaps} swapped and \
         {inserts} inserted blocks) in {SHARDS} children: {summaries:?}; {} failures; {:.1}s in all",
        files.len(),
        mutants.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{} mutants failed:\n{}", failures.len(), failures.join("\n"));
}

/// The splices themselves are sound: swapping a block for itself, or inserting a copy of a
/// block with its own id after it, gives a stream that still walks without error.
pub fn splicing_a_block_into_its_own_place_keeps_the_stream_whole() {
    let Some(shared) = require_shared(TEST) else { return };
    let path: PathBuf = shared.join("corpus/clang14__atomics__O2.bc");
    let bytes = std::fs::read(&path).unwrap();
    let spans = block_spans(&bytes);
    assert!(spans.len() > 5, "{} blocks", spans.len());
    let files = vec![CorpusFile { name: "atomics".into(), bytes, spans }];
    for block in 0..files[0].spans.len() {
        for mutation in [
            Mutation::Swap { block, donor: 0, donor_block: block },
            Mutation::Insert { after: block, donor: 0, donor_block: block, id: files[0].spans[block].id },
        ] {
            let mutant = Mutant { file: 0, mutation };
            let bytes = mutant.bytes(&files);
            let stream = Bitstream::new(&bytes).unwrap();
            let mut cursor = stream.cursor();
            loop {
                match cursor.next_entry() {
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(e) => panic!("{}: {e}", mutant.describe(&files)),
                }
            }
        }
    }
}
