//! The one error type of the runtime: what went wrong, in words, with the absolute bit
//! offset and the path of enclosing block ids.

use std::fmt;

/// An error found while reading (or writing) a bitstream.
///
/// It carries the [`ErrorKind`], the absolute bit offset in the input the caller gave
/// (wrapper headers and object-file sections included), the ids of the enclosing blocks
/// from the outermost in, and, where known, the record code. The value is boxed so that
/// `Result<T, Error>` stays one word wide on the hot path.
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    bit_offset: u64,
    /// The input is byte oriented (LLVM 1.x bytecode): the offset is shown in bytes.
    in_bytes: bool,
    block_path: Vec<u32>,
    record_code: Option<u32>,
}

/// What went wrong. New kinds may be added in later versions.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ends inside a field: `needed` more bits were wanted, `left` remain.
    Truncated {
        /// Bits the field needed.
        needed: u64,
        /// Bits left in the input.
        left: u64,
    },
    /// A VBR field has a chunk that would start at or past bit `value_bits` of its value
    /// (64, or 32 for the fields LLVM reads as 32-bit: codes, counts, block ids).
    VbrOverflow {
        /// The VBR chunk width, in bits.
        chunk_width: u32,
        /// The most value bits the field may hold.
        value_bits: u32,
    },
    /// An element count (array, blob, operand list) cannot fit in the bits left.
    CountTooLarge {
        /// What is being counted, plural ("array elements").
        what: &'static str,
        /// The count the stream claims.
        count: u64,
        /// Bits left in the input.
        bits_left: u64,
    },
    /// An abbreviation id that the current block has not defined.
    UndefinedAbbrev {
        /// The abbreviation id read.
        id: u64,
        /// How many abbreviations the block has (ids 4 up to 3 + this).
        defined: usize,
    },
    /// A DEFINE_ABBREV that breaks LLVM's rules for defining abbreviations.
    InvalidAbbrev(AbbrevProblem),
    /// A record uses an abbreviation that was defined but that no record can use.
    UnusableAbbrev {
        /// The abbreviation id.
        id: u64,
        /// What makes it unusable.
        problem: AbbrevProblem,
    },
    /// A block's abbreviation id width is 0 or above 64 bits.
    AbbrevWidthOutOfRange {
        /// The width read.
        width: u64,
    },
    /// END_BLOCK outside any block.
    EndBlockAtTopLevel,
    /// Something other than a block at the top level of the stream.
    NotABlockAtTopLevel {
        /// The abbreviation id found.
        abbrev_id: u64,
    },
    /// A block's declared length runs past the end of the input.
    BlockBeyondInput {
        /// The block's length in 32-bit words.
        words: u64,
        /// Where the block would end (absolute bit offset).
        end_bit: u64,
        /// Where the stream ends (absolute bit offset: the stream's length in bits when it
        /// starts the input).
        input_bits: u64,
    },
    /// END_BLOCK is not where the block's declared length says it ends.
    BlockLengthMismatch {
        /// Where the length word says the block ends (absolute bit offset).
        declared_end: u64,
        /// Where the END_BLOCK actually left the stream (absolute bit offset).
        actual_end: u64,
    },
    /// A BLOCKINFO record or abbreviation that needs a SETBID before it.
    BlockInfoWithoutSetBid {
        /// The record's code; `None` for a DEFINE_ABBREV.
        code: Option<u32>,
    },
    /// A BLOCKINFO record without the operands it needs.
    MalformedBlockInfoRecord {
        /// The record code.
        code: u32,
    },
    /// The stream asks for more than the reader's [`Limits`](crate::Limits) allow.
    LimitExceeded {
        /// What went past its limit, plural ("record operands").
        what: &'static str,
        /// How many the stream asks for (at least; counting stops at the limit).
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// Blocks nest deeper than the reader allows.
    TooDeep {
        /// The nesting limit.
        limit: usize,
    },
    /// The stream does not start with the magic the caller asked for.
    BadMagic {
        /// The four bytes found.
        found: [u8; 4],
        /// The four bytes expected.
        expected: [u8; 4],
    },
    /// An input whose length is not a whole number of 32-bit words (llvm-bcanalyzer and
    /// LLVM's IR reader refuse such files before they read anything).
    LengthNotWords {
        /// The input's length in bytes.
        len: usize,
    },
    /// The input is shorter than a bitcode wrapper header.
    WrapperTooShort {
        /// The input length in bytes.
        len: usize,
    },
    /// A bitcode wrapper header whose offset/size lie outside the input.
    WrapperOutOfRange {
        /// The header's offset field.
        offset: u32,
        /// The header's size field.
        size: u32,
        /// The input length in bytes.
        len: usize,
    },
    /// Bytecode: the file is not LLVM 1.x bytecode, or its container is broken (an
    /// unknown compression, a stream that does not expand, a module block that is not
    /// block 1 or runs past the end).
    BadBytecode(String),
    /// Bytecode: the region (input or block) ends inside a field: `needed` more bytes
    /// were wanted, `left` remain.
    BytesTruncated {
        /// Bytes the field needed.
        needed: u64,
        /// Bytes left in the region.
        left: u64,
    },
    /// Bytecode: a byte VBR holds bits past its `value_bits`-bit width.
    ByteVbrOverflow {
        /// The most value bits the field may hold.
        value_bits: u32,
    },
    /// Bytecode: an element count cannot fit in the bytes left.
    ByteCountTooLarge {
        /// What is being counted, plural ("types").
        what: &'static str,
        /// The count the input claims.
        count: u64,
        /// Bytes left in the region.
        bytes_left: u64,
    },
    /// A typed decoder found a record field it cannot decode.
    Field {
        /// The block's schema name.
        block: &'static str,
        /// The record's schema name.
        record: &'static str,
        /// The field's schema name.
        field: &'static str,
        /// What is wrong with it.
        problem: crate::decode::FieldProblem,
    },
    /// The stream is well formed, but breaks a rule of the format it holds, found by that
    /// format's layer (for LLVM IR: a null constant of function type, a type id beyond the
    /// type table), where the format's own reader rejects the file too.
    Invalid(String),
    /// A native object file could not be read, or holds no embedded bitcode.
    Object(String),
    /// A writer was asked for something the format cannot express.
    Write(String),
}

