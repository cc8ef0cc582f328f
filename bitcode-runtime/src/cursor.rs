//! `Cursor`: walks a bitstream entry by entry (block starts, block ends, records), keeping
//! the scope stack, applying DEFINE_ABBREV and BLOCKINFO as they pass.

use std::sync::Arc;

use smallvec::SmallVec;

use crate::abbrev::{Abbrev, AbbrevOp, ScalarEncoding};
use crate::bits::{decode_char6, BitReader, FAST_WIDTH};
use crate::blockinfo::{codes as blockinfo_codes, name_from_ops, BlockInfoBuilder, BlockInfoStore};
use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;
pub use crate::limits::DEFAULT_MAX_DEPTH;
pub use crate::path::BlockPath;

/// The fixed abbreviation ids every block has.
pub mod abbrev_ids {
    /// Ends the current block.
    pub const END_BLOCK: u32 = 0;
    /// Starts a nested block.
    pub const ENTER_SUBBLOCK: u32 = 1;
    /// Defines an abbreviation for the current block.
    pub const DEFINE_ABBREV: u32 = 2;
    /// A record written without an abbreviation (every field VBR6).
    pub const UNABBREV_RECORD: u32 = 3;
    /// The first id an abbreviation gets.
    pub const FIRST_DEFINED: u32 = 4;
}

/// The id of the BLOCKINFO block.
pub const BLOCKINFO_BLOCK_ID: u32 = 0;

/// The abbreviation id width at the top level of every stream.
pub const TOP_LEVEL_ABBREV_WIDTH: u32 = 2;

/// A block the cursor has just entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockHeader {
    /// The block id.
    pub id: u32,
    /// The width of abbreviation ids inside the block.
    pub abbrev_width: u32,
    /// The block's length in 32-bit words (after the length word, END_BLOCK included).
    pub words: u32,
    /// Absolute bit offset of the block's ENTER_SUBBLOCK.
    pub bit_offset: u64,
}

/// One record: its code, how it was written, its operands and its blob.
///
/// `ops` borrows the cursor's reused buffer (valid until the next call on the cursor);
/// `blob` borrows the input itself; `path` points at the cursor's blocks, so that errors
/// about the record (a typed decoder's) say where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Record<'c, 'a> {
    /// The record code.
    pub code: u32,
    /// The abbreviation id it was written with (3 = UNABBREV_RECORD).
    pub abbrev_id: u32,
    /// The operands after the code: literals included, array elements in place, char6
    /// decoded to characters; a blob is not among them.
    pub ops: &'c [u64],
    /// The blob operand's bytes, when the abbreviation has one.
    pub blob: Option<&'a [u8]>,
    /// Absolute bit offset of the record (its abbreviation id).
    pub bit_offset: u64,
    /// The blocks enclosing the record ([`BlockPath::UNKNOWN`] for a record built by hand).
    pub path: BlockPath<'c>,
}

impl<'c, 'a> Record<'c, 'a> {
    /// A record built by hand: `code` and `ops`, unabbreviated, without a blob, at bit 0,
    /// in no known block (for feeding a typed decoder directly).
    ///
    /// ```
    /// use bitcode_schema_runtime::Record;
    /// let ops = [1, 2, 3];
    /// let record = Record::new(7, &ops).with_blob(b"bytes").with_bit_offset(128);
    /// assert_eq!((record.code, record.ops, record.blob), (7, &ops[..], Some(&b"bytes"[..])));
    /// assert_eq!((record.bit_offset, record.abbreviation()), (128, None));
    /// ```
    pub fn new(code: u32, ops: &'c [u64]) -> Self {
        Record {
            code,
            abbrev_id: abbrev_ids::UNABBREV_RECORD,
            ops,
            blob: None,
            bit_offset: 0,
            path: BlockPath::UNKNOWN,
        }
    }

    /// The record with `blob` as its blob operand.
    pub fn with_blob(self, blob: &'a [u8]) -> Self {
        Record { blob: Some(blob), ..self }
    }

    /// The record at absolute bit offset `bit_offset` (what its errors report).
    pub fn with_bit_offset(self, bit_offset: u64) -> Self {
        Record { bit_offset, ..self }
    }

    /// The record as written with abbreviation id `abbrev_id`.
    pub fn with_abbrev_id(self, abbrev_id: u32) -> Self {
        Record { abbrev_id, ..self }
    }

    /// The record inside the blocks of `path`.
    pub fn with_path(self, path: BlockPath<'c>) -> Self {
        Record { path, ..self }
    }

