//! Speed, side by side: for each input file, one criterion group whose benchmarks read the
//! same bytes (loaded once) in the same run, so that ratios between them hold on a shared,
//! noisy machine. `bench/run.sh` runs this, hyperfine and `bench/report.py`; see
//! BENCHMARKS.md.
//!
//! - `raw_walk`: `Input::parse`, every stream's cursor to the end, every record's code,
//!   operands and blob length read;
//! - `llvm_bitcode`: the same with the `llvm-bitcode` crate's streaming reader
//!   (`BitStreamReader::iter_bitcode`, blocks and records read in place, no tree built);
//! - `typed_check`: `bitcode_schema::llvm::check_stream` (every record decoded typed);
//! - `typed_check_parallel`: `bitcode_schema::llvm::check_stream_parallel` (the same, independent
//!   blocks on rayon's pool), on a pool of one thread per core, each thread pinned to its
//!   core. On the project's two-core VMs the scheduler often puts a woken thread on the
//!   core of the thread that woke it and leaves it there for 4-8 ms: two threads that each
//!   spin for 4 ms took 8 ms in 15 of 20 runs, with rayon's pool or `std::thread::scope`
//!   alike. Unpinned, the measurement would mostly tell where the scheduler put the
//!   threads; the paired pass also measures rayon's default pool, as users get it;
//! - `symbols`: `bitcode_schema::llvm::module_symbols` (the module's own records, bodies skipped);
//! - `round_trip`: `bitcode_schema::rewrite::rewrite` on the file in memory, as `bcdump --rewrite`
//!   runs it: every record decoded typed, encoded back by the generated encoder and written
//!   with its abbreviation (checked once, before timing, to give the input back byte for byte);
//! - `encode`: the generated encoders alone (`ir::AnyRecord::encode_into` into one reused
//!   `EncodedRecord`, as the rewrite calls them, with a copy of the context each record was
//!   decoded in) on every record the
//!   rewrite encodes (all but BLOCKINFO's): typed values to code, operands and blob, no bits
//!   written. The records are decoded 256 at a time, untimed, and each chunk then encoded,
//!   timed, so that the values are in the cache as the rewrite's are (it encodes each value
//!   right after decoding it). Compared per record with `typed_check`;
//! - `encode_cold`: the same encoding of every record of the file decoded beforehand into one
//!   array (not a target): it mostly measures reading each `ir::AnyRecord` (as large as
//!   its largest record, a metadata one, about 260 bytes) back from memory.
//!
//! Inputs: `BENCH_FILES=path1:path2` when set; otherwise every `.bc` in
//! `target/bench-inputs/` (`bench/make-inputs.sh`) and the largest files of
//! `../shared/corpus`. Before measuring, every file is read once by each reader and the
//! counts are compared; they are written to `<criterion dir>/speed-records.json` for
//! `bench/report.py`.
//!
//! Before criterion, a paired pass measures the targets' ratios round by round: each round
//! times every measurement once, the raw walk before and after the single-threaded ones
//! (the parallel checks come last), and takes each ratio within the round (against the
//! mean of the two raw walks). A neighbour that wakes up for a few
//! seconds then moves a few rounds, not a whole criterion window: the median of the
//! rounds' ratios is the figure compared with a target. Written to
//! `<criterion dir>/speed-paired.json`; `BENCH_PAIRED_ROUNDS` sets the rounds (21; 0 skips
//! the pass). `encode`, `encode_cold` and `round_trip` come after the second raw walk,
//! so that the raw walk's ratios are measured as before they were added.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bitcode_schema::llvm::{
    check_stream, check_stream_parallel, ir, CheckReport, LlvmContext, Walker, WalkerEvent,
};
use bitcode_schema::rewrite::rewrite;
use bitcode_schema::runtime::encode::EncodedRecord;
use bitcode_schema::{Bitstream, Entry, Input, Magic};
use criterion::{Criterion, SamplingMode, Throughput};
use llvm_bitcode::bitcode::{Payload, RecordIter, Signature};
use llvm_bitcode::read::{BlockItem, BlockIter, Error as LbError};
use llvm_bitcode::BitStreamReader;
use rayon::ThreadPool;
use serde_json::{json, Value};

