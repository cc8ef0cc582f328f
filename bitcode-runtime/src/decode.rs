//! What schema-generated decoders run on: the decode context, an operand reader whose
//! errors name the block, record and field, and the types fields decode to.
//!
//! Generated code makes one call per field on an operand reader (in
//! `crate::__private`, for generated code only); everything that needs a loop or a check
//! lives there.

use std::borrow::Cow;
use std::fmt;

use crate::cursor::Record;
use crate::error::{Error, ErrorKind, Result};

/// An absolute value number (LLVM's value table index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValueId(pub u32);

/// A type table index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeId(pub u32);

/// The elements of an array field.
///
/// A plain `Vec`: elements kept inline (a small-vector of four) made records with arrays
/// of groups as large as 1.4 KB, and every decoded record is moved at the size of the
/// largest; an allocation for the records that have arrays costs less than that.
pub type Array<T> = Vec<T>;

/// A value operand that may be a forward reference: then its type follows it.
///
/// Open (no `#[non_exhaustive]`): a value and its type are all a value operand can be, and
/// users build and match it whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ValueRef {
    /// The value's absolute number.
    pub id: ValueId,
    /// The type given with a forward reference (a value not yet defined).
    pub ty: Option<TypeId>,
}

/// A range of integers of some bit width (LLVM's ConstantRange): `lower` up to `upper`
/// (exclusive, wrapping), each as 64-bit words, least significant first, two's complement.
/// Ranges of up to 64 bits have one word, sign-extended.
///
/// Open (no `#[non_exhaustive]`): the two bounds are the whole range, as in LLVM.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConstantRange {
    /// The lower bound's words.
    pub lower: Vec<u64>,
    /// The upper bound's words.
    pub upper: Vec<u64>,
}

/// An alignment, a power of two in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Align {
    log2: u8,
}

impl Align {
    /// The alignment 2^`log2` bytes (`log2` at most 63).
    pub fn from_log2(log2: u8) -> Option<Align> {
        (log2 < 64).then_some(Align { log2 })
    }

    /// The base-2 logarithm of the alignment.
    pub fn log2(self) -> u8 {
        self.log2
    }

    /// The alignment in bytes.
    pub fn bytes(self) -> u64 {
        1u64 << self.log2
    }
}

/// Bytes of a string operand: borrowed from a blob, or gathered from operands (up to
/// [`Bytes::INLINE`] of them held inline, without an allocation: most names are short).
/// Bitcode strings need not be UTF-8; `Display` shows them lossily. Compared, ordered and
/// hashed by their bytes, however they are held.
#[derive(Clone)]
pub struct Bytes<'a>(BytesRepr<'a>);

#[derive(Clone)]
enum BytesRepr<'a> {
    Borrowed(&'a [u8]),
    Owned(smallvec::SmallVec<[u8; Bytes::INLINE]>),
}

impl<'a> Bytes<'a> {
    /// How many bytes are held without an allocation.
    pub const INLINE: usize = 24;

    /// Bytes borrowed from the input (a blob).
    pub fn borrowed(bytes: &'a [u8]) -> Self {
        Bytes(BytesRepr::Borrowed(bytes))
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            BytesRepr::Borrowed(b) => b,
            BytesRepr::Owned(v) => v,
        }
    }

    /// The bytes as text, invalid UTF-8 replaced.
    pub fn to_str_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.as_bytes())
    }

    /// True when the bytes are borrowed from the input rather than held.
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, BytesRepr::Borrowed(_))
    }

    /// An owned copy that borrows nothing.
    pub fn into_owned(self) -> Bytes<'static> {
        match self.0 {
            BytesRepr::Borrowed(b) => Bytes(BytesRepr::Owned(b.into())),
            BytesRepr::Owned(v) => Bytes(BytesRepr::Owned(v)),
        }
    }

    /// Operands known to be bytes, as bytes: a short string is converted in place into
    /// the inline buffer (collected byte by byte, it went through a capacity test each).
    fn of_byte_operands(ops: &[u64]) -> Self {
        let mut inline = [0u8; Bytes::INLINE];
        if ops.len() <= inline.len() {
            for (byte, &op) in inline.iter_mut().zip(ops) {
                *byte = op as u8;
            }
            return Bytes(BytesRepr::Owned(smallvec::SmallVec::from_buf_and_len(inline, ops.len())));
        }
        Bytes::from(ops.iter().map(|&op| op as u8).collect::<Vec<u8>>())
    }

    /// The bytes in a `Vec`.
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            BytesRepr::Borrowed(b) => b.to_vec(),
            BytesRepr::Owned(v) => v.into_vec(),
        }
    }
}

impl std::ops::Deref for Bytes<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Default for Bytes<'_> {
    fn default() -> Self {
        Bytes(BytesRepr::Owned(smallvec::SmallVec::new()))
    }
}

impl FromIterator<u8> for Bytes<'_> {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        Bytes(BytesRepr::Owned(iter.into_iter().collect()))
    }
}