    /// The abbreviation id, or `None` for an unabbreviated record.
    pub fn abbreviation(&self) -> Option<u32> {
        (self.abbrev_id != abbrev_ids::UNABBREV_RECORD).then_some(self.abbrev_id)
    }
}

/// What the cursor found next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry<'c, 'a> {
    /// A block starts; its entries follow, up to the matching `EndBlock`.
    Block(BlockHeader),
    /// The block with this id ends.
    EndBlock(u32),
    /// A record of the current block.
    Record(Record<'c, 'a>),
}

#[derive(Clone, Debug)]
struct Scope {
    block_id: u32,
    abbrev_width: u32,
    /// Where the block's length says it ends (relative to the reader).
    end_bit: u64,
    /// Where the block's first entry starts, after its length word (relative to the reader).
    body_bit: u64,
    /// Abbreviations from BLOCKINFO, as they were when the block was entered.
    inherited: Option<Arc<[Abbrev]>>,
    /// Abbreviations the block defined itself; their ids follow the inherited ones. Shared
    /// (copied on the next definition) so that cloning a cursor allocates nothing.
    own: Option<Arc<Vec<Abbrev>>>,
}

impl Scope {
    #[inline]
    fn abbrev(&self, id: u64) -> Option<&Abbrev> {
        let index = usize::try_from(id.checked_sub(abbrev_ids::FIRST_DEFINED as u64)?).ok()?;
        let inherited = self.inherited.as_deref().unwrap_or(&[]);
        match inherited.get(index) {
            Some(a) => Some(a),
            None => self.own.as_deref()?.get(index - inherited.len()),
        }
    }

    fn abbrev_count(&self) -> usize {
        self.inherited.as_deref().map_or(0, <[Abbrev]>::len) + self.own.as_deref().map_or(0, Vec::len)
    }

    fn define(&mut self, abbrev: Abbrev) {
        Arc::make_mut(self.own.get_or_insert_with(Arc::default)).push(abbrev);
    }
}

/// The blocks enclosing a cursor. The innermost, which every entry reads, is held apart
/// from the others so that reaching it takes no indirection; LLVM IR nests four deep at
/// most, so the others are held inline too, and cloning a cursor (for each block read on
/// another thread) allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct ScopeStack {
    innermost: Option<Scope>,
    /// The enclosing blocks of the innermost one, outermost first.
    outer: SmallVec<[Scope; 3]>,
}

impl ScopeStack {
    #[inline(always)]
    fn last(&self) -> Option<&Scope> {
        self.innermost.as_ref()
    }

    #[inline]
    fn last_mut(&mut self) -> Option<&mut Scope> {
        self.innermost.as_mut()
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.outer.len() + usize::from(self.innermost.is_some())
    }

    /// The block ids, outermost first.
    pub(crate) fn block_ids(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.iter().map(|s| s.block_id)
    }

    fn push(&mut self, scope: Scope) {
        if let Some(enclosing) = self.innermost.replace(scope) {
            self.outer.push(enclosing);
        }
    }

    fn pop(&mut self) {
        self.innermost = self.outer.pop();
    }

    /// The scopes, outermost first.
    fn iter(&self) -> ScopeIter<'_> {
        ScopeIter { scopes: self.outer.iter().chain(self.innermost.iter()), left: self.len() }
    }
}

/// The scopes of a [`ScopeStack`], outermost first, with their count known.
struct ScopeIter<'s> {
    scopes: std::iter::Chain<std::slice::Iter<'s, Scope>, std::option::Iter<'s, Scope>>,
    left: usize,
}

impl<'s> Iterator for ScopeIter<'s> {
    type Item = &'s Scope;