/// The corpus files benchmarked when `../shared` exists (the largest bitcode files).
const CORPUS_FILES: &[&str] =
    &["clang16__sqlite3__O0_g.bc", "clang14__sqlite3__O2.bc", "rustc195__cargo_regex_automata_release_O3.bc"];

/// What a walk saw: records, the wrapping sum of their codes and operands (array elements
/// and char6 characters included), and the blob bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    records: u64,
    sum: u64,
    blob_bytes: u64,
}

impl Tally {
    #[inline(always)]
    fn add(&mut self, value: u64) {
        self.sum = self.sum.wrapping_add(value);
    }

    /// One record of the project's walk: its code, operands and blob length.
    #[inline(always)]
    fn record(&mut self, r: &bitcode_schema::Record<'_, '_>) {
        self.records += 1;
        self.add(u64::from(r.code));
        for &op in r.ops {
            self.add(op);
        }
        self.blob_bytes += r.blob.map_or(0, |b| b.len() as u64);
    }
}

/// The project's raw walk, as timed.
// One copy, out of line, for the paired pass and criterion alike: inlined into each
// caller, the two copies of the walk were laid out apart and ran up to 6% apart
// (raw/llvm-bitcode 2.38 in the paired rounds against 2.53 from criterion, same run).
#[inline(never)]
fn raw_walk(bytes: &[u8]) -> bitcode_schema::Result<Tally> {
    let mut tally = Tally::default();
    let input = Input::parse(bytes)?;
    for stream in input.streams()? {
        let mut cursor = stream.cursor();
        while let Some(entry) = cursor.next_entry()? {
            if let Entry::Record(r) = entry {
                tally.record(&r);
            }
        }
    }
    Ok(tally)
}

/// The raw walk split into the records of BLOCKINFO blocks and the others (not timed):
/// llvm-bitcode applies BLOCKINFO records without returning them.
fn raw_walk_split(bytes: &[u8]) -> bitcode_schema::Result<(Tally, Tally)> {
    let (mut blockinfo, mut other) = (Tally::default(), Tally::default());
    let input = Input::parse(bytes)?;
    for stream in input.streams()? {
        let mut cursor = stream.cursor();
        loop {
            let block = cursor.current_block();
            let Some(entry) = cursor.next_entry()? else { break };
            if let Entry::Record(r) = entry {
                let tally = if block == Some(0) { &mut blockinfo } else { &mut other };
                tally.record(&r);
            }
        }
    }
    Ok((blockinfo, other))
}

/// The llvm-bitcode crate's streaming walk, as timed: every block entered, every record's
/// code, fields and payload read.
#[inline(never)] // one copy, as for `raw_walk`
fn llvm_bitcode_walk(bytes: &[u8]) -> Result<Tally, LbError> {
    let (_signature, stream) = Signature::parse(bytes).ok_or(LbError::InvalidSignature(0))?;
    let mut reader = BitStreamReader::new();
    let mut tally = Tally::default();
    llvm_bitcode_block(&mut reader.iter_bitcode(stream), &mut tally)?;
    Ok(tally)
}

fn llvm_bitcode_block(block: &mut BlockIter<'_, '_>, tally: &mut Tally) -> Result<(), LbError> {
    while let Some(item) = block.try_next()? {
        match item {
            BlockItem::Block(mut inner) => llvm_bitcode_block(&mut inner, tally)?,
            BlockItem::Record(record) => llvm_bitcode_record(record, tally)?,
        }
    }
    Ok(())
}

#[inline(always)]
fn llvm_bitcode_record(mut record: RecordIter<'_, '_>, tally: &mut Tally) -> Result<(), LbError> {
    tally.records += 1;
    tally.add(record.id);
    while let Some(op) = record.try_next()? {
        tally.add(op);
    }
    // The crate has no way to ask what payload an abbreviation has, short of reading it:
    // `payload()` gives arrays and char6 strings in a Vec and copies a blob.
    match record.payload()? {
        Some(Payload::Array(values)) => values.iter().for_each(|&v| tally.add(v)),
        Some(Payload::Char6String(s)) => s.bytes().for_each(|c| tally.add(u64::from(c))),
        Some(Payload::Blob(blob)) => tally.blob_bytes += blob.len() as u64,
        None => {}
    }
    Ok(())
}

