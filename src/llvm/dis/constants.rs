//! Values as operands: globals, locals and constants (WriteAsOperandInternal and
//! WriteConstantInternal).

use std::fmt::Write;

use super::floats::write_float;
use super::module::Printer;
use super::names;
use crate::llvm::ir::{BinaryOpcode, CastOpcode, CmpPredicate, GepFlags};
use crate::llvm::module::{Constant, Type, TypeRef, ValueKind, ValueRef};

/// The spelling of a binary opcode on operands of type `float`.
pub(super) fn binary_name(op: BinaryOpcode, float: bool) -> &'static str {
    match (op, float) {
        (BinaryOpcode::Add, true) => "fadd",
        (BinaryOpcode::Sub, true) => "fsub",
        (BinaryOpcode::Mul, true) => "fmul",
        (BinaryOpcode::Sdiv, true) => "fdiv",
        (BinaryOpcode::Srem, true) => "frem",
        (op, _) => op.name(),
    }
}

/// The spelling of a cast opcode.
pub(super) fn cast_name(op: CastOpcode) -> &'static str {
    op.name()
}

/// A predicate's spelling and whether it is an fcmp.
pub(super) fn predicate(p: CmpPredicate) -> (&'static str, bool) {
    let code = p.code();
    let name = match p {
        CmpPredicate::IcmpUgt => "ugt",
        CmpPredicate::IcmpUge => "uge",
        CmpPredicate::IcmpUlt => "ult",
        CmpPredicate::IcmpUle => "ule",
        other => other.name(),
    };
    (name, code < 32)
}

/// ` inbounds` (or ` nusw`, which it implies) and ` nuw` of a getelementptr.
pub(super) fn write_gep_flags(out: &mut String, flags: GepFlags) {
    if flags.inbounds {
        out.push_str(" inbounds");
    } else if flags.nusw {
        out.push_str(" nusw");
    }
    if flags.nuw {
        out.push_str(" nuw");
    }
}

/// nuw/nsw/exact of a binary operation's flags word.
pub(super) fn write_binary_flags(out: &mut String, op: BinaryOpcode, flags: u64) {
    match op {
        BinaryOpcode::Add | BinaryOpcode::Sub | BinaryOpcode::Mul | BinaryOpcode::Shl => {
            if flags & 1 != 0 {
                out.push_str(" nuw");
            }
            if flags & 2 != 0 {
                out.push_str(" nsw");
            }
        }
        BinaryOpcode::Udiv | BinaryOpcode::Sdiv | BinaryOpcode::Lshr | BinaryOpcode::Ashr
            if flags & 1 != 0 =>
        {
            out.push_str(" exact");
        }
        BinaryOpcode::Or if flags & 1 != 0 => out.push_str(" disjoint"),
        _ => {}
    }
}

impl Printer<'_, '_> {
    /// `type value`.
    pub fn write_typed(&self, out: &mut String, id: ValueRef) {
        match self.value(id) {
            Some(v) => {
                self.tp.write(out, &self.types, v.ty);
                out.push(' ');
                self.write_value(out, id);
            }
            None => out.push_str("<badref>"),
        }
    }

    /// A value without its type.
    pub fn write_value(&self, out: &mut String, id: ValueRef) {
        let Some(v) = self.value(id) else {
            out.push_str("<badref>");
            return;
        };
        match &v.kind {
            ValueKind::Global(_) | ValueKind::Function(_) | ValueKind::Alias(_) | ValueKind::Ifunc(_) => {
                self.write_global_name(out, id)
            }
            ValueKind::Argument(_) | ValueKind::Instruction(_) => self.write_local_name(out, id),
            ValueKind::Constant(c) => self.write_constant(out, v.ty, c),
            ValueKind::Placeholder => out.push_str("<badref>"),
        }
    }

    /// Writes a constant of type `ty`.
    pub fn write_constant(&self, out: &mut String, ty: TypeRef, c: &Constant<'_>) {
        self.write_constant_as(out, ty, c, true)
    }