    fn next(&mut self) -> Option<&'s Scope> {
        let scope = self.scopes.next()?;
        self.left -= 1;
        Some(scope)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ScopeIter<'_> {}

/// Walks the entries of a bitstream (see [`crate::Bitstream::cursor`]).
///
/// ```no_run
/// # fn demo(bytes: &[u8]) -> bitcode_schema_runtime::Result<()> {
/// use bitcode_schema_runtime::{Bitstream, Entry};
/// let stream = Bitstream::new(bytes)?;
/// let mut cursor = stream.cursor();
/// while let Some(entry) = cursor.next_entry()? {
///     match entry {
///         Entry::Block(header) => println!("enter {}", header.id),
///         Entry::EndBlock(id) => println!("end {id}"),
///         Entry::Record(record) => println!("record {} {:?}", record.code, record.ops),
///     }
/// }
/// # Ok(()) }
/// ```
///
/// A cursor is cheap to clone (the BLOCKINFO contents are shared): a clone taken right
/// after a block starts reads that block on its own, e.g. on another thread, while the
/// original skips it with [`Cursor::skip_block`].
#[derive(Debug)]
pub struct Cursor<'a> {
    reader: BitReader<'a>,
    /// Where the reader's bit 0 lies in the caller's input.
    base_bit: u64,
    scopes: ScopeStack,
    blockinfo: Arc<BlockInfoStore>,
    /// Present while inside a BLOCKINFO block.
    blockinfo_builder: Option<BlockInfoBuilder>,
    ops: Vec<u64>,
    entry_start: u64,
    limits: Limits,
    /// Records read so far (for [`Limits::max_records`]).
    records: u64,
    /// Whether block length words are held to where blocks really end (see
    /// [`Cursor::check_block_lengths`]).
    strict_lengths: bool,
    /// The abbreviation definitions read and not yet taken, when they are kept (see
    /// [`Cursor::keep_definitions`]).
    definitions: Option<Vec<Abbrev>>,
}

