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

#[cfg(feature = "parallel")]
mod parallel;
#[cfg(feature = "parallel")]
pub use parallel::rewrite_parallel;

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
    /// Records an edit changed (see [`rewrite_edited`]), written from their new value.
    pub edited: u64,
    /// SYMTAB blocks left out because an edit made them stale (see [`rewrite_edited`]).
    pub dropped_symtabs: u64,
    /// Records written from their raw operands, by `BLOCK/RECORD: why`: no schema types
    /// them, or their typed value gives other operands back.
    pub raw: BTreeMap<String, u64>,
}

impl RewriteStats {
    /// Adds the counts of `other` (a part of the same rewrite) to these.
    pub fn add(&mut self, other: RewriteStats) {
        self.streams += other.streams;
        self.blocks += other.blocks;
        self.definitions += other.definitions;
        self.records += other.records;
        self.typed += other.typed;
        self.blockinfo += other.blockinfo;
        self.edited += other.edited;
        self.dropped_symtabs += other.dropped_symtabs;
        for (why, n) in other.raw {
            *self.raw.entry(why).or_default() += n;
        }
    }

    /// How many records were written raw.
    pub fn raw_count(&self) -> u64 {
        self.raw.values().sum()
    }

    /// The one-line summary:
    /// `streams=S blocks=B definitions=D records=N typed=T blockinfo=I raw=R`, then
    /// `edited=E dropped_symtabs=Y` after edits.
    pub fn summary(&self) -> String {
        format!(
            "streams={} blocks={} definitions={} records={} typed={} blockinfo={} raw={}{}",
            self.streams,
            self.blocks,
            self.definitions,
            self.records,
            self.typed,
            self.blockinfo,
            self.raw_count(),
            match (self.edited, self.dropped_symtabs) {
                (0, 0) => String::new(),
                (e, d) => format!(" edited={e} dropped_symtabs={d}"),
            }
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
    rewrite_edited(file, no_edit)
}

/// An edit of an LLVM IR record: it gets each record's typed value (of the module's and
/// every other block but BLOCKINFO, in stream order) and returns whether it changed it.
pub trait Edit: for<'a> FnMut(&mut ir::AnyRecord<'a>) -> bool {}

impl<F: for<'a> FnMut(&mut ir::AnyRecord<'a>) -> bool> Edit for F {}

/// [`rewrite`], with `edit` offered every typed LLVM IR record first: a record it changes
/// is written from its new value (with its abbreviation when the value still fits it,
/// else unabbreviated), the rest as in [`rewrite`]. An edit that changes a module makes its
/// SYMTAB block (the linker's symbol table, which caches linkage and visibility) stale:
/// it is left out, and LLVM's tools rebuild it from the module, as for a file without one.
///
/// Changing a value's linkage or visibility keeps the record's length, so the bit offsets
/// the module keeps (VSTOFFSET, the function entries of its value symbol table) stay right.
/// A ThinLTO summary in the module (GLOBALVAL_SUMMARY_BLOCK, which rustc writes) is kept as
/// it was: its flags still give the old linkage.
///
/// # Errors
///
/// As [`rewrite`]; also when an edited record is encoded to another length in a module
/// that records bit offsets (which would then point elsewhere), or the edit gives a value
/// that cannot be encoded.
pub fn rewrite_edited(file: &[u8], mut edit: impl Edit) -> Result<Rewritten> {
    rewrite_file(file, |stream, stats| rewrite_stream_edited(stream, stats, &mut edit))
}

