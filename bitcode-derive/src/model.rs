//! The schema as the loader reads it, before `resolve` turns it into what `emit` takes.
//! Every node keeps the byte span of the TOML it came from, for diagnostics.
//!
//! The loader fills this from the TOML text, recovering from mistakes where it can (an
//! invalid piece becomes a placeholder and a diagnostic), so the emitter can still produce
//! a skeleton of everything that was valid and users see no cascade of follow-on errors.

use std::ops::Range;

pub use crate::kinds::Kind;

/// A byte range in the schema file.
pub type Span = Range<usize>;

/// A value with the span it was written at.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// A value at `span`.
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// A whole schema.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    /// `[format]`.
    pub format: Format,
    /// `[enums.*]`, in file order.
    pub enums: Vec<Enum>,
    /// `[flags.*]`, in file order.
    pub flags: Vec<Flags>,
    /// `[groups.*]`, in file order.
    pub groups: Vec<Group>,
    /// `[structs.*]`, in file order.
    pub structs: Vec<StructDef>,
    /// `[blocks.*]`, in file order.
    pub blocks: Vec<Block>,
}

/// `[format]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Format {
    /// `name`.
    pub name: Spanned<String>,
    /// `magic`: four bytes.
    pub magic: Spanned<[u8; 4]>,
    /// `doc`.
    pub doc: Option<String>,
    /// `framing`: how the stream is laid out.
    pub framing: Framing,
    /// `[format.queries]`: the questions a byte-framed schema's fields may ask the decode
    /// context (`@name`), with their docs.
    pub queries: Vec<(Spanned<String>, Option<String>)>,
    /// `type_escape`: the versions in which a `type` id of 0x00FFFFFF says the real id
    /// follows (byte framing).
    pub type_escape: Option<Spanned<Range<u64>>>,
}

/// `framing`: the layout the schema's blocks are read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Framing {
    /// `"bits"` (the default): LLVM's bitstream, blocks of records of operands.
    #[default]
    Bits,
    /// `"bytes"`: LLVM 1.x bytecode, blocks whose bodies are fields read in order, each in
    /// its byte encoding.
    Bytes,
}

/// What an enum does with a code it does not name.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum UnknownPolicy {
    /// Decoding fails (the default).
    #[default]
    Error,
    /// An `Unknown(u64)` variant keeps the code.
    Keep,
    /// The named variant stands for every unknown code.
    Default(Spanned<String>),
}

/// `[enums.NAME]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Enum {
    /// The schema name (the table key).
    pub name: Spanned<String>,
    /// The Rust type name (`rust_name`, or the upper camel case of `name`).
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// `unknown` (and `default`).
    pub unknown: UnknownPolicy,
    /// `values`, in file order.
    pub values: Vec<EnumValue>,
}

/// One value of an enum.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    /// The schema spelling (used by `Display`).
    pub name: Spanned<String>,
    /// The Rust variant name.
    pub rust_name: String,
    /// The code.
    pub code: Spanned<u64>,
    /// `doc`.
    pub doc: Option<String>,
    /// `folds_to`: for an obsolete value, the current value LLVM's reader reads it as.
    pub folds_to: Option<Spanned<String>>,
}

/// `[flags.NAME]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Flags {
    /// The schema name.
    pub name: Spanned<String>,
    /// The Rust type name.
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// `fields`, in file order.
    pub fields: Vec<FlagField>,
}

/// One named part of a flag word.
#[derive(Clone, Debug, PartialEq)]
pub struct FlagField {
    /// The schema name.
    pub name: Spanned<String>,
    /// The Rust field name (snake case; keywords raw).
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// The bits: `[start, end)`; a `bit = N` field is `[N, N + 1)`.
    pub bits: Spanned<Range<u32>>,
    /// True for `bit = N` (a `bool`).
    pub single: bool,
    /// `enum`: the bit range decodes as this enum.
    pub enumeration: Option<Spanned<String>>,
}

/// `[groups.NAME]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The schema name.
    pub name: Spanned<String>,
    /// The Rust type name.
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// `variants`, in file order.
    pub variants: Vec<GroupVariant>,
    /// `select` (byte framing).
    pub select: Spanned<Select>,
}

/// One tagged variant of a group.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupVariant {
    /// The schema name.
    pub name: Spanned<String>,
    /// The Rust variant name.
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// `tag`.
    pub tag: Spanned<u64>,
    /// `tags`: more tags that select the variant (byte framing).
    pub more_tags: Vec<u64>,
    /// `tag = { "VERSIONS" = TAG, ... }`: the variant's tag by format version (byte
    /// framing); empty when `tag` is one number.
    pub tag_by_version: Vec<(Range<u64>, u64)>,
    /// `other = true`: the variant of every tag no other variant has (byte framing); its
    /// fields may read the tag as `tag`.
    pub other: bool,
    /// `versions`: the variant exists only in these format versions (byte framing).
    pub versions: Option<Spanned<Range<u64>>>,
    /// `fields`.
    pub fields: Vec<Field>,
}

