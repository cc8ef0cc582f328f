//! Attributes as `Attribute::getAsString` spells them, per LLVM version.

use std::fmt::Write;

use super::names;
use super::types::TypePrinter;
use crate::llvm::ir::AttributeKind as K;
use crate::llvm::module::{Attribute, Types};

/// What attribute printing needs: the types (for type attributes) and the version.
pub struct AttrWriter<'p> {
    /// The module's types.
    pub types: &'p Types,
    /// Their printer.
    pub printer: &'p TypePrinter,
    /// The LLVM major version.
    pub major: u32,
}

/// `none`, `read`, `write`, `readwrite`.
fn mod_ref(bits: u64) -> &'static str {
    match bits & 3 {
        0 => "none",
        1 => "read",
        2 => "write",
        _ => "readwrite",
    }
}

impl AttrWriter<'_> {
    /// Writes a set, space-separated; `in_group` for an `attributes #N` line.
    pub fn write_set(&self, out: &mut String, set: &[Attribute<'_>], in_group: bool) {
        for (i, a) in set.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            self.write(out, a, in_group);
        }
    }

    /// Writes one attribute.
    pub fn write(&self, out: &mut String, a: &Attribute<'_>, in_group: bool) {
        match a {
            Attribute::Enum(k) => out.push_str(k.name()),
            Attribute::Int(k, v) => self.write_int(out, *k, *v, in_group),
            Attribute::Type(k, t) => {
                out.push_str(k.name());
                if let Some(t) = t {
                    out.push('(');
                    self.printer.write(out, self.types, *t);
                    out.push(')');
                }
            }
            Attribute::String(key, value) => {
                // LLVM writes the key as it is and escapes only the value. A key that is
                // not UTF-8 cannot go into this text as it is, and is escaped.
                out.push('"');
                match std::str::from_utf8(key) {
                    Ok(key) => out.push_str(key),
                    Err(_) => names::escaped(out, key),
                }
                out.push('"');
                if let Some(v) = value {
                    out.push_str("=\"");
                    names::escaped(out, v);
                    out.push('"');
                }
            }
            Attribute::Range(k, width, lower, upper) => {
                let _ = write!(out, "{}(i{width} ", k.name());
                write_apint(out, lower, *width);
                out.push_str(", ");
                write_apint(out, upper, *width);
                out.push(')');
            }
            Attribute::RangeList(k, width, ranges) => {
                out.push_str(k.name());
                out.push('(');
                for (i, (lo, hi)) in ranges.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push('(');
                    write_apint(out, lo, *width);
                    out.push_str(", ");
                    write_apint(out, hi, *width);
                    out.push(')');
                }
                out.push(')');
            }
        }
    }

    fn write_int(&self, out: &mut String, k: K, v: u64, in_group: bool) {
        match k {
            K::Align => {
                let _ = if in_group { write!(out, "align={v}") } else { write!(out, "align {v}") };
            }
            K::Alignstack => {
                let _ = if in_group { write!(out, "alignstack={v}") } else { write!(out, "alignstack({v})") };
            }
            K::Allocsize => {
                let elem = v >> 32;
                let num = v & 0xFFFF_FFFF;
                let _ = if num == 0xFFFF_FFFF {
                    write!(out, "allocsize({elem})")
                } else {
                    write!(out, "allocsize({elem},{num})")
                };
            }
            K::VscaleRange => {
                let _ = write!(out, "vscale_range({},{})", v >> 32, v & 0xFFFF_FFFF);
            }
            K::Uwtable => match v {
                1 => out.push_str("uwtable(sync)"),
                _ => out.push_str("uwtable"),
            },
            K::Memory => self.write_memory(out, v),
            K::Captures => {
                // CaptureInfo's encoding: the other components above the returned ones.
                let other = (v >> 4) & 0xF;
                let ret = v & 0xF;
                out.push_str("captures(");
                let mut printed = false;
                if other != 0 || ret == 0 {
                    write_components(out, other);
                    printed = true;
                }
                if ret != other {
                    if printed {
                        out.push_str(", ");
                    }
                    out.push_str("ret: ");
                    write_components(out, ret);
                }
                out.push(')');
            }
            K::Allockind => {
                out.push_str("allockind(\"");
                let mut parts = Vec::new();
                for (bit, name) in [
                    (1, "alloc"),
                    (2, "realloc"),
                    (4, "free"),
                    (8, "uninitialized"),
                    (16, "zeroed"),
                    (32, "aligned"),
                ] {
                    if v & bit != 0 {
                        parts.push(name);
                    }
                }
                out.push_str(&parts.join(","));
                out.push_str("\")");
            }
            K::Nofpclass => {
                out.push_str("nofpclass(");
                // LLVM's table, in its order: the first test whose bits are all in the
                // mask prints, and they leave it (fcSNan 0x1, fcQNan 0x2, fcNegInf 0x4,
                // fcNegNormal 0x8, fcNegSubnormal 0x10, fcNegZero 0x20, fcPosZero 0x40,
                // fcPosSubnormal 0x80, fcPosNormal 0x100, fcPosInf 0x200).
                let tests = [
                    (0x3ff, "all"),
                    (0x3, "nan"),
                    (0x1, "snan"),
                    (0x2, "qnan"),
                    (0x204, "inf"),
                    (0x4, "ninf"),
                    (0x200, "pinf"),
                    (0x60, "zero"),
                    (0x20, "nzero"),
                    (0x40, "pzero"),
                    (0x90, "sub"),
                    (0x10, "nsub"),
                    (0x80, "psub"),
                    (0x108, "norm"),
                    (0x8, "nnorm"),
                    (0x100, "pnorm"),
                ];
                let mut rest = v & 0x3ff;
                let mut parts = Vec::new();
                for (mask, name) in tests {
                    if rest & mask == mask {
                        parts.push(name);
                        rest &= !mask;
                    }
                }
                out.push_str(&parts.join(" "));
                out.push(')');
            }
            _ => {
                let _ = write!(out, "{}({v})", k.name());
            }
        }
    }

    /// `memory(...)`: two bits per location (argmem, inaccessiblemem, then errnomem and
    /// other from LLVM 20, the target memories after other from LLVM 22).
    fn write_memory(&self, out: &mut String, v: u64) {
        let (locations, other_at): (&[(u32, &str)], u32) = match self.major {
            22.. => (
                &[
                    (0, "argmem"),
                    (1, "inaccessiblemem"),
                    (2, "errnomem"),
                    (4, "target_mem0"),
                    (5, "target_mem1"),
                ],
                3,
            ),
            20..=21 => (&[(0, "argmem"), (1, "inaccessiblemem"), (2, "errnomem")], 3),
            _ => (&[(0, "argmem"), (1, "inaccessiblemem")], 2),
        };
        let at = |i: u32| (v >> (2 * i)) & 3;
        let other = at(other_at);
        let all_same = locations.iter().all(|(i, _)| at(*i) == other);
        out.push_str("memory(");
        let mut first = true;
        if other != 0 || all_same {
            out.push_str(mod_ref(other));
            first = false;
        }
        for (i, name) in locations {
            let mr = at(*i);
            if mr == other {
                continue;
            }
            if !first {
                out.push_str(", ");
            }
            first = false;
            let _ = write!(out, "{name}: {}", mod_ref(mr));
        }
        out.push(')');
    }
}

