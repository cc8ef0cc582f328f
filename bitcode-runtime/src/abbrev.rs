//! Abbreviations: how DEFINE_ABBREV describes a record layout. LLVM checks a definition
//! in two steps, and so does this module: when the abbreviation is *defined* only the
//! encodings, the widths and that there is an operand at all (a stream may define an
//! abbreviation no record could use, and clang 22 does); the rest when a record *uses* it.
//!
//! Widths follow LLVM 14 (the last LLVM to take fixed fields wider than 32 bits, which it
//! reads correctly up to 64): a definition may have fixed and VBR widths up to 64. VBR
//! chunks wider than 32 bits LLVM 14 reads with undefined shifts and LLVM 15 refuses, so a
//! record cannot use them here.

use std::sync::Arc;

use crate::bits::BitReader;
use crate::error::{AbbrevProblem, Error, ErrorKind, Result};

/// The encoding of a scalar operand (also the element of an array).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarEncoding {
    /// A fixed-width field of 1 to 64 bits.
    Fixed(u8),
    /// A VBR field with chunks of 1 to 64 bits.
    Vbr(u8),
    /// A 6-bit character from `[a-zA-Z0-9._]`.
    Char6,
}

impl ScalarEncoding {
    /// The fewest bits one value of this encoding takes.
    pub fn min_bits(self) -> u64 {
        match self {
            ScalarEncoding::Fixed(w) | ScalarEncoding::Vbr(w) => w as u64,
            ScalarEncoding::Char6 => 6,
        }
    }

    /// Reads one value of this encoding.
    #[inline(always)]
    pub fn read(self, reader: &mut BitReader<'_>) -> Result<u64> {
        match self {
            ScalarEncoding::Fixed(w) => reader.read(w as u32),
            ScalarEncoding::Vbr(w) => reader.read_vbr(w as u32),
            ScalarEncoding::Char6 => reader.read_char6().map(u64::from),
        }
    }
}

/// One operand of a DEFINE_ABBREV as the stream writes it, after the checks LLVM makes at
/// definition: widths are 0 to 64, and a fixed or VBR width of 0 reads as the literal 0 (it
/// is kept as written, so that the definition is written back the same). An array is one
/// operand here and its element encoding the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefinedOp {
    /// A literal value.
    Literal(u64),
    /// A fixed-width field (encoding 1); width 0 is the literal 0.
    Fixed(u8),
    /// A VBR field (encoding 2); width 0 is the literal 0.
    Vbr(u8),
    /// An array (encoding 3); the next operand is meant to be its element encoding.
    Array,
    /// A char6 character (encoding 4).
    Char6,
    /// A blob (encoding 5).
    Blob,
}

impl DefinedOp {
    /// The scalar encoding this operand is, if it is one (fixed(0) and vbr(0) are literals).
    fn scalar(self) -> Option<ScalarEncoding> {
        match self {
            DefinedOp::Fixed(w) if w > 0 => Some(ScalarEncoding::Fixed(w)),
            DefinedOp::Vbr(w) if w > 0 => Some(ScalarEncoding::Vbr(w)),
            DefinedOp::Char6 => Some(ScalarEncoding::Char6),
            _ => None,
        }
    }

    /// The value this operand always reads as, if it is a literal (fixed(0) and vbr(0) are).
    fn literal(self) -> Option<u64> {
        match self {
            DefinedOp::Literal(v) => Some(v),
            DefinedOp::Fixed(0) | DefinedOp::Vbr(0) => Some(0),
            _ => None,
        }
    }
}

/// One operand of an abbreviation as a record reads it: an array carries its element
/// encoding, and zero-width fixed/VBR fields are literal zeros (as LLVM treats them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbbrevOp {
    /// A constant value that takes no bits in the record.
    Literal(u64),
    /// One scalar value.
    Scalar(ScalarEncoding),
    /// A VBR6 count, then that many elements of the given encoding.
    Array(ScalarEncoding),
    /// A VBR6 byte count, 32-bit alignment, the bytes, and alignment again.
    Blob,
}

/// An abbreviation as defined, and the layout a record using it reads (the record code's
/// operand first), or why no record can use it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Abbrev {
    /// Shared: cursors are cloned for each block read apart, abbreviations with them.
    definition: Arc<[DefinedOp]>,
    /// The layout; empty when the abbreviation cannot be used.
    ops: Arc<[AbbrevOp]>,
    /// Why a record cannot use it, when it cannot.
    unusable: Option<AbbrevProblem>,
}