/// `select`: where a byte-framed group's tag comes from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Select {
    /// A 32-bit VBR read before the variant's fields (the default).
    #[default]
    Read,
    /// `"@query"`: the decode context's answer.
    Query(String),
    /// `{ peek = "u32le" | "vbr", bits = "LO..HI" }`: bits of the next word, which the
    /// variant's fields then read themselves.
    Peek {
        /// The word is a 32-bit little-endian word (else a 32-bit VBR).
        fixed: bool,
        /// The bits, `[start, end)`.
        bits: Range<u32>,
    },
}

/// `[structs.NAME]`: a fixed sequence of operands, the element of an array (a PHI's
/// value/block pairs, a switch's cases).
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    /// The schema name.
    pub name: Spanned<String>,
    /// The Rust type name.
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// `fields`, in operand order (all required, none taking the rest).
    pub fields: Vec<Field>,
}

/// `numbers`: what a block's records are numbered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// `"values"`.
    Values,
    /// `"types"`.
    Types,
}

/// `defines`: what one record of a numbered block adds to the numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defines {
    /// `"nothing"`.
    Nothing,
    /// `"value"`.
    Value,
    /// `"call_result"`: a value unless the called function returns void.
    CallResult,
    /// `"type"`.
    Type,
}

/// `[blocks.NAME]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The schema name (e.g. `MODULE_BLOCK`).
    pub name: Spanned<String>,
    /// The Rust module name (snake case).
    pub module_name: String,
    /// `id`.
    pub id: Spanned<u32>,
    /// `doc`.
    pub doc: Option<String>,
    /// `deferrable`: the block changes nothing the rest of the stream reads, so it may be
    /// read apart (later, in parallel, or skipped by its length).
    pub deferrable: bool,
    /// `numbers`: what the block's records are numbered as.
    pub numbers: Option<Spanned<Numbers>>,
    /// `records`, in file order.
    pub records: Vec<RecordDef>,
    /// `ids`: the block's id in other versions, as `(versions, id)` (byte framing: the
    /// two-word headers of LLVM 1.0 to 1.2 numbered blocks differently).
    pub ids: Vec<(Spanned<Range<u64>>, Spanned<u32>)>,
    /// `fields`: the body, read in order (byte framing).
    pub fields: Vec<Field>,
}

/// `[blocks.B.records.NAME]`.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordDef {
    /// The schema name (e.g. `GLOBALVAR`).
    pub name: Spanned<String>,
    /// The Rust struct name (`rust_name`, or upper camel case of `name`).
    pub rust_name: String,
    /// `code`.
    pub code: Spanned<u32>,
    /// `doc`.
    pub doc: Option<String>,
    /// `fields` as one layout covering every version, or `layouts`.
    pub layouts: Vec<Layout>,
    /// `defines`: what the record adds to its block's numbering.
    pub defines: Option<Spanned<Defines>>,
}

/// The fields of a record for a range of format versions.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The versions, `[start, end)` (`end` = `u64::MAX` for "and later"); `0..u64::MAX`
    /// for a record given plain `fields`.
    pub versions: Spanned<Range<u64>>,
    /// `operands`: the operand counts, `[start, end)`, of an old form the reader tells
    /// apart by its length; such a layout goes before the plain one of its versions.
    pub operands: Option<Spanned<Range<u64>>>,
    /// The fields, in operand order.
    pub fields: Vec<Field>,
}

/// One field of a record or group variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The schema name.
    pub name: Spanned<String>,
    /// The Rust field name (snake case; keywords raw, e.g. `r#type`).
    pub rust_name: String,
    /// `doc`.
    pub doc: Option<String>,
    /// `kind` with its parameters.
    pub kind: Spanned<Kind>,
    /// `optional` / `default`.
    pub presence: Presence,
    /// `present_if`: the field is there only when an earlier field says so.
    pub condition: Option<Spanned<Condition>>,
    /// `versions`: the field is there only in these format versions, `[start, end)`.
    pub versions: Option<Spanned<Range<u64>>>,
    /// `wire = "u32le"`: the field is a 32-bit little-endian word, not a VBR (byte framing).
    pub fixed: bool,
    /// `until`: an array's elements end at one that this test finds true (consumed, not
    /// kept): a number for one-value elements, an expression of the element's first
    /// fields for structs (byte framing).
    pub until: Option<Spanned<String>>,
    /// `tell = true`: the decoder tells the decode context the value once read.
    pub tell: bool,
}

/// `present_if = "FIELD"` (an earlier `bool` field) or `"FIELD.FLAG"` (a one-bit flag of an
/// earlier `flags` field): the field's operand is there only when that is true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The earlier field's schema name.
    pub field: String,
    /// The flag's schema name, for a `flags` field.
    pub flag: Option<String>,
    /// The text as written: in a byte-framed schema, an expression (`expr.rs`).
    pub text: String,
}

/// Whether a field must be there.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Presence {
    /// The record must have the operand.
    #[default]
    Required,
    /// `optional = true`: `None` when the record ends before it.
    Optional,
    /// `default = V`: `V` when the record ends before it.
    Default(Spanned<DefaultValue>),
}

/// A `default` value, checked against the field's kind.
#[derive(Clone, Debug, PartialEq)]
pub enum DefaultValue {
    /// An integer (unsigned kinds, `signed`, `value`, `type`, and the code of an enum).
    Int(i128),
    /// A boolean (`bool`).
    Bool(bool),
    /// A variant name (`enum`).
    Variant(String),
}
