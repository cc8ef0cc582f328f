//! Writing bitstreams: [`BitWriter`] for raw fields, [`StreamWriter`] for blocks with
//! back-patched lengths, abbreviations, BLOCKINFO, records and blobs.
//!
//! The writer is the reader's counterpart for tests, fuzzing and tools. `StreamWriter`
//! refuses what the format cannot express (a value wider than its field, a record that
//! does not match its abbreviation); deliberately malformed streams are made by writing
//! raw fields through [`StreamWriter::bits`].

use std::collections::BTreeMap;

use crate::abbrev::{Abbrev, AbbrevOp, DefinedOp, ScalarEncoding};
use crate::bits::encode_char6;
use crate::blockinfo::codes as blockinfo_codes;
use crate::container::{Magic, WRAPPER_HEADER_LEN, WRAPPER_MAGIC};
use crate::cursor::{abbrev_ids, BLOCKINFO_BLOCK_ID, TOP_LEVEL_ABBREV_WIDTH};
use crate::encode::EncodedRecord;
use crate::error::{Error, ErrorKind, Result};

/// Writes bit fields LSB-first into a byte vector.
///
/// Fields gather in a 64-bit word, which goes to the bytes 32 bits at a time, as LLVM's
/// writer does: a field costs a few shifts, not a loop over its bytes.
#[derive(Clone, Debug, Default)]
pub struct BitWriter {
    /// The bytes written so far, but for the last `pending` bits.
    bytes: Vec<u8>,
    /// Bits not yet in `bytes`, in the low `pending` bits (fewer than 32).
    word: u64,
    pending: u32,
}

#[cold]
fn write_error(msg: String, at: u64) -> Error {
    Error::new(ErrorKind::Write(msg), at)
}

/// The low `width` bits of `value` (`width` at most 64).
#[inline]
fn low_bits(value: u64, width: u32) -> u64 {
    if width >= 64 {
        value
    } else {
        value & ((1u64 << width) - 1)
    }
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bits written so far.
    #[inline]
    pub fn position(&self) -> u64 {
        self.bytes.len() as u64 * 8 + u64::from(self.pending)
    }

    /// The bytes written so far (a partial last byte is zero-padded).
    pub fn bytes(&self) -> std::borrow::Cow<'_, [u8]> {
        if self.pending == 0 {
            return std::borrow::Cow::Borrowed(&self.bytes);
        }
        std::borrow::Cow::Owned(self.clone().into_bytes())
    }

    /// The bytes written, the last one zero-padded.
    pub fn into_bytes(mut self) -> Vec<u8> {
        let tail = self.pending.div_ceil(8) as usize;
        self.bytes.extend_from_slice(self.word.to_le_bytes().get(..tail).unwrap_or_default());
        self.bytes
    }

    /// Writes the low `width` bits of `value` (`width` at most 64; higher bits are dropped).
    #[inline]
    pub fn write(&mut self, value: u64, width: u32) {
        let width = width.min(64);
        let value = low_bits(value, width);
        let total = self.pending + width;
        // `pending` is below 32, so the shift keeps at least the field's first 32 bits.
        let word = self.word | value << self.pending;
        if total < 32 {
            self.word = word;
            self.pending = total;
            return;
        }
        self.bytes.extend_from_slice(&(word as u32).to_le_bytes());
        // What follows the 32 bits just written: the field from its bit 32 - pending on.
        let mut rest = value >> (32 - self.pending);
        let mut left = total - 32;
        if left >= 32 {
            self.bytes.extend_from_slice(&(rest as u32).to_le_bytes());
            rest >>= 32;
            left -= 32;
        }
        self.word = low_bits(rest, left);
        self.pending = left;
    }

    /// Writes `value` as VBR with `width`-bit chunks (2 to 64; 1 only for the value 0).
    #[inline]
    pub fn write_vbr(&mut self, value: u64, width: u32) -> Result<()> {
        let payload = width.wrapping_sub(1);
        // The common case: the value fits in one chunk.
        if (1..64).contains(&payload) && value >> payload == 0 {
            self.write(value, width);
            return Ok(());
        }
        self.write_vbr_chunks(value, width)
    }

    /// [`write_vbr`](Self::write_vbr) for a value of several chunks, or a width it refuses.
    fn write_vbr_chunks(&mut self, value: u64, width: u32) -> Result<()> {
        if !(1..=64).contains(&width) || (width == 1 && value != 0) {
            return Err(write_error(format!("cannot write {value} as VBR{width}"), self.position()));
        }
        let payload = width - 1;
        if payload == 0 {
            self.write(0, 1);
            return Ok(());
        }
        let mask = (1u64 << payload) - 1;
        let more = 1u64 << payload;
        let mut v = value;
        // As many chunks a write as fit in 64 bits; each but the last with its continuation bit.
        loop {
            let (mut word, mut used) = (0u64, 0u32);
            while used + width <= 64 {
                let chunk = v & mask;
                v >>= payload;
                if v == 0 {
                    self.write(word | chunk << used, used + width);
                    return Ok(());
                }
                word |= (chunk | more) << used;
                used += width;
            }
            self.write(word, used);
        }
    }

    /// Writes a character from `[a-zA-Z0-9._]` as char6.
    pub fn write_char6(&mut self, c: u64) -> Result<()> {
        let code = u8::try_from(c).ok().and_then(encode_char6);
        let code =
            code.ok_or_else(|| write_error(format!("{c} is not a char6 character"), self.position()))?;
        self.write(code, 6);
        Ok(())
    }

    /// Pads with zero bits to the next multiple of 32.
    pub fn align32(&mut self) {
        let at = self.position();
        self.write(0, (at.next_multiple_of(32) - at) as u32);
    }

    /// Writes bytes at a byte-aligned position.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        if !self.pending.is_multiple_of(8) {
            return Err(write_error("bytes at a position that is not byte aligned".into(), self.position()));
        }
        let whole = (self.pending / 8) as usize;
        self.bytes.extend_from_slice(self.word.to_le_bytes().get(..whole).unwrap_or_default());
        (self.word, self.pending) = (0, 0);
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    /// Takes back everything written after the first `bits` bits (nothing when fewer were
    /// written).
    pub fn truncate(&mut self, bits: u64) {
        if bits >= self.position() {
            return;
        }
        let flushed = self.bytes.len() as u64 * 8;
        if bits >= flushed {
            self.pending = (bits - flushed) as u32;
            self.word = low_bits(self.word, self.pending);
            return;
        }
        // The cut falls in the bytes: the bits of its byte before it become the pending ones.
        let keep = (bits / 8) as usize;
        let partial = self.bytes.get(keep).copied().unwrap_or(0);
        self.bytes.truncate(keep);
        self.pending = (bits % 8) as u32;
        self.word = low_bits(u64::from(partial), self.pending);
    }

    /// Overwrites the little-endian 32-bit word at byte `offset` (already written).
    pub fn patch_u32(&mut self, offset: usize, value: u32) -> Result<()> {
        let slot = self.bytes.get_mut(offset..offset + 4);
        let slot =
            slot.ok_or_else(|| write_error(format!("no word at byte {offset} to patch"), offset as u64 * 8))?;
        slot.copy_from_slice(&value.to_le_bytes());
        Ok(())
    }
}