/// `file` with each of its bitstreams, front to back, replaced by what `each` writes for it.
fn rewrite_file(
    file: &[u8],
    mut each: impl FnMut(&Bitstream<'_>, &mut RewriteStats) -> Result<Vec<u8>>,
) -> Result<Rewritten> {
    let input = Input::parse(file)?;
    let mut out = Spliced { bytes: Vec::with_capacity(file.len()), copied: 0 };
    let mut stats = RewriteStats::default();
    let mut streams = input.streams()?;
    streams.sort_by_key(|s| s.file_offset());
    for stream in streams {
        let written = each(&stream, &mut stats)?;
        out.splice(file, &stream, &written, input.is_native_object())?;
        stats.streams += 1;
    }
    out.bytes.extend_from_slice(file.get(out.copied..).unwrap_or_default());
    Ok(Rewritten { bytes: out.bytes, stats })
}

/// Rewrites one bitstream; gives its bytes, magic included.
pub fn rewrite_stream(stream: &Bitstream<'_>, stats: &mut RewriteStats) -> Result<Vec<u8>> {
    rewrite_stream_edited(stream, stats, &mut no_edit)
}

/// [`rewrite_stream`] with an edit of its LLVM IR records (see [`rewrite_edited`]).
pub fn rewrite_stream_edited(
    stream: &Bitstream<'_>,
    stats: &mut RewriteStats,
    edit: &mut dyn Edit,
) -> Result<Vec<u8>> {
    let w = StreamWriter::with_capacity(stream.magic().bytes(), stream.data().len());
    let mut out = Replay { w, stats, moved_at: None };
    match stream.magic() {
        Magic::LlvmIr => rewrite_llvm(stream, &mut out, edit)?,
        magic if magic.bytes() == diagnostics::schema::MAGIC => {
            let mut ctx = bitcode_schema_runtime::decode::BasicContext::new();
            rewrite_with(stream.cursor(), &mut out, |block, record, encoded| {
                let value = diagnostics::schema::decode_record(block, record, &mut ctx).ok()?;
                (!value.is_unknown()).then(|| value.encode_into(&ctx, record.ops.len(), encoded))
            })?
        }
        magic if magic.bytes() == remarks::schema::MAGIC => {
            let mut ctx = bitcode_schema_runtime::decode::BasicContext::new();
            rewrite_with(stream.cursor(), &mut out, |block, record, encoded| {
                let value = remarks::schema::decode_record(block, record, &mut ctx).ok()?;
                (!value.is_unknown()).then(|| value.encode_into(&ctx, record.ops.len(), encoded))
            })?
        }
        _ => rewrite_with(stream.cursor(), &mut out, |_, _, _| None)?,
    }
    out.w.finish()
}

/// An LLVM IR stream, with the value numbering the walker keeps (relative value ids are
/// encoded against it, as they were decoded).
fn rewrite_llvm(stream: &Bitstream<'_>, out: &mut Replay<'_>, edit: &mut dyn Edit) -> Result<()> {
    let mut walker = Walker::new(stream);
    walker.keep_definitions();
    // Whether an edit changed a record; the depth of a stale SYMTAB block being left out;
    // the depth of the module block, inside which entries must stay where they were when
    // the module records bit offsets (VSTOFFSET).
    let (mut edited, mut dropping, mut module) = (false, None::<usize>, None::<usize>);
    let (mut depth, mut offsets_recorded) = (0usize, false);
    let stream_start = stream.file_offset() * 8;
    // Every record is encoded into this one, its operand list reused.
    let mut encoded = EncodedRecord::new(0, Vec::new());
    loop {
        let (step, at) = match walker.next_event()? {
            None => break,
            Some(WalkerEvent::Block(header)) => {
                depth += 1;
                if header.id == ir::module_block::ID && module.is_none() {
                    module = Some(depth);
                }
                if edited && header.id == ir::symtab_block::ID && dropping.is_none() {
                    dropping = Some(depth);
                    out.stats.dropped_symtabs += 1;
                }
                (Step::Block(header), Some(header.bit_offset))
            }
            Some(WalkerEvent::EndBlock(_)) => {
                depth = depth.saturating_sub(1);
                if module.is_some_and(|d| depth < d) {
                    module = None;
                }
                if dropping.is_some_and(|d| depth < d) {
                    dropping = None;
                    walker.take_definitions();
                    continue;
                }
                (Step::End, None)
            }
            // A walker made with `Walker::new` reads every block itself.
            Some(WalkerEvent::Deferred { header, .. }) => {
                let msg = format!("block {} was handed out instead of read", header.id);
                return Err(Error::new(ErrorKind::Write(msg), header.bit_offset));
            }
            Some(WalkerEvent::Record { block, record, ctx }) => {
                if block == ir::module_block::ID && record.code == ir::module_block::Vstoffset::CODE {
                    offsets_recorded = true;
                }
                let step = llvm_step(block, &record, ctx, &mut encoded, edit)?;
                if let Step::Edited { .. } = step {
                    edited = true;
                    out.stats.edited += 1;
                }
                (step, Some(record.bit_offset))
            }
        };
        let definitions = walker.take_definitions();
        if dropping.is_some() {
            continue;
        }
        out.definitions(definitions)?;
        // An entry of the module (its own block included) written elsewhere than it was.
        if let (Some(_), Some(at), None) = (module, at, out.moved_at) {
            // Input offsets count from the file's start, the writer's from the stream's.
            if out.w.position() + stream_start != at {
                out.moved_at = Some(at);
            }
        }
        out.step(step, &encoded, llvm_name)?;
    }
    if let (true, Some(at)) = (offsets_recorded, out.moved_at) {
        let msg = "an edited record changed length, which moves the blocks that the module's \
                   VSTOFFSET and function entries point at"
            .to_string();
        return Err(Error::new(ErrorKind::Write(msg), at));
    }
    Ok(())
}

/// The step for `record` of an LLVM IR `block`, its typed value offered to `edit` first
/// and encoded into `encoded`: edited when the edit changed it, typed when it gives back
/// what was read, else raw.
///
/// # Errors
///
/// When an edited value cannot be encoded.
fn llvm_step<'a>(
    block: u32,
    record: &Record<'_, 'a>,
    ctx: &mut crate::llvm::LlvmContext,
    encoded: &mut EncodedRecord<'a>,
    edit: &mut dyn Edit,
) -> Result<Step<'a>> {
    if block == BLOCKINFO {
        return Ok(Step::record(block, record, None));
    }
    Ok(match ir::decode_record(block, record, ctx) {
        Ok(mut value) if !value.is_unknown() => {
            if edit(&mut value) {
                value.encode_into(&*ctx, record.ops.len(), encoded)?;
                Step::Edited { abbrev_id: record.abbrev_id }
            } else {
                let result = value.encode_into(&*ctx, record.ops.len(), encoded);
                Step::record(block, record, Some(result.map(|()| &*encoded)))
            }
        }
        _ => Step::record(block, record, None),
    })
}