impl From<Vec<u8>> for Bytes<'_> {
    fn from(bytes: Vec<u8>) -> Self {
        Bytes(BytesRepr::Owned(smallvec::SmallVec::from_vec(bytes)))
    }
}

impl<'a> From<&'a [u8]> for Bytes<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Bytes::borrowed(bytes)
    }
}

impl PartialEq for Bytes<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Bytes<'_> {}

impl std::hash::Hash for Bytes<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

/// Text when the bytes are UTF-8, else the list of bytes.
#[cfg(feature = "serde")]
impl serde::Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match std::str::from_utf8(self.as_bytes()) {
            Ok(text) => serializer.serialize_str(text),
            Err(_) => serializer.collect_seq(self.as_bytes()),
        }
    }
}

impl fmt::Display for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_lossy())
    }
}

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_str_lossy())
    }
}

impl PartialEq<[u8]> for Bytes<'_> {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes() == other
    }
}

impl PartialEq<&str> for Bytes<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

/// A record kept as it was read: its block had no record of that code, or nothing decodes
/// it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RawRecord<'a> {
    /// The record code.
    pub code: u32,
    /// The abbreviation id it was written with (3 = unabbreviated).
    pub abbrev_id: u32,
    /// The operands.
    pub ops: Vec<u64>,
    /// The blob, if any.
    pub blob: Option<&'a [u8]>,
    /// Absolute bit offset of the record.
    pub bit_offset: u64,
}

impl<'a> RawRecord<'a> {
    /// The record as it was read, to write it back.
    pub fn to_encoded(&self) -> crate::encode::EncodedRecord<'a> {
        let record = crate::encode::EncodedRecord::new(self.code, self.ops.clone());
        match self.blob {
            Some(blob) => record.with_blob(blob),
            None => record,
        }
    }
}

impl<'a> From<&Record<'_, 'a>> for RawRecord<'a> {
    fn from(r: &Record<'_, 'a>) -> Self {
        RawRecord {
            code: r.code,
            abbrev_id: r.abbrev_id,
            ops: r.ops.to_vec(),
            blob: r.blob,
            bit_offset: r.bit_offset,
        }
    }
}

/// Something a decoder noticed that is not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// A record code the block's schema does not know; it was kept raw.
    UnknownRecord {
        /// The block's name.
        block: &'static str,
        /// The record code.
        code: u32,
        /// Absolute bit offset of the record.
        bit_offset: u64,
    },
    /// More operands than the record's fields take; the rest were kept raw.
    ExtraOperands {
        /// The block's name.
        block: &'static str,
        /// The record's name.
        record: &'static str,
        /// How many operands were left over.
        count: usize,
        /// Absolute bit offset of the record.
        bit_offset: u64,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::UnknownRecord { block, code, bit_offset } => {
                write!(f, "{block}: unknown record code {code}, kept raw (at bit {bit_offset})")
            }
            Warning::ExtraOperands { block, record, count, bit_offset } => {
                write!(f, "{block}/{record}: {count} extra operands kept raw (at bit {bit_offset})")
            }
        }
    }
}

/// What a decoder needs to know about where it is, and where its warnings go.
pub trait DecodeContext {
    /// The format version that picks record layouts (0 when the format has none).
    fn version(&self) -> u64 {
        0
    }

    /// The number the next value will get; relative value ids count back from it.
    fn value_number(&self) -> u32 {
        0
    }

    /// True when value operands are relative to the value number (LLVM from module
    /// version 1), false when they are absolute.
    fn relative_ids(&self) -> bool {
        true
    }

    /// For a call being decoded: how many fixed parameters its function type has, when
    /// known (the arguments past them are variadic and carry types when forward).
    fn call_params(&self) -> Option<u32> {
        None
    }

    /// What a string field does with an operand over 255: `false` (the default) refuses
    /// it, so that every decoded record encodes back to its operands; `true` keeps the
    /// operand's low byte, as LLVM's reader does (it appends each operand as a `char`).
    fn low_byte_strings(&self) -> bool {
        false
    }

    /// Takes a warning.
    fn warn(&mut self, warning: Warning);
}

/// A ready-made context: fixed version and value number, warnings collected in a list.
///
/// ```
/// use bitcode_schema_runtime::decode::BasicContext;
/// let ctx = BasicContext::new().with_version(2).with_value_number(10);
/// assert_eq!((ctx.version, ctx.value_number), (2, 10));
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct BasicContext {
    /// Reported by [`DecodeContext::version`].
    pub version: u64,
    /// Reported by [`DecodeContext::value_number`].
    pub value_number: u32,
    /// True when value ids are absolute (the opposite of [`DecodeContext::relative_ids`]).
    pub absolute_ids: bool,
    /// Reported by [`DecodeContext::call_params`].
    pub call_params: Option<u32>,
    /// Reported by [`DecodeContext::low_byte_strings`].
    pub low_byte_strings: bool,
    /// Every warning so far.
    pub warnings: Vec<Warning>,
}