impl Clone for Cursor<'_> {
    /// A cursor at the same place, with the same scopes, BLOCKINFO and limits; the
    /// operands of the record read last, which borrow the cursor, are not copied.
    // Nothing is allocated: the clone's operand buffer grows with the clone's own records
    // (on the thread that reads them). Reserving the original's capacity, that of the
    // longest record read so far, cost each block handed out 20 KiB in a large module.
    fn clone(&self) -> Self {
        Cursor {
            reader: self.reader.clone(),
            base_bit: self.base_bit,
            scopes: self.scopes.clone(),
            blockinfo: Arc::clone(&self.blockinfo),
            blockinfo_builder: self.blockinfo_builder.clone(),
            ops: Vec::new(),
            entry_start: self.entry_start,
            limits: self.limits,
            records: self.records,
            strict_lengths: self.strict_lengths,
            definitions: self.definitions.as_ref().map(|_| Vec::new()),
        }
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at bit `start_bit` of `data` (usually 32, past the magic; a start past
    /// the end means the end), reporting bit offsets as `base_bit` plus the position in
    /// `data`.
    pub fn new(data: &'a [u8], start_bit: u64, base_bit: u64) -> Self {
        let mut reader = BitReader::new(data);
        let start_bit = start_bit.min(reader.len_bits());
        // In range after the clamp, so this cannot fail.
        let _ = reader.jump_to(start_bit);
        Cursor {
            reader,
            base_bit,
            scopes: ScopeStack::default(),
            blockinfo: Arc::default(),
            blockinfo_builder: None,
            ops: Vec::new(),
            entry_start: start_bit,
            limits: Limits::default(),
            records: 0,
            strict_lengths: false,
            definitions: None,
        }
    }

    /// From now on, keeps each DEFINE_ABBREV the cursor reads (applied as always) for
    /// [`Cursor::take_definitions`]: for writers that give a stream back as it was written.
    pub fn keep_definitions(&mut self) {
        self.definitions.get_or_insert_with(Vec::new);
    }

    /// The abbreviation definitions read since the last call, in stream order: right after
    /// [`Cursor::next_entry`], those written before the entry it returned. Always empty
    /// without [`Cursor::keep_definitions`].
    pub fn take_definitions(&mut self) -> Vec<Abbrev> {
        self.definitions.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Sets how deep blocks may nest before the cursor reports [`ErrorKind::TooDeep`].
    pub fn set_max_depth(&mut self, depth: usize) {
        self.limits.max_depth = depth;
    }

    /// Sets all the cursor's limits (see [`Limits`]; [`crate::Bitstream::with_limits`] sets
    /// them for every cursor of a stream).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The cursor's limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// With `true`, a block whose length word runs past the input is an error where the
    /// block starts ([`ErrorKind::BlockBeyondInput`]), and an END_BLOCK that is not where
    /// the length word says is one there ([`ErrorKind::BlockLengthMismatch`]). Off by
    /// default: LLVM's bitstream reader (llvm-bcanalyzer, clang's readers) never checks a
    /// length word while walking, only when it skips a block by it. Readers that skip blocks
    /// by their lengths, and so depend on them, turn it on (the LLVM IR walks do).
    pub fn check_block_lengths(&mut self, strict: bool) {
        self.strict_lengths = strict;
    }

    /// The absolute bit offset of the next entry.
    #[inline]
    pub fn position(&self) -> u64 {
        self.base_bit + self.reader.position()
    }

    /// The absolute bit offset where the entry last returned started.
    #[inline]
    pub fn entry_offset(&self) -> u64 {
        self.base_bit + self.entry_start
    }

    /// How many bits of the innermost enclosing block are left, by its length word (0
    /// outside any block): a bound a reader can size what it builds from the block by.
    #[inline]
    pub fn bits_left_in_block(&self) -> u64 {
        self.scopes.last().map_or(0, |s| s.end_bit.saturating_sub(self.reader.position()))
    }

    /// How many blocks enclose the cursor.
    #[inline]
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// The id of the innermost enclosing block.
    #[inline]
    pub fn current_block(&self) -> Option<u32> {
        self.scopes.last().map(|s| s.block_id)
    }

    /// The ids of the enclosing blocks, outermost first.
    pub fn block_path(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.scopes.iter().map(|s| s.block_id)
    }

    /// What the last BLOCKINFO block declared (names and abbreviations by block id).
    pub fn block_info(&self) -> &BlockInfoStore {
        &self.blockinfo
    }

    /// What the last BLOCKINFO block declared, shared: cheap to keep, and
    /// [`Arc::ptr_eq`] tells whether two cursors (a clone and its original, say) read
    /// later blocks with the same BLOCKINFO.
    pub fn shared_block_info(&self) -> Arc<BlockInfoStore> {
        Arc::clone(&self.blockinfo)
    }

    /// Adds the block path and the caller's offset to an error from the reader.
    #[cold]
    fn locate(&self, err: Error) -> Error {
        err.with_block_path(self.block_path()).shifted(self.base_bit)
    }

    /// Adds the path of the blocks enclosing the cursor to `err` when it has none: for
    /// errors the caller's own code builds (typed decoders' errors carry the path of their
    /// record, [`Record::path`], already).
    #[cold]
    pub fn with_block_path(&self, err: Error) -> Error {
        if err.block_path().is_empty() {
            err.with_block_path(self.block_path())
        } else {
            err
        }
    }

    #[cold]
    fn error_at(&self, kind: ErrorKind, relative_bit: u64) -> Error {
        self.locate(Error::new(kind, relative_bit))
    }

    #[cold]
    fn limit_exceeded(&self, what: &'static str, count: u64, limit: u64, relative_bit: u64) -> Error {
        self.error_at(ErrorKind::LimitExceeded { what, count, limit }, relative_bit)
    }

    /// The next entry, or `None` at the end of the stream. DEFINE_ABBREV records are
    /// applied, not returned; BLOCKINFO records are applied and returned.
    // Inlined into the caller's loop (across crates too), the entry is matched where it is
    // built rather than copied out through the result: 12% of a raw walk's instructions.
    #[inline(always)]
    pub fn next_entry(&mut self) -> Result<Option<Entry<'_, 'a>>> {
        loop {
            let start = self.reader.position();
            self.entry_start = start;
            let Some(scope) = self.scopes.last() else {
                return self.next_top_level(start);
            };
            let id = match self.reader.read(scope.abbrev_width) {
                // LLVM reads an abbreviation id as a 32-bit `unsigned` (`ReadCode`): of an
                // id field wider than 32 bits, only the low 32 bits count.
                Ok(id) => id & u64::from(u32::MAX),
                Err(e) => return Err(self.locate(e)),
            };
            match id {
                0 => return self.end_block(start).map(|id| Some(Entry::EndBlock(id))),
                1 => return self.enter_block(start).map(|h| Some(Entry::Block(h))),
                2 => self.define_abbrev(start)?,
                _ => {
                    let (code, blob) = match self.read_record_body(id, start) {
                        Ok(r) => r,
                        Err(e) => return Err(self.locate(e)),
                    };
                    self.records += 1;
                    if self.records > self.limits.max_records {
                        return Err(self.limit_exceeded(
                            "records",
                            self.records,
                            self.limits.max_records,
                            start,
                        ));
                    }
                    if self.blockinfo_builder.is_some() {
                        self.apply_blockinfo_record(code, id, blob, start)?;
                    }
                    let bit_offset = self.base_bit + start;
                    let path = BlockPath::of(&self.scopes);
                    let record =
                        Record { code, abbrev_id: id as u32, ops: &self.ops, blob, bit_offset, path };
                    return Ok(Some(Entry::Record(record)));
                }
            }
        }
    }

    fn next_top_level(&mut self, start: u64) -> Result<Option<Entry<'_, 'a>>> {
        // As in llvm-bcanalyzer (and clang's readers), anything after the last top-level
        // block must start another block: trailing zero bytes read as an END_BLOCK there.
        if self.reader.at_end() {
            return Ok(None);
        }
        let id = self.reader.read(TOP_LEVEL_ABBREV_WIDTH).map_err(|e| self.locate(e))?;
        match id {
            1 => self.enter_block(start).map(|h| Some(Entry::Block(h))),
            0 => Err(self.error_at(ErrorKind::EndBlockAtTopLevel, start)),
            other => Err(self.error_at(ErrorKind::NotABlockAtTopLevel { abbrev_id: other }, start)),
        }
    }

    /// Reads a record after its abbreviation id; returns the code and the blob.
    // Part of `next_entry`'s loop body (an out-of-line call costs 8% of a raw walk).
    #[inline(always)]
    fn read_record_body(&mut self, abbrev_id: u64, start: u64) -> Result<(u32, Option<&'a [u8]>)> {
        self.ops.clear();
        if abbrev_id == abbrev_ids::UNABBREV_RECORD as u64 {
            return read_unabbreviated(&mut self.reader, &mut self.ops, &self.limits);
        }
        let scope = self.scopes.last();
        let Some(abbrev) = scope.and_then(|s| s.abbrev(abbrev_id)) else {
            let defined = scope.map_or(0, Scope::abbrev_count);
            return Err(Error::new(ErrorKind::UndefinedAbbrev { id: abbrev_id, defined }, start));
        };
        read_abbreviated(&mut self.reader, abbrev_id, start, abbrev, &mut self.ops, &self.limits)
    }

    fn enter_block(&mut self, start: u64) -> Result<BlockHeader> {
        let read = read_block_header(&mut self.reader, self.base_bit, self.strict_lengths);
        let (id, abbrev_width, words, end_bit) = read.map_err(|e| self.locate(e))?;
        if self.scopes.len() >= self.limits.max_depth {
            return Err(self.error_at(ErrorKind::TooDeep { limit: self.limits.max_depth }, start));
        }
        let inherited = self.blockinfo.get(id).map(|info| info.abbrevs.clone()).filter(|a| !a.is_empty());
        let body_bit = self.reader.position();
        self.scopes.push(Scope { block_id: id, abbrev_width, end_bit, body_bit, inherited, own: None });
        // LLVM reads a BLOCKINFO block in two passes: first what it declares, skipping any
        // block inside it by its length, then its entries, with what it declares in force
        // for the blocks inside it. (The scan itself enters no BLOCKINFO block.)
        if id == BLOCKINFO_BLOCK_ID && self.blockinfo_builder.is_none() {
            let mut scan = self.clone();
            scan.blockinfo_builder = Some(BlockInfoBuilder::default());
            self.blockinfo = scan.declared_by_blockinfo()?;
        }
        Ok(BlockHeader { id, abbrev_width, words, bit_offset: self.base_bit + start })
    }

    /// Reads the BLOCKINFO block just entered to its end, applying its records and
    /// skipping the blocks inside it; gives what it declares.
    #[cold]
    fn declared_by_blockinfo(mut self) -> Result<Arc<BlockInfoStore>> {
        loop {
            match self.next_entry()? {
                Some(Entry::Block(_)) => self.skip_block()?,
                Some(Entry::Record(_)) => {}
                // The END_BLOCK installed what the block declared.
                Some(Entry::EndBlock(_)) | None => return Ok(self.blockinfo),
            }
        }
    }

    fn end_block(&mut self, start: u64) -> Result<u32> {
        self.reader.align32();
        let Some(scope) = self.scopes.last() else {
            return Err(self.error_at(ErrorKind::EndBlockAtTopLevel, start));
        };
        let actual = self.reader.position();
        if self.strict_lengths && actual != scope.end_bit {
            let kind = ErrorKind::BlockLengthMismatch {
                declared_end: self.base_bit + scope.end_bit,
                actual_end: self.base_bit + actual,
            };
            return Err(self.error_at(kind, start));
        }
        let id = scope.block_id;
        self.scopes.pop();
        if let Some(builder) = self.blockinfo_builder.take() {
            self.blockinfo = Arc::new(builder.finish());
        }
        Ok(id)
    }

    fn define_abbrev(&mut self, start: u64) -> Result<()> {
        let abbrev = Abbrev::read_definition(&mut self.reader).map_err(|e| self.locate(e))?;
        let max = self.limits.max_abbrevs_per_block;
        let count = match self.blockinfo_builder.as_mut() {
            Some(builder) => builder.current_abbrev_count(),
            None => self.scopes.last().map_or(0, Scope::abbrev_count),
        };
        if count >= max {
            return Err(self.limit_exceeded(
                "abbreviations in one block",
                count as u64 + 1,
                max as u64,
                start,
            ));
        }
        if let Some(kept) = self.definitions.as_mut() {
            kept.push(abbrev.clone());
        }
        if let Some(builder) = self.blockinfo_builder.as_mut() {
            if !builder.add_abbrev(abbrev) {
                return Err(self.error_at(ErrorKind::BlockInfoWithoutSetBid { code: None }, start));
            }
        } else if let Some(scope) = self.scopes.last_mut() {
            // In BLOCKINFO a definition is a declaration for other blocks, which the scan
            // at the block's start has taken already.
            if scope.block_id != BLOCKINFO_BLOCK_ID {
                scope.define(abbrev);
            }
        }
        Ok(())
    }

    /// Applies a record of a BLOCKINFO block. LLVM's BLOCKINFO reader reads its records
    /// without a blob, so a blob's bytes stand among the operands where the blob is.
    fn apply_blockinfo_record(
        &mut self,
        code: u32,
        abbrev_id: u64,
        blob: Option<&[u8]>,
        start: u64,
    ) -> Result<()> {
        let in_place = blob.and_then(|bytes| {
            let abbrev = self.scopes.last()?.abbrev(abbrev_id)?;
            Some(abbrev.operands_with_blob_in_place(&self.ops, bytes))
        });
        let ops = in_place.as_deref().unwrap_or(&self.ops);
        let Some(builder) = self.blockinfo_builder.as_mut() else { return Ok(()) };
        let ok = match code {
            // LLVM keeps the low 32 bits of the block id and of SETRECORDNAME's code.
            blockinfo_codes::SETBID => match ops.first() {
                Some(&id) => {
                    builder.set_bid(id as u32);
                    true
                }
                None => return Err(self.error_at(ErrorKind::MalformedBlockInfoRecord { code }, start)),
            },
            blockinfo_codes::BLOCKNAME => builder.set_block_name(name_from_ops(ops)),
            blockinfo_codes::SETRECORDNAME => {
                if !builder.has_current() {
                    false
                } else {
                    match ops.split_first() {
                        Some((&c, name)) => builder.set_record_name(c as u32, name_from_ops(name)),
                        None => {
                            return Err(self.error_at(ErrorKind::MalformedBlockInfoRecord { code }, start))
                        }
                    }
                }
            }
            _ => true, // other records in BLOCKINFO mean nothing; LLVM ignores them too
        };
        if ok {
            Ok(())
        } else {
            Err(self.error_at(ErrorKind::BlockInfoWithoutSetBid { code: Some(code) }, start))
        }
    }

    /// Skips the rest of the innermost block using its length word, in O(1), and leaves
    /// the cursor after its END_BLOCK; the length must keep the block within the input. (What
    /// a BLOCKINFO block declares is in force from its start, so it may be skipped too.)
    /// Call it right after [`Entry::Block`] to skip a whole block.
    pub fn skip_block(&mut self) -> Result<()> {
        let Some(scope) = self.scopes.last() else {
            return Err(self.error_at(ErrorKind::EndBlockAtTopLevel, self.reader.position()));
        };
        let end = scope.end_bit;
        if end > self.reader.len_bits() {
            // Where the length word is: the 32 bits before the block's first entry.
            let words = (end - scope.body_bit) / 32;
            let kind = ErrorKind::BlockBeyondInput {
                words,
                end_bit: self.base_bit + end,
                input_bits: self.base_bit + self.reader.len_bits(),
            };
            return Err(self.error_at(kind, scope.body_bit - 32));
        }
        self.reader.jump_to(end).map_err(|e| self.locate(e))?;
        self.scopes.pop();
        Ok(())
    }

    /// The header of the block the next entry starts, when the next entry starts a block
    /// whose header reads without error; `None` otherwise. Reads ahead: the cursor does not
    /// move, and nothing is applied (a DEFINE_ABBREV next gives `None`).
    pub fn peek_block_header(&self) -> Option<BlockHeader> {
        let width = self.scopes.last().map_or(TOP_LEVEL_ABBREV_WIDTH, |s| s.abbrev_width);
        let mut r = self.reader.clone();
        let start = r.position();
        if r.read(width).ok()? != u64::from(abbrev_ids::ENTER_SUBBLOCK) {
            return None;
        }
        let (id, abbrev_width, words, _) =
            read_block_header(&mut r, self.base_bit, self.strict_lengths).ok()?;
        Some(BlockHeader { id, abbrev_width, words, bit_offset: self.base_bit + start })
    }
}

/// Reads a block header after its ENTER_SUBBLOCK id: the block id, the abbreviation width,
/// alignment and the length word. Returns the id, the width, the length in words and where
/// the block ends (with `strict`, checked against the input; `base` makes that error's
/// offsets absolute).
fn read_block_header(r: &mut BitReader<'_>, base: u64, strict: bool) -> Result<(u32, u32, u32, u64)> {
    // LLVM reads the id and the width as 32-bit VBRs (see `BitReader::read_vbr32`).
    let id = r.read_vbr32(8)? as u32;
    let width_start = r.position();
    let width = r.read_vbr32(4)?;
    if width == 0 || width > 64 {
        return Err(Error::new(ErrorKind::AbbrevWidthOutOfRange { width }, width_start));
    }
    r.align32();
    let length_start = r.position();
    let words = r.read(32)?;
    let end_bit = r.position() + words * 32;
    if strict && end_bit > r.len_bits() {
        // Absolute, like the error's own offset.
        let (end_bit, input_bits) = (base + end_bit, base + r.len_bits());
        let kind = ErrorKind::BlockBeyondInput { words, end_bit, input_bits };
        return Err(Error::new(kind, length_start));
    }
    Ok((id, width as u32, words as u32, end_bit))
}

// This and the three below are the body of `read_record_body`, inlined with it: left to
// the compiler, they were out of line after an unrelated change to `next_entry`.
/// Reads an UNABBREV_RECORD body: VBR6 code, VBR6 count, that many VBR6 operands.
#[inline(always)]
fn read_unabbreviated<'a>(
    r: &mut BitReader<'a>,
    ops: &mut Vec<u64>,
    limits: &Limits,
) -> Result<(u32, Option<&'a [u8]>)> {
    // Topped up once here, the code and the count read without testing what is cached
    // (that test, per field, was 11% of the walk's mispredicted branches on sqlite3_O2_g).
    r.top_up();
    let code = r.read_vbr32(6)? as u32;
    match read_unabbreviated_ops(r, ops, limits) {
        Ok(()) => Ok((code, None)),
        Err(e) => Err(e.with_record_code(code)),
    }
}

#[inline(always)]
fn read_unabbreviated_ops(r: &mut BitReader<'_>, ops: &mut Vec<u64>, limits: &Limits) -> Result<()> {
    let count_start = r.position();
    let count = r.read_vbr32(6)?;
    let claimed = Count { what: "record operands", count, min_bits: 6, already: 0 };
    check_count(r, claimed, count_start, limits)?;
    r.read_vbr_run::<6>(count, ops)
}

/// Reads an abbreviated record body as `abbrev` lays it out.
#[inline(always)]
fn read_abbreviated<'a>(
    r: &mut BitReader<'a>,
    abbrev_id: u64,
    start: u64,
    abbrev: &Abbrev,
    ops: &mut Vec<u64>,
    limits: &Limits,
) -> Result<(u32, Option<&'a [u8]>)> {
    let (first, rest) = match abbrev.ops().split_first() {
        Some(split) => split,
        None => return Err(unusable_abbrev(abbrev_id, abbrev, start)),
    };
    // LLVM keeps the low 32 bits of a wider code.
    let code = match *first {
        AbbrevOp::Literal(v) => v as u32,
        AbbrevOp::Scalar(e) => e.read(r)? as u32,
        // `Abbrev` lays out no such record.
        AbbrevOp::Array(_) | AbbrevOp::Blob => {
            let problem = crate::AbbrevProblem::CodeIsArrayOrBlob;
            return Err(Error::new(ErrorKind::UnusableAbbrev { id: abbrev_id, problem }, start));
        }
    };
    match read_abbreviated_ops(r, rest, ops, limits) {
        Ok(blob) => Ok((code, blob)),
        Err(e) => Err(e.with_record_code(code)),
    }
}

