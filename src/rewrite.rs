//! A lossless round trip: every record of a file decoded into its typed value, encoded back
//! from that value by the generated encoder, and written with the abbreviation the original
//! used, blocks, abbreviation definitions and BLOCKINFO replayed as they were.
//!
//! The result is byte for byte the input when the schema loses nothing. A record whose
//! typed value does not give its operands back (or that no schema types) is written from
//! its raw operands instead and counted in [`RewriteStats::raw`], by record name.
//!
//! ```
//! # fn main() -> bitcode_schema::Result<()> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/bcdump/data/hello.bc");
//! let file = std::fs::read(path).unwrap();
//! let rewritten = bitcode_schema::rewrite::rewrite(&file)?;
//! assert_eq!(rewritten.bytes, file);
//! assert_eq!(rewritten.stats.raw_count(), 0);
//! # Ok(()) }
//! ```

use std::collections::BTreeMap;

use bitcode_schema_runtime::encode::EncodedRecord;
use bitcode_schema_runtime::writer::StreamWriter;
use bitcode_schema_runtime::{
    Abbrev, Bitstream, BlockHeader, Cursor, Entry, Error, ErrorKind, Input, Magic, Record, Result,
};

use crate::llvm::{ir, Walker, WalkerEvent};
use crate::{diagnostics, remarks};

/// What a rewrite wrote, and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RewriteStats {
    /// Bitstreams rewritten (one per file, or per embedded section of an object).
    pub streams: u64,
    /// Blocks written.
    pub blocks: u64,
    /// Abbreviation definitions written.
    pub definitions: u64,
    /// Records written, BLOCKINFO's included.
    pub records: u64,
    /// Records written from their typed value through the generated encoder.
    pub typed: u64,
    /// Records of BLOCKINFO blocks (SETBID, names), which are the bitstream's, not a schema's.
    pub blockinfo: u64,
    /// Records written from their raw operands, by `BLOCK/RECORD: why`: no schema types
    /// them, or their typed value gives other operands back.
    pub raw: BTreeMap<String, u64>,
}

impl RewriteStats {
    /// How many records were written raw.
    pub fn raw_count(&self) -> u64 {
        self.raw.values().sum()
    }

    /// The one-line summary:
    /// `streams=S blocks=B definitions=D records=N typed=T blockinfo=I raw=R`.
    pub fn summary(&self) -> String {
        format!(
            "streams={} blocks={} definitions={} records={} typed={} blockinfo={} raw={}",
            self.streams,
            self.blocks,
            self.definitions,
            self.records,
            self.typed,
            self.blockinfo,
            self.raw_count()
        )
    }
}

/// A rewritten file and what was done.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rewritten {
    /// The file as rewritten: the input with every bitstream replaced by its rewrite.
    pub bytes: Vec<u8>,
    /// The counts.
    pub stats: RewriteStats,
}

/// Rewrites `file` (a bitstream, a wrapped one, or a native object with bitcode sections):
/// each stream through its format's schema (LLVM IR, clang serialized diagnostics, LLVM
/// remarks; other formats' records are written raw), spliced back where it was.
///
/// # Errors
///
/// When a stream cannot be read (the reader's error), or its rewrite is not the same
/// length as the original where the container fixes that length (an object's section, a
/// compressed section).
pub fn rewrite(file: &[u8]) -> Result<Rewritten> {
    let input = Input::parse(file)?;
    let mut bytes = file.to_vec();
    let mut stats = RewriteStats::default();
    let mut streams = input.streams()?;
    // From the last to the first, so that a stream whose length changes moves none still
    // to be spliced.
    streams.sort_by_key(|s| std::cmp::Reverse(s.file_offset()));
    for stream in streams {
        let written = rewrite_stream(&stream, &mut stats)?;
        splice(&mut bytes, &stream, &written, input.is_native_object())?;
        stats.streams += 1;
    }
    Ok(Rewritten { bytes, stats })
}

