//! Floating-point constants as the assembly writer prints them: `%e` with six digits
//! when that reads back to the same double, else the double's bits in hex; the other
//! formats as `0xH`, `0xR`, `0xK`, `0xL`, `0xM` and their bits.

use std::fmt::Write;

use crate::llvm::module::Type;

/// A double as APFloat::toString(6, 0) would give it, when it reads back exactly.
fn exponent_form(v: f64) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    // Six significant digits, written with six after the point (APFloat::toString(6, 0));
    // APFloat cuts some digits before it rounds, which this does not do yet.
    let s = format!("{v:.5e}");
    let (mantissa, exp) = s.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let text = format!("{mantissa}0e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    let back: f64 = text.parse().ok()?;
    (back == v).then_some(text)
}

/// Writes a floating-point constant of type `ty` with bits `bits` (and `extra`).
pub fn write_float(out: &mut String, ty: &Type, bits: u64, extra: u64) {
    match ty {
        Type::Double => match exponent_form(f64::from_bits(bits)) {
            Some(s) => out.push_str(&s),
            None => {
                let _ = write!(out, "0x{bits:X}");
            }
        },
        Type::Float => {
            let v = f32::from_bits(bits as u32) as f64;
            match exponent_form(v) {
                Some(s) => out.push_str(&s),
                None => {
                    let _ = write!(out, "0x{:X}", float_as_double_bits(bits as u32));
                }
            }
        }
        Type::Half => {
            let _ = write!(out, "0xH{:04X}", bits & 0xFFFF);
        }
        Type::BFloat => {
            let _ = write!(out, "0xR{:04X}", bits & 0xFFFF);
        }
        Type::X86Fp80 => {
            // The record holds the top 64 bits first, then the low 16.
            let _ = write!(out, "0xK{:04X}{:016X}", bits >> 48, (bits << 16) | (extra & 0xFFFF));
        }
        Type::Fp128 => {
            let _ = write!(out, "0xL{bits:016X}{extra:016X}");
        }
        Type::PpcFp128 => {
            let _ = write!(out, "0xM{bits:016X}{extra:016X}");
        }
        _ => {
            let _ = write!(out, "0x{bits:X}");
        }
    }
}

/// A float's value converted to double, as bits (NaN payloads kept, as APFloat does).
fn float_as_double_bits(bits: u32) -> u64 {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        let sign = u64::from(bits >> 31) << 63;
        let payload = u64::from(bits & 0x7F_FFFF) << 29;
        return sign | 0x7FF0_0000_0000_0000 | payload;
    }
    (v as f64).to_bits()
}