#[derive(Debug)]
struct WriterScope {
    block_id: u32,
    abbrev_width: u32,
    /// Byte offset of the block's length word.
    length_at: usize,
    /// Abbreviations by id - 4: BLOCKINFO's first, then the block's own.
    abbrevs: Vec<Abbrev>,
    /// For a BLOCKINFO block: what it declares so far.
    blockinfo: Option<PendingBlockInfo>,
    /// The block that blocks written apart go into (see [`StreamWriter::for_blocks_apart`]):
    /// its header and its end are written elsewhere.
    enclosing: bool,
}

/// Writes a bitstream: the magic, then blocks and records.
///
/// ```
/// use bitcode_schema_runtime::writer::StreamWriter;
/// use bitcode_schema_runtime::{Abbrev, AbbrevOp, Bitstream, Entry, ScalarEncoding};
/// let mut w = StreamWriter::new(*b"DEMO");
/// w.enter_block(8, 3)?;
/// let id = w.define_abbrev(Abbrev::new(vec![AbbrevOp::Literal(1), AbbrevOp::Array(ScalarEncoding::Char6)]).unwrap())?;
/// w.abbreviated_record(id, 1, b"hello".map(u64::from).as_slice(), None)?;
/// w.end_block()?;
/// let bytes = w.finish()?;
/// let stream = Bitstream::new(&bytes)?;
/// let mut cursor = stream.cursor();
/// assert!(matches!(cursor.next_entry()?, Some(Entry::Block(h)) if h.id == 8));
/// # Ok::<(), bitcode_schema_runtime::Error>(())
/// ```
#[derive(Debug)]
pub struct StreamWriter {
    bits: BitWriter,
    scopes: Vec<WriterScope>,
    /// Abbreviations that BLOCKINFO gives each block id.
    blockinfo: BTreeMap<u32, Vec<Abbrev>>,
}

/// What a BLOCKINFO block being written declares so far, the SETBID in effect, and the
/// ids of the blocks written inside it.
#[derive(Debug, Default)]
struct PendingBlockInfo {
    declared: BTreeMap<u32, Vec<Abbrev>>,
    current: Option<u32>,
    nested: Vec<u32>,
}

impl StreamWriter {
    /// A stream that starts with `magic` (see [`Magic::bytes`]).
    pub fn new(magic: [u8; 4]) -> Self {
        let mut bits = BitWriter::new();
        for b in magic {
            bits.write(b as u64, 8);
        }
        StreamWriter { bits, scopes: Vec::new(), blockinfo: BTreeMap::new() }
    }

    /// Bits written so far, the magic included (a reader's bit offsets count the same way).
    pub fn position(&self) -> u64 {
        self.bits.position()
    }

    /// As [`new`](Self::new), with room for `bytes` bytes of stream made at once (a
    /// rewrite knows its output will be about its input's size).
    pub fn with_capacity(magic: [u8; 4], bytes: usize) -> Self {
        let mut writer = Self::new(magic);
        writer.bits.bytes.reserve(bytes);
        writer
    }

    /// An LLVM IR bitcode stream ('BC' 0xC0DE).
    pub fn llvm_ir() -> Self {
        Self::new(Magic::LlvmIr.bytes())
    }

    /// The raw bit writer, to write fields the structured methods would refuse.
    pub fn bits(&mut self) -> &mut BitWriter {
        &mut self.bits
    }

    /// The abbreviation id width in effect (2 at the top level).
    pub fn abbrev_width(&self) -> u32 {
        self.scopes.last().map_or(TOP_LEVEL_ABBREV_WIDTH, |s| s.abbrev_width)
    }

    /// The abbreviations of the current block, by id - 4: those BLOCKINFO gives it first,
    /// then its own (in a BLOCKINFO block: those it inherited, not those it declares).
    pub fn abbrevs(&self) -> &[Abbrev] {
        self.scopes.last().map_or(&[], |s| s.abbrevs.as_slice())
    }