impl BasicContext {
    /// A context at version 0, value number 0, relative ids, no call, no warnings.
    pub fn new() -> Self {
        Self::default()
    }

    /// With [`version`](Self::version) set.
    pub fn with_version(self, version: u64) -> Self {
        BasicContext { version, ..self }
    }

    /// With [`value_number`](Self::value_number) set.
    pub fn with_value_number(self, value_number: u32) -> Self {
        BasicContext { value_number, ..self }
    }

    /// With [`absolute_ids`](Self::absolute_ids) set.
    pub fn with_absolute_ids(self, absolute_ids: bool) -> Self {
        BasicContext { absolute_ids, ..self }
    }

    /// With [`call_params`](Self::call_params) set.
    pub fn with_call_params(self, call_params: Option<u32>) -> Self {
        BasicContext { call_params, ..self }
    }

    /// With [`low_byte_strings`](Self::low_byte_strings) set: strings read as LLVM's
    /// reader reads them.
    pub fn with_low_byte_strings(self, low_byte_strings: bool) -> Self {
        BasicContext { low_byte_strings, ..self }
    }
}

impl DecodeContext for BasicContext {
    fn version(&self) -> u64 {
        self.version
    }

    fn value_number(&self) -> u32 {
        self.value_number
    }

    fn relative_ids(&self) -> bool {
        !self.absolute_ids
    }

    fn call_params(&self) -> Option<u32> {
        self.call_params
    }

    fn low_byte_strings(&self) -> bool {
        self.low_byte_strings
    }

    fn warn(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }
}

/// A code that is not a value of an enum (the error of the generated `TryFrom<u64>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownCode {
    /// The enum's schema name.
    pub enum_name: &'static str,
    /// The code.
    pub code: u64,
}

impl UnknownCode {
    /// `code` is not a value of the enum `enum_name`.
    pub fn new(enum_name: &'static str, code: u64) -> Self {
        UnknownCode { enum_name, code }
    }
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a {}", self.code, self.enum_name)
    }
}

impl std::error::Error for UnknownCode {}

/// A generated enum: its name and how codes map to variants (the unknown-value policy is
/// part of `from_code`: `None` only when unknown codes are errors).
pub trait SchemaEnum: Sized + Copy {
    /// The enum's schema name.
    const NAME: &'static str;
    /// The variant for `code`, if any.
    fn from_code(code: u64) -> Option<Self>;
    /// The code the value is written as.
    fn code(self) -> u64;
}

/// A generated flag word.
pub trait SchemaFlags: Sized {
    /// The flags' schema name.
    const NAME: &'static str;
    /// Splits `bits` into the named fields; a bit range whose value is not a variant of its
    /// enum gives the field's name and value.
    fn from_bits(bits: u64) -> Result<Self, (&'static str, u64)>;
    /// The flag word the fields make.
    fn bits(&self) -> u64;
}

/// A generated group: one tagged entry of a repeated list.
#[doc(hidden)]
pub trait SchemaGroup<'a>: Sized {
    /// The group's schema name.
    const NAME: &'static str;
    /// Reads one entry (tag first) for field `field`.
    fn read<C: DecodeContext + ?Sized>(
        ops: &mut Operands<'_, 'a>,
        field: &'static str,
        ctx: &C,
    ) -> Result<Self>;
    /// Writes the entry (tag first) for field `field`.
    fn write<C: DecodeContext + ?Sized>(
        &self,
        out: &mut crate::encode::OperandsOut<'a>,
        field: &'static str,
        ctx: &C,
    ) -> Result<()>;
}

/// The enum of a block's records, generated for each block.
pub trait BlockRecords<'a>: Sized {
    /// The block id.
    const BLOCK_ID: u32;
    /// The block's schema name.
    const BLOCK_NAME: &'static str;
    /// Decodes one record of the block (with any context: a concrete one is read without a
    /// virtual call).
    fn decode<C: DecodeContext + ?Sized>(record: &Record<'_, 'a>, ctx: &mut C) -> Result<Self>;
}

/// Names used in a record's errors.
///
/// Open: generated code builds it in a `static` (a `const` constructor would do as well,
/// but it is for generated code only and hidden).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct RecordInfo {
    /// The block's schema name.
    pub block: &'static str,
    /// The record's schema name.
    pub record: &'static str,
}

