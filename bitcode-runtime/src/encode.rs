//! What schema-generated encoders run on: the way back from a typed record to its code,
//! operands and blob, which [`StreamWriter::record`](crate::writer::StreamWriter::record)
//! then writes unabbreviated or through an abbreviation.
//!
//! Generated code makes one call per field on an operand builder (in `crate::__private`,
//! for generated code only), the mirror of the decoder's operand reader: enums and flags
//! become their codes, value ids become relative to the context's value number, and so on.
//! The context is the decoder's ([`DecodeContext`]): an encoder asks it the same questions
//! (version, value number, relative ids, call parameters) and never warns.

use std::borrow::Cow;

use crate::decode::{
    encode_signed, Align, Bytes, ConstantRange, DecodeContext, FieldProblem, RecordInfo, SchemaEnum,
    SchemaFlags, TypeId, ValueId, ValueRef,
};
use crate::error::{Error, ErrorKind, Result};

/// A record ready to be written: its code, its operands, and its blob.
///
/// A `string` field's bytes are operands here; [`StreamWriter::record`] writes them as the
/// blob when the abbreviation it is given ends in one (LLVM writes some strings either way).
///
/// [`StreamWriter::record`]: crate::writer::StreamWriter::record
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodedRecord<'a> {
    /// The record code.
    pub code: u32,
    /// The operands after the code.
    pub ops: Vec<u64>,
    /// The blob (a `blob` field).
    pub blob: Option<Cow<'a, [u8]>>,
    /// Where the bytes of a `string` field start among `ops`, when the record has one:
    /// they run to the end.
    pub string_start: Option<usize>,
}

impl<'a> EncodedRecord<'a> {
    /// A record of `code` with `ops` and no blob.
    pub fn new(code: u32, ops: Vec<u64>) -> Self {
        EncodedRecord { code, ops, blob: None, string_start: None }
    }

    /// With `blob` as its blob.
    pub fn with_blob(self, blob: impl Into<Cow<'a, [u8]>>) -> Self {
        EncodedRecord { blob: Some(blob.into()), ..self }
    }

    /// Whether this, written with the abbreviation `record` was read with, gives `record`
    /// back: the same code, operands and blob (a `string` field's bytes being the blob when
    /// `record` has one, as [`StreamWriter::record`] writes them).
    ///
    /// [`StreamWriter::record`]: crate::writer::StreamWriter::record
    pub fn gives_back(&self, record: &crate::cursor::Record<'_, '_>) -> bool {
        if self.code != record.code {
            return false;
        }
        match (record.blob, self.blob.as_deref(), self.string_start) {
            (None, None, _) => self.ops == record.ops,
            (Some(blob), Some(own), _) => self.ops == record.ops && own == blob,
            (Some(blob), None, Some(start)) => self.ops.split_at_checked(start).is_some_and(|(ops, text)| {
                ops == record.ops
                    && text.len() == blob.len()
                    && text.iter().zip(blob).all(|(&v, &b)| v == u64::from(b))
            }),
            _ => false,
        }
    }
}

/// Builds one record's operands for a generated encoder, field by field.
///
/// Each field's operands are pushed; a field that must be written (required, present,
/// or different from its default) is then [kept](Self::keep). Trailing fields that are not
/// kept (absent optional ones, defaulted ones at their default) are left out, as a decoder
/// reads them back the same: [`finish`](Self::finish) cuts the operands after the last kept
/// field, but keeps at least the operand count asked for (a record re-encoded as the
/// original was written).
#[doc(hidden)]
pub struct OperandsOut<'a> {
    info: &'static RecordInfo,
    code: u32,
    ops: Vec<u64>,
    blob: Option<Cow<'a, [u8]>>,
    string_start: Option<usize>,
    /// The operand count up to the last kept field.
    needed: usize,
    /// Where the first absent optional field was: nothing may be kept after it.
    absent_at: Option<usize>,
}

impl<'a> OperandsOut<'a> {
    /// A builder for a record of `code`, naming `info` in its errors.
    pub fn new(info: &'static RecordInfo, code: u32) -> Self {
        OperandsOut {
            info,
            code,
            ops: Vec::new(),
            blob: None,
            string_start: None,
            needed: 0,
            absent_at: None,
        }
    }

    /// A builder for a record of `code` whose operands are expected to number about
    /// `capacity` (the operand count it was read with, or its field count), reserved at once
    /// so that pushing them does not grow the operand list again and again.
    pub fn with_capacity(info: &'static RecordInfo, code: u32, capacity: usize) -> Self {
        Self::reusing(info, code, Vec::new(), capacity)
    }