/// The LLVM IR streams of `input`.
fn ir_streams<'i>(input: &'i Input<'_>) -> bitcode_schema::Result<Vec<bitcode_schema::Bitstream<'i>>> {
    Ok(input.streams()?.into_iter().filter(|s| s.magic() == Magic::LlvmIr).collect())
}

/// Every LLVM IR stream of the file checked by `check` (`check_stream` or
/// `check_stream_parallel`).
fn typed_check(
    bytes: &[u8],
    check: fn(&bitcode_schema::Bitstream<'_>) -> bitcode_schema::Result<CheckReport>,
) -> bitcode_schema::Result<CheckReport> {
    let input = Input::parse(bytes)?;
    let mut report = CheckReport::default();
    for stream in ir_streams(&input)? {
        report.add(check(&stream)?);
    }
    Ok(report)
}

/// How many global values the module summaries hold.
fn symbols(bytes: &[u8]) -> bitcode_schema::Result<usize> {
    let input = Input::parse(bytes)?;
    let mut count = 0;
    for stream in ir_streams(&input)? {
        count += bitcode_schema::llvm::module_symbols(&stream)?.iter().map(Vec::len).sum::<usize>();
    }
    Ok(count)
}

/// One record decoded typed, kept for the `encode` measurement.
struct Decoded<'a> {
    /// Its typed value.
    value: ir::AnyRecord<'a>,
    /// A copy of the context it was decoded in: what an encoder asks (version, value
    /// number, whether ids are relative, the called function's fixed parameters).
    ctx: LlvmContext,
    /// Its operand count as read: the rewrite asks the encoder for at least that many.
    min_operands: usize,
}

/// What decoding every record of a file for the `encode` measurement gave (untimed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct EncodeCheck {
    /// Records decoded typed (BLOCKINFO's and those no schema types left out, as the
    /// rewrite writes them raw): the records `encode` encodes.
    records: u64,
    /// Of those, the records whose encoding gives back the code, operands and blob read.
    gives_back: u64,
}

/// `record` of `block` decoded typed, with a copy of its context; `None` for a record of
/// BLOCKINFO or one no schema types (the rewrite writes those raw, without encoding them).
fn decode_one<'a>(
    block: u32,
    record: &bitcode_schema::Record<'_, 'a>,
    ctx: &mut LlvmContext,
) -> bitcode_schema::Result<Option<Decoded<'a>>> {
    if block == BLOCKINFO {
        return Ok(None);
    }
    let value = ir::decode_record(block, record, ctx)?;
    if value.is_unknown() {
        return Ok(None);
    }
    let ctx = LlvmContext::new()
        .with_version(ctx.version)
        .with_value_number(ctx.value_number)
        .with_absolute_ids(ctx.absolute_ids)
        .with_call_params(ctx.call_params);
    Ok(Some(Decoded { value, ctx, min_operands: record.ops.len() }))
}

/// Every record of the LLVM IR streams `streams` that [`decode_one`] decodes, given to
/// `each` with the record it was decoded from.
fn for_each_decoded<'a>(
    streams: &[Bitstream<'a>],
    mut each: impl FnMut(Decoded<'a>, &bitcode_schema::Record<'_, 'a>) -> bitcode_schema::Result<()>,
) -> bitcode_schema::Result<()> {
    for stream in streams {
        let mut walker = Walker::new(stream);
        while let Some(event) = walker.next_event()? {
            let WalkerEvent::Record { block, record, ctx } = event else { continue };
            if let Some(decoded) = decode_one(block, &record, ctx)? {
                each(decoded, &record)?;
            }
        }
    }
    Ok(())
}

/// The records `encode` encodes in `streams`, and how many of them encode back to what
/// was read (untimed; see [`EncodeCheck`]).
fn encode_check(streams: &[Bitstream<'_>]) -> bitcode_schema::Result<EncodeCheck> {
    let mut check = EncodeCheck::default();
    for_each_decoded(streams, |d, record| {
        let encoded = d.value.encode_with_len(&d.ctx, d.min_operands)?;
        check.records += 1;
        check.gives_back += u64::from(encoded.gives_back(record));
        Ok(())
    })?;
    Ok(check)
}

/// The BLOCKINFO block's id.
const BLOCKINFO: u32 = bitcode_schema::runtime::cursor::BLOCKINFO_BLOCK_ID;

/// Every record `encode` encodes in `streams`, decoded into one array for `encode_cold`
/// (untimed); `None` when `p`'s decoding failed before, or fails now (said on standard
/// error).
fn decoded_for<'a>(p: &Prepared, streams: &[Bitstream<'a>]) -> Option<Vec<Decoded<'a>>> {
    p.encode.as_ref().ok()?;
    let mut decoded = Vec::new();
    match for_each_decoded(streams, |d, _| {
        decoded.push(d);
        Ok(())
    }) {
        Ok(()) => Some(decoded),
        Err(e) => {
            eprintln!("speed: {}: decoding for encode fails ({e}); encode is skipped", p.path.display());
            None
        }
    }
}