    /// How deep blocks nest where the next entry goes (0 at the top level).
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    fn write_abbrev_id(&mut self, id: u32) -> Result<()> {
        let width = self.abbrev_width();
        put_abbrev_id(&mut self.bits, id, width)
    }

    /// Writes the header of block `block_id` up to its length word: ENTER_SUBBLOCK, the id,
    /// the abbreviation id width, the padding to 32 bits.
    fn write_block_header(&mut self, block_id: u32, abbrev_width: u32) -> Result<()> {
        self.write_abbrev_id(abbrev_ids::ENTER_SUBBLOCK)?;
        self.bits.write_vbr(u64::from(block_id), 8)?;
        self.bits.write_vbr(u64::from(abbrev_width), 4)?;
        self.bits.align32();
        Ok(())
    }

    /// Starts block `block_id` whose abbreviation ids are `abbrev_width` bits wide (1 to
    /// 64; LLVM 15 and later read at most 32).
    ///
    /// A block may stand inside a BLOCKINFO block (readers skip it while they take in what
    /// the BLOCKINFO declares, then read it with all of that in force). Such a block, and
    /// every block inside it, inherits no abbreviations here: the BLOCKINFO block must not
    /// declare any for its id (its `end_block` fails otherwise), and a BLOCKINFO block may
    /// not stand inside another.
    pub fn enter_block(&mut self, block_id: u32, abbrev_width: u32) -> Result<()> {
        let at = self.bits.position();
        if !(1..=64).contains(&abbrev_width) {
            return Err(write_error(format!("abbreviation id width {abbrev_width}"), at));
        }
        let in_blockinfo = self.scopes.iter().any(|s| s.blockinfo.is_some());
        if in_blockinfo && block_id == BLOCKINFO_BLOCK_ID {
            return Err(write_error("a BLOCKINFO block inside a BLOCKINFO block".into(), at));
        }
        self.write_block_header(block_id, abbrev_width)?;
        let length_at = (self.bits.position() / 8) as usize;
        self.bits.write(0, 32);
        let abbrevs = if in_blockinfo {
            if let Some(pending) = self.scopes.iter_mut().rev().find_map(|s| s.blockinfo.as_mut()) {
                pending.nested.push(block_id);
            }
            Vec::new()
        } else {
            self.blockinfo.get(&block_id).cloned().unwrap_or_default()
        };
        let blockinfo = (block_id == BLOCKINFO_BLOCK_ID).then(PendingBlockInfo::default);
        self.scopes.push(WriterScope {
            block_id,
            abbrev_width,
            length_at,
            abbrevs,
            blockinfo,
            enclosing: false,
        });
        Ok(())
    }

    /// A writer for blocks written apart from the stream they go into (on another thread,
    /// say): it starts inside block `block_id` (abbreviation ids of `abbrev_width` bits),
    /// right after its header, in a block whose ids are `parent_abbrev_width` bits, with
    /// the abbreviations `blockinfo` gives each block id (the stream's BLOCKINFO so far).
    /// It writes the block's length word, contents and END_BLOCK, then any blocks that
    /// follow it in the same enclosing block; [`finish_blocks`](Self::finish_blocks) gives
    /// the bytes, which [`append_blocks`](Self::append_blocks) puts into the stream after the
    /// block's header. They start and end on a 32-bit boundary, so they are the same bytes
    /// wherever the block starts.
    pub fn for_blocks_apart(
        block_id: u32,
        abbrev_width: u32,
        parent_abbrev_width: u32,
        blockinfo: &crate::blockinfo::BlockInfoStore,
    ) -> Result<Self> {
        for width in [abbrev_width, parent_abbrev_width] {
            if !(1..=64).contains(&width) {
                return Err(write_error(format!("abbreviation id width {width}"), 0));
            }
        }
        if block_id == BLOCKINFO_BLOCK_ID {
            return Err(write_error("a BLOCKINFO block cannot be written apart".into(), 0));
        }
        let blockinfo: BTreeMap<u32, Vec<Abbrev>> =
            blockinfo.block_ids().filter_map(|id| Some((id, blockinfo.get(id)?.abbrevs.to_vec()))).collect();
        let abbrevs = blockinfo.get(&block_id).cloned().unwrap_or_default();
        let mut bits = BitWriter::new();
        // The block's length word, which its end_block fills in.
        bits.write(0, 32);
        let enclosing = WriterScope {
            block_id: u32::MAX,
            abbrev_width: parent_abbrev_width,
            length_at: 0,
            abbrevs: Vec::new(),
            blockinfo: None,
            enclosing: true,
        };
        let block =
            WriterScope { block_id, abbrev_width, length_at: 0, abbrevs, blockinfo: None, enclosing: false };
        Ok(StreamWriter { bits, scopes: vec![enclosing, block], blockinfo })
    }

    /// The bytes of a writer made by [`for_blocks_apart`](Self::for_blocks_apart), once
    /// every block it wrote has ended.
    pub fn finish_blocks(self) -> Result<Vec<u8>> {
        match self.scopes.as_slice() {
            [outer] if outer.enclosing => Ok(self.bits.into_bytes()),
            _ => Err(write_error(
                "blocks written apart must all end before they are finished".into(),
                self.bits.position(),
            )),
        }
    }