impl Abbrev {
    /// Builds a usable abbreviation from its layout. Fails with the problem a record using
    /// it would meet: no operands, an array or a blob as the record code, an array that is
    /// not the last operand (its element encoding follows it on the wire), an array element
    /// of width 0 (that would be a literal), a width above 64 bits. A blob may stand
    /// anywhere after the code, as LLVM reads it wherever it is.
    pub fn new(ops: Vec<AbbrevOp>) -> Result<Self, AbbrevProblem> {
        let mut definition = Vec::with_capacity(ops.len() + 1);
        for op in ops {
            match op {
                AbbrevOp::Literal(v) => definition.push(DefinedOp::Literal(v)),
                AbbrevOp::Scalar(e) => definition.push(defined_scalar(e)),
                AbbrevOp::Array(e) => definition.extend([DefinedOp::Array, defined_scalar(e)]),
                AbbrevOp::Blob => definition.push(DefinedOp::Blob),
            }
        }
        let abbrev = Abbrev::define(definition)?;
        match abbrev.unusable {
            Some(problem) => Err(problem),
            None => Ok(abbrev),
        }
    }

    /// Builds an abbreviation from a definition as a stream writes it, with LLVM's checks
    /// at definition: at least one operand, widths up to 64 bits (a width of 0 reads as the
    /// literal 0). The rest is checked for use: [`Abbrev::unusable`] says why no record can
    /// use the result, when none can.
    pub fn define(definition: Vec<DefinedOp>) -> Result<Self, AbbrevProblem> {
        if definition.is_empty() {
            return Err(AbbrevProblem::NoOperands);
        }
        for op in &definition {
            if let DefinedOp::Fixed(w) | DefinedOp::Vbr(w) = *op {
                if w > 64 {
                    return Err(AbbrevProblem::WidthTooLarge(w.into()));
                }
            }
        }
        let (ops, unusable) = match layout(&definition) {
            Ok(ops) => (ops.into(), None),
            Err(problem) => (Arc::from([]), Some(problem)),
        };
        Ok(Abbrev { definition: definition.into(), ops, unusable })
    }

    /// The layout a record using this abbreviation reads, the record code's operand first;
    /// empty when no record can use it (see [`Abbrev::unusable`]).
    #[inline]
    pub fn ops(&self) -> &[AbbrevOp] {
        &self.ops
    }

    /// The operands as defined (an array and its element encoding are two).
    pub fn definition(&self) -> &[DefinedOp] {
        &self.definition
    }

    /// Why no record can use this abbreviation; `None` when records can.
    pub fn unusable(&self) -> Option<AbbrevProblem> {
        self.unusable
    }

