//! Constants as operands: numbers, strings, aggregates, `zeroinitializer`, global
//! references and constant expressions.

use super::names::escape_bytes;
use super::release::ZeroStyle;
use super::{global_value, instructions, Printer};
use crate::bytecode::ir::{ConstId, Constant, GlobalRef, IntBits, Type, TypeId};

impl Printer<'_> {
    /// `WriteConstantInt`: a constant's text without its type.
    pub(super) fn constant_text(&mut self, id: ConstId) -> String {
        let Some(c) = self.m.constant(id) else { return "<placeholder or erroneous Constant>".to_string() };
        match c {
            Constant::Int { ty, value } => self.int_text(*ty, value),
            Constant::Float { bits, .. } => float_text(*bits, self.flavor.hex_floats_only),
            Constant::Null { ty } => self.null_text(*ty),
            Constant::Undef { .. } => "undef".to_string(),
            Constant::Array { ty, elements } => self.array_text(id, *ty, elements),
            Constant::Struct { ty, fields } => self.struct_text(id, *ty, fields),
            Constant::Vector { ty, elements } => self.vector_text(id, *ty, elements),
            Constant::GlobalAddr(r) => self.global_addr_text(*r),
            Constant::Expr { ty, opcode, operands, predicate } => {
                let mut s = instructions::opcode_name(*opcode, &self.flavor).to_string();
                if let Some(p) = instructions::predicate_text(*opcode, *predicate) {
                    s.push(' ');
                    s.push_str(p);
                }
                s.push_str(" (");
                let ops: Vec<String> = operands.iter().map(|o| self.typed_constant(*o)).collect();
                s.push_str(&ops.join(", "));
                if opcode.is_cast() {
                    s.push_str(" to ");
                    s.push_str(&self.types.name(*ty));
                }
                s.push(')');
                s
            }
            Constant::InlineAsm { asm, constraints, side_effects, .. } => {
                let effects = if *side_effects { "sideeffect " } else { "" };
                format!(
                    "asm {effects}\"{}\", \"{}\"",
                    escape_bytes(asm.as_bytes()),
                    escape_bytes(constraints.as_bytes())
                )
            }
        }
    }

    /// `type value`, as inside aggregates and expressions.
    fn typed_constant(&mut self, id: ConstId) -> String {
        let ty = self.m.constant(id).map_or(TypeId(u32::MAX), |c| self.constant_type(c));
        self.typed_constant_as(ty, id)
    }

    fn typed_constant_as(&mut self, ty: TypeId, id: ConstId) -> String {
        let ty_name = self.types.name(ty);
        format!("{ty_name} {}", self.constant_text(id))
    }

    /// An integer: `true`/`false` for 1 bit, else the decimal of the type's width of bits,
    /// signed for the signed types and every `iN` (2.0dev's `APInt::toStringSigned`, of
    /// any width).
    fn int_text(&self, ty: TypeId, value: &IntBits) -> String {
        let Some(t) = self.types.get(ty) else {
            let all = u32::try_from(value.words().len().saturating_mul(64)).unwrap_or(u32::MAX);
            return value.decimal(all, false);
        };
        let width = t.int_width().unwrap_or(64);
        if width == 1 {
            return if value.is_zero_in(1) { "false" } else { "true" }.to_string();
        }
        value.decimal(width, t.is_signed_int())
    }

    fn null_text(&self, ty: TypeId) -> String {
        match self.types.get(ty) {
            Some(Type::Pointer { .. }) => "null".to_string(),
            Some(Type::Float | Type::Double) => float_text(0, self.flavor.hex_floats_only),
            Some(t) if t.int_width().is_some() => self.int_text(ty, &IntBits::ZERO),
            _ => "zeroinitializer".to_string(),
        }
    }

    fn array_text(&mut self, id: ConstId, ty: TypeId, elements: &[ConstId]) -> String {
        if self.prints_as_zero(id) {
            return "zeroinitializer".to_string();
        }
        let element_ty = self.types.element(ty).unwrap_or(TypeId(u32::MAX));
        if let Some(bytes) = self.string_bytes(element_ty, elements) {
            return format!("c\"{}\"", escape_bytes(&bytes));
        }
        let parts: Vec<String> = elements.iter().map(|e| self.typed_constant_as(element_ty, *e)).collect();
        bracketed("[", &parts, "]")
    }

    fn vector_text(&mut self, id: ConstId, ty: TypeId, elements: &[ConstId]) -> String {
        if self.prints_as_zero(id) {
            return "zeroinitializer".to_string();
        }
        let element_ty = self.types.element(ty).unwrap_or(TypeId(u32::MAX));
        let parts: Vec<String> = elements.iter().map(|e| self.typed_constant_as(element_ty, *e)).collect();
        bracketed("<", &parts, ">")
    }

    fn struct_text(&mut self, id: ConstId, ty: TypeId, fields: &[ConstId]) -> String {
        if self.prints_as_zero(id) {
            return "zeroinitializer".to_string();
        }
        let packed = matches!(self.types.get(ty), Some(Type::Struct { packed: true, .. }));
        let multiline = self.flavor.multiline_structs && fields.len() > 2;
        if multiline {
            self.indent.push_str("    ");
        }
        let separator = if multiline { self.indent.clone() } else { " ".to_string() };
        let parts: Vec<String> = fields.iter().map(|f| self.typed_constant(*f)).collect();
        if multiline {
            let keep = self.indent.len().saturating_sub(4);
            self.indent.truncate(keep);
        }
        let mut s = String::from(if packed { "<{" } else { "{" });
        for (i, p) in parts.iter().enumerate() {
            if i == 0 {
                s.push_str(&separator);
            } else {
                s.push_str(", ");
                if multiline {
                    s.push_str(&separator);
                }
            }
            s.push_str(p);
        }
        s.push_str(if packed { " }>" } else { " }" });
        s
    }

    /// A global used inside a constant: 1.1/1.2 went through a ConstantPointerRef (1.2
    /// wrote an extra space there), later releases name the global itself.
    fn global_addr_text(&mut self, r: GlobalRef) -> String {
        let text = self.global_text(global_value(r));
        if self.flavor.pointer_ref_extra_space {
            format!(" {text}")
        } else {
            text
        }
    }

    /// The bytes of an array printed as `c"..."`, if it is printed that way.
    fn string_bytes(&self, element_ty: TypeId, elements: &[ConstId]) -> Option<Vec<u8>> {
        let element = self.types.get(element_ty)?;
        if !matches!(element, Type::SByte | Type::UByte | Type::Integer(8)) {
            return None;
        }
        let check_sign = self.flavor.strings_need_nonnegative_sbytes && *element == Type::SByte;
        let mut bytes = Vec::with_capacity(elements.len());
        for e in elements {
            let Some(Constant::Int { value, .. }) = self.m.constant(*e) else { return None };
            let byte = (value.low_word() & 0xff) as u8;
            if check_sign && byte >= 0x80 {
                return None;
            }
            bytes.push(byte);
        }
        Some(bytes)
    }

    /// Whether an aggregate prints as `zeroinitializer`.
    fn prints_as_zero(&self, id: ConstId) -> bool {
        let Some(c) = self.m.constant(id) else { return false };
        let len = match c {
            Constant::Array { elements, .. } | Constant::Vector { elements, .. } => elements.len(),
            Constant::Struct { fields, .. } => fields.len(),
            _ => return false,
        };
        match self.flavor.zero {
            ZeroStyle::Always => self.is_null(id, 0),
            ZeroStyle::MoreThanFive => len > 5 && self.is_null(id, 0),
        }
    }

    /// `isNullValue`, with a depth bound against cyclic input.
    fn is_null(&self, id: ConstId, depth: u32) -> bool {
        if depth > 64 {
            return false;
        }
        match self.m.constant(id) {
            Some(Constant::Int { ty, value }) => {
                let width = self.types.get(*ty).and_then(Type::int_width).unwrap_or(64);
                value.is_zero_in(width)
            }
            Some(Constant::Float { bits, .. }) => *bits == 0,
            Some(Constant::Null { .. }) => true,
            Some(Constant::Array { elements: parts, .. })
            | Some(Constant::Vector { elements: parts, .. })
            | Some(Constant::Struct { fields: parts, .. }) => {
                parts.iter().all(|p| self.is_null(*p, depth + 1))
            }
            _ => false,
        }
    }
}