    /// As [`with_capacity`](Self::with_capacity), building into `ops` (emptied first),
    /// whose allocation a caller encoding many records reuses.
    pub fn reusing(info: &'static RecordInfo, code: u32, mut ops: Vec<u64>, capacity: usize) -> Self {
        // A caller's count is only a hint: a huge one reserves no more than this.
        const MOST: usize = 1 << 12;
        ops.clear();
        ops.reserve(capacity.min(MOST));
        OperandsOut { ops, ..Self::new(info, code) }
    }

    /// The error for `field` with `problem`.
    #[cold]
    pub fn error(&self, field: &'static str, problem: FieldProblem) -> Error {
        let kind = ErrorKind::Field { block: self.info.block, record: self.info.record, field, problem };
        Error::new(kind, 0).with_record_code(self.code)
    }

    /// The error for `field` when its value cannot be written as the schema says.
    #[cold]
    pub fn cannot(&self, field: &'static str, reason: &'static str) -> Error {
        self.error(field, FieldProblem::NotEncodable { reason })
    }

    /// Marks the field just written as one that must be written; fails after an absent
    /// optional field (a decoder would read this field's operands as that one's).
    pub fn keep(&mut self, field: &'static str) -> Result<()> {
        if self.absent_at.is_some() {
            return Err(
                self.cannot(field, "an earlier optional field is absent, so this one cannot be written")
            );
        }
        self.needed = self.ops.len();
        Ok(())
    }

    /// An optional field that is absent: the record ends here.
    pub fn absent(&mut self) {
        self.absent_at.get_or_insert(self.ops.len());
    }

    /// Fails for a conditional field whose condition holds but which has no value.
    pub fn missing(&self, field: &'static str) -> Error {
        self.cannot(field, "the field's condition says it is there, but it has no value")
    }

    /// One operand as it is.
    pub fn raw(&mut self, v: u64) {
        self.ops.push(v);
    }

    /// An unsigned field.
    pub fn uint(&mut self, v: impl Into<u64>) {
        self.ops.push(v.into());
    }

    /// A boolean: 1 or 0.
    pub fn boolean(&mut self, v: bool) {
        self.ops.push(u64::from(v));
    }

    /// A signed-VBR field.
    pub fn signed(&mut self, v: i64) {
        self.ops.push(encode_signed(v));
    }

    /// An enum field: its code.
    pub fn enumeration<E: SchemaEnum>(&mut self, v: E) {
        self.ops.push(v.code());
    }

    /// A flag word.
    pub fn flags<F: SchemaFlags>(&mut self, v: &F) {
        self.ops.push(v.bits());
    }

    /// An absolute value id.
    pub fn value(&mut self, v: ValueId) {
        self.ops.push(u64::from(v.0));
    }

    /// A relative value id: the value number minus the id, in 32 bits as LLVM writes it
    /// (a forward reference wraps), or the id itself where ids are absolute.
    pub fn relative<C: DecodeContext + ?Sized>(&mut self, v: ValueId, ctx: &C) {
        let op = if ctx.relative_ids() { ctx.value_number().wrapping_sub(v.0) } else { v.0 };
        self.ops.push(u64::from(op));
    }

    /// A signed relative value id (phi operands): the value number minus the id as signed
    /// VBR, or the id itself where ids are absolute.
    pub fn signed_relative<C: DecodeContext + ?Sized>(&mut self, v: ValueId, ctx: &C) {
        if ctx.relative_ids() {
            self.signed(i64::from(ctx.value_number()) - i64::from(v.0));
        } else {
            self.ops.push(u64::from(v.0));
        }
    }

    /// A value with its type after it when it is a forward reference; the type must be
    /// given exactly then, as a decoder reads one exactly then.
    pub fn value_type<C: DecodeContext + ?Sized>(
        &mut self,
        field: &'static str,
        v: &ValueRef,
        ctx: &C,
    ) -> Result<()> {
        self.relative(v.id, ctx);
        let forward = v.id.0 >= ctx.value_number();
        match (forward, v.ty) {
            (true, Some(ty)) => self.type_id(ty),
            (false, None) => {}
            (true, None) => return Err(self.cannot(field, "a forward reference needs its type")),
            (false, Some(_)) => {
                return Err(self.cannot(field, "only a forward reference carries a type"));
            }
        }
        Ok(())
    }

    /// A type id.
    pub fn type_id(&mut self, v: TypeId) {
        self.ops.push(u64::from(v.0));
    }

    /// A 1-based optional index: `None` is 0.
    pub fn optional_index(&mut self, v: Option<u32>) {
        self.ops.push(v.map_or(0, |i| u64::from(i) + 1));
    }

    /// An alignment as log2 + 1: `None` is 0.
    pub fn align(&mut self, v: Option<Align>) {
        self.ops.push(v.map_or(0, |a| u64::from(a.log2()) + 1));
    }

    /// The rest of the record as bytes (the blob, when the abbreviation has one).
    pub fn string(&mut self, v: &Bytes<'_>) {
        self.string_start = Some(self.ops.len());
        self.ops.extend(v.as_bytes().iter().map(|&b| u64::from(b)));
    }