    /// Writes the header of block `block_id` (abbreviation ids of `abbrev_width` bits),
    /// then `blocks`, made by a writer from [`for_blocks_apart`](Self::for_blocks_apart)
    /// given this stream's abbreviation id width and BLOCKINFO as they are here: the
    /// block's length word, contents and end, and the blocks after it.
    pub fn append_blocks(&mut self, block_id: u32, abbrev_width: u32, blocks: &[u8]) -> Result<()> {
        let at = self.bits.position();
        if self.scopes.iter().any(|s| s.blockinfo.is_some()) {
            return Err(write_error("blocks written apart cannot go into a BLOCKINFO block".into(), at));
        }
        if !blocks.len().is_multiple_of(4) || blocks.len() < 4 {
            return Err(write_error(format!("{} bytes are not blocks written apart", blocks.len()), at));
        }
        self.write_block_header(block_id, abbrev_width)?;
        self.bits.write_bytes(blocks)
    }

    /// Ends the innermost block and writes its length.
    pub fn end_block(&mut self) -> Result<()> {
        let at = self.bits.position();
        let Some(scope) = self.scopes.last().filter(|s| !s.enclosing) else {
            return Err(write_error("END_BLOCK outside any block".into(), at));
        };
        if let Some(pending) = &scope.blockinfo {
            if let Some(id) =
                pending.nested.iter().find(|id| pending.declared.get(id).is_some_and(|a| !a.is_empty()))
            {
                return Err(write_error(
                    format!("block {id} inside this BLOCKINFO block would inherit the abbreviations it declares for block {id}"),
                    at,
                ));
            }
        }
        self.write_abbrev_id(abbrev_ids::END_BLOCK)?;
        self.bits.align32();
        let Some(scope) = self.scopes.pop() else { return Ok(()) };
        let words = (self.bits.position() / 8 - scope.length_at as u64 - 4) / 4;
        let words = u32::try_from(words)
            .map_err(|_| write_error(format!("block of {words} words"), self.bits.position()))?;
        self.bits.patch_u32(scope.length_at, words)?;
        if let Some(pending) = scope.blockinfo {
            // A BLOCKINFO block replaces what earlier ones declared, as readers expect.
            self.blockinfo = pending.declared;
        }
        Ok(())
    }

    /// What the innermost block declares, when it is a BLOCKINFO block.
    fn pending_blockinfo(&self) -> Option<&PendingBlockInfo> {
        self.scopes.last().and_then(|s| s.blockinfo.as_ref())
    }

    /// Writes a DEFINE_ABBREV in the current block; returns the abbreviation's id there.
    /// Inside BLOCKINFO the abbreviation goes to the block id of the last SETBID, and the
    /// id returned is the one blocks with that id will see.
    pub fn define_abbrev(&mut self, abbrev: Abbrev) -> Result<u32> {
        if self.scopes.is_empty() {
            return Err(write_error("DEFINE_ABBREV outside any block".into(), self.bits.position()));
        }
        let at = self.bits.position();
        let target = match self.pending_blockinfo() {
            Some(PendingBlockInfo { current: Some(bid), .. }) => Some(*bid),
            Some(_) => return Err(write_error("DEFINE_ABBREV in BLOCKINFO before SETBID".into(), at)),
            None => None,
        };
        self.write_abbrev_id(abbrev_ids::DEFINE_ABBREV)?;
        self.bits.write_vbr(abbrev.wire_len() as u64, 5)?;
        for op in abbrev.definition() {
            let (encoding, width) = match *op {
                DefinedOp::Literal(v) => {
                    self.bits.write(1, 1);
                    self.bits.write_vbr(v, 8)?;
                    continue;
                }
                DefinedOp::Fixed(w) => (1, Some(w)),
                DefinedOp::Vbr(w) => (2, Some(w)),
                DefinedOp::Array => (3, None),
                DefinedOp::Char6 => (4, None),
                DefinedOp::Blob => (5, None),
            };
            self.bits.write(0, 1);
            self.bits.write(encoding, 3);
            if let Some(w) = width {
                self.bits.write_vbr(w.into(), 5)?;
            }
        }
        let Some(scope) = self.scopes.last_mut() else {
            return Err(write_error("DEFINE_ABBREV outside any block".into(), at));
        };
        let list = match (target, scope.blockinfo.as_mut()) {
            (Some(bid), Some(pending)) => pending.declared.entry(bid).or_default(),
            _ => &mut scope.abbrevs,
        };
        list.push(abbrev);
        Ok(abbrev_ids::FIRST_DEFINED + list.len() as u32 - 1)
    }

    /// Writes an UNABBREV_RECORD: code, operand count and operands, all VBR6.
    pub fn unabbreviated_record(&mut self, code: u32, ops: &[u64]) -> Result<()> {
        if self.scopes.is_empty() {
            return Err(write_error("a record outside any block".into(), self.bits.position()));
        }
        self.check_blockinfo_record(code, ops)?;
        self.write_abbrev_id(abbrev_ids::UNABBREV_RECORD)?;
        self.bits.write_vbr(code as u64, 6)?;
        self.bits.write_vbr(ops.len() as u64, 6)?;
        for &op in ops {
            self.bits.write_vbr(op, 6)?;
        }
        self.note_blockinfo_record(code, ops);
        Ok(())
    }