/// What is wrong with one field of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldProblem {
    /// The record ends before this required field.
    Missing {
        /// How many operands the record has.
        operands: usize,
    },
    /// The value does not fit the field's type.
    TooLarge {
        /// The value read.
        value: u64,
        /// The field's type.
        ty: &'static str,
    },
    /// The value is not a code of the field's enum.
    NotInEnum {
        /// The value read.
        value: u64,
        /// The enum's name.
        name: &'static str,
    },
    /// A bit range of a flag word is not a code of its enum.
    BadFlag {
        /// The flag field.
        flag: &'static str,
        /// The value of its bits.
        value: u64,
    },
    /// A string operand that is not a byte.
    NotAByte {
        /// The value read.
        value: u64,
    },
    /// A NUL-terminated string without its NUL.
    Unterminated,
    /// The field needs the record's blob, and the record has none.
    NoBlob,
    /// A group tag no variant has.
    UnknownTag {
        /// The tag read.
        tag: u64,
        /// The group's name.
        group: &'static str,
    },
    /// An alignment exponent above 63.
    BadAlignment {
        /// The operand (log2 + 1).
        value: u64,
    },
    /// A relative value id that points before value 0 or past `u32::MAX`.
    BadValueId {
        /// The operand.
        value: u64,
        /// The current value number.
        current: u32,
    },
    /// No layout of the record covers the format version.
    NoLayout {
        /// The version.
        version: u64,
    },
    /// An encoder cannot write the field's value so that a decoder reads it back.
    NotEncodable {
        /// Why not.
        reason: &'static str,
    },
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { operands } => write!(f, "missing (the record has {operands} operands)"),
            Self::TooLarge { value, ty } => write!(f, "{value} does not fit in {ty}"),
            Self::NotInEnum { value, name } => write!(f, "{value} is not {} {name}", article(name)),
            Self::BadFlag { flag, value } => write!(f, "flag {flag}: {value} is not valid"),
            Self::NotAByte { value } => write!(f, "{value} is not a byte"),
            Self::Unterminated => write!(f, "string without its terminating 0"),
            Self::NoBlob => write!(f, "the record has no blob"),
            Self::UnknownTag { tag, group } => write!(f, "{tag} is not a tag of group {group}"),
            Self::BadAlignment { value } => write!(f, "alignment operand {value} is above 64"),
            Self::BadValueId { value, current } => {
                write!(f, "relative id {value} from value {current} is out of range")
            }
            Self::NoLayout { version } => write!(f, "no layout for format version {version}"),
            Self::NotEncodable { reason } => write!(f, "cannot be encoded: {reason}"),
        }
    }
}

/// "a" or "an" before `word`, by its first letter.
fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// The error of [`Operands::error`]: the record's code, bit offset and block path (from
/// its pointer to its cursor's blocks) are read here, on the cold path.
#[cold]
#[inline(never)]
fn field_error(
    info: &'static RecordInfo,
    at: &Record<'_, '_>,
    field: &'static str,
    problem: FieldProblem,
) -> Error {
    let kind = ErrorKind::Field { block: info.block, record: info.record, field, problem };
    Error::new(kind, at.bit_offset).with_record_code(at.code).with_block_path(at.path.ids())
}

/// Reads a record's operands field by field, with errors that name the field.
#[derive(Debug)]
#[doc(hidden)]
pub struct Operands<'r, 'a> {
    ops: &'r [u64],
    pos: usize,
    blob: Option<&'a [u8]>,
    info: &'static RecordInfo,
    /// The record, for errors and warnings only: one pointer held rather than its code,
    /// bit offset and block path, which are read when an error is built.
    at: &'r Record<'r, 'a>,
}

/// One signed-VBR operand as a signed value: bit 0 is the sign; `1` ("-0") is `i64::MIN`.
pub fn decode_signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v != 1 {
        -((v >> 1) as i64)
    } else {
        i64::MIN
    }
}

/// A signed value as a signed-VBR operand: the magnitude shifted left, the sign in bit 0;
/// `i64::MIN` is the otherwise unused "-0", 1. The inverse of [`decode_signed`].
pub fn encode_signed(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else {
        (v.unsigned_abs() << 1) | 1
    }
}

impl<'r, 'a> Operands<'r, 'a> {
    /// A reader over `record`'s operands, naming `info` in its errors.
    #[inline]
    pub fn new(record: &'r Record<'r, 'a>, info: &'static RecordInfo) -> Self {
        Operands { ops: record.ops, pos: 0, blob: record.blob, info, at: record }
    }

    /// The error for `field` with `problem`, located at the record: its bit offset, code and
    /// block path.
    // Built out of line from the few fields it needs: a cold call given `&self` would keep
    // the reader in memory, its position stored and loaded again at every operand.
    #[inline(always)]
    pub fn error(&self, field: &'static str, problem: FieldProblem) -> Error {
        field_error(self.info, self.at, field, problem)
    }

