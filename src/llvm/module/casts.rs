//! Which casts LLVM's reader takes: `CastInst::castIsValid`, which a cast instruction
//! must pass ("Invalid cast").

use super::types::{Type, TypeRef, Types};
use crate::llvm::ir::CastOpcode;

/// A first-class, non-aggregate type as a cast sees it: its scalar and, for a vector,
/// its element count (`None` for a scalar, so that a scalar never matches a vector).
struct Shape<'t> {
    scalar: &'t Type,
    count: Option<(u32, bool)>,
}

impl Types {
    /// Whether LLVM's reader takes a cast `opcode` of a `from` value to `to`.
    pub fn cast_is_valid(&self, opcode: CastOpcode, from: TypeRef, to: TypeRef) -> bool {
        let (Some(src), Some(dst)) = (self.shape(from), self.shape(to)) else { return false };
        let same_count = src.count == dst.count;
        let int = |s: &Shape<'_>| matches!(s.scalar, Type::Integer(_));
        let fp = |s: &Shape<'_>| s.scalar.is_float();
        let pointer_space = |s: &Shape<'_>| match s.scalar {
            Type::Pointer { address_space, .. } => Some(*address_space),
            _ => None,
        };
        let bits = |s: &Shape<'_>| scalar_bits(s.scalar);
        match opcode {
            CastOpcode::Trunc => int(&src) && int(&dst) && same_count && bits(&src) > bits(&dst),
            CastOpcode::Zext | CastOpcode::Sext => {
                int(&src) && int(&dst) && same_count && bits(&src) < bits(&dst)
            }
            CastOpcode::Fptrunc => fp(&src) && fp(&dst) && same_count && bits(&src) > bits(&dst),
            CastOpcode::Fpext => fp(&src) && fp(&dst) && same_count && bits(&src) < bits(&dst),
            CastOpcode::Uitofp | CastOpcode::Sitofp => int(&src) && fp(&dst) && same_count,
            CastOpcode::Fptoui | CastOpcode::Fptosi => fp(&src) && int(&dst) && same_count,
            CastOpcode::Ptrtoint | CastOpcode::Ptrtoaddr => {
                pointer_space(&src).is_some() && int(&dst) && same_count
            }
            CastOpcode::Inttoptr => int(&src) && pointer_space(&dst).is_some() && same_count,
            CastOpcode::Bitcast => match (pointer_space(&src), pointer_space(&dst)) {
                (None, None) => self.total_bits(from) == self.total_bits(to),
                (Some(a), Some(b)) => {
                    // A vector of one pointer casts to a pointer and back.
                    let one = |c: Option<(u32, bool)>| c.is_none_or(|c| c == (1, false));
                    a == b && (same_count || (one(src.count) && one(dst.count)))
                }
                _ => false,
            },
            CastOpcode::Addrspacecast => match (pointer_space(&src), pointer_space(&dst)) {
                (Some(a), Some(b)) => a != b && same_count,
                _ => false,
            },
            CastOpcode::Unknown(_) => false,
        }
    }

    /// `ty` as a cast sees it, if it can be cast at all (first class, not an aggregate).
    fn shape(&self, ty: TypeRef) -> Option<Shape<'_>> {
        match self.get(ty)? {
            Type::Vector { len, element, scalable } => {
                Some(Shape { scalar: self.get(*element)?, count: Some((*len, *scalable)) })
            }
            Type::Void
            | Type::Label
            | Type::Metadata
            | Type::Token
            | Type::Function { .. }
            | Type::Struct { .. }
            | Type::Array { .. } => None,
            scalar => Some(Shape { scalar, count: None }),
        }
    }

    /// The size in bits a bitcast compares (`getPrimitiveSizeInBits`), and whether it is
    /// a multiple of vscale: 0 for a type without one.
    fn total_bits(&self, ty: TypeRef) -> (u64, bool) {
        match self.get(ty) {
            Some(Type::Vector { len, element, scalable }) => {
                (u64::from(*len) * self.get(*element).map_or(0, scalar_bits), *scalable)
            }
            Some(scalar) => (scalar_bits(scalar), false),
            None => (0, false),
        }
    }
}

/// A scalar's size in bits (`getScalarSizeInBits`; 0 for pointers and others).
fn scalar_bits(ty: &Type) -> u64 {
    match ty {
        Type::Integer(width) => u64::from(*width),
        Type::Half | Type::BFloat => 16,
        Type::Float => 32,
        Type::Double | Type::X86Mmx => 64,
        Type::X86Fp80 => 80,
        Type::Fp128 | Type::PpcFp128 => 128,
        Type::X86Amx => 8192,
        _ => 0,
    }
}