    /// Inside BLOCKINFO, refuses the records a reader cannot apply (LLVM's reader and this
    /// crate's both fail on them): SETBID without a 32-bit block id, BLOCKNAME or
    /// SETRECORDNAME before any SETBID, SETRECORDNAME without a 32-bit record code.
    fn check_blockinfo_record(&self, code: u32, ops: &[u64]) -> Result<()> {
        let Some(pending) = self.pending_blockinfo() else { return Ok(()) };
        let first_fits_u32 = ops.first().is_some_and(|&v| u32::try_from(v).is_ok());
        let problem = match code {
            blockinfo_codes::SETBID if !first_fits_u32 => "SETBID needs a block id of at most 32 bits",
            blockinfo_codes::BLOCKNAME | blockinfo_codes::SETRECORDNAME if pending.current.is_none() => {
                "BLOCKNAME and SETRECORDNAME need a SETBID before them"
            }
            blockinfo_codes::SETRECORDNAME if !first_fits_u32 => {
                "SETRECORDNAME needs a record code of at most 32 bits"
            }
            _ => return Ok(()),
        };
        Err(write_error(format!("BLOCKINFO record {code}: {problem}"), self.bits.position()))
    }

    fn note_blockinfo_record(&mut self, code: u32, ops: &[u64]) {
        let pending = self.scopes.last_mut().and_then(|s| s.blockinfo.as_mut());
        if let (Some(pending), blockinfo_codes::SETBID) = (pending, code) {
            if let Some(&bid) = ops.first() {
                pending.current = u32::try_from(bid).ok();
                if let Some(bid) = pending.current {
                    pending.declared.entry(bid).or_default();
                }
            }
        }
    }

    /// Writes a record through abbreviation `abbrev_id` of the current block. `ops` are
    /// the operands after the code, literals included, array elements last; `blob` must be
    /// given exactly when the abbreviation has a blob (it is written for each blob operand;
    /// a reader keeps the last). Inside BLOCKINFO, readers apply a record with a blob with
    /// the blob's bytes among its operands, where the blob is (as LLVM does, see
    /// [`Abbrev::operands_with_blob_in_place`]), and so does the writer.
    pub fn abbreviated_record(
        &mut self,
        abbrev_id: u32,
        code: u32,
        ops: &[u64],
        blob: Option<&[u8]>,
    ) -> Result<()> {
        let at = self.bits.position();
        let fail = |msg: String| Err(write_error(msg, at));
        let Some(scope) = self.scopes.last() else { return fail("a record outside any block".into()) };
        let index = abbrev_id.checked_sub(abbrev_ids::FIRST_DEFINED).map(|i| i as usize);
        let Some(abbrev) = index.and_then(|i| scope.abbrevs.get(i)) else {
            return fail(format!("abbreviation {abbrev_id} is not defined in block {}", scope.block_id));
        };
        let Some((first, rest)) = abbrev.ops().split_first() else {
            let problem = abbrev.unusable().map(|p| p.to_string()).unwrap_or_default();
            return fail(format!("abbreviation {abbrev_id} cannot be used: {problem}"));
        };
        // One pass checks each value and writes it; a value that does not fit takes back
        // what the record wrote, so nothing of a refused record is left in the stream.
        let bits = &mut self.bits;
        put_abbrev_id(bits, abbrev_id, scope.abbrev_width)?;
        let written = write_through(bits, first, rest, code, ops, blob);
        // Inside BLOCKINFO a reader applies the record with each blob's bytes where the blob is.
        let applied = match (&written, &scope.blockinfo) {
            (Ok(()), Some(_)) => Some(match blob {
                Some(bytes) => abbrev.operands_with_blob_in_place(ops, bytes),
                None => ops.to_vec(),
            }),
            _ => None,
        };
        let checked = match (written, &applied) {
            (Err(msg), _) => Err(write_error(msg, at)),
            (Ok(()), Some(applied)) => self.check_blockinfo_record(code, applied),
            (Ok(()), None) => Ok(()),
        };
        if let Err(e) = checked {
            self.bits.truncate(at);
            return Err(e);
        }
        if let Some(applied) = applied {
            self.note_blockinfo_record(code, &applied);
        }
        Ok(())
    }

    /// Writes a record a generated encoder made: unabbreviated when `abbrev_id` is `None`,
    /// else through that abbreviation, checked against it as by
    /// [`abbreviated_record`](Self::abbreviated_record). A `string` field's bytes go as the
    /// blob when the abbreviation has one.
    pub fn record(&mut self, record: &EncodedRecord<'_>, abbrev_id: Option<u32>) -> Result<()> {
        let Some(id) = abbrev_id else {
            if record.blob.is_some() {
                return Err(write_error(
                    format!("record {} has a blob, which only an abbreviation can write", record.code),
                    self.bits.position(),
                ));
            }
            return self.unabbreviated_record(record.code, &record.ops);
        };
        // A string's bytes go as the blob when the abbreviation has one.
        let has_blob = || {
            self.scopes
                .last()
                .and_then(|s| {
                    id.checked_sub(abbrev_ids::FIRST_DEFINED).and_then(|i| s.abbrevs.get(i as usize))
                })
                .is_some_and(|a| a.ops().contains(&AbbrevOp::Blob))
        };
        match (&record.blob, record.string_start) {
            (None, Some(start)) if has_blob() => {
                let (ops, text) = record.ops.split_at(start.min(record.ops.len()));
                let bytes: Option<Vec<u8>> = text.iter().map(|&v| u8::try_from(v).ok()).collect();
                let Some(bytes) = bytes else {
                    return Err(write_error(
                        format!("record {}: a string operand is not a byte", record.code),
                        self.bits.position(),
                    ));
                };
                self.abbreviated_record(id, record.code, ops, Some(&bytes))
            }
            _ => self.abbreviated_record(id, record.code, &record.ops, record.blob.as_deref()),
        }
    }