    /// Operands not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.ops.len().saturating_sub(self.pos)
    }

    /// True when every operand has been read.
    #[inline]
    pub fn is_exhausted(&self) -> bool {
        self.pos >= self.ops.len()
    }

    /// The next operand, for `field`.
    #[inline]
    pub fn raw(&mut self, field: &'static str) -> Result<u64> {
        match self.ops.get(self.pos) {
            Some(&v) => {
                self.pos += 1;
                Ok(v)
            }
            None => Err(self.error(field, FieldProblem::Missing { operands: self.ops.len() })),
        }
    }

    /// `read` when an operand is left, `None` when the record has ended (an optional
    /// trailing field).
    #[inline]
    pub fn optional<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<Option<T>> {
        if self.is_exhausted() {
            Ok(None)
        } else {
            read(self).map(Some)
        }
    }

    /// `read` when an operand is left, else `default`.
    #[inline]
    pub fn or_default<T>(&mut self, default: T, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.is_exhausted() {
            Ok(default)
        } else {
            read(self)
        }
    }

    /// An unsigned operand that must fit in `T`.
    #[inline]
    pub fn uint<T: TryFrom<u64>>(&mut self, field: &'static str) -> Result<T> {
        let v = self.raw(field)?;
        // Matches, not closures, on the error paths here: a closure left out of line (it
        // is cold) takes the reader's address, and the reader then lives in memory.
        match T::try_from(v) {
            Ok(t) => Ok(t),
            Err(_) => {
                Err(self.error(field, FieldProblem::TooLarge { value: v, ty: std::any::type_name::<T>() }))
            }
        }
    }

    /// A boolean operand: non-zero is true.
    #[inline]
    pub fn boolean(&mut self, field: &'static str) -> Result<bool> {
        Ok(self.raw(field)? != 0)
    }

    /// A signed-VBR operand.
    #[inline]
    pub fn signed(&mut self, field: &'static str) -> Result<i64> {
        self.raw(field).map(decode_signed)
    }

    /// An enum operand.
    #[inline]
    pub fn enumeration<E: SchemaEnum>(&mut self, field: &'static str) -> Result<E> {
        let v = self.raw(field)?;
        match E::from_code(v) {
            Some(e) => Ok(e),
            None => Err(self.error(field, FieldProblem::NotInEnum { value: v, name: E::NAME })),
        }
    }

    /// A flag word.
    #[inline]
    pub fn flags<F: SchemaFlags>(&mut self, field: &'static str) -> Result<F> {
        let v = self.raw(field)?;
        match F::from_bits(v) {
            Ok(flags) => Ok(flags),
            Err((flag, value)) => Err(self.error(field, FieldProblem::BadFlag { flag, value })),
        }
    }

    /// An absolute value id.
    #[inline]
    pub fn value(&mut self, field: &'static str) -> Result<ValueId> {
        self.uint(field).map(ValueId)
    }

    /// A relative value id: the value number minus the operand (in 32 bits, as LLVM
    /// computes it), or the operand itself where ids are absolute.
    #[inline]
    pub fn relative<C: DecodeContext + ?Sized>(&mut self, field: &'static str, ctx: &C) -> Result<ValueId> {
        let v = self.raw(field)?;
        Ok(ValueId(if ctx.relative_ids() { ctx.value_number().wrapping_sub(v as u32) } else { v as u32 }))
    }

    /// A signed relative value id (phi operands): the value number minus the signed
    /// operand. Where ids are absolute the operand is a plain unsigned id, as LLVM reads it.
    #[inline]
    pub fn signed_relative<C: DecodeContext + ?Sized>(
        &mut self,
        field: &'static str,
        ctx: &C,
    ) -> Result<ValueId> {
        let v = self.raw(field)?;
        if !ctx.relative_ids() {
            return Ok(ValueId(v as u32));
        }
        let current = ctx.value_number();
        match (current as i64).checked_sub(decode_signed(v)).and_then(|id| u32::try_from(id).ok()) {
            Some(id) => Ok(ValueId(id)),
            None => Err(self.error(field, FieldProblem::BadValueId { value: v, current })),
        }
    }

    /// A value operand with its type after it when it is a forward reference.
    #[inline]
    pub fn value_type<C: DecodeContext + ?Sized>(
        &mut self,
        field: &'static str,
        ctx: &C,
    ) -> Result<ValueRef> {
        let id = self.relative(field, ctx)?;
        let ty = if id.0 >= ctx.value_number() { Some(self.type_id(field)?) } else { None };
        Ok(ValueRef { id, ty })
    }

    /// A type id.
    #[inline]
    pub fn type_id(&mut self, field: &'static str) -> Result<TypeId> {
        self.uint(field).map(TypeId)
    }

    /// A 1-based optional index: 0 is `None`.
    #[inline]
    pub fn optional_index(&mut self, field: &'static str) -> Result<Option<u32>> {
        let v = self.raw(field)?;
        match v {
            0 => Ok(None),
            n => match u32::try_from(n - 1) {
                Ok(index) => Ok(Some(index)),
                Err(_) => Err(self.error(field, FieldProblem::TooLarge { value: v, ty: "u32" })),
            },
        }
    }

    /// An alignment stored as log2 + 1: 0 is `None`.
    #[inline]
    pub fn align(&mut self, field: &'static str) -> Result<Option<Align>> {
        let v = self.raw(field)?;
        match v {
            0 => Ok(None),
            n => match u8::try_from(n - 1).ok().and_then(Align::from_log2) {
                Some(align) => Ok(Some(align)),
                None => Err(self.error(field, FieldProblem::BadAlignment { value: v })),
            },
        }
    }

    /// The record's blob, or else every remaining operand as a byte (an operand over 255
    /// as `ctx` says: see [`DecodeContext::low_byte_strings`]).
    pub fn string<C: DecodeContext + ?Sized>(&mut self, field: &'static str, ctx: &C) -> Result<Bytes<'a>> {
        if let Some(blob) = self.blob {
            return Ok(Bytes::borrowed(blob));
        }
        let rest = self.ops.get(self.pos..).unwrap_or(&[]);
        let bytes = self.bytes_of(field, rest, ctx.low_byte_strings())?;
        self.pos = self.ops.len();
        Ok(bytes)
    }

    /// Bytes up to a terminating 0 operand (which is read, not kept; 256 is not one).
    pub fn cstring<C: DecodeContext + ?Sized>(&mut self, field: &'static str, ctx: &C) -> Result<Bytes<'a>> {
        let rest = self.ops.get(self.pos..).unwrap_or(&[]);
        let Some(len) = rest.iter().position(|&v| v == 0) else {
            return Err(self.error(field, FieldProblem::Unterminated));
        };
        let bytes = self.bytes_of(field, rest.get(..len).unwrap_or(&[]), ctx.low_byte_strings())?;
        self.pos += len + 1;
        Ok(bytes)
    }

    fn bytes_of(&self, field: &'static str, ops: &[u64], low_bytes: bool) -> Result<Bytes<'a>> {
        // Checked in one pass without an early exit (the compiler makes it a few vector
        // operations), then converted at the string's exact size; the operand that is not
        // a byte is looked for only when there is one.
        if !low_bytes && ops.iter().fold(0, |high, &v| high | v) > u64::from(u8::MAX) {
            let value = ops.iter().copied().find(|&v| v > u64::from(u8::MAX)).unwrap_or_default();
            return Err(self.error(field, FieldProblem::NotAByte { value }));
        }
        Ok(Bytes::of_byte_operands(ops))
    }

    /// The record's blob (it takes no operand).
    pub fn blob(&mut self, field: &'static str) -> Result<&'a [u8]> {
        match self.blob {
            Some(blob) => Ok(blob),
            None => Err(self.error(field, FieldProblem::NoBlob)),
        }
    }

    /// Elements read with `read` until the operands run out.
    #[inline]
    pub fn array<T>(&mut self, mut read: impl FnMut(&mut Self) -> Result<T>) -> Result<Array<T>> {
        let mut out = Array::with_capacity(self.remaining());
        while !self.is_exhausted() {
            out.push(read(self)?);
        }
        Ok(out)
    }

    /// Elements read with `read` while at least `min_ops` operands remain (a whole element):
    /// fields after the array read what is left.
    #[inline]
    pub fn array_whole<T>(
        &mut self,
        min_ops: usize,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Array<T>> {
        let mut out = Array::new();
        while self.remaining() >= min_ops.max(1) {
            out.push(read(self)?);
        }
        Ok(out)
    }

    /// `count` elements read with `read`, the count given by an earlier field.
    pub fn counted_by<T>(
        &mut self,
        field: &'static str,
        count: u64,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Array<T>> {
        if count > self.remaining() as u64 {
            return Err(self.error(field, FieldProblem::Missing { operands: self.ops.len() }));
        }
        (0..count).map(|_| read(self)).collect()
    }

    /// A constant range of `width` bits, as LLVM writes it: up to 64 bits, the lower and
    /// upper bounds as signed VBR; wider, one operand with the word counts of the bounds
    /// (lower in the low 32 bits, upper in the high 32), then the words, each signed VBR.
    pub fn constant_range(&mut self, field: &'static str, width: u64) -> Result<ConstantRange> {
        if width <= 64 {
            let lower = decode_signed(self.raw(field)?) as u64;
            let upper = decode_signed(self.raw(field)?) as u64;
            return Ok(ConstantRange { lower: vec![lower], upper: vec![upper] });
        }
        let counts = self.raw(field)?;
        let (lower_words, upper_words) = (counts & 0xffff_ffff, counts >> 32);
        if lower_words.saturating_add(upper_words) > self.remaining() as u64 {
            return Err(self.error(field, FieldProblem::Missing { operands: self.ops.len() }));
        }
        let mut words = |n: u64| -> Result<Vec<u64>> {
            (0..n).map(|_| self.raw(field).map(|w| decode_signed(w) as u64)).collect()
        };
        let lower = words(lower_words)?;
        let upper = words(upper_words)?;
        Ok(ConstantRange { lower, upper })
    }

    /// A call's arguments: as many relative values as the called function has fixed
    /// parameters (the context knows, from the function type), then value-type pairs for
    /// the variadic rest. When the parameter count is unknown, every argument is read as a
    /// value-type pair.
    pub fn call_args<C: DecodeContext + ?Sized>(
        &mut self,
        field: &'static str,
        ctx: &C,
    ) -> Result<Array<ValueRef>> {
        let fixed = ctx.call_params().unwrap_or(0) as usize;
        let mut out = Array::with_capacity(self.remaining());
        for _ in 0..fixed {
            if self.is_exhausted() {
                break;
            }
            out.push(ValueRef { id: self.relative(field, ctx)?, ty: None });
        }
        while !self.is_exhausted() {
            out.push(self.value_type(field, ctx)?);
        }
        Ok(out)
    }

    /// A count, then that many elements read with `read`.
    pub fn counted_array<T>(
        &mut self,
        field: &'static str,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Array<T>> {
        let count = self.raw(field)?;
        // Each element takes at least one operand: a larger count cannot be satisfied.
        if count > self.remaining() as u64 {
            return Err(self.error(field, FieldProblem::Missing { operands: self.ops.len() }));
        }
        (0..count).map(|_| read(self)).collect()
    }

    /// Groups of `G` until the operands run out.
    pub fn groups<G: SchemaGroup<'a>>(
        &mut self,
        field: &'static str,
        ctx: &(impl DecodeContext + ?Sized),
    ) -> Result<Array<G>> {
        let mut out = Array::new();
        while !self.is_exhausted() {
            out.push(G::read(self, field, ctx)?);
        }
        Ok(out)
    }

    /// Reads a group's tag and reports an unknown one.
    #[cold]
    pub fn unknown_tag(&self, field: &'static str, tag: u64, group: &'static str) -> Error {
        self.error(field, FieldProblem::UnknownTag { tag, group })
    }

    /// Picks the layout for `version` and the record's operand count (see
    /// [`crate::layout::pick`]); returns its index.
    #[inline]
    pub fn layout(&self, version: u64, layouts: &[crate::layout::LayoutRange]) -> Result<usize> {
        let count = self.ops.len() as u64;
        match crate::layout::pick(layouts, version, |_, (lo, hi)| lo <= count && count < hi) {
            Some(index) => Ok(index),
            None => Err(self.error("(layout)", FieldProblem::NoLayout { version })),
        }
    }

    /// Ends the record: operands left over are returned (and reported to `ctx`).
    #[inline]
    pub fn finish<C: DecodeContext + ?Sized>(self, ctx: &mut C) -> Vec<u64> {
        match self.ops.get(self.pos..) {
            Some(rest) if !rest.is_empty() => {
                ctx.warn(Warning::ExtraOperands {
                    block: self.info.block,
                    record: self.info.record,
                    count: rest.len(),
                    bit_offset: self.at.bit_offset,
                });
                rest.to_vec()
            }
            _ => Vec::new(),
        }
    }
}

/// Keeps a record of a code the block does not know, with a warning.
#[doc(hidden)]
pub fn unknown_record<'a, C: DecodeContext + ?Sized>(
    block: &'static str,
    record: &Record<'_, 'a>,
    ctx: &mut C,
) -> RawRecord<'a> {
    ctx.warn(Warning::UnknownRecord { block, code: record.code, bit_offset: record.bit_offset });
    RawRecord::from(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::BlockPath;

    static INFO: RecordInfo = RecordInfo { block: "DEMO_BLOCK", record: "THING" };

    fn record(ops: &[u64]) -> Record<'_, 'static> {
        Record { code: 1, abbrev_id: 3, ops, blob: None, bit_offset: 77, path: BlockPath::UNKNOWN }
    }

    #[test]
    fn signed_vbr_edges() {
        assert_eq!(decode_signed(0), 0);
        assert_eq!(decode_signed(2), 1);
        assert_eq!(decode_signed(3), -1);
        assert_eq!(decode_signed(1), i64::MIN);
        assert_eq!(decode_signed(u64::MAX - 1), i64::MAX);
        assert_eq!(decode_signed(u64::MAX), -i64::MAX);
        for v in [0, 1, -1, 63, -64, i64::MAX, i64::MIN, i64::MIN + 1] {
            assert_eq!(decode_signed(encode_signed(v)), v, "{v}");
        }
        assert_eq!(encode_signed(i64::MIN), 1);
    }

    #[test]
    fn errors_name_block_record_field_and_value() {
        let ops = [300];
        let r = record(&ops);
        let mut o = Operands::new(&r, &INFO);
        let e = o.uint::<u8>("width").unwrap_err();
        assert_eq!(e.to_string(), "DEMO_BLOCK/THING at bit 77: field width: 300 does not fit in u8");
        assert_eq!((e.record_code(), e.block_path()), (Some(1), &[][..]));
        let e = o.raw("next").unwrap_err();
        assert!(e.to_string().contains("field next: missing (the record has 1 operands)"), "{e}");
    }

    #[test]
    fn relative_ids_wrap_like_llvm_and_forward_refs_carry_types() {
        let ctx = BasicContext { value_number: 10, ..Default::default() };
        let ops = [3, 0, 7, u32::MAX as u64, 5];
        let r = record(&ops);
        let mut o = Operands::new(&r, &INFO);
        assert_eq!(o.relative("a", &ctx).unwrap(), ValueId(7));
        // 0 points at the value being defined: a forward reference, so a type follows
        assert_eq!(o.value_type("b", &ctx).unwrap(), ValueRef { id: ValueId(10), ty: Some(TypeId(7)) });
        // 2^32 - 1 wraps to value 11, also forward
        assert_eq!(o.value_type("c", &ctx).unwrap(), ValueRef { id: ValueId(11), ty: Some(TypeId(5)) });
        let ops = [decode_inverse(-2), decode_inverse(11)];
        let r = record(&ops);
        let mut o = Operands::new(&r, &INFO);
        assert_eq!(o.signed_relative("phi", &ctx).unwrap(), ValueId(12));
        assert!(o.signed_relative("phi", &ctx).is_err(), "10 - 11 is before value 0");
    }

    fn decode_inverse(v: i64) -> u64 {
        if v >= 0 {
            (v as u64) << 1
        } else {
            ((v.unsigned_abs()) << 1) | 1
        }
    }

    #[test]
    fn optional_index_align_strings() {
        let ops = [0, 3, 0, 5, 65, b'h' as u64, b'i' as u64, 0, 300];
        let r = record(&ops);
        let mut o = Operands::new(&r, &INFO);
        assert_eq!(o.optional_index("a").unwrap(), None);
        assert_eq!(o.optional_index("b").unwrap(), Some(2));
        assert_eq!(o.align("c").unwrap(), None);
        assert_eq!(o.align("d").unwrap().map(Align::bytes), Some(16));
        assert!(o.align("e").is_err());
        assert_eq!(o.cstring("f", &BasicContext::new()).unwrap(), "hi");
        let e = o.string("g", &BasicContext::new()).unwrap_err();
        assert!(e.to_string().contains("300 is not a byte"), "{e}");
        // LLVM's reader keeps the low byte (300 = 0x12c).
        let low = BasicContext::new().with_low_byte_strings(true);
        assert_eq!(o.string("g", &low).unwrap(), *b"\x2c".as_slice());
        let ops = [256 + u64::from(b'a'), 256, 0, 7];
        let r = record(&ops);
        let mut o = Operands::new(&r, &INFO);
        assert!(o.cstring("k", &BasicContext::new()).is_err());
        assert_eq!(o.cstring("k", &low).unwrap(), *b"a\0".as_slice(), "256 is no terminator");
        assert_eq!(o.raw("after").unwrap(), 7);
    }

    #[test]
    fn bytes_compare_by_content_however_held() {
        let long = vec![b'x'; Bytes::INLINE + 9];
        let gathered: Bytes<'_> = long.iter().copied().collect();
        assert_eq!(gathered, Bytes::borrowed(&long));
        assert_eq!(gathered, Bytes::from(long.clone()));
        assert_eq!(gathered.into_owned().into_vec(), long);
        let short: Bytes<'_> = b"main".iter().copied().collect();
        assert!(!short.is_borrowed() && Bytes::borrowed(b"main").is_borrowed());
        assert_eq!(short, "main");
        let hash = |b: &Bytes<'_>| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            b.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&short), hash(&Bytes::borrowed(b"main")));
        assert_eq!(Bytes::default().as_bytes(), b"");
    }

    /// A record read by a cursor carries its cursor's blocks: an error about one of its
    /// fields names them, with no help from the caller.
    #[test]
    fn errors_about_a_record_read_by_a_cursor_name_its_blocks() {
        let mut w = crate::writer::StreamWriter::llvm_ir();
        w.enter_block(8, 3).unwrap();
        w.enter_block(12, 4).unwrap();
        let at = w.bits().position();
        w.unabbreviated_record(1, &[300]).unwrap();
        w.end_block().unwrap();
        w.end_block().unwrap();
        let bytes = w.finish().unwrap();
        let stream = crate::Bitstream::new(&bytes).unwrap();
        let mut cursor = stream.cursor();
        let err = loop {
            if let crate::Entry::Record(r) = cursor.next_entry().unwrap().unwrap() {
                assert_eq!(r.path.ids().collect::<Vec<_>>(), [8, 12]);
                assert_eq!((r.path.len(), r.path.is_empty()), (2, false));
                break Operands::new(&r, &INFO).uint::<u8>("width").unwrap_err();
            }
        };
        assert_eq!((err.bit_offset(), err.block_path(), err.record_code()), (at, &[8, 12][..], Some(1)));
        assert_eq!(
            err.to_string(),
            format!("DEMO_BLOCK/THING at bit {at}: field width: 300 does not fit in u8 (block path 8/12)")
        );
        assert!(BlockPath::UNKNOWN.is_empty() && BlockPath::UNKNOWN.ids().next().is_none());
    }

    #[test]
    fn extra_operands_are_kept_with_a_warning() {
        let ops = [1, 2, 3];
        let r = record(&ops);
        let mut o = Operands::new(&r, &INFO);
        o.raw("a").unwrap();
        let mut ctx = BasicContext::default();
        assert_eq!(o.finish(&mut ctx), vec![2, 3]);
        assert_eq!(
            ctx.warnings,
            vec![Warning::ExtraOperands { block: "DEMO_BLOCK", record: "THING", count: 2, bit_offset: 77 }]
        );
    }
}