    /// Reads the body of a DEFINE_ABBREV (everything after its abbreviation id) and makes
    /// LLVM's checks at definition. Errors point at the operand that breaks a rule.
    pub fn read_definition(reader: &mut BitReader<'_>) -> Result<Abbrev> {
        let start = reader.position();
        let count = reader.read_vbr32(5)?;
        // Each operand takes at least 4 bits (a flag and an encoding).
        if count.saturating_mul(4) > reader.bits_left() {
            return Err(Error::new(
                ErrorKind::CountTooLarge {
                    what: "abbreviation operands",
                    count,
                    bits_left: reader.bits_left(),
                },
                start,
            ));
        }
        let invalid = |p, at| Error::new(ErrorKind::InvalidAbbrev(p), at);
        let mut definition = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let op_start = reader.position();
            if reader.read(1)? == 1 {
                definition.push(DefinedOp::Literal(reader.read_vbr(8)?));
                continue;
            }
            let op = match reader.read(3)? {
                encoding @ (1 | 2) => {
                    let width = reader.read_vbr(5)?;
                    if width > 64 {
                        return Err(invalid(AbbrevProblem::WidthTooLarge(width), op_start));
                    }
                    match encoding {
                        1 => DefinedOp::Fixed(width as u8),
                        _ => DefinedOp::Vbr(width as u8),
                    }
                }
                3 => DefinedOp::Array,
                4 => DefinedOp::Char6,
                5 => DefinedOp::Blob,
                other => return Err(invalid(AbbrevProblem::UnknownEncoding(other), op_start)),
            };
            definition.push(op);
        }
        Abbrev::define(definition).map_err(|p| invalid(p, start))
    }

    /// The operands of a record written through this abbreviation as LLVM reads them when
    /// it asks for no blob, as its BLOCKINFO reader does: each blob's bytes stand among the
    /// operands where the blob is. `ops` are the operands after the code (literals
    /// included, array elements last), `blob` the bytes of every blob operand.
    ///
    /// ```
    /// use bitcode_schema_runtime::{Abbrev, AbbrevOp, ScalarEncoding};
    /// let abbrev = Abbrev::new(vec![AbbrevOp::Literal(1), AbbrevOp::Blob, AbbrevOp::Scalar(ScalarEncoding::Fixed(8))]).unwrap();
    /// // A SETBID written through it: LLVM's BLOCKINFO reader takes the blob's first byte
    /// // for the block id.
    /// assert_eq!(abbrev.operands_with_blob_in_place(&[9], b"xy"), [u64::from(b'x'), u64::from(b'y'), 9]);
    /// ```
    pub fn operands_with_blob_in_place(&self, ops: &[u64], blob: &[u8]) -> Vec<u64> {
        let mut values = ops.iter().copied();
        let mut out = Vec::with_capacity(ops.len() + blob.len());
        for op in self.ops.iter().skip(1) {
            match op {
                AbbrevOp::Literal(_) | AbbrevOp::Scalar(_) => out.extend(values.next()),
                AbbrevOp::Array(_) => out.extend(values.by_ref()),
                AbbrevOp::Blob => out.extend(blob.iter().map(|&b| u64::from(b))),
            }
        }
        out
    }

    /// How many operands this abbreviation has on the wire (an array counts twice).
    pub fn wire_len(&self) -> usize {
        self.definition.len()
    }
}

/// A scalar encoding as a definition writes it.
fn defined_scalar(e: ScalarEncoding) -> DefinedOp {
    match e {
        ScalarEncoding::Fixed(w) => DefinedOp::Fixed(w),
        ScalarEncoding::Vbr(w) => DefinedOp::Vbr(w),
        ScalarEncoding::Char6 => DefinedOp::Char6,
    }
}

/// The layout a record reads through `definition`, or the problem LLVM's `readRecord`
/// meets on the way: the code must be a literal or a scalar; an array must be second to
/// last, with a scalar encoding after it. Blobs may stand anywhere after the code. VBR
/// chunks are at most 32 bits wide.
fn layout(definition: &[DefinedOp]) -> Result<Vec<AbbrevOp>, AbbrevProblem> {
    let mut ops = Vec::with_capacity(definition.len());
    let mut i = 0;
    while let Some(&op) = definition.get(i) {
        if let Some(scalar) = op.scalar() {
            ops.push(AbbrevOp::Scalar(readable(scalar)?));
        } else if let Some(v) = op.literal() {
            ops.push(AbbrevOp::Literal(v));
        } else if i == 0 {
            return Err(AbbrevProblem::CodeIsArrayOrBlob);
        } else if op == DefinedOp::Blob {
            ops.push(AbbrevOp::Blob);
        } else if i + 2 != definition.len() {
            return Err(AbbrevProblem::ArrayNotSecondToLast);
        } else {
            let element =
                definition.get(i + 1).and_then(|op| op.scalar()).ok_or(AbbrevProblem::BadArrayElement)?;
            ops.push(AbbrevOp::Array(readable(element)?));
            break;
        }
        i += 1;
    }
    Ok(ops)
}

