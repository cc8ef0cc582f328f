//! The constant expressions LLVM's reader folds as it makes them (`ConstantExpr::get`,
//! ConstantFold.cpp) although their writer left them unfolded, because it made them
//! before it knew what folds them. AddressSanitizer (clang 15 and 16) masks the address of
//! a global that it gives `align 32` only afterwards: to the reader `and (ptrtoint @g), 7`
//! is 0, and so are the expressions over it (`trunc (add (and ...), 3)` is `i8 3`).
//!
//! The folds are those such an expression meets: an `and` of an aligned global's address
//! with a mask its alignment clears, integer arithmetic and casts of plain integers, and
//! the identities of a binary operator with one integer operand. Each constant is folded
//! as it is read, over operands read (and folded) before it, as LLVM folds each when it
//! makes it. Integers wider than 64 bits are left as they are.

use super::constants::{Constant, ValueRef};
use super::types::{Type, TypeRef, Types};
use super::values::{Value, ValueKind};
use super::Module;
use crate::llvm::ir::{BinaryOpcode, CastOpcode};

/// What a fold needs: the module (its globals, functions and data layout), its types, and
/// the values the operands name (a function's constants see the module's values too).
pub(super) struct Folder<'f, 'a> {
    pub m: &'f Module<'a>,
    pub types: &'f Types,
    pub value: &'f dyn Fn(ValueRef) -> Option<&'f Value<'a>>,
}