/// How a DEFINE_ABBREV breaks LLVM's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AbbrevProblem {
    /// The abbreviation has no operands (it needs at least the record code).
    NoOperands,
    /// An encoding number other than fixed (1), VBR (2), array (3), char6 (4), blob (5).
    UnknownEncoding(u64),
    /// A fixed or VBR width above 64 bits.
    WidthTooLarge(u64),
    /// An array that is not second to last, followed by its element encoding.
    ArrayNotSecondToLast,
    /// An array element that is a literal, an array or a blob.
    BadArrayElement,
    /// The first operand (the record code) is an array or a blob.
    CodeIsArrayOrBlob,
    /// A VBR field (or array element) with chunks wider than 32 bits. LLVM 14 and earlier
    /// take such a definition and read the field with undefined shifts; LLVM 15 and later
    /// refuse the definition. A record cannot use it here.
    VbrChunkTooWide(u8),
}

impl fmt::Display for AbbrevProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoOperands => write!(f, "it has no operands"),
            Self::UnknownEncoding(e) => {
                write!(f, "encoding {e} is not fixed(1), vbr(2), array(3), char6(4) or blob(5)")
            }
            Self::WidthTooLarge(w) => write!(f, "a width of {w} bits is more than 64"),
            Self::ArrayNotSecondToLast => {
                write!(f, "an array must be the second to last operand, followed by its element encoding")
            }
            Self::BadArrayElement => write!(f, "an array element must be a fixed, VBR or char6 encoding"),
            Self::CodeIsArrayOrBlob => {
                write!(f, "the first operand (the record code) cannot be an array or a blob")
            }
            Self::VbrChunkTooWide(w) => {
                write!(f, "a VBR field with chunks of {w} bits: LLVM reads VBR chunks of at most 32 bits")
            }
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { needed, left } => {
                write!(f, "input ends inside a field: {needed} bits needed, {left} left")
            }
            Self::VbrOverflow { chunk_width, value_bits } => {
                write!(f, "VBR{chunk_width} field goes on past bit {value_bits} of its value")
            }
            Self::CountTooLarge { what, count, bits_left } => {
                write!(f, "{count} {what} cannot fit in the {bits_left} bits left")
            }
            Self::UndefinedAbbrev { id, defined } => {
                if *defined == 0 {
                    write!(f, "abbreviation id {id} is not defined (the block has no abbreviations)")
                } else {
                    write!(f, "abbreviation id {id} is not defined (the block has ids 4 to {})", 3 + defined)
                }
            }
            Self::InvalidAbbrev(p) => write!(f, "invalid DEFINE_ABBREV: {p}"),
            Self::UnusableAbbrev { id, problem } => {
                write!(f, "the record uses abbreviation {id}, which no record can use: {problem}")
            }
            Self::AbbrevWidthOutOfRange { width } => {
                write!(f, "block abbreviation id width {width} is not between 1 and 64")
            }
            Self::EndBlockAtTopLevel => write!(f, "END_BLOCK outside any block"),
            Self::NotABlockAtTopLevel { abbrev_id } => {
                write!(f, "abbreviation id {abbrev_id} at the top level, where only blocks may stand")
            }
            Self::BlockBeyondInput { words, end_bit, input_bits } => write!(
                f,
                "block of {words} words would end at bit {end_bit}, past the end of the input ({input_bits} bits)"
            ),
            Self::BlockLengthMismatch { declared_end, actual_end } => write!(
                f,
                "END_BLOCK ends the block at bit {actual_end}, but its length word says bit {declared_end}"
            ),
            Self::BlockInfoWithoutSetBid { code: None } => write!(f, "DEFINE_ABBREV in BLOCKINFO before any SETBID"),
            Self::BlockInfoWithoutSetBid { code: Some(code) } => {
                let name = match *code {
                    crate::blockinfo::codes::BLOCKNAME => " (BLOCKNAME)",
                    crate::blockinfo::codes::SETRECORDNAME => " (SETRECORDNAME)",
                    _ => "",
                };
                write!(f, "BLOCKINFO record {code}{name} before any SETBID")
            }
            Self::MalformedBlockInfoRecord { code } => {
                write!(f, "BLOCKINFO record {code} lacks the operands it needs")
            }
            Self::LimitExceeded { what, count, limit } => {
                write!(f, "{count} {what} is more than this reader's limit of {limit}")
            }
            Self::TooDeep { limit } => write!(f, "blocks nest deeper than {limit} levels"),
            Self::BadMagic { found, expected } => {
                write!(f, "stream magic is {} where {} was expected", hex4(found), hex4(expected))
            }
            Self::LengthNotWords { len } => {
                write!(f, "a bitstream must be whole 32-bit words, as LLVM reads it; this one has {len} bytes")
            }
            Self::WrapperTooShort { len } => {
                write!(f, "bitcode wrapper header needs 20 bytes, the input has {len}")
            }
            Self::WrapperOutOfRange { offset, size, len } => write!(
                f,
                "bitcode wrapper header says offset {offset} size {size}, outside the {len}-byte input"
            ),
            Self::Field { block, record, field, problem } => write!(f, "{block}/{record}: field {field}: {problem}"),
            Self::BadBytecode(what) => write!(f, "bytecode: {what}"),
            Self::BytesTruncated { needed, left } => {
                write!(f, "input ends inside a field: {needed} bytes needed, {left} left")
            }
            Self::ByteVbrOverflow { value_bits } => {
                write!(f, "VBR field goes on past bit {value_bits} of its value")
            }
            Self::ByteCountTooLarge { what, count, bytes_left } => {
                write!(f, "{count} {what} cannot fit in the {bytes_left} bytes left")
            }
            Self::Invalid(msg) => f.write_str(msg),
            Self::Object(msg) => write!(f, "native object: {msg}"),
            Self::Write(msg) => write!(f, "cannot write: {msg}"),
        }
    }
}