/// `encoding`, unless it is a VBR with chunks wider than 32 bits.
fn readable(encoding: ScalarEncoding) -> Result<ScalarEncoding, AbbrevProblem> {
    match encoding {
        ScalarEncoding::Vbr(w) if w > 32 => Err(AbbrevProblem::VbrChunkTooWide(w)),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_refuses_what_no_record_can_use() {
        use AbbrevOp::*;
        use ScalarEncoding::*;
        assert_eq!(Abbrev::new(vec![]), Err(AbbrevProblem::NoOperands));
        assert_eq!(Abbrev::new(vec![Blob]), Err(AbbrevProblem::CodeIsArrayOrBlob));
        assert_eq!(Abbrev::new(vec![Array(Char6)]), Err(AbbrevProblem::CodeIsArrayOrBlob));
        assert_eq!(
            Abbrev::new(vec![Literal(1), Array(Char6), Scalar(Fixed(3))]),
            Err(AbbrevProblem::ArrayNotSecondToLast)
        );
        assert_eq!(Abbrev::new(vec![Literal(1), Scalar(Vbr(65))]), Err(AbbrevProblem::WidthTooLarge(65)));
        assert_eq!(Abbrev::new(vec![Literal(1), Array(Fixed(0))]), Err(AbbrevProblem::BadArrayElement));
        let zero = Abbrev::new(vec![Literal(1), Scalar(Fixed(0))]).unwrap();
        assert_eq!(zero.ops(), &[Literal(1), Literal(0)]);
        let ok = Abbrev::new(vec![Scalar(Fixed(3)), Scalar(Vbr(6)), Array(Fixed(8))]).unwrap();
        assert_eq!(ok.wire_len(), 4);
        // LLVM reads a blob wherever it stands after the code.
        let blob_first = Abbrev::new(vec![Literal(1), Blob, Scalar(Vbr(6))]).unwrap();
        assert_eq!(blob_first.ops(), &[Literal(1), Blob, Scalar(Vbr(6))]);
    }

    #[test]
    fn define_checks_only_what_llvm_checks_at_definition() {
        use DefinedOp::*;
        assert_eq!(Abbrev::define(vec![]), Err(AbbrevProblem::NoOperands));
        assert_eq!(Abbrev::define(vec![Literal(1), Fixed(65)]), Err(AbbrevProblem::WidthTooLarge(65)));
        // Defined, but no record can use them.
        let unusable = [
            (vec![Array, Fixed(8)], AbbrevProblem::CodeIsArrayOrBlob),
            (vec![Blob], AbbrevProblem::CodeIsArrayOrBlob),
            (vec![Literal(1), Array], AbbrevProblem::ArrayNotSecondToLast),
            (vec![Literal(1), Array, Fixed(8), Fixed(8)], AbbrevProblem::ArrayNotSecondToLast),
            (vec![Literal(1), Array, Literal(7)], AbbrevProblem::BadArrayElement),
            // fixed(0) is the literal 0, so this is clang 22's array of literals.
            (vec![Literal(1), Array, Fixed(0)], AbbrevProblem::BadArrayElement),
            (vec![Literal(1), Array, Blob], AbbrevProblem::BadArrayElement),
            (vec![Literal(1), Array, Array], AbbrevProblem::BadArrayElement),
        ];
        for (definition, problem) in unusable {
            let abbrev = Abbrev::define(definition.clone()).unwrap();
            assert_eq!(abbrev.unusable(), Some(problem), "{definition:?}");
            assert!(abbrev.ops().is_empty());
            assert_eq!(abbrev.wire_len(), definition.len());
        }
        // LLVM 14 takes VBR chunks up to 64 bits when they are defined (and reads them with
        // undefined shifts); LLVM 15 refuses them. No record can use them here.
        for definition in [vec![Literal(1), Vbr(33)], vec![Literal(1), Array, Vbr(64)], vec![Vbr(40)]] {
            let abbrev = Abbrev::define(definition.clone()).unwrap();
            let width = definition.iter().find_map(|op| match op {
                Vbr(w) => Some(*w),
                _ => None,
            });
            assert_eq!(abbrev.unusable(), width.map(AbbrevProblem::VbrChunkTooWide), "{definition:?}");
        }
        let wide_fixed = Abbrev::define(vec![Fixed(64), Array, Fixed(33), Vbr(32)]).unwrap();
        assert_eq!(wide_fixed.unusable(), Some(AbbrevProblem::ArrayNotSecondToLast));
        let wide_fixed = Abbrev::define(vec![Fixed(64), Vbr(32), Array, Fixed(33)]).unwrap();
        assert_eq!(wide_fixed.unusable(), None);
        let usable = Abbrev::define(vec![Vbr(6), Blob, Vbr(0), Array, Char6]).unwrap();
        assert_eq!(usable.unusable(), None);
        assert_eq!(
            usable.ops(),
            &[
                AbbrevOp::Scalar(ScalarEncoding::Vbr(6)),
                AbbrevOp::Blob,
                AbbrevOp::Literal(0),
                AbbrevOp::Array(ScalarEncoding::Char6)
            ]
        );
        // Kept as written, so that it is written back the same.
        assert_eq!(usable.definition()[2], Vbr(0));
    }
}