    /// Writes SETBID inside BLOCKINFO: later abbreviations and names are for `block_id`.
    pub fn set_bid(&mut self, block_id: u32) -> Result<()> {
        self.unabbreviated_record(blockinfo_codes::SETBID, &[block_id as u64])
    }

    /// Writes BLOCKNAME inside BLOCKINFO.
    pub fn block_name(&mut self, name: &[u8]) -> Result<()> {
        let ops: Vec<u64> = name.iter().map(|&b| b as u64).collect();
        self.unabbreviated_record(blockinfo_codes::BLOCKNAME, &ops)
    }

    /// Writes SETRECORDNAME inside BLOCKINFO.
    pub fn record_name(&mut self, code: u32, name: &[u8]) -> Result<()> {
        let ops: Vec<u64> = std::iter::once(code as u64).chain(name.iter().map(|&b| b as u64)).collect();
        self.unabbreviated_record(blockinfo_codes::SETRECORDNAME, &ops)
    }

    /// The finished stream. Every block must be ended.
    pub fn finish(self) -> Result<Vec<u8>> {
        if let Some(scope) = self.scopes.last() {
            return Err(write_error(format!("block {} is still open", scope.block_id), self.bits.position()));
        }
        Ok(self.bits.into_bytes())
    }
}

/// Writes abbreviation id `id` in `width` bits; fails, writing nothing, when it does not fit.
fn put_abbrev_id(bits: &mut BitWriter, id: u32, width: u32) -> Result<()> {
    if width < 64 && u64::from(id) >> width != 0 {
        return Err(write_error(
            format!("abbreviation id {id} does not fit in {width} bits"),
            bits.position(),
        ));
    }
    bits.write(u64::from(id), width);
    Ok(())
}

/// Writes a record's code (`first`, the abbreviation's first operand), then `ops` and
/// `blob` through the rest of its layout, checking each value as it goes; says what does
/// not fit the abbreviation, in the order the layout meets it.
fn write_through(
    bits: &mut BitWriter,
    first: &AbbrevOp,
    rest: &[AbbrevOp],
    code: u32,
    ops: &[u64],
    blob: Option<&[u8]>,
) -> std::result::Result<(), String> {
    put(bits, first, u64::from(code)).map_err(|m| format!("record code: {m}"))?;
    let mut values = ops.iter();
    for (i, op) in rest.iter().enumerate() {
        match op {
            AbbrevOp::Literal(_) | AbbrevOp::Scalar(_) => match values.next() {
                Some(&v) => put(bits, op, v).map_err(|m| format!("operand {i}: {m}"))?,
                None => return Err(format!("the abbreviation wants more than {} operands", ops.len())),
            },
            AbbrevOp::Array(e) => {
                let elements = values.as_slice();
                values = [].iter();
                bits.write_vbr(elements.len() as u64, 6).map_err(|e| e.to_string())?;
                put_array(bits, *e, elements).map_err(|m| format!("array element: {m}"))?;
            }
            AbbrevOp::Blob => {
                let Some(bytes) = blob else {
                    return Err("the abbreviation has a blob, but no blob was given".into());
                };
                bits.write_vbr(bytes.len() as u64, 6).map_err(|e| e.to_string())?;
                bits.align32();
                bits.write_bytes(bytes).map_err(|e| e.to_string())?;
                bits.align32();
            }
        }
    }
    if values.next().is_some() {
        return Err(format!("{} operands are more than the abbreviation holds", ops.len()));
    }
    if blob.is_some() && !rest.contains(&AbbrevOp::Blob) {
        return Err("a blob for an abbreviation without one".into());
    }
    Ok(())
}

/// Writes `v` as the scalar or literal `op` (a literal takes no bits, but `v` must be its
/// value); says why `v` does not fit. Arrays and blobs are the caller's.
#[inline]
fn put(bits: &mut BitWriter, op: &AbbrevOp, v: u64) -> std::result::Result<(), String> {
    let fits = match *op {
        AbbrevOp::Scalar(encoding) => put_scalar(bits, encoding, v),
        AbbrevOp::Literal(l) => l == v,
        AbbrevOp::Array(_) | AbbrevOp::Blob => true,
    };
    if fits {
        Ok(())
    } else {
        Err(refusal(op, v))
    }
}

/// Writes `v` as `encoding` when it fits; says whether it did.
#[inline]
fn put_scalar(bits: &mut BitWriter, encoding: ScalarEncoding, v: u64) -> bool {
    match encoding {
        ScalarEncoding::Fixed(w) if w >= 64 || v >> w == 0 => bits.write(v, u32::from(w)),
        ScalarEncoding::Vbr(w) if w > 1 || v == 0 => return bits.write_vbr(v, u32::from(w)).is_ok(),
        ScalarEncoding::Char6 => match u8::try_from(v).ok().and_then(encode_char6) {
            Some(code) => bits.write(code, 6),
            None => return false,
        },
        _ => return false,
    }
    true
}

/// Writes array elements as `encoding`. Narrow fixed-width and char6 elements go several
/// to a write, as one word (arrays of them are names and strings, the longest records).
fn put_array(
    bits: &mut BitWriter,
    encoding: ScalarEncoding,
    values: &[u64],
) -> std::result::Result<(), String> {
    let width = match encoding {
        ScalarEncoding::Fixed(w) if (1..=32).contains(&w) => u32::from(w),
        ScalarEncoding::Char6 => 6,
        _ => {
            return match values.iter().find(|&&v| !put_scalar(bits, encoding, v)) {
                Some(&v) => Err(refusal(&AbbrevOp::Scalar(encoding), v)),
                None => Ok(()),
            };
        }
    };
    let per_word = 64 / width;
    for chunk in values.chunks(per_word as usize) {
        let (mut word, mut shift) = (0u64, 0u32);
        for &v in chunk {
            let code = match encoding {
                ScalarEncoding::Char6 => u8::try_from(v).ok().and_then(encode_char6),
                _ => (v >> width == 0).then_some(v),
            };
            let Some(code) = code else { return Err(refusal(&AbbrevOp::Scalar(encoding), v)) };
            word |= code << shift;
            shift += width;
        }
        bits.write(word, shift);
    }
    Ok(())
}