/// The edit that changes nothing.
fn no_edit(_: &mut ir::AnyRecord<'_>) -> bool {
    false
}

/// Names a record of an LLVM IR block (or the block) for the raw counts.
fn llvm_name(block: u32, code: u32) -> Option<&'static str> {
    ir::record_name(block, code).or_else(|| ir::block_name(block))
}

/// A stream read with a plain cursor, `typed` giving a record's encoding when a schema
/// types it.
fn rewrite_with<'a>(
    mut cursor: Cursor<'a>,
    out: &mut Replay<'_>,
    mut typed: impl FnMut(u32, &Record<'_, 'a>, &mut EncodedRecord<'a>) -> Option<Result<()>>,
) -> Result<()> {
    cursor.keep_definitions();
    let mut encoded = EncodedRecord::new(0, Vec::new());
    loop {
        let block = cursor.current_block().unwrap_or(u32::MAX);
        let step = match cursor.next_entry()? {
            None => break,
            Some(Entry::Block(header)) => Step::Block(header),
            Some(Entry::EndBlock(_)) => Step::End,
            Some(Entry::Record(record)) => {
                let result = if block == BLOCKINFO { None } else { typed(block, &record, &mut encoded) };
                Step::record(block, &record, result.map(|r| r.map(|()| &encoded)))
            }
        };
        out.definitions(cursor.take_definitions())?;
        out.step(step, &encoded, |_, _| None)?;
    }
    Ok(())
}

/// The BLOCKINFO block's id.
const BLOCKINFO: u32 = bitcode_schema_runtime::cursor::BLOCKINFO_BLOCK_ID;

/// The abbreviation id of an unabbreviated record.
const UNABBREVIATED: u32 = 3;