/// Rewrites one bitstream; gives its bytes, magic included.
pub fn rewrite_stream(stream: &Bitstream<'_>, stats: &mut RewriteStats) -> Result<Vec<u8>> {
    let mut out = Replay { w: StreamWriter::new(stream.magic().bytes()), stats };
    match stream.magic() {
        Magic::LlvmIr => rewrite_llvm(stream, &mut out)?,
        magic if magic.bytes() == diagnostics::schema::MAGIC => {
            let mut ctx = bitcode_schema_runtime::decode::BasicContext::new();
            rewrite_with(stream.cursor(), &mut out, |block, record| {
                let value = diagnostics::schema::decode_record(block, record, &mut ctx).ok()?;
                (!value.is_unknown()).then(|| value.encode_with_len(&ctx, record.ops.len()))
            })?
        }
        magic if magic.bytes() == remarks::schema::MAGIC => {
            let mut ctx = bitcode_schema_runtime::decode::BasicContext::new();
            rewrite_with(stream.cursor(), &mut out, |block, record| {
                let value = remarks::schema::decode_record(block, record, &mut ctx).ok()?;
                (!value.is_unknown()).then(|| value.encode_with_len(&ctx, record.ops.len()))
            })?
        }
        _ => rewrite_with(stream.cursor(), &mut out, |_, _| None)?,
    }
    out.w.finish()
}

/// An LLVM IR stream, with the value numbering the walker keeps (relative value ids are
/// encoded against it, as they were decoded).
fn rewrite_llvm(stream: &Bitstream<'_>, out: &mut Replay<'_>) -> Result<()> {
    let mut walker = Walker::new(stream);
    walker.keep_definitions();
    loop {
        let step = match walker.next_event()? {
            None => break,
            Some(WalkerEvent::Block(header)) => Step::Block(header),
            Some(WalkerEvent::EndBlock(_)) => Step::End,
            // A walker made with `Walker::new` reads every block itself.
            Some(WalkerEvent::Deferred { header, .. }) => {
                let msg = format!("block {} was handed out instead of read", header.id);
                return Err(Error::new(ErrorKind::Write(msg), header.bit_offset));
            }
            Some(WalkerEvent::Record { block, record, ctx }) => {
                let typed = (block != BLOCKINFO).then(|| {
                    let value = ir::decode_record(block, &record, ctx).ok()?;
                    (!value.is_unknown()).then(|| value.encode_with_len(&*ctx, record.ops.len()))
                });
                Step::record(block, &record, typed.flatten())
            }
        };
        out.definitions(walker.take_definitions())?;
        out.step(step, |b, c| ir::record_name(b, c).or_else(|| ir::block_name(b)))?;
    }
    Ok(())
}

/// A stream read with a plain cursor, `typed` giving a record's encoding when a schema
/// types it.
fn rewrite_with<'a>(
    mut cursor: Cursor<'a>,
    out: &mut Replay<'_>,
    mut typed: impl FnMut(u32, &Record<'_, 'a>) -> Option<Result<EncodedRecord<'a>>>,
) -> Result<()> {
    cursor.keep_definitions();
    loop {
        let block = cursor.current_block().unwrap_or(u32::MAX);
        let step = match cursor.next_entry()? {
            None => break,
            Some(Entry::Block(header)) => Step::Block(header),
            Some(Entry::EndBlock(_)) => Step::End,
            Some(Entry::Record(record)) => {
                let encoded = if block == BLOCKINFO { None } else { typed(block, &record) };
                Step::record(block, &record, encoded)
            }
        };
        out.definitions(cursor.take_definitions())?;
        out.step(step, |_, _| None)?;
    }
    Ok(())
}

/// The BLOCKINFO block's id.
const BLOCKINFO: u32 = bitcode_schema_runtime::cursor::BLOCKINFO_BLOCK_ID;

/// The abbreviation id of an unabbreviated record.
const UNABBREVIATED: u32 = 3;

/// One entry to write, owned (the reader's record borrows the reader).
enum Step<'a> {
    Block(BlockHeader),
    End,
    /// A record written from its typed value's encoding.
    Typed {
        encoded: EncodedRecord<'a>,
        abbrev_id: u32,
    },
    /// A record written from its raw operands; `why` is None inside BLOCKINFO.
    Raw {
        block: u32,
        code: u32,
        abbrev_id: u32,
        ops: Vec<u64>,
        blob: Option<&'a [u8]>,
        why: Option<&'static str>,
    },
}

