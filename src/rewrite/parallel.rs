//! The rewrite with the blocks that can be read apart (function bodies, metadata, symbol
//! tables...) decoded, encoded and written on rayon's thread pool.
//!
//! A block's contents start and end on a 32-bit boundary, so the bytes from its length word
//! to its end are the same wherever its header lands: each part writes its blocks that way
//! (`StreamWriter::for_blocks_apart`), while the module-level walk keeps its own steps;
//! then one writer replays those and puts each part's bytes after its first block's header
//! (`StreamWriter::append_blocks`).

use std::sync::mpsc;

use bitcode_schema_runtime::cursor::TOP_LEVEL_ABBREV_WIDTH;
use bitcode_schema_runtime::encode::EncodedRecord;
use bitcode_schema_runtime::writer::StreamWriter;
use bitcode_schema_runtime::{Abbrev, Bitstream, BlockHeader, Error, ErrorKind, Magic, Result};

use super::{
    llvm_name, llvm_step, no_edit, rewrite_file, rewrite_stream, Replay, RewriteStats, Rewritten, Step,
};
use crate::llvm::{Walker, WalkerEvent};

/// [`rewrite`](super::rewrite) with the blocks of LLVM IR streams that can be read apart
/// rewritten on rayon's thread pool: the same bytes and counts. (A stream where a
/// handed-out block changes how later blocks read, which LLVM never writes, or that
/// fails, is rewritten again in one walk, which gives the error one walk gives.)
///
/// # Errors
///
/// As [`rewrite`](super::rewrite).
pub fn rewrite_parallel(file: &[u8]) -> Result<Rewritten> {
    rewrite_file(file, |stream, stats| match stream.magic() {
        Magic::LlvmIr => match rewrite_llvm_parallel(stream) {
            Some((bytes, parts)) => {
                stats.add(parts);
                Ok(bytes)
            }
            None => rewrite_stream(stream, stats),
        },
        _ => rewrite_stream(stream, stats),
    })
}

/// About how many 32-bit words of blocks one part reads and writes (64 KiB), as for the
/// parallel check.
const RUN_WORDS: u64 = 16384;

/// What the module-level walk keeps of one entry, to write once the parts before it are
/// written: the abbreviations defined before it, and the entry with its encoding and the
/// bit offset it was read at (none for an end of block).
struct Held<'a> {
    definitions: Vec<Abbrev>,
    step: Option<Step<'a>>,
    encoded: Option<EncodedRecord<'a>>,
    at: Option<u64>,
}

/// The error that sends a stream to the one-walk rewrite: an entry would be written
/// elsewhere than it was read (a value read from a VBR with needless chunks is written
/// shorter, say). One walk knows whether the module records bit offsets that this moves,
/// and refuses it then with the entry's offset.
fn moved(at: u64) -> Error {
    Error::new(ErrorKind::Write("an entry would move".into()), at)
}

/// A stretch of the stream: entries of the module-level walk, or a part's blocks, which
/// start with the header of the first one.
enum Piece<'a> {
    Here(Vec<Held<'a>>),
    Part { index: usize, first: BlockHeader },
}

/// What a part wrote: its bytes from its first block's length word on, and its counts.
type PartResult = Result<(Vec<u8>, RewriteStats)>;

/// An LLVM IR stream rewritten with its parts on the pool; `None` when it must be
/// rewritten in one walk (a part changed how later blocks read, or something failed).
fn rewrite_llvm_parallel(stream: &Bitstream<'_>) -> Option<(Vec<u8>, RewriteStats)> {
    let mut walker = Walker::deferring_runs(stream, RUN_WORDS);
    walker.keep_definitions();
    let mut pieces = Vec::new();
    let mut here = Vec::new();
    // The abbreviation id widths of the blocks the walk is in, the top level's first.
    let mut widths = vec![TOP_LEVEL_ABBREV_WIDTH];
    let mut failed = false;
    let (sender, receiver) = mpsc::channel::<(usize, PartResult, bool)>();
    rayon::scope(|scope| {
        let mut taken = 0;
        loop {
            let event = match walker.next_event() {
                Ok(Some(event)) => event,
                Ok(None) => break,
                Err(_) => {
                    failed = true;
                    break;
                }
            };
            let (step, encoded, at) = match event {
                WalkerEvent::Deferred { header, part } => {
                    // The later blocks of a run are the part's to write.
                    if part != taken {
                        continue;
                    }
                    let parent_width = widths.last().copied().unwrap_or(TOP_LEVEL_ABBREV_WIDTH);
                    here.push(Held {
                        definitions: walker.take_definitions(),
                        step: None,
                        encoded: None,
                        at: None,
                    });
                    pieces.push(Piece::Here(std::mem::take(&mut here)));
                    pieces.push(Piece::Part { index: part, first: header });
                    let Ok(parts) = walker.take_parts() else {
                        failed = true;
                        break;
                    };
                    for walker in parts {
                        let (sender, index) = (sender.clone(), taken);
                        taken += 1;
                        scope.spawn(move |_| {
                            let (result, changed) = rewrite_part(walker, header, parent_width);
                            // The receiver outlives the scope, so sending cannot fail.
                            drop(sender.send((index, result, changed)));
                        });
                    }
                    continue;
                }
                WalkerEvent::Block(header) => {
                    widths.push(header.abbrev_width);
                    (Step::Block(header), None, Some(header.bit_offset))
                }
                WalkerEvent::EndBlock(_) => {
                    widths.pop();
                    (Step::End, None, None)
                }
                WalkerEvent::Record { block, record, ctx } => {
                    let mut encoded = EncodedRecord::new(0, Vec::new());
                    // Without an edit, nothing fails: a value that does not encode is raw.
                    let Ok(step) = llvm_step(block, &record, ctx, &mut encoded, &mut no_edit) else {
                        failed = true;
                        break;
                    };
                    let typed = matches!(step, Step::Typed { .. });
                    (step, typed.then_some(encoded), Some(record.bit_offset))
                }
            };
            here.push(Held { definitions: walker.take_definitions(), step: Some(step), encoded, at });
        }
    });
    drop(sender);
    pieces.push(Piece::Here(here));
    let mut parts: Vec<Option<(Vec<u8>, RewriteStats)>> = Vec::new();
    for (index, result, changed_later_blocks) in receiver {
        if changed_later_blocks || result.is_err() {
            failed = true;
        }
        if parts.len() <= index {
            parts.resize_with(index + 1, || None);
        }
        if let (Some(slot), Ok(part)) = (parts.get_mut(index), result) {
            *slot = Some(part);
        }
    }
    if failed {
        return None;
    }
    assemble(stream, pieces, parts).ok()
}