/// Why `v` cannot be written as `op`.
#[cold]
fn refusal(op: &AbbrevOp, v: u64) -> String {
    check_value(op, v).err().unwrap_or_else(|| format!("{v} cannot be written as {op:?}"))
}

/// Checks that `v` can be written as `op`; says why not.
fn check_value(op: &AbbrevOp, v: u64) -> std::result::Result<(), String> {
    match *op {
        AbbrevOp::Literal(l) if l != v => Err(format!("{v} differs from the literal {l}")),
        AbbrevOp::Scalar(ScalarEncoding::Fixed(w)) if w < 64 && v >> w != 0 => {
            Err(format!("{v} does not fit in {w} bits"))
        }
        AbbrevOp::Scalar(ScalarEncoding::Vbr(1)) if v != 0 => Err(format!("{v} does not fit in VBR1")),
        AbbrevOp::Scalar(ScalarEncoding::Char6) if u8::try_from(v).ok().and_then(encode_char6).is_none() => {
            Err(format!("{v} is not a char6 character"))
        }
        _ => Ok(()),
    }
}

/// Puts a bitcode wrapper header in front of `stream` and pads the whole to a multiple of
/// 16 bytes, as Darwin's tools do.
pub fn wrap(stream: &[u8], cpu_type: u32) -> Result<Vec<u8>> {
    let size = u32::try_from(stream.len()).map_err(|_| write_error("stream too large to wrap".into(), 0))?;
    let mut out = Vec::with_capacity(WRAPPER_HEADER_LEN + stream.len() + 16);
    for word in [WRAPPER_MAGIC, 0, WRAPPER_HEADER_LEN as u32, size, cpu_type] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(stream);
    out.resize(out.len().next_multiple_of(16), 0);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::BitReader;

    #[test]
    fn bit_writer_matches_reader_for_every_width() {
        let mut w = BitWriter::new();
        let mut fields = Vec::new();
        for width in 0..=64u32 {
            let v = 0xDEAD_BEEF_0123_4567u64.rotate_left(width)
                & if width == 64 { u64::MAX } else { (1 << width) - 1 };
            w.write(v, width);
            fields.push((v, width));
            w.write_vbr(v, (width % 63) + 2).unwrap();
        }
        let bytes = w.into_bytes();
        let mut r = BitReader::new(&bytes);
        for (v, width) in fields {
            assert_eq!(r.read(width).unwrap(), v);
            assert_eq!(r.read_vbr((width % 63) + 2).unwrap(), v);
        }
    }

    #[test]
    fn truncate_takes_back_bits_anywhere() {
        let fields: Vec<(u64, u32)> = (0..40u32).map(|i| (u64::from(i) * 0x9E37_79B9, i % 40 + 1)).collect();
        for cut in 0..fields.len() {
            let (mut whole, mut prefix) = (BitWriter::new(), BitWriter::new());
            for &(v, width) in &fields[..cut] {
                whole.write(v, width);
                prefix.write(v, width);
            }
            let at = whole.position();
            for &(v, width) in &fields[cut..] {
                whole.write(v, width);
            }
            whole.truncate(at);
            assert_eq!(whole.position(), at);
            whole.write(0x5A5A, 15);
            prefix.write(0x5A5A, 15);
            assert_eq!(whole.into_bytes(), prefix.into_bytes(), "cut after {cut} fields");
        }
    }

    #[test]
    fn blocks_written_apart_are_the_blocks_written_in_place() {
        // BLOCKINFO gives block 12 an abbreviation; block 8 holds a record, then two block
        // 12s that use it.
        let abbrev =
            Abbrev::new(vec![AbbrevOp::Literal(3), AbbrevOp::Scalar(ScalarEncoding::Vbr(6))]).unwrap();
        let prefix = |w: &mut StreamWriter| {
            w.enter_block(BLOCKINFO_BLOCK_ID, 2).unwrap();
            w.set_bid(12).unwrap();
            w.define_abbrev(abbrev.clone()).unwrap();
            w.end_block().unwrap();
            w.enter_block(8, 3).unwrap();
            w.unabbreviated_record(1, &[5, 77]).unwrap();
        };
        let blocks = |w: &mut StreamWriter, first: bool| {
            if first {
                w.enter_block(12, 4).unwrap();
            }
            w.abbreviated_record(4, 3, &[1000], None).unwrap();
            w.end_block().unwrap();
            w.enter_block(12, 4).unwrap();
            w.unabbreviated_record(2, &[]).unwrap();
            w.end_block().unwrap();
        };
        let mut in_place = StreamWriter::new(*b"TEST");
        prefix(&mut in_place);
        blocks(&mut in_place, true);
        in_place.end_block().unwrap();
        let in_place = in_place.finish().unwrap();

        // BLOCKINFO as a reader has it inside block 8.
        let stream = crate::Bitstream::new(&in_place).unwrap();
        let mut cursor = stream.cursor();
        while !matches!(cursor.next_entry().unwrap(), Some(crate::Entry::Block(h)) if h.id == 8) {}
        let mut apart = StreamWriter::for_blocks_apart(12, 4, 3, cursor.block_info()).unwrap();
        blocks(&mut apart, false);
        let apart = apart.finish_blocks().unwrap();
        let mut joined = StreamWriter::new(*b"TEST");
        prefix(&mut joined);
        joined.append_blocks(12, 4, &apart).unwrap();
        joined.end_block().unwrap();
        assert_eq!(joined.finish().unwrap(), in_place);

        // What cannot be written apart, or finished, or appended.
        assert!(StreamWriter::for_blocks_apart(BLOCKINFO_BLOCK_ID, 2, 2, cursor.block_info()).is_err());
        let mut open = StreamWriter::for_blocks_apart(12, 4, 3, cursor.block_info()).unwrap();
        open.unabbreviated_record(2, &[]).unwrap();
        assert!(open.finish_blocks().is_err(), "its block has not ended");
        let mut ended = StreamWriter::for_blocks_apart(12, 4, 3, cursor.block_info()).unwrap();
        ended.end_block().unwrap();
        assert!(ended.end_block().is_err(), "the enclosing block ends elsewhere");
        let mut blockinfo = StreamWriter::new(*b"TEST");
        blockinfo.enter_block(BLOCKINFO_BLOCK_ID, 2).unwrap();
        assert!(blockinfo.append_blocks(12, 4, &apart).is_err());
        assert!(joined_with(&apart[..apart.len() - 1]).is_err(), "not whole words");
    }

    /// A stream with `bytes` appended as blocks written apart at the top level.
    fn joined_with(bytes: &[u8]) -> Result<()> {
        StreamWriter::new(*b"TEST").append_blocks(12, 4, bytes)
    }

    #[test]
    fn vbr1_holds_only_zero() {
        let mut w = BitWriter::new();
        w.write_vbr(0, 1).unwrap();
        assert!(w.write_vbr(1, 1).is_err());
    }

    #[test]
    fn abbreviated_records_are_checked_against_their_abbreviation() {
        let mut w = StreamWriter::new(*b"TEST");
        w.enter_block(9, 4).unwrap();
        let abbrev = Abbrev::new(vec![
            AbbrevOp::Literal(5),
            AbbrevOp::Scalar(ScalarEncoding::Fixed(3)),
            AbbrevOp::Array(ScalarEncoding::Char6),
        ])
        .unwrap();
        let id = w.define_abbrev(abbrev).unwrap();
        assert_eq!(id, 4);
        assert!(w.abbreviated_record(id, 6, &[1], None).is_err(), "code differs from literal");
        assert!(w.abbreviated_record(id, 5, &[8], None).is_err(), "8 does not fit in 3 bits");
        assert!(w.abbreviated_record(id, 5, &[1, b'-' as u64], None).is_err(), "not char6");
        assert!(w.abbreviated_record(id, 5, &[1], Some(b"x")).is_err(), "no blob in abbreviation");
        assert!(w.abbreviated_record(5, 5, &[1], None).is_err(), "undefined id");
        let at = w.bits().position();
        assert!(w.abbreviated_record(id, 5, &[7, b'a' as u64, b'-' as u64], None).is_err());
        assert_eq!(w.bits().position(), at, "a refused record writes nothing");
        w.abbreviated_record(id, 5, &[7, b'a' as u64, b'Z' as u64], None).unwrap();
        w.end_block().unwrap();
        assert!(w.end_block().is_err());
        assert!(w.finish().is_ok());
    }

    #[test]
    fn blockinfo_records_a_reader_cannot_apply_are_refused() {
        let mut w = StreamWriter::new(*b"TEST");
        w.enter_block(BLOCKINFO_BLOCK_ID, 2).unwrap();
        let at = w.bits().position();
        assert!(w.block_name(b"x").is_err(), "BLOCKNAME before SETBID");
        assert!(w.record_name(1, b"x").is_err(), "SETRECORDNAME before SETBID");
        assert!(w.unabbreviated_record(blockinfo_codes::SETBID, &[]).is_err(), "SETBID without an id");
        assert!(w.unabbreviated_record(blockinfo_codes::SETBID, &[1 << 32]).is_err(), "a 33-bit block id");
        assert_eq!(w.bits().position(), at, "a refused record writes nothing");
        w.set_bid(8).unwrap();
        assert!(w.unabbreviated_record(blockinfo_codes::SETRECORDNAME, &[1 << 32]).is_err());
        w.block_name(b"x").unwrap();
        w.record_name(1, b"y").unwrap();
        w.end_block().unwrap();
        // Outside BLOCKINFO the same codes are ordinary records.
        w.enter_block(8, 2).unwrap();
        w.unabbreviated_record(blockinfo_codes::SETRECORDNAME, &[]).unwrap();
        w.end_block().unwrap();
        let bytes = w.finish().unwrap();
        let stream = crate::Bitstream::new(&bytes).unwrap();
        let mut cursor = stream.cursor();
        while cursor.next_entry().unwrap().is_some() {}
        assert_eq!(cursor.block_info().get(8).and_then(|info| info.name.as_deref()), Some("x"));
    }

    #[test]
    fn wrap_pads_to_sixteen_bytes() {
        let wrapped = wrap(b"BC\xC0\xDE\x01\x02", 7).unwrap();
        assert_eq!(wrapped.len(), 32);
        assert_eq!(&wrapped[20..26], b"BC\xC0\xDE\x01\x02");
    }
}