impl<'a> Step<'a> {
    /// The step for `record` of `block`, typed when its encoding (if any) gives back what
    /// was read.
    fn record(block: u32, record: &Record<'_, 'a>, encoded: Option<Result<EncodedRecord<'a>>>) -> Self {
        let why = match encoded {
            Some(Ok(encoded)) if gives_back(&encoded, record) => {
                return Step::Typed { encoded, abbrev_id: record.abbrev_id };
            }
            Some(Ok(_)) => Some("its typed value gives other operands"),
            Some(Err(_)) => Some("its typed value cannot be encoded"),
            None if block == BLOCKINFO => None,
            None => Some("no schema types it"),
        };
        Step::Raw {
            block,
            code: record.code,
            abbrev_id: record.abbrev_id,
            ops: record.ops.to_vec(),
            blob: record.blob,
            why,
        }
    }
}

/// Whether `encoded`, written with the abbreviation `record` was read with, gives the same
/// code, operands and blob.
fn gives_back(encoded: &EncodedRecord<'_>, record: &Record<'_, '_>) -> bool {
    if encoded.code != record.code {
        return false;
    }
    match (record.blob, encoded.blob.as_deref(), encoded.string_start) {
        (None, None, _) => encoded.ops == record.ops,
        (Some(blob), Some(encoded_blob), _) => encoded.ops == record.ops && encoded_blob == blob,
        // The writer puts a string's bytes in the blob of an abbreviation that has one.
        (Some(blob), None, Some(start)) => match encoded.ops.split_at_checked(start) {
            Some((ops, text)) => {
                ops == record.ops
                    && text.len() == blob.len()
                    && text.iter().zip(blob).all(|(&v, &b)| v == u64::from(b))
            }
            None => false,
        },
        _ => false,
    }
}

/// The writer and the counts.
struct Replay<'s> {
    w: StreamWriter,
    stats: &'s mut RewriteStats,
}

impl Replay<'_> {
    fn definitions(&mut self, definitions: Vec<Abbrev>) -> Result<()> {
        for abbrev in definitions {
            self.w.define_abbrev(abbrev)?;
            self.stats.definitions += 1;
        }
        Ok(())
    }

    /// Writes `step`; `name` names a block's record (or the block) for the raw counts.
    fn step(&mut self, step: Step<'_>, name: impl Fn(u32, u32) -> Option<&'static str>) -> Result<()> {
        match step {
            Step::Block(header) => {
                self.stats.blocks += 1;
                self.w.enter_block(header.id, header.abbrev_width)
            }
            Step::End => self.w.end_block(),
            Step::Typed { encoded, abbrev_id } => {
                self.stats.records += 1;
                self.stats.typed += 1;
                self.w.record(&encoded, (abbrev_id != UNABBREVIATED).then_some(abbrev_id))
            }
            Step::Raw { block, code, abbrev_id, ops, blob, why } => {
                self.stats.records += 1;
                match why {
                    None => self.stats.blockinfo += 1,
                    Some(why) => {
                        let record = name(block, code).map_or_else(|| format!("code {code}"), str::to_string);
                        *self.stats.raw.entry(format!("block {block} {record}: {why}")).or_default() += 1;
                    }
                }
                if abbrev_id == UNABBREVIATED {
                    self.w.unabbreviated_record(code, &ops)
                } else {
                    self.w.abbreviated_record(abbrev_id, code, &ops, blob)
                }
            }
        }
    }
}

/// Puts `written` where `stream` was in `bytes`; a wrapper's size field follows its length.
fn splice(bytes: &mut Vec<u8>, stream: &Bitstream<'_>, written: &[u8], in_object: bool) -> Result<()> {
    let start = stream.file_offset() as usize;
    let old = stream.data();
    let refuse = |msg: String| Err(Error::new(ErrorKind::Write(msg), start as u64 * 8));
    if bytes.get(start..start + old.len()) != Some(old) {
        return refuse(format!("the stream at byte {start} is compressed in its file"));
    }
    if in_object && written.len() != old.len() {
        let (new, old) = (written.len(), old.len());
        return refuse(format!(
            "the section's stream at byte {start} was rewritten as {new} bytes instead of {old}"
        ));
    }
    bytes.splice(start..start + old.len(), written.iter().copied());
    if let (Some(wrapper), Ok(size)) = (stream.wrapper(), u32::try_from(written.len())) {
        // The size field is the header's fourth 32-bit word.
        let field = start.checked_sub(wrapper.offset as usize).map_or(0, |header| header + 12);
        if let Some(field) = bytes.get_mut(field..field + 4).filter(|_| field > 0) {
            field.copy_from_slice(&size.to_le_bytes());
        }
    }
    Ok(())
}