fn hex4(b: &[u8; 4]) -> String {
    format!("{:02x} {:02x} {:02x} {:02x}", b[0], b[1], b[2], b[3])
}

impl Error {
    /// A new error of `kind` at `bit_offset`, outside any block.
    #[cold]
    pub fn new(kind: ErrorKind, bit_offset: u64) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                bit_offset,
                in_bytes: false,
                block_path: Vec::new(),
                record_code: None,
            }),
        }
    }

    /// A new error of `kind` at byte `byte_offset` of a byte-oriented input (LLVM 1.x
    /// bytecode), outside any block; it shows its offset in bytes.
    #[cold]
    pub fn at_byte(kind: ErrorKind, byte_offset: u64) -> Self {
        let mut e = Error::new(kind, byte_offset.saturating_mul(8));
        e.inner.in_bytes = true;
        e
    }

    /// The byte offset, for an error in a byte-oriented input.
    pub fn byte_offset(&self) -> Option<u64> {
        self.inner.in_bytes.then_some(self.inner.bit_offset / 8)
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// The absolute bit offset in the input where the offending field starts.
    pub fn bit_offset(&self) -> u64 {
        self.inner.bit_offset
    }

    /// The ids of the blocks enclosing the error, outermost first; empty at the top level.
    pub fn block_path(&self) -> &[u32] {
        &self.inner.block_path
    }

    /// The code of the record being read, when the error is inside a record.
    pub fn record_code(&self) -> Option<u32> {
        self.inner.record_code
    }

    /// Sets the block path (the reader does this; decoders rarely need to).
    #[cold]
    pub fn with_block_path(mut self, path: impl IntoIterator<Item = u32>) -> Self {
        self.inner.block_path = path.into_iter().collect();
        self
    }

    /// Sets the record code.
    #[cold]
    pub fn with_record_code(mut self, code: u32) -> Self {
        self.inner.record_code = Some(code);
        self
    }

    /// Moves the bit offset by `bits` (used when a stream sits inside a larger file).
    #[cold]
    pub fn shifted(mut self, bits: u64) -> Self {
        self.inner.bit_offset = self.inner.bit_offset.saturating_add(bits);
        self
    }
}