    /// Bytes, then a 0; the bytes may hold no 0.
    pub fn cstring(&mut self, field: &'static str, v: &Bytes<'_>) -> Result<()> {
        if v.as_bytes().contains(&0) {
            return Err(self.cannot(field, "a NUL-terminated string cannot hold a NUL"));
        }
        self.ops.extend(v.as_bytes().iter().map(|&b| u64::from(b)));
        self.ops.push(0);
        Ok(())
    }

    /// The record's blob.
    pub fn blob(&mut self, v: &'a [u8]) {
        self.blob = Some(Cow::Borrowed(v));
    }

    /// Picks the layout for `version` as the decoder does, where `fits[i]` says whether
    /// the value has just the fields layout `i` reads (so an old form told apart by its
    /// operand count is written in that form); returns its index.
    pub fn layout(
        &self,
        version: u64,
        layouts: &[crate::layout::LayoutRange],
        fits: &[bool],
    ) -> Result<usize> {
        match crate::layout::pick(layouts, version, |i, _| fits.get(i).copied().unwrap_or(false)) {
            Some(index) => Ok(index),
            None => Err(self.error("(layout)", FieldProblem::NoLayout { version })),
        }
    }

    /// An element count (of a counted array).
    pub fn count(&mut self, n: usize) {
        self.ops.push(n as u64);
    }

    /// Checks that an array counted by an earlier field has that many elements.
    pub fn check_count(&self, field: &'static str, count: u64, len: usize) -> Result<()> {
        if count == len as u64 {
            Ok(())
        } else {
            Err(self.cannot(field, "the array's length differs from the field that counts it"))
        }
    }

    /// A constant range of `width` bits, as LLVM writes it (see the decoder's
    /// `constant_range`).
    pub fn constant_range(&mut self, field: &'static str, v: &ConstantRange, width: u64) -> Result<()> {
        if width <= 64 {
            match (v.lower.as_slice(), v.upper.as_slice()) {
                ([lower], [upper]) => {
                    self.signed(*lower as i64);
                    self.signed(*upper as i64);
                    return Ok(());
                }
                _ => return Err(self.cannot(field, "a range of up to 64 bits has one word per bound")),
            }
        }
        let (lower, upper) = (v.lower.len() as u64, v.upper.len() as u64);
        if lower > u64::from(u32::MAX) || upper > u64::from(u32::MAX) {
            return Err(self.cannot(field, "a bound has more words than a count holds"));
        }
        self.ops.push(lower | upper << 32);
        for &w in v.lower.iter().chain(&v.upper) {
            self.signed(w as i64);
        }
        Ok(())
    }

    /// A call's arguments: relative values for the fixed parameters the context knows of,
    /// then value-type pairs.
    pub fn call_args<C: DecodeContext + ?Sized>(
        &mut self,
        field: &'static str,
        args: &[ValueRef],
        ctx: &C,
    ) -> Result<()> {
        let fixed = ctx.call_params().unwrap_or(0) as usize;
        for (i, arg) in args.iter().enumerate() {
            if i < fixed {
                if arg.ty.is_some() {
                    return Err(self.cannot(field, "a fixed parameter's argument carries no type"));
                }
                self.relative(arg.id, ctx);
            } else {
                self.value_type(field, arg, ctx)?;
            }
        }
        Ok(())
    }

    /// The record: operands up to the last kept field, or `at_least` of them when the
    /// fields gave that many, then `extra` (operands past the schema's fields, which keep
    /// every field before them).
    pub fn finish(
        mut self,
        field: &'static str,
        at_least: usize,
        extra: &[u64],
    ) -> Result<EncodedRecord<'a>> {
        let written = self.absent_at.unwrap_or(self.ops.len());
        let len = if extra.is_empty() {
            self.needed.max(at_least.min(written))
        } else if self.absent_at.is_some() {
            return Err(self.cannot(field, "extra operands follow an absent optional field"));
        } else {
            written
        };
        self.ops.truncate(len);
        let mut string_start = self.string_start.filter(|&s| s <= len);
        if let (Some(start), false) = (string_start, extra.is_empty()) {
            // A string takes every operand after it, so one followed by extra operands was
            // read from the blob: it goes back there, the extra operands where it was.
            if self.blob.is_some() {
                return Err(self.cannot(field, "extra operands follow a string, and the record has a blob"));
            }
            let bytes: Vec<u8> = self.ops.drain(start..).map(|v| v as u8).collect();
            self.blob = Some(Cow::Owned(bytes));
            string_start = None;
        }
        self.ops.extend_from_slice(extra);
        Ok(EncodedRecord { code: self.code, ops: self.ops, blob: self.blob, string_start })
    }
}