impl<'a> Folder<'_, 'a> {
    /// Constant `c` of type `ty` as LLVM's reader makes it: folded, or as it was.
    pub fn fold(&self, c: Constant<'a>, ty: TypeRef) -> Constant<'a> {
        let folded = match &c {
            Constant::Binary { opcode, lhs, rhs, .. } => self.binary(*opcode, *lhs, *rhs, ty),
            Constant::Cast { opcode, operand } => self.cast(*opcode, *operand, ty),
            _ => None,
        };
        folded.unwrap_or(c)
    }

    /// The width of integer type `ty`, when it is at most 64 bits.
    fn width(&self, ty: TypeRef) -> Option<u32> {
        match self.types.get(ty)? {
            Type::Integer(w) if (1..=64).contains(w) => Some(*w),
            _ => None,
        }
    }

    /// The bits of value `id` when it is an integer constant of at most 64 bits, with its
    /// width.
    fn int(&self, id: ValueRef) -> Option<(u64, u32)> {
        let v = (self.value)(id)?;
        let width = self.width(v.ty)?;
        match &v.kind {
            ValueKind::Constant(Constant::Int(i)) => Some((*i as u64 & mask(width), width)),
            ValueKind::Constant(Constant::Null) => Some((0, width)),
            _ => None,
        }
    }

    /// `lhs opcode rhs` of type `ty` folded (ConstantFoldBinaryInstruction).
    fn binary(
        &self,
        opcode: BinaryOpcode,
        lhs: ValueRef,
        rhs: ValueRef,
        ty: TypeRef,
    ) -> Option<Constant<'a>> {
        let width = self.width(ty)?;
        match (self.int(lhs), self.int(rhs)) {
            (Some((a, _)), Some((b, _))) => integer_binary(opcode, a, b, width),
            // An integer on the left of a commutative operator goes to the right (without
            // the flags); on the left of another, it stays.
            (Some((a, _)), None) if commutative(opcode) => {
                Some(self.with_int_rhs(opcode, rhs, a, width).unwrap_or(Constant::Binary {
                    opcode,
                    flags: 0,
                    lhs: rhs,
                    rhs: lhs,
                }))
            }
            (None, Some((b, _))) => self.with_int_rhs(opcode, lhs, b, width),
            (Some(_), None) | (None, None) => None,
        }
    }

    /// `lhs opcode b` folded where `b` is the bits of an integer and `lhs` is not one.
    fn with_int_rhs(&self, opcode: BinaryOpcode, lhs: ValueRef, b: u64, width: u32) -> Option<Constant<'a>> {
        let ones = mask(width);
        use BinaryOpcode as B;
        let keep_lhs = match opcode {
            B::Add | B::Sub | B::Or | B::Xor => b == 0,
            B::Mul | B::Udiv | B::Sdiv => b == 1,
            B::And => b == ones,
            _ => false,
        };
        if keep_lhs {
            return self.copy(lhs);
        }
        match opcode {
            B::Mul | B::And if b == 0 => Some(Constant::Null),
            B::Or if b == ones => Some(int(ones, width)),
            B::Urem | B::Srem if b == 1 => Some(Constant::Null),
            B::And => self.aligned_address(lhs, b, width).then_some(Constant::Null),
            _ => None,
        }
    }

    /// Whether `lhs` is the address of a global (`ptrtoint @g`) aligned so that it has
    /// none of the bits of `mask` set: LLVM takes the global's alignment, or 4 for a
    /// function when the data layout gives function pointers none.
    fn aligned_address(&self, lhs: ValueRef, mask_bits: u64, width: u32) -> bool {
        let Some(ValueKind::Constant(Constant::Cast { opcode: CastOpcode::Ptrtoint, operand })) =
            (self.value)(lhs).map(|v| &v.kind)
        else {
            return false;
        };
        let align = match (self.value)(*operand).map(|v| &v.kind) {
            // Without an explicit alignment LLVM takes the preferred alignment of the
            // global's type, which needs the data layout's type alignments: not folded.
            Some(ValueKind::Global(g)) => self.m.globals.get(*g as usize).and_then(|g| g.align),
            Some(ValueKind::Function(f)) => match function_pointer_align(&self.m.datalayout) {
                None => Some(4),
                Some((bytes, false)) => Some(bytes),
                Some((bytes, true)) => {
                    let own = self.m.functions.get(*f as usize).and_then(|f| f.align).unwrap_or(1);
                    Some(bytes.max(own))
                }
            },
            _ => None,
        };
        let Some(align) = align.filter(|a| a.is_power_of_two() && *a > 1) else { return false };
        let low = align.trailing_zeros().min(width);
        mask_bits & !mask(low) == 0
    }

    /// Cast `opcode` of `operand` to `ty` folded (ConstantFoldCastInstruction), for an
    /// integer operand.
    fn cast(&self, opcode: CastOpcode, operand: ValueRef, ty: TypeRef) -> Option<Constant<'a>> {
        let (bits, from) = self.int(operand)?;
        use CastOpcode as C;
        match opcode {
            C::Trunc | C::Zext | C::Sext => {
                let to = self.width(ty)?;
                let bits = if matches!(opcode, C::Sext) { sign_extend(bits, from) as u64 } else { bits };
                Some(int(bits & mask(to), to))
            }
            // A cast of zero to a pointer is the null pointer.
            C::Inttoptr if bits == 0 => Some(Constant::Null),
            _ => None,
        }
    }

    /// A copy of value `id` when it is a constant (a folded expression is the operand it
    /// keeps).
    fn copy(&self, id: ValueRef) -> Option<Constant<'a>> {
        match &(self.value)(id)?.kind {
            ValueKind::Constant(c) => Some(c.clone()),
            _ => None,
        }
    }
}

/// Whether `opcode` is commutative.
fn commutative(opcode: BinaryOpcode) -> bool {
    use BinaryOpcode as B;
    matches!(opcode, B::Add | B::Mul | B::And | B::Or | B::Xor)
}

/// `a opcode b` on integers of `width` bits, as APInt computes it; `None` where LLVM gives
/// poison (a shift by the width or more, a division by zero, an overflowing sdiv), which
/// is not folded here.
fn integer_binary<'a>(opcode: BinaryOpcode, a: u64, b: u64, width: u32) -> Option<Constant<'a>> {
    use BinaryOpcode as B;
    let (sa, sb) = (sign_extend(a, width), sign_extend(b, width));
    let bits = match opcode {
        B::Add => a.wrapping_add(b),
        B::Sub => a.wrapping_sub(b),
        B::Mul => a.wrapping_mul(b),
        B::And => a & b,
        B::Or => a | b,
        B::Xor => a ^ b,
        B::Shl if b < u64::from(width) => a << b,
        B::Lshr if b < u64::from(width) => a >> b,
        B::Ashr if b < u64::from(width) => (sa >> b) as u64,
        B::Udiv if b != 0 => a / b,
        B::Urem if b != 0 => a % b,
        B::Sdiv if b != 0 => sa.checked_div(sb).filter(|_| !(sa == min_signed(width) && sb == -1))? as u64,
        B::Srem if b != 0 => sa.checked_rem(sb).filter(|_| !(sa == min_signed(width) && sb == -1))? as u64,
        _ => return None,
    };
    Some(int(bits & mask(width), width))
}