/// Capture components: `none`, or `address_is_null`/`address`, `read_provenance`/`provenance`.
fn write_components(out: &mut String, c: u64) {
    let mut parts = Vec::new();
    if c & 3 == 3 {
        parts.push("address");
    } else if c & 1 != 0 {
        parts.push("address_is_null");
    }
    if c & 12 == 12 {
        parts.push("provenance");
    } else if c & 4 != 0 {
        parts.push("read_provenance");
    }
    if parts.is_empty() {
        out.push_str("none");
    } else {
        out.push_str(&parts.join(", "));
    }
}

/// An integer of `width` bits given as 64-bit words, as a signed decimal.
pub fn write_apint(out: &mut String, words: &[u64], width: u32) {
    if width <= 64 {
        let w = words.first().copied().unwrap_or(0);
        let v =
            if width == 0 || width == 64 { w as i64 } else { ((w << (64 - width)) as i64) >> (64 - width) };
        let _ = write!(out, "{v}");
        return;
    }
    // Wider: the words as a two's complement number of `width` bits, in decimal.
    let n = (width as usize).div_ceil(64);
    let mut mag: Vec<u64> = (0..n).map(|i| words.get(i).copied().unwrap_or(0)).collect();
    let top_bits = width as usize - (n - 1) * 64;
    if let Some(top) = mag.last_mut() {
        if top_bits < 64 {
            *top &= (1u64 << top_bits) - 1;
        }
    }
    let negative = mag.last().is_some_and(|t| (t >> (top_bits - 1)) & 1 == 1);
    if negative {
        // Magnitude: invert within the width and add one.
        let mut carry = 1u128;
        for (i, w) in mag.iter_mut().enumerate() {
            let mask = if i == n - 1 && top_bits < 64 { (1u64 << top_bits) - 1 } else { u64::MAX };
            let v = u128::from(!*w & mask) + carry;
            *w = v as u64;
            carry = v >> 64;
        }
        out.push('-');
    }
    let mut digits = Vec::new();
    while mag.iter().any(|w| *w != 0) {
        let mut rem = 0u128;
        for w in mag.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*w);
            *w = (cur / 10) as u64;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    digits.reverse();
    out.push_str(std::str::from_utf8(&digits).unwrap_or("0"));
}
