//! Typed decoding of every record of a stream, counted: what `bcdump --check` reports.

use bitcode_schema_runtime::{Bitstream, Error, Record, Result};

use super::ir::check_record;
use super::metadata_strings::check_metadata_strings;
use super::{LlvmContext, Walker, WalkerEvent};

/// How many records there were and how they decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CheckReport {
    /// Records in the stream (BLOCKINFO's included, DEFINE_ABBREV not: as in the trace).
    pub records: u64,
    /// Records decoded into their schema type (BLOCKINFO records are typed by the runtime).
    pub typed: u64,
    /// Records of a code or a block the schema does not know.
    pub unknown: u64,
    /// Records whose operands do not fit their schema type.
    pub errors: u64,
    /// Warnings of the decoders (extra operands, unknown codes).
    pub warnings: u64,
    /// The first few error messages, for showing.
    pub first_errors: Vec<String>,
}

/// How many error messages a report keeps.
const KEPT_ERRORS: usize = 20;

impl CheckReport {
    /// The one-line summary: `records=N typed=T unknown=U errors=E warnings=W`.
    pub fn summary(&self) -> String {
        format!(
            "records={} typed={} unknown={} errors={} warnings={}",
            self.records, self.typed, self.unknown, self.errors, self.warnings
        )
    }

    /// Adds another stream's counts.
    pub fn add(&mut self, other: CheckReport) {
        self.records += other.records;
        self.typed += other.typed;
        self.unknown += other.unknown;
        self.errors += other.errors;
        self.warnings += other.warnings;
        let room = KEPT_ERRORS.saturating_sub(self.first_errors.len());
        self.first_errors.extend(other.first_errors.into_iter().take(room));
    }
}

/// Decodes every record of `stream` with the LLVM IR schema, function bodies included.
/// A malformed bitstream is an error; a record that does not fit its type is counted.
pub fn check_stream(stream: &Bitstream<'_>) -> Result<CheckReport> {
    check_walk(Walker::new(stream)).0
}

/// [`check_stream`] with the blocks that can be read apart (function bodies, metadata,
/// symbol tables...) decoded on rayon's thread pool. The report is the same, first errors
/// in stream order included. (A stream where a handed-out block changes how later blocks
/// read, which LLVM never writes, is read again in one walk.)
///
/// Without the `parallel` cargo feature (on by default) this is [`check_stream`]: the
/// same report, read in one walk on the calling thread.
#[cfg(not(feature = "parallel"))]
pub fn check_stream_parallel(stream: &Bitstream<'_>) -> Result<CheckReport> {
    check_stream(stream)
}