/// What `encode` and `encode_cold` time: each of `decoded` encoded back to its code,
/// operands and blob by the generated encoder, as the rewrite encodes it, and dropped;
/// counts the records and their operands.
#[inline(never)] // one copy, as for `raw_walk`
fn encode_all(decoded: &[Decoded<'_>]) -> bitcode_schema::Result<Tally> {
    let mut tally = Tally::default();
    // As the rewrite does, every record is encoded into one `EncodedRecord`.
    let mut encoded = EncodedRecord::new(0, Vec::new());
    for d in decoded {
        d.value.encode_into(&d.ctx, d.min_operands, &mut encoded)?;
        tally.records += 1;
        tally.add(encoded.ops.len() as u64);
        black_box(&encoded);
    }
    Ok(tally)
}

/// How many records `encode` decodes before it encodes them: few enough that their values
/// (`ir::AnyRecord` being as large as its largest record, about 260 bytes) are
/// still in the core's cache when encoded, as the rewrite's value is, on its stack, right
/// after it was decoded; enough that the clock read twice a chunk (tens of nanoseconds)
/// is a fraction of a nanosecond a record.
const ENCODE_CHUNK: usize = 256;

/// The `encode` measurement: every record of `streams` that the rewrite encodes, decoded
/// typed a chunk of [`ENCODE_CHUNK`] at a time (untimed), then the chunk encoded (timed,
/// [`encode_all`]). Gives the time encoding took, decoding left out, and the tally.
fn encode_chunked(streams: &[Bitstream<'_>]) -> bitcode_schema::Result<(Duration, Tally)> {
    let (mut took, mut tally) = (Duration::ZERO, Tally::default());
    let mut chunk = Vec::with_capacity(ENCODE_CHUNK);
    let mut encode = |chunk: &mut Vec<Decoded<'_>>| -> bitcode_schema::Result<()> {
        let start = Instant::now();
        let t = encode_all(black_box(chunk))?;
        took += start.elapsed();
        tally.records += t.records;
        tally.add(t.sum);
        chunk.clear();
        Ok(())
    };
    for_each_decoded(streams, |d, _| {
        chunk.push(d);
        if chunk.len() == ENCODE_CHUNK {
            encode(&mut chunk)?;
        }
        Ok(())
    })?;
    encode(&mut chunk)?;
    Ok((took, tally))
}

/// What the rewrite of a file gave (untimed): whether it is the input byte for byte, and
/// its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RoundTripCheck {
    /// The output is the input, byte for byte.
    identical: bool,
    /// The rewrite's counts (`RewriteStats::summary`).
    summary: String,
    /// Records written, typed, and raw.
    records: u64,
    typed: u64,
    raw: u64,
}

/// The `round_trip` measurement, as timed: the rewrite of the file in memory.
#[inline(never)] // one copy, as for `raw_walk`
fn round_trip(bytes: &[u8]) -> bitcode_schema::Result<usize> {
    Ok(rewrite(bytes)?.bytes.len())
}

/// The repository root, above this package (benches run there, but do not rely on it).
fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Where criterion writes its results; the record counts go beside them.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    target.join("criterion")
}

fn input_files() -> Vec<PathBuf> {
    if let Some(list) = std::env::var_os("BENCH_FILES") {
        return std::env::split_paths(&list).filter(|p| !p.as_os_str().is_empty()).collect();
    }
    let mut files = Vec::new();
    if let Ok(dir) = std::fs::read_dir(root().join("target/bench-inputs")) {
        let mut generated: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "bc"))
            .collect();
        generated.sort();
        files.extend(generated);
    }
    let corpus = root().join("../shared/corpus");
    files.extend(CORPUS_FILES.iter().map(|f| corpus.join(f)).filter(|p| p.is_file()));
    files
}