/// The stream: the module-level walk's entries replayed through one writer, each part's
/// bytes after its first block's header.
fn assemble<'a>(
    stream: &Bitstream<'a>,
    pieces: Vec<Piece<'a>>,
    mut parts: Vec<Option<(Vec<u8>, RewriteStats)>>,
) -> Result<(Vec<u8>, RewriteStats)> {
    let mut stats = RewriteStats::default();
    // Input offsets count from the file's start, the writer's from the stream's.
    let stream_start = stream.file_offset() * 8;
    let w = StreamWriter::with_capacity(stream.magic().bytes(), stream.data().len());
    let mut out = Replay { w, stats: &mut stats, moved_at: None };
    let none = EncodedRecord::new(0, Vec::new());
    for piece in pieces {
        match piece {
            Piece::Here(held) => {
                for Held { definitions, step, encoded, at } in held {
                    out.definitions(definitions)?;
                    if let Some(at) = at.filter(|&at| out.w.position() + stream_start != at) {
                        return Err(moved(at));
                    }
                    if let Some(step) = step {
                        out.step(step, encoded.as_ref().unwrap_or(&none), llvm_name)?;
                    }
                }
            }
            Piece::Part { index, first } => {
                let Some((bytes, part_stats)) = parts.get_mut(index).and_then(Option::take) else {
                    let msg = format!("part {index} of the stream was not written");
                    return Err(Error::new(ErrorKind::Write(msg), first.bit_offset));
                };
                out.w.append_blocks(first.id, first.abbrev_width, &bytes)?;
                // The part's walk starts inside its first block: that block is counted here.
                out.stats.blocks += 1;
                out.stats.add(part_stats);
            }
        }
    }
    let bytes = out.w.finish()?;
    Ok((bytes, stats))
}

/// Rewrites the blocks of one part (its walker starts inside `first`, in a block whose
/// abbreviation ids are `parent_width` bits); also says whether the part changed how later
/// blocks read (see [`Walker::changed_later_blocks`]).
fn rewrite_part(mut walker: Walker<'_>, first: BlockHeader, parent_width: u32) -> (PartResult, bool) {
    let result = rewrite_blocks(&mut walker, first, parent_width);
    (result, walker.changed_later_blocks())
}

/// The work of [`rewrite_part`].
fn rewrite_blocks(walker: &mut Walker<'_>, first: BlockHeader, parent_width: u32) -> PartResult {
    let block_info = walker.cursor().block_info();
    let w = StreamWriter::for_blocks_apart(first.id, first.abbrev_width, parent_width, block_info)?;
    let mut stats = RewriteStats::default();
    let mut out = Replay { w, stats: &mut stats, moved_at: None };
    let mut encoded = EncodedRecord::new(0, Vec::new());
    // Where the part's bytes start in the input: its first block's length word, just
    // before the walker's first entry.
    let start = walker.cursor().position().saturating_sub(32);
    while let Some(event) = walker.next_event()? {
        let (step, at) = match event {
            WalkerEvent::Block(header) => (Step::Block(header), Some(header.bit_offset)),
            WalkerEvent::EndBlock(_) => (Step::End, None),
            WalkerEvent::Record { block, record, ctx } => {
                (llvm_step(block, &record, ctx, &mut encoded, &mut no_edit)?, Some(record.bit_offset))
            }
            // A part's walker reads every block of its run itself.
            WalkerEvent::Deferred { header, .. } => {
                let msg = format!("block {} was handed out instead of read", header.id);
                return Err(Error::new(ErrorKind::Write(msg), header.bit_offset));
            }
        };
        out.definitions(walker.take_definitions())?;
        if let Some(at) = at.filter(|&at| out.w.position() + start != at) {
            return Err(moved(at));
        }
        out.step(step, &encoded, llvm_name)?;
    }
    let bytes = out.w.finish_blocks()?;
    Ok((bytes, stats))
}