/// One entry to write, owned (the reader's record borrows the reader). A typed or edited
/// record's encoding is the one the rewrite encoded it into, given beside the step.
enum Step<'a> {
    Block(BlockHeader),
    End,
    /// A record written from its typed value's encoding.
    Typed {
        abbrev_id: u32,
    },
    /// A record an edit changed, written from its new value.
    Edited {
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
    fn record(block: u32, record: &Record<'_, 'a>, encoded: Option<Result<&EncodedRecord<'_>>>) -> Self {
        let why = match encoded {
            Some(Ok(encoded)) if encoded.gives_back(record) => {
                return Step::Typed { abbrev_id: record.abbrev_id };
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

/// The writer and the counts.
struct Replay<'s> {
    w: StreamWriter,
    stats: &'s mut RewriteStats,
    /// The first entry of a module found at another bit offset than in the input (after
    /// an edited record that changed length).
    moved_at: Option<u64>,
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
    fn step(
        &mut self,
        step: Step<'_>,
        encoded: &EncodedRecord<'_>,
        name: impl Fn(u32, u32) -> Option<&'static str>,
    ) -> Result<()> {
        match step {
            Step::Block(header) => {
                self.stats.blocks += 1;
                self.w.enter_block(header.id, header.abbrev_width)
            }
            Step::End => self.w.end_block(),
            Step::Typed { abbrev_id } => {
                self.stats.records += 1;
                self.stats.typed += 1;
                self.w.record(encoded, (abbrev_id != UNABBREVIATED).then_some(abbrev_id))
            }
            Step::Edited { abbrev_id } => {
                self.stats.records += 1;
                self.stats.typed += 1;
                // The new value may no longer fit the abbreviation (a literal, a width);
                // the writer checks before it writes a bit.
                let abbreviated =
                    abbrev_id != UNABBREVIATED && self.w.record(encoded, Some(abbrev_id)).is_ok();
                if abbreviated {
                    Ok(())
                } else {
                    self.w.record(encoded, None)
                }
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

/// The rewritten file as it is put together, front to back: the input's bytes up to a
/// stream, the stream's rewrite, and so on.
struct Spliced {
    bytes: Vec<u8>,
    /// How much of the input is accounted for: copied, or replaced by a rewrite.
    copied: usize,
}

impl Spliced {
    /// Appends the input from where the last stream ended up to `stream`, then `written`
    /// in its place; a wrapper's size field follows the new length.
    fn splice(&mut self, file: &[u8], stream: &Bitstream<'_>, written: &[u8], in_object: bool) -> Result<()> {
        let start = stream.file_offset() as usize;
        let old = stream.data();
        let refuse = |msg: String| Err(Error::new(ErrorKind::Write(msg), start as u64 * 8));
        // A stream read from the file itself lies in it (a decompressed one does not).
        if !std::ptr::eq(old.as_ptr(), file.as_ptr().wrapping_add(start)) || start > file.len() {
            return refuse(format!("the stream at byte {start} is compressed in its file"));
        }
        if in_object && written.len() != old.len() {
            let (new, old) = (written.len(), old.len());
            return refuse(format!(
                "the section's stream at byte {start} was rewritten as {new} bytes instead of {old}"
            ));
        }
        let Some(before) = file.get(self.copied..start) else {
            return refuse(format!("the stream at byte {start} overlaps the one before it"));
        };
        self.bytes.extend_from_slice(before);
        if let (Some(wrapper), Ok(size)) = (stream.wrapper(), u32::try_from(written.len())) {
            // The size field is the header's fourth 32-bit word; the header ends where the
            // stream starts, `wrapper.offset` bytes after its own start.
            let back = (wrapper.offset as usize).checked_sub(12);
            let field = back.and_then(|back| self.bytes.len().checked_sub(back));
            if let Some(field) = field.and_then(|at| self.bytes.get_mut(at..at + 4)) {
                field.copy_from_slice(&size.to_le_bytes());
            }
        }
        self.bytes.extend_from_slice(written);
        self.copied = start + old.len();
        Ok(())
    }
}
