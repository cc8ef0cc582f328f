//! Floating-point constants as the assembly writer prints them: `%e` with six digits
//! when that reads back to the same double, else the double's bits in hex; the other
//! formats as `0xH`, `0xR`, `0xK`, `0xL`, `0xM` and their bits.

use std::fmt::Write;

use crate::llvm::module::Type;

/// A double as the writer's `APFloat::toString(6, 0)` gives it (`1.500000e+00`), when
/// that reads back to the same double.
fn exponent_form(v: f64) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    let (digits, exp) = six_digits(v)?;
    let (first, rest) = digits.split_at_checked(1)?;
    let decimal_exp = exp + digits.len() as i32 - 1;
    let mut text = String::new();
    if v.is_sign_negative() {
        text.push('-');
    }
    text.push_str(first);
    text.push('.');
    text.push_str(rest);
    for _ in rest.len()..6 {
        text.push('0');
    }
    text.push_str(&format!("e{}{:02}", if decimal_exp < 0 { '-' } else { '+' }, decimal_exp.abs()));
    let back: f64 = text.parse().ok()?;
    (back == v).then_some(text)
}

/// APFloat::toString's digits for precision 6: the exact value's decimal digits, first
/// cut by a whole number of tens (a truncating division that keeps about 20 bits), then
/// rounded half up to six digits, trailing zeros dropped. Gives (digits, power of ten).
fn six_digits(v: f64) -> Option<(String, i32)> {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let mut mantissa = bits & ((1u64 << 52) - 1);
    if biased != 0 {
        mantissa |= 1 << 52;
    }
    if mantissa == 0 {
        return Some(("0".into(), 0));
    }
    let mut exp = biased.max(1) - 1075;
    let tz = mantissa.trailing_zeros() as i32;
    mantissa >>= tz;
    exp += tz;
    // The significand as base-2^32 limbs, least significant first.
    let mut n: Vec<u64> = vec![mantissa & 0xFFFF_FFFF, mantissa >> 32];
    if exp > 0 {
        for _ in 0..exp {
            mul_small(&mut n, 2);
        }
        exp = 0;
    } else {
        for _ in 0..-exp {
            mul_small(&mut n, 5);
        }
    }
    let bit_len = bit_length(&n);
    // 196/59 slightly overestimates log2(10), as APFloat's does: 6 digits need 20 bits.
    let required = 20;
    if bit_len > required {
        let removable = (bit_len - required) * 59 / 196;
        for _ in 0..removable {
            div_small(&mut n, 10);
        }
        exp += removable as i32;
    }
    // Decimal digits, least significant first.
    let mut buf: Vec<u8> = Vec::new();
    while n.iter().any(|&l| l != 0) {
        buf.push(b'0' + div_small(&mut n, 10) as u8);
    }
    let lead = buf.iter().take_while(|&&d| d == b'0').count();
    exp += lead as i32;
    buf.drain(..lead);
    if buf.len() > 6 {
        let mut first = buf.len() - 6;
        if buf.get(first - 1).is_some_and(|&d| d < b'5') {
            while buf.get(first) == Some(&b'0') {
                first += 1;
            }
            exp += first as i32;
            buf.drain(..first);
        } else {
            let mut j = first;
            while buf.get(j) == Some(&b'9') {
                j += 1;
            }
            match buf.get_mut(j) {
                Some(d) => {
                    *d += 1;
                    exp += j as i32;
                    buf.drain(..j);
                }
                None => {
                    exp += buf.len() as i32;
                    buf = vec![b'1'];
                }
            }
        }
    }
    buf.reverse();
    Some((String::from_utf8(buf).ok()?, exp))
}

/// `n *= m` on base-2^32 limbs.
fn mul_small(n: &mut Vec<u64>, m: u64) {
    let mut carry = 0u64;
    for l in n.iter_mut() {
        let v = *l * m + carry;
        *l = v & 0xFFFF_FFFF;
        carry = v >> 32;
    }
    if carry != 0 {
        n.push(carry);
    }
}

/// `n /= d`, giving the remainder.
fn div_small(n: &mut [u64], d: u64) -> u64 {
    let mut rem = 0u64;
    for l in n.iter_mut().rev() {
        let cur = (rem << 32) | *l;
        *l = cur / d;
        rem = cur % d;
    }
    rem
}

/// The number of significant bits of `n`.
fn bit_length(n: &[u64]) -> usize {
    match n.iter().rposition(|&l| l != 0) {
        Some(i) => i * 32 + n.get(i).map_or(0, |l| 64 - l.leading_zeros() as usize),
        None => 0,
    }
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
