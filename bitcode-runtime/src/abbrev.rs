//! Abbreviations: how DEFINE_ABBREV describes a record layout, checked against LLVM's
//! rules once, when the abbreviation is defined, and kept in a normalised form.

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

/// One operand of an abbreviation, normalised: an array carries its element encoding,
/// and zero-width fixed/VBR fields are literal zeros (as LLVM treats them).
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

/// A checked abbreviation: the record code's operand first, then the record's operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Abbrev {
    /// Shared: cursors are cloned for each block read apart, abbreviations with them.
    ops: std::sync::Arc<[AbbrevOp]>,
}

impl Abbrev {
    /// Builds an abbreviation from normalised operands, applying LLVM's rules: at least one
    /// operand; the first (the record code) is a literal or a scalar; an array or a blob
    /// only as the last operand; widths from 1 to 64 bits.
    pub fn new(ops: Vec<AbbrevOp>) -> Result<Self, AbbrevProblem> {
        let Some(first) = ops.first() else {
            return Err(AbbrevProblem::NoOperands);
        };
        if matches!(first, AbbrevOp::Array(_) | AbbrevOp::Blob) {
            return Err(AbbrevProblem::CodeIsArrayOrBlob);
        }
        let last = ops.len() - 1;
        let mut ops = ops;
        for (i, op) in ops.iter_mut().enumerate() {
            match *op {
                AbbrevOp::Array(_) if i != last => return Err(AbbrevProblem::ArrayNotSecondToLast),
                AbbrevOp::Blob if i != last => return Err(AbbrevProblem::BlobNotLast),
                AbbrevOp::Array(ScalarEncoding::Fixed(0) | ScalarEncoding::Vbr(0)) => {
                    return Err(AbbrevProblem::BadArrayElement)
                }
                AbbrevOp::Scalar(ScalarEncoding::Fixed(0) | ScalarEncoding::Vbr(0)) => {
                    *op = AbbrevOp::Literal(0)
                }
                AbbrevOp::Scalar(ScalarEncoding::Fixed(w) | ScalarEncoding::Vbr(w))
                | AbbrevOp::Array(ScalarEncoding::Fixed(w) | ScalarEncoding::Vbr(w))
                    if w > 64 =>
                {
                    return Err(AbbrevProblem::WidthTooLarge(w as u64))
                }
                _ => {}
            }
        }
        Ok(Abbrev { ops: ops.into() })
    }

    /// The operands, the record code's first.
    #[inline]
    pub fn ops(&self) -> &[AbbrevOp] {
        &self.ops
    }

    /// Reads the body of a DEFINE_ABBREV (everything after its abbreviation id) and checks
    /// it. Errors point at the operand that breaks a rule.
    pub fn read_definition(reader: &mut BitReader<'_>) -> Result<Abbrev> {
        let start = reader.position();
        let count = reader.read_vbr(5)?;
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
        let mut ops = Vec::with_capacity(count as usize);
        // An array's element follows it on the wire; fold it into the array operand.
        let mut array_at: Option<u64> = None;
        let mut i = 0;
        while i < count {
            let op_start = reader.position();
            let is_literal = reader.read(1)? == 1;
            let op = if is_literal {
                AbbrevOp::Literal(reader.read_vbr(8)?)
            } else {
                let encoding = reader.read(3)?;
                match encoding {
                    1 | 2 => {
                        let width = reader.read_vbr(5)?;
                        if width == 0 {
                            AbbrevOp::Literal(0)
                        } else if width > 64 {
                            return Err(invalid(AbbrevProblem::WidthTooLarge(width), op_start));
                        } else if encoding == 1 {
                            AbbrevOp::Scalar(ScalarEncoding::Fixed(width as u8))
                        } else {
                            AbbrevOp::Scalar(ScalarEncoding::Vbr(width as u8))
                        }
                    }
                    3 => {
                        if array_at.is_some() {
                            return Err(invalid(AbbrevProblem::BadArrayElement, op_start));
                        }
                        if i == 0 {
                            return Err(invalid(AbbrevProblem::CodeIsArrayOrBlob, op_start));
                        }
                        if i + 2 != count {
                            return Err(invalid(AbbrevProblem::ArrayNotSecondToLast, op_start));
                        }
                        array_at = Some(op_start);
                        i += 1;
                        continue;
                    }
                    4 => AbbrevOp::Scalar(ScalarEncoding::Char6),
                    5 => {
                        if i == 0 {
                            return Err(invalid(AbbrevProblem::CodeIsArrayOrBlob, op_start));
                        }
                        if i + 1 != count {
                            return Err(invalid(AbbrevProblem::BlobNotLast, op_start));
                        }
                        AbbrevOp::Blob
                    }
                    other => return Err(invalid(AbbrevProblem::UnknownEncoding(other), op_start)),
                }
            };
            if array_at.is_some() {
                // This operand is the array's element encoding.
                match op {
                    AbbrevOp::Scalar(e) => ops.push(AbbrevOp::Array(e)),
                    _ => return Err(invalid(AbbrevProblem::BadArrayElement, op_start)),
                }
            } else {
                ops.push(op);
            }
            i += 1;
        }
        if ops.is_empty() {
            return Err(invalid(AbbrevProblem::NoOperands, start));
        }
        Ok(Abbrev { ops: ops.into() })
    }

    /// How many operands this abbreviation has on the wire (an array counts twice).
    pub fn wire_len(&self) -> usize {
        self.ops.len() + self.ops.iter().filter(|op| matches!(op, AbbrevOp::Array(_))).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_applies_llvm_rules() {
        use AbbrevOp::*;
        use ScalarEncoding::*;
        assert_eq!(Abbrev::new(vec![]), Err(AbbrevProblem::NoOperands));
        assert_eq!(Abbrev::new(vec![Blob]), Err(AbbrevProblem::CodeIsArrayOrBlob));
        assert_eq!(Abbrev::new(vec![Array(Char6)]), Err(AbbrevProblem::CodeIsArrayOrBlob));
        assert_eq!(
            Abbrev::new(vec![Literal(1), Array(Char6), Scalar(Fixed(3))]),
            Err(AbbrevProblem::ArrayNotSecondToLast)
        );
        assert_eq!(Abbrev::new(vec![Literal(1), Blob, Literal(2)]), Err(AbbrevProblem::BlobNotLast));
        assert_eq!(Abbrev::new(vec![Literal(1), Scalar(Vbr(65))]), Err(AbbrevProblem::WidthTooLarge(65)));
        assert_eq!(Abbrev::new(vec![Literal(1), Array(Fixed(0))]), Err(AbbrevProblem::BadArrayElement));
        let zero = Abbrev::new(vec![Literal(1), Scalar(Fixed(0))]).unwrap();
        assert_eq!(zero.ops(), &[Literal(1), Literal(0)]);
        let ok = Abbrev::new(vec![Scalar(Fixed(3)), Scalar(Vbr(6)), Array(Fixed(8))]).unwrap();
        assert_eq!(ok.wire_len(), 4);
    }
}
