//! Random *valid* bitstreams, written through the runtime's writer, for holding the reader
//! against llvm-bcanalyzer.
//!
//! A stream is made of everything the container allows: several top-level blocks, nested
//! ones (down to the reader's depth limit), abbreviation id widths from 1 bit up, local
//! DEFINE_ABBREVs with every operand kind and width (literals up to 2^64-1, fixed 0 to the
//! shape's widest, VBR 1 to 32, char6, arrays of each scalar, blobs anywhere after the
//! code), record codes as literals and as fixed, VBR and char6 operands, definitions LLVM
//! accepts that no record could use (left unused), unabbreviated records with 0 to many
//! operands, empty arrays and blobs, BLOCKINFO blocks (abbreviations, block and record
//! names for several blocks, blocks inside them, a later BLOCKINFO replacing an earlier
//! one, records of BLOCKINFO written through the abbreviations an earlier one gave block
//! 0), and wrapper headers with a gap before the stream and bytes after it.
//!
//! Everything llvm-bcanalyzer's dump would print in a way the oracle cannot read back is
//! left out: names hold `[A-Za-z0-9._]` only and record names are never empty, and no
//! stream has a block 15 (LLVM IR's METADATA block: the analyzer decodes its string blobs and
//! checks its index offsets, whatever the magic). Record codes stay below 2^16, since the
//! analyzer keeps a table entry for every code up to the largest it sees.

use std::collections::BTreeSet;

use bitcode_schema::runtime::cursor::{abbrev_ids, BLOCKINFO_BLOCK_ID};
use bitcode_schema::runtime::writer::StreamWriter;
use bitcode_schema::runtime::{Abbrev, AbbrevOp, DefinedOp, Magic, ScalarEncoding};
use rand::{Rng, RngExt};

/// What the generated streams may hold.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// The widest fixed field and abbreviation id width: 64 for LLVM 14 and earlier, 32 for
    /// LLVM 15 and later (which refuse wider ones).
    pub max_fixed_width: u8,
    /// How deep blocks may nest: the project's default limit.
    pub max_depth: usize,
}

/// The block id of LLVM IR's METADATA block, which no stream uses: llvm-bcanalyzer decodes
/// the string blobs and checks the index offsets of any block 15, whatever the magic.
const METADATA_BLOCK_ID: u32 = 15;

/// The BLOCKINFO record codes.
const SETBID: u32 = 1;
const BLOCKNAME: u32 = 2;
const SETRECORDNAME: u32 = 3;

/// The characters of names and char6 fields.
const NAME_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// A random valid stream.
pub fn stream(rng: &mut impl Rng, shape: Shape) -> Vec<u8> {
    let magic = magic(rng);
    let mut generator = Generator {
        shape,
        writer: StreamWriter::new(magic),
        budget: entry_budget(rng),
        avoid_block: Some(METADATA_BLOCK_ID),
        open: Vec::new(),
        named: BTreeSet::new(),
        rng,
    };
    let top_level = match generator.rng.random_range(0..20) {
        0 => 0,
        1..=13 => 1,
        _ => generator.rng.random_range(2..=4),
    };
    for _ in 0..top_level {
        generator.any_block(&BTreeSet::new());
    }
    let Generator { writer, rng, .. } = generator;
    let bytes = writer.finish().expect("every block is ended");
    if rng.random_range(0..8) == 0 {
        wrapped(rng, &bytes)
    } else {
        bytes
    }
}

/// The magic: mostly four printable bytes no format claims, sometimes one of LLVM's.
fn magic(rng: &mut impl Rng) -> [u8; 4] {
    match rng.random_range(0..16) {
        0 => Magic::LlvmIr.bytes(),
        1 => *b"DIAG",
        2 => *b"CPCH",
        3 => *b"RMRK",
        _ => loop {
            let bytes: [u8; 4] = std::array::from_fn(|_| rng.random_range(b'0'..=b'z'));
            // "BC" starts LLVM IR's magic, "CP", "DI" and "RM" the others'.
            if !matches!(&bytes[..2], b"BC" | b"CP" | b"DI" | b"RM") {
                break bytes;
            }
        },
    }
}