/// The constant of `bits` (the low `width` of them): null when zero, as LLVM's writer
/// gives a zero integer.
fn int<'a>(bits: u64, width: u32) -> Constant<'a> {
    match bits & mask(width) {
        0 => Constant::Null,
        bits => Constant::Int(sign_extend(bits, width)),
    }
}

/// The low `width` bits set.
fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The low `width` bits of `bits`, sign-extended.
fn sign_extend(bits: u64, width: u32) -> i64 {
    let unused = 64 - width.clamp(1, 64);
    ((bits << unused) as i64) >> unused
}

/// The smallest signed integer of `width` bits.
fn min_signed(width: u32) -> i64 {
    sign_extend(1u64 << (width.clamp(1, 64) - 1), width)
}

/// The function pointer alignment of a data layout (`Fi<bits>` independent of the
/// functions' own, `Fn<bits>` a multiple of it), in bytes, and whether it is the latter.
fn function_pointer_align(layout: &[u8]) -> Option<(u64, bool)> {
    layout.split(|&b| b == b'-').find_map(|spec| {
        let (multiple, bits) = match spec {
            [b'F', b'i', bits @ ..] => (false, bits),
            [b'F', b'n', bits @ ..] => (true, bits),
            _ => return None,
        };
        let bits: u64 = std::str::from_utf8(bits).ok()?.parse().ok()?;
        Some((bits / 8, multiple))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_at_their_width_and_zero_is_null() {
        use BinaryOpcode as B;
        assert_eq!(integer_binary(B::Add, 0xff, 1, 8), Some(Constant::Null));
        assert_eq!(integer_binary(B::Add, 0x7f, 1, 8), Some(Constant::Int(-128)));
        assert_eq!(integer_binary(B::Sub, 0, 1, 64), Some(Constant::Int(-1)));
        assert_eq!(integer_binary(B::Ashr, 0x80, 7, 8), Some(Constant::Int(-1)));
        assert_eq!(integer_binary(B::Lshr, 0x80, 7, 8), Some(Constant::Int(1)));
        // Poison in LLVM: left as it is.
        assert_eq!(integer_binary(B::Shl, 1, 8, 8), None);
        assert_eq!(integer_binary(B::Udiv, 1, 0, 32), None);
        assert_eq!(integer_binary(B::Sdiv, 0x80, 0xff, 8), None);
        assert_eq!(integer_binary(B::Sdiv, 0xf9, 2, 8), Some(Constant::Int(-3)));
        assert_eq!(integer_binary(B::Srem, 0xf9, 2, 8), Some(Constant::Int(-1)));
    }

    #[test]
    fn widths_sign_extend_and_mask() {
        assert_eq!(sign_extend(1, 1), -1);
        assert_eq!(sign_extend(0x7fff_ffff, 32), 0x7fff_ffff);
        assert_eq!(min_signed(8), -128);
        assert_eq!(min_signed(64), i64::MIN);
        assert_eq!(mask(3), 7);
        assert_eq!(mask(64), u64::MAX);
    }

    #[test]
    fn function_pointer_alignment_comes_from_the_layout() {
        assert_eq!(function_pointer_align(b"e-m:e-i64:64-n8:16:32:64-S128"), None);
        assert_eq!(function_pointer_align(b"e-m:e-p:32:32-Fi8-i64:64"), Some((1, false)));
        assert_eq!(function_pointer_align(b"E-m:a-Fn32-i64:64-n32:64"), Some((4, true)));
    }
}