/// Reads the operands after the code as `rest` lays them out; returns the blob.
#[inline(always)]
fn read_abbreviated_ops<'a>(
    r: &mut BitReader<'a>,
    rest: &[AbbrevOp],
    ops: &mut Vec<u64>,
    limits: &Limits,
) -> Result<Option<&'a [u8]>> {
    let mut blob = None;
    for op in rest {
        match *op {
            AbbrevOp::Literal(v) => ops.push(v),
            AbbrevOp::Scalar(e) => ops.push(e.read(r)?),
            AbbrevOp::Array(e) => {
                let count_start = r.position();
                let count = r.read_vbr32(6)?;
                let claimed =
                    Count { what: "array elements", count, min_bits: e.min_bits(), already: ops.len() };
                check_count(r, claimed, count_start, limits)?;
                read_array(r, e, count, ops)?;
            }
            AbbrevOp::Blob => blob = Some(read_blob(r, limits)?),
        }
    }
    Ok(blob)
}

/// Reads `count` array elements (already checked against the bits left), with the
/// element encoding matched once rather than per element.
#[inline]
fn read_array(r: &mut BitReader<'_>, element: ScalarEncoding, count: u64, ops: &mut Vec<u64>) -> Result<()> {
    ops.reserve(count as usize);
    match element {
        ScalarEncoding::Fixed(width) if (1..=FAST_WIDTH).contains(&u32::from(width)) => {
            r.read_fixed_run(u32::from(width), count, |v| v, ops)?
        }
        ScalarEncoding::Fixed(width) => {
            for _ in 0..count {
                ops.push(r.read(u32::from(width))?);
            }
        }
        ScalarEncoding::Vbr(6) => r.read_vbr_run::<6>(count, ops)?,
        ScalarEncoding::Vbr(width) => {
            for _ in 0..count {
                ops.push(r.read_vbr(u32::from(width))?);
            }
        }
        ScalarEncoding::Char6 => r.read_fixed_run(6, count, |v| u64::from(decode_char6(v)), ops)?,
    }
    Ok(())
}