/// A criterion group name for `path`: its file stem, in characters criterion keeps.
fn group_name(path: &Path) -> String {
    let stem = path.file_stem().map_or_else(|| "input".into(), |s| s.to_string_lossy().into_owned());
    stem.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect()
}

/// One input, loaded, with what every reader saw of it (read once, untimed).
struct Prepared {
    group: String,
    path: PathBuf,
    bytes: Vec<u8>,
    /// The raw walk: every record (BLOCKINFO's included).
    raw: Tally,
    /// The raw walk's records outside BLOCKINFO blocks: what llvm-bitcode returns.
    raw_outside_blockinfo: Tally,
    llvm_bitcode: Result<Tally, String>,
    check: Result<CheckReport, String>,
    parallel_matches: Result<bool, String>,
    symbols: Result<usize, String>,
    /// The records `encode` encodes, and how many encode back to what was read.
    encode: Result<EncodeCheck, String>,
    /// What the rewrite gave.
    round_trip: Result<RoundTripCheck, String>,
}

impl Prepared {
    fn new(path: PathBuf) -> Option<Prepared> {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("speed: skipping {}: {e}", path.display());
                return None;
            }
        };
        let (raw, (blockinfo, outside)) = match (raw_walk(&bytes), raw_walk_split(&bytes)) {
            (Ok(raw), Ok(split)) => (raw, split),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("speed: skipping {}: the raw walk fails: {e}", path.display());
                return None;
            }
        };
        assert_eq!(raw.records, blockinfo.records + outside.records);
        assert_eq!(raw.sum, blockinfo.sum.wrapping_add(outside.sum));
        let llvm_bitcode = llvm_bitcode_walk(&bytes).map_err(|e| e.to_string());
        match &llvm_bitcode {
            Ok(t) if *t == outside => {}
            Ok(t) => eprintln!(
                "speed: {}: llvm-bitcode saw {t:?}, the raw walk outside BLOCKINFO {outside:?}",
                path.display()
            ),
            Err(e) => eprintln!("speed: {}: llvm-bitcode fails ({e}); its anchor is skipped", path.display()),
        }
        let check = typed_check(&bytes, check_stream).map_err(|e| e.to_string());
        if let Ok(report) = &check {
            if report.records != raw.records || report.unknown + report.errors > 0 {
                eprintln!(
                    "speed: {}: typed check: {} (raw walk: {} records)",
                    path.display(),
                    report.summary(),
                    raw.records
                );
            }
        }
        let parallel = typed_check(&bytes, check_stream_parallel).map_err(|e| e.to_string());
        let parallel_matches = match (&check, &parallel) {
            (Ok(a), Ok(b)) => Ok(a == b),
            (Err(e), _) | (_, Err(e)) => Err(e.clone()),
        };
        if parallel_matches != Ok(true) {
            eprintln!(
                "speed: {}: check_stream_parallel differs from check_stream: {:?} vs {:?}",
                path.display(),
                parallel.as_ref().map(|r| r.summary()),
                check.as_ref().map(|r| r.summary())
            );
        }
        let symbols = symbols(&bytes).map_err(|e| e.to_string());
        let encode = Input::parse(&bytes)
            .and_then(|input| encode_check(&ir_streams(&input)?))
            .map_err(|e| e.to_string());
        match &encode {
            Ok(e) if e.records == outside.records && e.gives_back == e.records => {}
            Ok(e) => eprintln!(
                "speed: {}: encode: {} records decoded typed ({} outside BLOCKINFO), {} of them encode back \
                 to what was read",
                path.display(),
                e.records,
                outside.records,
                e.gives_back
            ),
            Err(e) => {
                eprintln!("speed: {}: decoding for encode fails ({e}); encode is skipped", path.display())
            }
        }
        let round_trip = rewrite(&bytes)
            .map(|r| RoundTripCheck {
                identical: r.bytes == bytes,
                summary: r.stats.summary(),
                records: r.stats.records,
                typed: r.stats.typed,
                raw: r.stats.raw_count(),
            })
            .map_err(|e| e.to_string());
        match &round_trip {
            Ok(r) if r.identical && r.records == raw.records && r.raw == 0 => {}
            Ok(r) => eprintln!(
                "speed: {}: round trip: {} identical to the input: {} (raw walk: {} records)",
                path.display(),
                if r.identical { "is" } else { "is NOT" },
                r.summary,
                raw.records
            ),
            Err(e) => eprintln!("speed: {}: the rewrite fails ({e}); round_trip is skipped", path.display()),
        }
        Some(Prepared {
            group: group_name(&path),
            path,
            bytes,
            raw,
            raw_outside_blockinfo: outside,
            llvm_bitcode,
            check,
            parallel_matches,
            symbols,
            encode,
            round_trip,
        })
    }

    fn json(&self) -> Value {
        fn result<T>(r: &Result<T, String>, ok: impl Fn(&T) -> Value) -> Value {
            r.as_ref().map_or_else(|e| json!({ "error": e }), ok)
        }
        let tally =
            |t: &Tally| json!({ "records": t.records, "operand_sum": t.sum, "blob_bytes": t.blob_bytes });
        json!({
            "group": self.group,
            "path": self.path.display().to_string(),
            "bytes": self.bytes.len(),
            "raw_walk": tally(&self.raw),
            "raw_walk_outside_blockinfo": tally(&self.raw_outside_blockinfo),
            "llvm_bitcode": result(&self.llvm_bitcode, tally),
            "llvm_bitcode_matches": self.llvm_bitcode.as_ref().is_ok_and(|t| *t == self.raw_outside_blockinfo),
            "typed_check": result(&self.check, |r| json!({
                "records": r.records, "typed": r.typed, "unknown": r.unknown,
                "errors": r.errors, "warnings": r.warnings,
            })),
            "typed_check_parallel_matches": result(&self.parallel_matches, |m| json!(m)),
            "symbols": result(&self.symbols, |n| json!({ "count": n })),
            "encode": result(&self.encode, |e| json!({ "records": e.records, "gives_back": e.gives_back })),
            "round_trip": result(&self.round_trip, |r| json!({
                "identical": r.identical, "summary": r.summary, "records": r.records,
                "typed": r.typed, "raw": r.raw,
            })),
        })
    }
}