/// [`check_stream`] with the blocks that can be read apart (function bodies, metadata,
/// symbol tables...) decoded on rayon's thread pool. The report is the same, first errors
/// in stream order included. (A stream where a handed-out block changes how later blocks
/// read, which LLVM never writes, is read again in one walk.)
///
/// Without the `parallel` cargo feature (on by default) this is [`check_stream`]: the
/// same report, read in one walk on the calling thread.
#[cfg(feature = "parallel")]
pub fn check_stream_parallel<'a>(stream: &Bitstream<'a>) -> Result<CheckReport> {
    // The module-level walk reads only what the numbering needs; each block it hands out
    // starts on the pool at once, while the walk goes on. Between two handed-out blocks
    // the walk's own records are counted in a report of their own, to keep the order.
    let mut walker = Walker::deferring_runs(stream, RUN_WORDS);
    let mut pieces = vec![Piece::Here(CheckReport::default())];
    // An error of the module-level walk comes after every part handed out before it: a
    // part's error, earlier in the stream, wins, as in a sequential walk.
    let mut walk_error = None;
    let (sender, receiver) = std::sync::mpsc::channel();
    rayon::scope(|scope| {
        // Each part goes to the pool as soon as it is handed out; `taken` counts the parts
        // taken so far (the next one's index).
        let mut taken = 0;
        let spawn = |walker: &mut Walker<'a>, taken: &mut usize| -> Result<()> {
            for part in walker.take_parts()? {
                let (sender, index) = (sender.clone(), *taken);
                *taken += 1;
                // The receiver outlives the scope, so sending cannot fail.
                scope.spawn(move |_| drop(sender.send((index, check_walk(part)))));
            }
            Ok(())
        };
        loop {
            let event = match walker.next_event() {
                Ok(Some(event)) => event,
                Ok(None) => break,
                Err(e) => {
                    walk_error = Some(e);
                    break;
                }
            };
            match event {
                WalkerEvent::Deferred { part, .. } => {
                    // The later blocks of a run belong to a part counted already.
                    if part == taken {
                        pieces.push(Piece::Part(part));
                        pieces.push(Piece::Here(CheckReport::default()));
                        if let Err(e) = spawn(&mut walker, &mut taken) {
                            walk_error = Some(e);
                            break;
                        }
                    }
                }
                WalkerEvent::Record { block, record, ctx } => {
                    if let Some(Piece::Here(report)) = pieces.last_mut() {
                        if let Some(e) = count(report, block, &record, ctx) {
                            report.first_errors.push(e.to_string());
                        }
                    }
                }
                WalkerEvent::Block(_) | WalkerEvent::EndBlock(_) => {}
            }
        }
        // A walk that failed may leave a part pending.
        if let Err(e) = spawn(&mut walker, &mut taken) {
            walk_error.get_or_insert(e);
        }
    });
    drop(sender);
    let mut parts: Vec<Option<Result<CheckReport>>> = Vec::new();
    for (index, (result, changed_later_blocks)) in receiver {
        if changed_later_blocks {
            // The walk read on as if the part were not there: only one walk reads right.
            return check_stream(stream);
        }
        if parts.len() <= index {
            parts.resize_with(index + 1, || None);
        }
        if let Some(slot) = parts.get_mut(index) {
            *slot = Some(result);
        }
    }
    let mut total =
        CheckReport { warnings: walker.context().warnings.len() as u64, ..CheckReport::default() };
    for piece in pieces {
        match piece {
            Piece::Here(report) => total.add(report),
            Piece::Part(i) => {
                if let Some(result) = parts.get_mut(i).and_then(Option::take) {
                    total.add(result?);
                }
            }
        }
    }
    match walk_error {
        Some(e) => Err(e),
        None => Ok(total),
    }
}

/// About how many 32-bit words of blocks one part of [`check_stream_parallel`] reads (64
/// KiB): a task is well worth its hand-over, and a module of a few MiB is still split into
/// dozens of parts that balance. (Paired rounds, check over parallel check: 16 KiB parts
/// gave 1.42-1.67 on clang14 sqlite3 O2 and 1.64-1.67 on regex_automata O3, 64 KiB parts
/// 1.73 on both.)
#[cfg(feature = "parallel")]
const RUN_WORDS: u64 = 16384;

/// Counts one record; gives its decode error when the report keeps more messages.
fn count(
    report: &mut CheckReport,
    block: u32,
    record: &Record<'_, '_>,
    ctx: &mut LlvmContext,
) -> Option<Error> {
    report.records += 1;
    if block == bitcode_schema_runtime::cursor::BLOCKINFO_BLOCK_ID {
        report.typed += 1;
        return None;
    }
    match check_record(block, record, ctx)
        .and_then(|typed| check_metadata_strings(block, record, ctx).map(|()| typed))
    {
        Ok(false) => report.unknown += 1,
        Ok(true) => report.typed += 1,
        Err(e) => {
            report.errors += 1;
            if report.first_errors.len() < KEPT_ERRORS {
                return Some(e);
            }
        }
    }
    None
}

/// A stretch of the report: counted by the module-level walk, or by a part's walker.
#[cfg(feature = "parallel")]
enum Piece {
    Here(CheckReport),
    Part(usize),
}

/// Decodes every record `walker` gives; also says whether, for a walker of a handed-out
/// block, the block changed how later blocks read (see [`Walker::changed_later_blocks`]).
fn check_walk(mut walker: Walker<'_>) -> (Result<CheckReport>, bool) {
    let mut report = CheckReport::default();
    loop {
        let event = match walker.next_event() {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(e) => return (Err(e), false),
        };
        let WalkerEvent::Record { block, record, ctx } = event else { continue };
        if let Some(e) = count(&mut report, block, &record, ctx) {
            report.first_errors.push(e.to_string());
        }
    }
    report.warnings += walker.context().warnings.len() as u64;
    (Ok(report), walker.changed_later_blocks())
}