/// Reads a blob: VBR6 length, align to 32 bits, the bytes, align again. The padded end
/// must lie within the input, as LLVM requires.
fn read_blob<'a>(r: &mut BitReader<'a>, limits: &Limits) -> Result<&'a [u8]> {
    let count_start = r.position();
    let len = r.read_vbr32(6)?;
    if len > limits.max_blob_bytes {
        let kind = ErrorKind::LimitExceeded { what: "blob bytes", count: len, limit: limits.max_blob_bytes };
        return Err(Error::new(kind, count_start));
    }
    r.align32();
    let padded_bits = len.next_multiple_of(4) * 8;
    if padded_bits > r.bits_left() {
        let kind = ErrorKind::CountTooLarge { what: "blob bytes", count: len, bits_left: r.bits_left() };
        return Err(Error::new(kind, count_start));
    }
    let bytes = r.take_bytes(len)?;
    r.align32();
    Ok(bytes)
}

/// A record at `start` uses abbreviation `id`, which no record can use.
#[cold]
fn unusable_abbrev(id: u64, abbrev: &Abbrev, start: u64) -> Error {
    let problem = abbrev.unusable().unwrap_or(crate::AbbrevProblem::NoOperands);
    Error::new(ErrorKind::UnusableAbbrev { id, problem }, start)
}