impl fmt::Display for Error {
    /// `KIND (at bit N, record C, block path 8/12)`; a typed decoder's error, which knows
    /// the record's schema name, starts with it instead: `MODULE_BLOCK/GLOBALVAR at bit N:
    /// field linkage: 99 is not a Linkage (block path 8)` (no path for a record built by
    /// hand, which no block is known to enclose).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Inner { kind, bit_offset, in_bytes, block_path, record_code } = &*self.inner;
        let at = Offset { bit_offset: *bit_offset, in_bytes: *in_bytes };
        if let ErrorKind::Field { block, record, field, problem } = kind {
            write!(f, "{block}/{record} at {at}: field {field}: {problem}")?;
            if !block_path.is_empty() {
                write!(f, " (block path {})", PathText(block_path))?;
            }
            return Ok(());
        }
        write!(f, "{kind} (at {at}")?;
        if let Some(code) = record_code {
            write!(f, ", record {code}")?;
        }
        if block_path.is_empty() {
            write!(f, ", top level)")
        } else {
            write!(f, ", block path {})", PathText(block_path))
        }
    }
}

/// An offset as a message shows it: `bit N`, or `byte N` in a byte-oriented input.
struct Offset {
    bit_offset: u64,
    in_bytes: bool,
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.in_bytes {
            write!(f, "byte {}", self.bit_offset / 8)
        } else {
            write!(f, "bit {}", self.bit_offset)
        }
    }
}

/// Block ids as a message shows them: `8/12`.
struct PathText<'p>(&'p [u32]);

impl fmt::Display for PathText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, id) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{id}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("bit_offset", &self.inner.bit_offset)
            .field("block_path", &self.inner.block_path)
            .field("record_code", &self.inner.record_code)
            .finish()
    }
}

impl std::error::Error for Error {}

/// The runtime's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_offset_path_and_record() {
        let e = Error::new(ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 64 }, 1234)
            .with_block_path([8, 12])
            .with_record_code(34);
        assert_eq!(
            e.to_string(),
            "VBR6 field goes on past bit 64 of its value (at bit 1234, record 34, block path 8/12)"
        );
        assert_eq!(e.bit_offset(), 1234);
        assert_eq!(e.block_path(), &[8, 12]);
        let top = Error::new(ErrorKind::EndBlockAtTopLevel, 32);
        assert_eq!(top.to_string(), "END_BLOCK outside any block (at bit 32, top level)");
        assert_eq!(top.shifted(160).bit_offset(), 192);
    }

    #[test]
    fn field_errors_start_with_block_and_record_names() {
        let problem = crate::decode::FieldProblem::NotInEnum { value: 99, name: "Linkage" };
        let kind = ErrorKind::Field { block: "MODULE_BLOCK", record: "GLOBALVAR", field: "linkage", problem };
        let e = Error::new(kind, 1234).with_record_code(7).with_block_path([8]);
        assert_eq!(
            e.to_string(),
            "MODULE_BLOCK/GLOBALVAR at bit 1234: field linkage: 99 is not a Linkage (block path 8)"
        );
        assert_eq!(e.record_code(), Some(7));
        // A record built by hand has no path: none is shown (it is not at the top level).
        let e = Error::new(e.kind().clone(), 40).with_block_path([]);
        assert_eq!(e.to_string(), "MODULE_BLOCK/GLOBALVAR at bit 40: field linkage: 99 is not a Linkage");
    }

    #[test]
    fn result_of_error_is_one_word() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn abbrev_problems_say_what_rule_is_broken() {
        let problem = AbbrevProblem::ArrayNotSecondToLast;
        let e = Error::new(ErrorKind::UnusableAbbrev { id: 5, problem }, 40);
        assert!(e.to_string().contains("abbreviation 5, which no record can use: an array must be"), "{e}");
        assert!(ErrorKind::InvalidAbbrev(AbbrevProblem::UnknownEncoding(7))
            .to_string()
            .contains("encoding 7"));
    }
}