fn write_side_file(prepared: &[Prepared]) {
    let dir = criterion_dir();
    let text = json!({ "files": prepared.iter().map(Prepared::json).collect::<Vec<_>>() }).to_string();
    let path = dir.join("speed-records.json");
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text)) {
        eprintln!("speed: cannot write {}: {e}", path.display());
    }
}

/// The seconds `run` takes, its result kept from the optimiser.
fn seconds<T>(run: impl FnOnce() -> T) -> f64 {
    let start = Instant::now();
    black_box(run());
    start.elapsed().as_secs_f64()
}

/// The median and quartiles of `values` (sorted here), as JSON.
fn spread(values: &mut [f64]) -> Value {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values.get(((values.len() - 1) as f64 * q).round() as usize).copied();
    json!({ "median": at(0.5), "q1": at(0.25), "q3": at(0.75), "rounds": values.len() })
}

/// A pool of one thread per core, each pinned to its core (see the crate doc); `None` when
/// the cores cannot be listed.
fn pinned_pool() -> Option<ThreadPool> {
    let cores = core_affinity::get_core_ids().filter(|c| !c.is_empty())?;
    let threads = cores.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("pinned-{i}"))
        .start_handler(move |i| {
            if let Some(&core) = cores.get(i) {
                core_affinity::set_for_current(core);
            }
        })
        .build();
    match pool {
        Ok(pool) => Some(pool),
        Err(e) => {
            eprintln!("speed: no pinned pool ({e}); the parallel check runs on rayon's default pool");
            None
        }
    }
}

/// The parallel check of every stream of the file, on `pool` (rayon's default pool when
/// `None`), called from this thread as users call it.
fn parallel_check(bytes: &[u8], pool: Option<&ThreadPool>) -> bitcode_schema::Result<CheckReport> {
    match pool {
        Some(pool) => pool.install(|| typed_check(bytes, check_stream_parallel)),
        None => typed_check(bytes, check_stream_parallel),
    }
}