/// How many entries a stream gets at most: mostly few, sometimes thousands.
fn entry_budget(rng: &mut impl Rng) -> usize {
    match rng.random_range(0..20) {
        0 => rng.random_range(500..3000),
        1..=4 => rng.random_range(50..500),
        _ => rng.random_range(0..50),
    }
}

/// `stream` behind a bitcode wrapper header, with a gap of bytes between the header and
/// the stream and bytes after it (readers look only at the part the header names).
fn wrapped(rng: &mut impl Rng, stream: &[u8]) -> Vec<u8> {
    let gap = 4 * rng.random_range(0..3usize);
    let trailing = 4 * rng.random_range(0..4usize);
    let offset = (20 + gap) as u32;
    let mut out = Vec::with_capacity(20 + gap + stream.len() + trailing);
    let cpu_type = rng.random::<u32>();
    for word in [0x0B17_C0DE, 0, offset, stream.len() as u32, cpu_type] {
        out.extend_from_slice(&u32::to_le_bytes(word));
    }
    out.extend((0..gap).map(|_| rng.random::<u8>()));
    out.extend_from_slice(stream);
    out.extend((0..trailing).map(|_| rng.random::<u8>()));
    out
}

struct Generator<'r, R> {
    rng: &'r mut R,
    shape: Shape,
    writer: StreamWriter,
    /// Entries left to write; bounds the stream's size.
    budget: usize,
    /// A block id the stream must not use.
    avoid_block: Option<u32>,
    /// The ids of the open blocks, outermost first.
    open: Vec<u32>,
    /// The block ids the BLOCKINFO in force names.
    named: BTreeSet<u32>,
}