/// How many more operands a record with `already` may take (the format caps any count at
/// `u32::MAX`).
#[inline]
fn max_operands(limits: &Limits, already: usize) -> u64 {
    limits.max_record_operands.min(u32::MAX as u64).saturating_sub(already as u64)
}

/// A claimed count of elements, each at least `min_bits` long, joining `already` operands
/// of the record.
#[derive(Clone, Copy)]
struct Count {
    what: &'static str,
    count: u64,
    min_bits: u64,
    already: usize,
}

/// Checks a claimed count before anything is reserved for it: against the bits left and
/// against what the record's operand limit leaves (see [`max_operands`]).
// The errors are built out of line from a few scalars: built from a `Count` passed by
// reference, the struct was written to the stack on every record, error or not.
#[inline(always)]
fn check_count(r: &BitReader<'_>, c: Count, at: u64, limits: &Limits) -> Result<()> {
    if c.count > u32::MAX as u64 || c.count.saturating_mul(c.min_bits) > r.bits_left() {
        return Err(count_too_large(r, c.what, c.count, at));
    }
    let max = max_operands(limits, c.already);
    if c.count > max {
        return Err(operands_over_limit(c.count, c.already, max, at));
    }
    Ok(())
}

/// A claimed count the input cannot hold.
#[cold]
fn count_too_large(r: &BitReader<'_>, what: &'static str, count: u64, at: u64) -> Error {
    Error::new(ErrorKind::CountTooLarge { what, count, bits_left: r.bits_left() }, at)
}

/// A claimed count that takes the record's operands past the limit.
#[cold]
fn operands_over_limit(count: u64, already: usize, max: u64, at: u64) -> Error {
    let already = already as u64;
    Error::new(
        ErrorKind::LimitExceeded { what: "record operands", count: count + already, limit: max + already },
        at,
    )
}