    /// Writes a constant of type `ty`; a vector of one repeated number as a splat when
    /// `splats` and the version has the syntax.
    fn write_constant_as(&self, out: &mut String, ty: TypeRef, c: &Constant<'_>, splats: bool) {
        let types = &self.types;
        let t = types.get(ty);
        match c {
            Constant::Int(v) => match t {
                Some(Type::Integer(1)) => out.push_str(if *v & 1 != 0 { "true" } else { "false" }),
                Some(Type::Integer(w)) if *w < 64 => {
                    let v = (*v << (64 - w)) >> (64 - w);
                    super::text::push_int(out, v);
                }
                _ => {
                    super::text::push_int(out, *v);
                }
            },
            Constant::WideInt(words) => {
                let width = match t {
                    Some(Type::Integer(w)) => *w,
                    _ => 128,
                };
                super::attributes::write_apint(out, words, width);
            }
            Constant::Float(bits, extra) => match t {
                Some(t) => write_float(out, t, *bits, *extra),
                None => out.push_str("<badref>"),
            },
            Constant::Null => match t {
                Some(Type::Pointer { .. }) => out.push_str("null"),
                Some(Type::Token) => out.push_str("none"),
                Some(Type::Integer(1)) => out.push_str("false"),
                Some(Type::Integer(_)) => out.push('0'),
                Some(t) if t.is_float() => write_float(out, t, 0, 0),
                _ => out.push_str("zeroinitializer"),
            },
            Constant::Undef => out.push_str("undef"),
            Constant::Poison => out.push_str("poison"),
            Constant::Aggregate(elements) => match t {
                Some(Type::Struct { packed, .. }) => {
                    if *packed {
                        out.push('<');
                    }
                    out.push('{');
                    if !elements.is_empty() {
                        out.push(' ');
                    }
                    self.write_list(out, elements);
                    if !elements.is_empty() {
                        out.push(' ');
                    }
                    out.push('}');
                    if *packed {
                        out.push('>');
                    }
                }
                Some(Type::Vector { .. }) => {
                    if let Some(first) = self.splat_of(elements).filter(|_| splats) {
                        out.push_str("splat (");
                        self.write_typed(out, first);
                        out.push(')');
                        return;
                    }
                    out.push('<');
                    self.write_list(out, elements);
                    out.push('>');
                }
                _ => {
                    // An array of i8 constants reads as a string.
                    if let (Some(Type::Array { element, .. }), Some(bytes)) = (t, self.i8_elements(elements))
                    {
                        if matches!(types.get(*element), Some(Type::Integer(8))) {
                            out.push_str("c\"");
                            names::escaped(out, &bytes);
                            out.push('"');
                            return;
                        }
                    }
                    out.push('[');
                    self.write_list(out, elements);
                    out.push(']');
                }
            },
            Constant::String { bytes, cstring } => {
                out.push_str("c\"");
                names::escaped(out, bytes);
                if *cstring {
                    out.push_str("\\00");
                }
                out.push('"');
            }
            Constant::Data(words) => {
                let (element, open, close) = match t {
                    Some(Type::Vector { element, .. }) => (*element, '<', '>'),
                    Some(Type::Array { element, .. }) => (*element, '[', ']'),
                    _ => return out.push_str("<badref>"),
                };
                let et = types.get(element);
                if open == '[' && matches!(et, Some(Type::Integer(8))) {
                    out.push_str("c\"");
                    let bytes: Vec<u8> = words.iter().map(|w| *w as u8).collect();
                    names::escaped(out, &bytes);
                    out.push('"');
                    return;
                }
                // LLVM 20 and later print a vector of one repeated number as a splat.
                let splat = open == '<'
                    && self.major >= SPLAT_SYNTAX
                    && splats
                    && words.iter().all(|w| Some(w) == words.first());
                let words = match (splat, words.first()) {
                    (true, Some(first)) => {
                        out.push_str("splat (");
                        std::slice::from_ref(first)
                    }
                    _ => {
                        out.push(open);
                        &words[..]
                    }
                };
                let close = if splat { ')' } else { close };
                for (i, w) in words.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.tp.write(out, types, element);
                    out.push(' ');
                    match et {
                        Some(Type::Integer(1)) => out.push_str(if w & 1 != 0 { "true" } else { "false" }),
                        Some(Type::Integer(w2)) => {
                            let v = if *w2 > 0 && *w2 < 64 {
                                ((*w << (64 - w2)) as i64) >> (64 - w2)
                            } else {
                                *w as i64
                            };
                            super::text::push_int(out, v);
                        }
                        Some(f) => write_float(out, f, *w, 0),
                        None => {}
                    }
                }
                out.push(close);
            }
            Constant::Binary { opcode, flags, lhs, rhs } => {
                let float = self.value(*lhs).and_then(|v| types.get(v.ty)).is_some_and(|t| t.is_float());
                out.push_str(binary_name(*opcode, float));
                write_binary_flags(out, *opcode, *flags);
                out.push_str(" (");
                self.write_list(out, &[*lhs, *rhs]);
                out.push(')');
            }
            Constant::Unary { operand, .. } => {
                out.push_str("fneg (");
                self.write_typed(out, *operand);
                out.push(')');
            }
            Constant::Cast { opcode, operand } => {
                out.push_str(cast_name(*opcode));
                out.push_str(" (");
                self.write_typed(out, *operand);
                out.push_str(" to ");
                self.tp.write(out, types, ty);
                out.push(')');
            }
            Constant::Gep { source, flags, inrange_index, inrange, operands } => {
                out.push_str("getelementptr");
                write_gep_flags(out, *flags);
                if let Some((lo, hi)) = inrange {
                    let _ = write!(out, " inrange({lo}, {hi})");
                }
                out.push_str(" (");
                self.tp.write(out, types, *source);
                out.push_str(", ");
                for (i, op) in operands.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    if inrange_index.is_some_and(|r| r + 1 == i as u64) {
                        out.push_str("inrange ");
                    }
                    self.write_typed(out, *op);
                }
                out.push(')');
            }
            Constant::Select(a, b, c) => {
                out.push_str("select (");
                self.write_list(out, &[*a, *b, *c]);
                out.push(')');
            }
            Constant::ExtractElement(a, b) => {
                out.push_str("extractelement (");
                self.write_list(out, &[*a, *b]);
                out.push(')');
            }
            Constant::InsertElement(a, b, c) => {
                out.push_str("insertelement (");
                self.write_list(out, &[*a, *b, *c]);
                out.push(')');
            }
            Constant::ShuffleVector(a, b, mask) => {
                out.push_str("shufflevector (");
                self.write_list(out, &[*a, *b]);
                out.push_str(", ");
                self.write_mask(out, *mask);
                out.push(')');
            }
            Constant::Compare { predicate: p, lhs, rhs } => {
                let (name, float) = predicate(*p);
                out.push_str(if float { "fcmp " } else { "icmp " });
                out.push_str(name);
                out.push_str(" (");
                self.write_list(out, &[*lhs, *rhs]);
                out.push(')');
            }
            Constant::BlockAddress { function, block } => {
                out.push_str("blockaddress(");
                self.write_value(out, *function);
                out.push_str(", ");
                self.write_foreign_block(out, *function, *block);
                out.push(')');
            }
            Constant::DsoLocalEquivalent(v) => {
                out.push_str("dso_local_equivalent ");
                self.write_value(out, *v);
            }
            Constant::NoCfi(v) => {
                out.push_str("no_cfi ");
                self.write_value(out, *v);
            }
            Constant::InlineAsm { side_effect, align_stack, intel, unwind, asm, constraints, .. } => {
                out.push_str("asm ");
                if *side_effect {
                    out.push_str("sideeffect ");
                }
                if *align_stack {
                    out.push_str("alignstack ");
                }
                if *intel {
                    out.push_str("inteldialect ");
                }
                if *unwind {
                    out.push_str("unwind ");
                }
                out.push('"');
                names::escaped(out, asm);
                out.push_str("\", \"");
                names::escaped(out, constraints);
                out.push('"');
            }
            Constant::PtrAuth(ops) => {
                // Pointer and key, then the discriminator, the address discriminator and
                // (LLVM 22) the deactivation symbol, up to the last that is not null.
                let is_null = |id: &ValueRef| {
                    self.value(*id).is_some_and(|v| {
                        matches!(v.kind, ValueKind::Constant(Constant::Null | Constant::Int(0)))
                    })
                };
                let count = ops.iter().rposition(|id| !is_null(id)).map_or(0, |last| last + 1).max(2);
                out.push_str("ptrauth (");
                self.write_list(out, ops.get(..count).unwrap_or(ops));
                out.push(')');
            }
        }
    }

    /// A block of the function with value id `function`, by its name or slot there.
    fn write_foreign_block(&self, out: &mut String, function: ValueRef, block: u32) {
        match self.block_label(function, block) {
            Some((Some(name), _)) => names::name(out, '%', name),
            Some((None, Some(slot))) => {
                super::text::push_tagged(out, "%", *slot);
            }
            _ => out.push_str("<badref>"),
        }
    }

    /// `type value, type value...`.
    /// For LLVM 20 and later: the element of a vector whose elements are all the same
    /// integer or floating-point constant, which AsmWriter prints as `splat (ty value)`.
    fn splat_of(&self, elements: &[ValueRef]) -> Option<ValueRef> {
        let first = *elements.first()?;
        if self.major < SPLAT_SYNTAX || elements.iter().any(|e| *e != first) {
            return None;
        }
        match self.value(first).map(|v| &v.kind) {
            Some(ValueKind::Constant(Constant::Int(_) | Constant::WideInt(_) | Constant::Float(..))) => {
                Some(first)
            }
            _ => None,
        }
    }

    /// A shufflevector's mask: its type and elements, listed even when they repeat
    /// (AsmWriter never writes a mask as a splat).
    pub fn write_mask(&self, out: &mut String, mask: ValueRef) {
        match self.value(mask) {
            Some(v) => {
                self.tp.write(out, &self.types, v.ty);
                out.push(' ');
                match &v.kind {
                    ValueKind::Constant(c) => self.write_constant_as(out, v.ty, c, false),
                    _ => self.write_value(out, mask),
                }
            }
            None => out.push_str("<badref>"),
        }
    }

    fn write_list(&self, out: &mut String, ids: &[ValueRef]) {
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write_typed(out, *id);
        }
    }

    /// The bytes of an aggregate whose elements are all i8 integer constants.
    fn i8_elements(&self, ids: &[ValueRef]) -> Option<Vec<u8>> {
        ids.iter()
            .map(|id| match self.value(*id).map(|v| &v.kind) {
                Some(ValueKind::Constant(Constant::Int(v))) => Some(*v as u8),
                Some(ValueKind::Constant(Constant::Null)) => Some(0),
                _ => None,
            })
            .collect()
    }
}

/// The first LLVM version whose AsmWriter prints vector splats as `splat (ty value)`
/// (LLVM 19's llvm-dis still lists the elements).
const SPLAT_SYNTAX: u32 = 20;