impl<R: Rng> Generator<'_, R> {
    /// Takes one entry from the budget; false when it is spent.
    fn spend(&mut self) -> bool {
        let left = self.budget > 0;
        self.budget = self.budget.saturating_sub(1);
        left
    }

    fn chance(&mut self, one_in: u32) -> bool {
        self.rng.random_range(0..one_in) == 0
    }

    /// A block id: mostly small (where names and BLOCKINFO entries pile up), sometimes
    /// large; never BLOCKINFO's, never one of `forbidden`.
    fn block_id(&mut self, forbidden: &BTreeSet<u32>) -> u32 {
        loop {
            let id = match self.rng.random_range(0..20) {
                0 => self.rng.random::<u32>(),
                1 | 2 => self.rng.random_range(1..1 << 14),
                _ => self.rng.random_range(1..=24),
            };
            if !forbidden.contains(&id) && Some(id) != self.avoid_block {
                return id;
            }
        }
    }

    /// An abbreviation id width: mostly what writers use, sometimes 1 bit (room for block
    /// starts and ends only) or up to the shape's widest.
    fn abbrev_width(&mut self) -> u32 {
        match self.rng.random_range(0..24) {
            0 => 1,
            1 => self.rng.random_range(1..=u32::from(self.shape.max_fixed_width)),
            2..=5 => 2,
            _ => self.rng.random_range(3..=6),
        }
    }

    /// A block of any kind at the current place: a BLOCKINFO block, a chain of blocks
    /// down to the depth limit, or an ordinary block. Blocks inside a BLOCKINFO block
    /// stay off the ids in `forbidden` (those it declares abbreviations for).
    fn any_block(&mut self, forbidden: &BTreeSet<u32>) {
        // The ids a BLOCKINFO block forbids its blocks include its own.
        let inside_blockinfo = forbidden.contains(&BLOCKINFO_BLOCK_ID);
        // llvm-bcanalyzer prints a block's closing tag with a pointer to its name, which a
        // BLOCKINFO inside the block frees when it replaces the names (it then prints what
        // the freed memory holds): no BLOCKINFO goes inside a named block.
        let inside_named = self.open.iter().any(|id| self.named.contains(id));
        match self.rng.random_range(0..40) {
            0..=5 if !inside_blockinfo && !inside_named => self.blockinfo(),
            6 => self.deep_chain(forbidden),
            _ => self.block(forbidden),
        }
    }

    /// Blocks nested one in another down to the depth limit (or a little short of it),
    /// with a record at the bottom.
    fn deep_chain(&mut self, forbidden: &BTreeSet<u32>) {
        if self.writer.depth() >= self.shape.max_depth {
            return;
        }
        let target = if self.chance(2) {
            self.shape.max_depth
        } else {
            self.rng.random_range(self.writer.depth() + 1..=self.shape.max_depth)
        };
        let mut opened = 0;
        while self.writer.depth() < target {
            let id = self.block_id(forbidden);
            let width = self.rng.random_range(2..=4);
            self.writer.enter_block(id, width).expect("a block");
            self.open.push(id);
            opened += 1;
        }
        let code = self.rng.random_range(0..64);
        let ops = self.values(3);
        self.writer.unabbreviated_record(code, &ops).expect("an unabbreviated record");
        for _ in 0..opened {
            self.writer.end_block().expect("the end of a block");
            self.open.pop();
        }
    }

    /// An ordinary block with random entries.
    fn block(&mut self, forbidden: &BTreeSet<u32>) {
        if self.writer.depth() >= self.shape.max_depth {
            return;
        }
        let id = self.block_id(forbidden);
        let width = self.abbrev_width();
        self.writer.enter_block(id, width).expect("a block");
        self.open.push(id);
        let entries = self.rng.random_range(0..12);
        for _ in 0..entries {
            if !self.spend() {
                break;
            }
            self.entry(width, forbidden);
        }
        self.writer.end_block().expect("the end of a block");
        self.open.pop();
    }

    /// One entry inside a block whose abbreviation ids are `width` bits wide.
    fn entry(&mut self, width: u32, forbidden: &BTreeSet<u32>) {
        // With one bit only END_BLOCK and ENTER_SUBBLOCK fit.
        let kind = if width == 1 { 0 } else { self.rng.random_range(0..10) };
        match kind {
            0 => self.any_block(forbidden),
            1 => self.define_abbrev(),
            2..=4 => self.unabbreviated(),
            _ => {
                if !self.abbreviated(width) {
                    self.unabbreviated();
                }
            }
        }
    }

    /// A DEFINE_ABBREV of the current block: usable mostly, sometimes one LLVM accepts but
    /// no record could use.
    fn define_abbrev(&mut self) {
        // Its id may be too wide for the block's abbreviation ids: then no record uses it.
        let abbrev = self.definition();
        self.writer.define_abbrev(abbrev).expect("a DEFINE_ABBREV");
    }

    /// A definition: usable mostly, sometimes one no record can use.
    fn definition(&mut self) -> Abbrev {
        let definition = if self.chance(8) { self.unusable_definition() } else { self.usable_definition() };
        Abbrev::define(definition).expect("a definition LLVM accepts")
    }

    /// A scalar encoding for an operand.
    fn scalar(&mut self) -> DefinedOp {
        match self.rng.random_range(0..10) {
            0..=3 => DefinedOp::Fixed(self.fixed_width()),
            4..=7 => DefinedOp::Vbr(self.vbr_width()),
            _ => DefinedOp::Char6,
        }
    }

    /// A fixed width from 0 (read as the literal 0) to the shape's widest.
    fn fixed_width(&mut self) -> u8 {
        match self.rng.random_range(0..12) {
            0 => 0,
            1 => self.shape.max_fixed_width,
            2 => self.rng.random_range(0..=self.shape.max_fixed_width),
            _ => self.rng.random_range(1..=8),
        }
    }

    /// A VBR chunk width from 0 (read as the literal 0) to 32.
    fn vbr_width(&mut self) -> u8 {
        match self.rng.random_range(0..12) {
            0 => 0,
            1 => 32,
            2 => self.rng.random_range(1..=32),
            _ => self.rng.random_range(2..=8),
        }
    }

    /// A literal operand value: any of 64 bits.
    fn literal(&mut self) -> u64 {
        match self.rng.random_range(0..6) {
            0 => u64::MAX,
            1 => self.rng.random::<u64>(),
            2 => self.rng.random_range(0..1 << 20),
            _ => self.rng.random_range(0..64),
        }
    }

    /// The operand that gives a record its code.
    fn code_op(&mut self) -> DefinedOp {
        match self.rng.random_range(0..8) {
            0..=3 => DefinedOp::Literal(self.code()),
            4 | 5 => DefinedOp::Fixed(self.fixed_width()),
            6 => DefinedOp::Vbr(self.vbr_width()),
            _ => DefinedOp::Char6,
        }
    }

    /// A definition some record can use: the code, scalars and blobs, perhaps an array.
    fn usable_definition(&mut self) -> Vec<DefinedOp> {
        let mut definition = vec![self.code_op()];
        for _ in 0..self.rng.random_range(0..6) {
            let op = match self.rng.random_range(0..8) {
                0 | 1 => DefinedOp::Literal(self.literal()),
                2 if self.chance(3) => DefinedOp::Blob,
                _ => self.scalar(),
            };
            definition.push(op);
        }
        if self.chance(2) {
            let element = loop {
                match self.scalar() {
                    // fixed(0) and vbr(0) are literals, which no array may hold.
                    DefinedOp::Fixed(0) | DefinedOp::Vbr(0) => {}
                    element => break element,
                }
            };
            definition.extend([DefinedOp::Array, element]);
        }
        definition
    }

    /// A definition LLVM takes but no record can use (LLVM checks these rules only when a
    /// record uses the abbreviation): an array or blob as the code, an array that is not
    /// second to last, an array whose element is not a scalar encoding (clang 22 writes
    /// one whose element is fixed(0), that is a literal), a last operand that is an array;
    /// with fields up to 64 bits, VBR chunks over 32 bits (LLVM 14 defines them, but reads
    /// them with undefined shifts).
    fn unusable_definition(&mut self) -> Vec<DefinedOp> {
        if self.shape.max_fixed_width > 32 && self.chance(8) {
            let vbr = DefinedOp::Vbr(self.rng.random_range(33..=64));
            return match self.rng.random_range(0..3) {
                0 => vec![vbr],
                1 => vec![self.code_op(), vbr],
                _ => vec![self.code_op(), DefinedOp::Array, vbr],
            };
        }
        let mut definition = match self.rng.random_range(0..6) {
            0 => vec![DefinedOp::Array, self.scalar()],
            1 => vec![DefinedOp::Blob],
            2 => vec![self.code_op(), DefinedOp::Array, self.scalar(), self.scalar()],
            3 => {
                let element = match self.rng.random_range(0..5) {
                    0 => DefinedOp::Fixed(0),
                    1 => DefinedOp::Vbr(0),
                    2 => DefinedOp::Literal(self.literal()),
                    3 => DefinedOp::Blob,
                    _ => DefinedOp::Array,
                };
                vec![self.code_op(), DefinedOp::Array, element]
            }
            4 => vec![self.code_op(), self.scalar(), DefinedOp::Array],
            _ => vec![self.code_op(), DefinedOp::Array, DefinedOp::Blob, self.scalar()],
        };
        if self.chance(3) {
            definition.insert(1.min(definition.len()), DefinedOp::Literal(self.literal()));
        }
        definition
    }

    /// A record code: small mostly, at most 2^16 - 1.
    fn code(&mut self) -> u64 {
        match self.rng.random_range(0..10) {
            0 => self.rng.random_range(0..1 << 16),
            1 | 2 => self.rng.random_range(0..1 << 10),
            _ => self.rng.random_range(0..64),
        }
    }

    /// An operand value of an unabbreviated record (VBR6, any of 64 bits).
    fn value(&mut self) -> u64 {
        match self.rng.random_range(0..10) {
            0 => u64::MAX,
            1 => self.rng.random::<u64>(),
            2 => self.rng.random_range(0..1 << 32),
            3 => self.rng.random_range(0..1 << 12),
            _ => self.rng.random_range(0..32),
        }
    }

    /// Up to `max` operand values (more, now and then).
    fn values(&mut self, max: usize) -> Vec<u64> {
        let n = if self.chance(16) { self.rng.random_range(0..400) } else { self.rng.random_range(0..=max) };
        (0..n).map(|_| self.value()).collect()
    }

    /// An unabbreviated record with 0 to many operands.
    fn unabbreviated(&mut self) {
        let code = self.code() as u32;
        let ops = self.values(8);
        self.writer.unabbreviated_record(code, &ops).expect("an unabbreviated record");
    }

    /// A record through one of the current block's usable abbreviations whose id fits
    /// `width` bits; false when there is none.
    fn abbreviated(&mut self, width: u32) -> bool {
        let usable: Vec<(u32, Abbrev)> = self
            .writer
            .abbrevs()
            .iter()
            .enumerate()
            .map(|(i, a)| (abbrev_ids::FIRST_DEFINED + i as u32, a.clone()))
            .filter(|(id, a)| a.unusable().is_none() && (width >= 32 || u64::from(*id) >> width == 0))
            .collect();
        if usable.is_empty() {
            return false;
        }
        let (id, abbrev) = usable[self.rng.random_range(0..usable.len())].clone();
        let (code, ops, blob) = self.fill(&abbrev);
        self.writer.abbreviated_record(id, code, &ops, blob.as_deref()).expect("an abbreviated record");
        true
    }

    /// A random value an operand of `encoding` holds.
    fn scalar_value(&mut self, encoding: ScalarEncoding) -> u64 {
        match encoding {
            ScalarEncoding::Fixed(width) => {
                let max = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
                match self.rng.random_range(0..4) {
                    0 => max,
                    1 => 0,
                    _ => self.rng.random::<u64>() & max,
                }
            }
            // VBR1 chunks have no payload bit: they hold 0 only.
            ScalarEncoding::Vbr(1) => 0,
            ScalarEncoding::Vbr(_) => self.value(),
            ScalarEncoding::Char6 => u64::from(NAME_CHARS[self.rng.random_range(0..NAME_CHARS.len())]),
        }
    }

    /// A record code an encoding can hold, small enough for llvm-bcanalyzer's tables.
    fn code_value(&mut self, encoding: ScalarEncoding) -> u64 {
        match encoding {
            ScalarEncoding::Fixed(width) => self.code() & ((1u64 << width.min(16)) - 1),
            ScalarEncoding::Vbr(1) => 0,
            ScalarEncoding::Vbr(_) => self.code(),
            ScalarEncoding::Char6 => self.scalar_value(encoding),
        }
    }

    /// A record for `abbrev`: its code, its operands (literals included, array elements
    /// last) and its blob.
    fn fill(&mut self, abbrev: &Abbrev) -> (u32, Vec<u64>, Option<Vec<u8>>) {
        let (first, rest) = abbrev.ops().split_first().expect("a usable abbreviation has a code");
        let code = match *first {
            AbbrevOp::Literal(v) => v,
            AbbrevOp::Scalar(e) => self.code_value(e),
            AbbrevOp::Array(_) | AbbrevOp::Blob => unreachable!("not in a usable abbreviation"),
        };
        let mut ops = Vec::new();
        let mut blob = None;
        for op in rest {
            match *op {
                AbbrevOp::Literal(v) => ops.push(v),
                AbbrevOp::Scalar(e) => ops.push(self.scalar_value(e)),
                AbbrevOp::Array(e) => {
                    let n = if self.chance(16) {
                        self.rng.random_range(0..300)
                    } else {
                        self.rng.random_range(0..6)
                    };
                    ops.extend((0..n).map(|_| self.scalar_value(e)));
                }
                AbbrevOp::Blob => {
                    if blob.is_none() {
                        blob = Some(self.blob());
                    }
                }
            }
        }
        (code as u32, ops, blob)
    }

    /// Blob bytes: empty sometimes, any bytes.
    fn blob(&mut self) -> Vec<u8> {
        let n = match self.rng.random_range(0..8) {
            0 => 0,
            1 => self.rng.random_range(0..600),
            _ => self.rng.random_range(1..12),
        };
        (0..n).map(|_| self.rng.random::<u8>()).collect()
    }

    /// A name of 1 to 12 characters the oracle reads back.
    fn name(&mut self) -> Vec<u8> {
        let n = self.rng.random_range(1..=12);
        (0..n).map(|_| NAME_CHARS[self.rng.random_range(0..NAME_CHARS.len())]).collect()
    }

    /// A BLOCKINFO block: for a few block ids, SETBID, abbreviations, a block name and
    /// record names; now and then an ignored record, a block inside it, or its own records
    /// written through the abbreviations an earlier BLOCKINFO gave block 0.
    fn blockinfo(&mut self) {
        if self.writer.depth() >= self.shape.max_depth {
            return;
        }
        // The ids it declares abbreviations for, chosen first: blocks inside it must
        // stay off them (a reader gives those blocks what it declares).
        let targets: Vec<u32> = (0..self.rng.random_range(1..=4))
            .map(|_| if self.chance(3) { BLOCKINFO_BLOCK_ID } else { self.block_id(&BTreeSet::new()) })
            .collect();
        let forbidden: BTreeSet<u32> = targets.iter().copied().chain([BLOCKINFO_BLOCK_ID]).collect();
        let width = self.rng.random_range(2..=5);
        self.writer.enter_block(BLOCKINFO_BLOCK_ID, width).expect("a BLOCKINFO block");
        self.open.push(BLOCKINFO_BLOCK_ID);
        let mut named = BTreeSet::new();
        // Its records may go through the abbreviations it inherited for block 0 only when
        // it first declares the same ones for block 0 again: LLVM reads BLOCKINFO with what
        // it inherited, llvm-bcanalyzer's dump reads it again with what it declares for block
        // 0 (then its own definitions), and the two agree only then.
        let inherited = self.writer.abbrevs().to_vec();
        let abbreviate = !inherited.is_empty() && !self.chance(4);
        if abbreviate {
            self.blockinfo_record(width, true, SETBID, vec![u64::from(BLOCKINFO_BLOCK_ID)]);
            for abbrev in inherited {
                self.writer.define_abbrev(abbrev).expect("a DEFINE_ABBREV in BLOCKINFO");
            }
        }
        if self.chance(6) {
            // Records other than SETBID, BLOCKNAME and SETRECORDNAME mean nothing to readers.
            let code = self.rng.random_range(4..64);
            let ops = self.values(4);
            self.writer.unabbreviated_record(code, &ops).expect("an ignored record");
        }
        for &target in &targets {
            self.blockinfo_record(width, abbreviate, SETBID, vec![u64::from(target)]);
            for _ in 0..self.rng.random_range(0..4) {
                let abbrev = self.definition();
                self.writer.define_abbrev(abbrev).expect("a DEFINE_ABBREV in BLOCKINFO");
            }
            if self.chance(2) {
                let name = if self.chance(8) { Vec::new() } else { self.name() };
                if !name.is_empty() {
                    named.insert(target);
                }
                self.blockinfo_record(
                    width,
                    abbreviate,
                    BLOCKNAME,
                    name.iter().map(|&b| u64::from(b)).collect(),
                );
            }
            for _ in 0..self.rng.random_range(0..3) {
                let mut ops = vec![self.code()];
                ops.extend(self.name().iter().map(|&b| u64::from(b)));
                self.blockinfo_record(width, abbreviate, SETRECORDNAME, ops);
            }
            if self.chance(8) && self.spend() {
                self.block(&forbidden);
            }
        }
        self.writer.end_block().expect("the end of a BLOCKINFO block");
        self.open.pop();
        self.named = named;
    }

    /// A BLOCKINFO record: with `abbreviate`, through an abbreviation BLOCKINFO inherited
    /// when one fits it, else unabbreviated.
    fn blockinfo_record(&mut self, width: u32, abbreviate: bool, code: u32, ops: Vec<u64>) {
        let inherited = self.writer.abbrevs().len();
        if abbreviate && !self.chance(4) {
            let start = self.rng.random_range(0..inherited);
            for i in (start..inherited).chain(0..start) {
                let id = abbrev_ids::FIRST_DEFINED + i as u32;
                if width < 32 && u64::from(id) >> width != 0 {
                    continue;
                }
                // LLVM applies a BLOCKINFO record with its blob's bytes among the operands:
                // an empty blob leaves them as they are (`cases.rs` has a blob that does not).
                let has_blob = self.writer.abbrevs()[i].ops().contains(&AbbrevOp::Blob);
                let blob = has_blob.then(Vec::new);
                // The writer checks the record against the abbreviation before it writes.
                if self.writer.abbreviated_record(id, code, &ops, blob.as_deref()).is_ok() {
                    return;
                }
            }
        }
        self.writer.unabbreviated_record(code, &ops).expect("a BLOCKINFO record");
    }
}