fn bracketed(open: &str, parts: &[String], close: &str) -> String {
    if parts.is_empty() {
        format!("{open} {close}")
    } else {
        format!("{open} {} {close}", parts.join(", "))
    }
}

/// A floating-point constant: `%.6e` when that reads back as the same double (1.5 and
/// later; before, a padding bug made the check always fail), else the double's bits in hex.
pub(super) fn float_text(bits: u64, hex_only: bool) -> String {
    if !hex_only {
        if let Some(s) = exact_decimal(f64::from_bits(bits)) {
            return s;
        }
    }
    format!("0x{bits:X}")
}

fn exact_decimal(v: f64) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    let s = c_exponent_format(v);
    (s.parse::<f64>().ok()? == v).then_some(s)
}

/// C's `%.6e`: six decimals, an exponent with sign and at least two digits.
fn c_exponent_format(v: f64) -> String {
    let s = format!("{v:.6e}");
    let Some((mantissa, exp)) = s.split_once('e') else { return s };
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_decimal_only_when_exact() {
        assert_eq!(float_text(1.0f64.to_bits(), false), "1.000000e+00");
        assert_eq!(float_text((-0.0f64).to_bits(), false), "-0.000000e+00");
        assert_eq!(float_text(1.0e-10f64.to_bits(), false), "1.000000e-10");
        assert_eq!(float_text((1.0f64 / 3.0).to_bits(), false), "0x3FD5555555555555");
        assert_eq!(float_text(1.0f64.to_bits(), true), "0x3FF0000000000000");
        assert_eq!(float_text(0, true), "0x0");
        assert_eq!(float_text(f64::INFINITY.to_bits(), false), "0x7FF0000000000000");
        assert_eq!(c_exponent_format(1.5e300), "1.500000e+300");
    }
}