/// The targets' ratios of one file, round by round (see the crate doc): `walk_vs_llvm_bitcode`
/// is the time of llvm-bitcode over the raw walk's (the same records, so the records/s
/// ratio); the others are the time of the first over the second. `check_vs_parallel` runs
/// the parallel check on `pool`, `check_vs_parallel_unpinned` on rayon's default pool.
/// `encode_vs_check` is per record: the encode's time per record it encodes over the typed
/// check's per record it checks (the same records but BLOCKINFO's, a handful a file).
fn paired_ratios(p: &Prepared, rounds: usize, pool: Option<&ThreadPool>) -> Value {
    let bytes = p.bytes.as_slice();
    let (mut lb_ratios, mut check_ratios, mut symbols_ratios, mut parallel_ratios) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut cold_ratios, mut unpinned_ratios, mut encode_ratios, mut round_trip_ratios) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // The typed values `encode_cold` encodes, decoded once for all rounds (untimed).
    let input = Input::parse(bytes).ok();
    let streams = input.as_ref().and_then(|i| ir_streams(i).ok()).unwrap_or_default();
    let decoded = decoded_for(p, &streams);
    // Records per measurement, for the per-record ratio.
    let encoded_records = p.encode.as_ref().map_or(0, |e| e.records) as f64;
    let checked_records = p.check.as_ref().map_or(0, |c| c.records) as f64;
    // Round 0 warms up (caches, rayon's threads) and is not counted.
    for round in 0..=rounds {
        // The single-threaded measurements sit between the two raw walks; the parallel
        // ones come last, as they leave the caches and the allocator of both cores in
        // another state.
        let first_raw = seconds(|| raw_walk(bytes));
        let lb_time = p.llvm_bitcode.is_ok().then(|| seconds(|| llvm_bitcode_walk(bytes)));
        let check_time = p.check.is_ok().then(|| seconds(|| typed_check(bytes, check_stream)));
        let symbols_time = p.symbols.is_ok().then(|| seconds(|| symbols(bytes)));
        let raw = (first_raw + seconds(|| raw_walk(bytes))) / 2.0;
        // After the raw walks, so that they see the caches as before these were measured.
        let encode_time = match p.encode {
            Ok(_) => encode_chunked(&streams).ok().map(|(took, _)| took.as_secs_f64()),
            Err(_) => None,
        };
        let cold_time = decoded.as_deref().map(|d| seconds(|| encode_all(d)));
        let round_trip_time = p.round_trip.is_ok().then(|| seconds(|| round_trip(bytes)));
        let parallels = matches!(p.parallel_matches, Ok(true));
        let parallel_time = parallels.then(|| seconds(|| parallel_check(bytes, pool)));
        let unpinned_time = (parallels && pool.is_some()).then(|| seconds(|| parallel_check(bytes, None)));
        if round == 0 {
            continue;
        }
        lb_ratios.extend(lb_time.map(|t| t / raw));
        check_ratios.extend(check_time.map(|t| t / raw));
        symbols_ratios.extend(symbols_time.map(|t| t / raw));
        if let (Some(c), Some(par)) = (check_time, parallel_time) {
            parallel_ratios.push(c / par);
        }
        if let (Some(c), Some(par)) = (check_time, unpinned_time) {
            unpinned_ratios.push(c / par);
        }
        if let (Some(c), Some(e)) = (check_time, encode_time) {
            encode_ratios.push((e / encoded_records) / (c / checked_records));
        }
        if let (Some(c), Some(e)) = (check_time, cold_time) {
            cold_ratios.push((e / encoded_records) / (c / checked_records));
        }
        if let (Some(c), Some(r)) = (check_time, round_trip_time) {
            round_trip_ratios.push(r / c);
        }
    }
    let mut out = serde_json::Map::new();
    for (key, values) in [
        ("walk_vs_llvm_bitcode", &mut lb_ratios),
        ("check_vs_walk", &mut check_ratios),
        ("symbols_vs_walk", &mut symbols_ratios),
        ("check_vs_parallel", &mut parallel_ratios),
        ("check_vs_parallel_unpinned", &mut unpinned_ratios),
        ("encode_vs_check", &mut encode_ratios),
        ("encode_cold_vs_check", &mut cold_ratios),
        ("round_trip_vs_check", &mut round_trip_ratios),
    ] {
        if !values.is_empty() {
            out.insert(key.to_string(), spread(values));
        }
    }
    Value::Object(out)
}

/// The paired pass over every file, written beside the record counts (printed only, when
/// not benching).
fn write_paired_ratios(prepared: &[Prepared], rounds: usize, benching: bool, pool: Option<&ThreadPool>) {
    let mut files = serde_json::Map::new();
    for p in prepared {
        eprintln!("speed: paired ratios, {} ({rounds} rounds)", p.group);
        files.insert(p.group.clone(), paired_ratios(p, rounds, pool));
    }
    if !benching {
        eprintln!("speed: {}", Value::Object(files));
        return;
    }
    let path = criterion_dir().join("speed-paired.json");
    if let Err(e) = std::fs::write(&path, Value::Object(files).to_string()) {
        eprintln!("speed: cannot write {}: {e}", path.display());
    }
}

fn prepare() -> Vec<Prepared> {
    let prepared: Vec<Prepared> = input_files().into_iter().filter_map(Prepared::new).collect();
    if prepared.is_empty() {
        eprintln!("speed: no input files (run bench/make-inputs.sh, or set BENCH_FILES=path1:path2)");
    }
    write_side_file(&prepared);
    prepared
}

fn speed(c: &mut Criterion, prepared: &[Prepared], pool: Option<&ThreadPool>) {
    for p in prepared {
        let bytes = p.bytes.as_slice();
        let mut group = c.benchmark_group(&p.group);
        // Whole files take milliseconds to a second each: one iteration per sample.
        group.sampling_mode(SamplingMode::Flat);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("raw_walk", |b| b.iter(|| raw_walk(black_box(bytes)).expect("raw walk")));
        if p.llvm_bitcode.is_ok() {
            group.bench_function("llvm_bitcode", |b| {
                b.iter(|| llvm_bitcode_walk(black_box(bytes)).expect("llvm-bitcode walk"))
            });
        }
        if p.check.is_ok() {
            group.bench_function("typed_check", |b| {
                b.iter(|| typed_check(black_box(bytes), check_stream).expect("check"))
            });
        }
        if matches!(p.parallel_matches, Ok(true)) {
            group.bench_function("typed_check_parallel", |b| {
                b.iter(|| parallel_check(black_box(bytes), pool).expect("parallel check"))
            });
        }
        if p.symbols.is_ok() {
            group.bench_function("symbols", |b| b.iter(|| symbols(black_box(bytes)).expect("symbols")));
        }
        let input = Input::parse(bytes).ok();
        let streams = input.as_ref().and_then(|i| ir_streams(i).ok()).unwrap_or_default();
        if p.encode.is_ok() {
            // Criterion is given the encoding's time alone, decoding left out.
            group.bench_function("encode", |b| {
                b.iter_custom(|iters| (0..iters).map(|_| encode_chunked(&streams).expect("encode").0).sum())
            });
        }
        // The typed values `encode_cold` encodes, decoded for this group (untimed).
        if let Some(decoded) = decoded_for(p, &streams) {
            group.bench_function("encode_cold", |b| {
                b.iter(|| encode_all(black_box(&decoded)).expect("encode"))
            });
        }
        if p.round_trip.is_ok() {
            group.bench_function("round_trip", |b| {
                b.iter(|| round_trip(black_box(bytes)).expect("round trip"))
            });
        }
        group.finish();
    }
}

/// A few minutes for about six files: few samples, short windows (command-line options such
/// as `--measurement-time` and `--sample-size` override these).
fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .nresamples(20_000)
}

fn main() {
    let prepared = prepare();
    let pool = pinned_pool();
    // `cargo bench` passes --bench; run another way (`cargo test --benches`), one round
    // checks that the pass works, and its figures are printed, not kept.
    let benching = std::env::args().any(|a| a == "--bench");
    let rounds = match std::env::var("BENCH_PAIRED_ROUNDS") {
        Ok(n) => n.parse().unwrap_or(21),
        Err(_) if benching => 21,
        Err(_) => 1,
    };
    if rounds > 0 && !prepared.is_empty() {
        write_paired_ratios(&prepared, rounds, benching, pool.as_ref());
    }
    let mut criterion = config().configure_from_args();
    speed(&mut criterion, &prepared, pool.as_ref());
    criterion.final_summary();
}
