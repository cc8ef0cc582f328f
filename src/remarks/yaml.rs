//! The YAML that LLVM's remark serializer writes.

use std::io::Write;

use super::{Location, Remark};

/// The remarks as YAML documents, as [`write_yaml`] writes them.
pub fn to_yaml(remarks: &[Remark]) -> String {
    let mut out = Vec::new();
    // Writing to a Vec does not fail, and the text is UTF-8.
    let _ = write_yaml(remarks, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the remarks as YAML documents, the way LLVM's YAML remark serializer lays them out
/// (`-fsave-optimization-record=yaml`, `llvm-remarkutil bitstream2yaml`): keys padded to 16
/// columns, locations as flow mappings, empty argument lists left out, strings quoted as
/// LLVM quotes them.
pub fn write_yaml(remarks: &[Remark], out: &mut impl Write) -> std::io::Result<()> {
    for r in remarks {
        writeln!(out, "--- !{}", r.kind)?;
        writeln!(out, "{}{}", key("Pass"), scalar(&r.pass))?;
        writeln!(out, "{}{}", key("Name"), scalar(&r.name))?;
        if let Some(loc) = &r.location {
            writeln!(out, "{}{}", key("DebugLoc"), flow(loc, VALUE_COLUMN))?;
        }
        writeln!(out, "{}{}", key("Function"), scalar(&r.function))?;
        if let Some(hotness) = r.hotness {
            writeln!(out, "{}{hotness}", key("Hotness"))?;
        }
        if !r.args.is_empty() {
            writeln!(out, "Args:")?;
            for a in &r.args {
                writeln!(out, "  - {}{}", key(&a.key), scalar(&a.value))?;
                if let Some(loc) = &a.location {
                    writeln!(out, "    {}{}", key("DebugLoc"), flow(loc, 4 + VALUE_COLUMN))?;
                }
            }
        }
        writeln!(out, "...")?;
    }
    Ok(())
}

/// The column (from 0) where a value after a short key starts.
const VALUE_COLUMN: usize = 17;
/// A flow mapping breaks its line before a key that would start past this column.
const WRAP_COLUMN: usize = 70;

/// `key:` and the padding that starts its value at [`VALUE_COLUMN`] (one space for long
/// keys).
fn key(name: &str) -> String {
    let pad = (VALUE_COLUMN - 1).saturating_sub(name.len()).max(1);
    format!("{name}:{:pad$}", "")
}

/// A location as a flow mapping whose `{` is at column `start`: when the line has run past
/// [`WRAP_COLUMN`], the next key goes on a new line, indented two past the brace (the
/// separator's space stays at the end of the broken line).
fn flow(loc: &Location, start: usize) -> String {
    let entries =
        [("File", scalar(&loc.file)), ("Line", loc.line.to_string()), ("Column", loc.column.to_string())];
    let mut text = String::from("{ ");
    let mut column = start + 2;
    for (i, (name, value)) in entries.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
            column += 2;
        }
        if column > WRAP_COLUMN {
            text.push('\n');
            text.push_str(&" ".repeat(start + 2));
            column = start + 2;
        }
        let entry = format!("{name}: {value}");
        column += entry.len();
        text.push_str(&entry);
    }
    text.push_str(" }");
    text
}

/// How a scalar must be quoted to read back as the same string.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quoting {
    Plain,
    Single,
    Double,
}

/// A string as a YAML scalar, quoted as LLVM's YAML writer quotes it: plain when that reads
/// back as the same string, single-quoted when it would read as something else (empty,
/// padded with spaces, a number, bool or null, starting with an indicator, holding characters
/// outside the safe set), double-quoted when it holds control characters (line breaks
/// included), DEL or non-ASCII text.
pub(super) fn scalar(s: &str) -> String {
    match quoting(s) {
        Quoting::Plain => s.to_string(),
        Quoting::Single => format!("'{}'", s.replace('\'', "''")),
        Quoting::Double => double_quoted(s),
    }
}

fn quoting(s: &str) -> Quoting {
    let (Some(&first), Some(&last)) = (s.as_bytes().first(), s.as_bytes().last()) else {
        return Quoting::Single;
    };
    let mut needed = Quoting::Plain;
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    if is_space(first) || is_space(last) || is_null(s) || is_bool(s) || is_numeric(s) {
        needed = Quoting::Single;
    }
    if br#"-?:\,[]{}#&*!|>'"%@`"#.contains(&first) {
        needed = Quoting::Single;
    }
    for &b in s.as_bytes() {
        match b {
            b if b.is_ascii_alphanumeric() => {}
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => {}
            // Other control characters, DEL and non-ASCII text (LLVM's writer escapes
            // line breaks too).
            b if !(0x20..0x7f).contains(&b) => return Quoting::Double,
            _ => needed = needed.max(Quoting::Single),
        }
    }
    needed
}

/// YAML's null spellings.
fn is_null(s: &str) -> bool {
    matches!(s, "null" | "Null" | "NULL" | "~")
}

/// YAML 1.2's bool spellings.
fn is_bool(s: &str) -> bool {
    matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
}

/// True when YAML 1.2's core schema reads `s` as a number: `.nan`, an optionally signed
/// `.inf`, `0o` octal, `0x` hex, or an optionally signed decimal with an optional fraction
/// and exponent (`12`, `-3.`, `.5`, `1e9`).
fn is_numeric(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // Octal and hex take no sign.
    if let Some(digits) = s.strip_prefix("0o") {
        return !digits.is_empty() && digits.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    if let Some(digits) = s.strip_prefix("0x") {
        return !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let digits = |t: &str| t.bytes().take_while(u8::is_ascii_digit).count();
    let integer = digits(unsigned);
    let mut rest = unsigned.get(integer..).unwrap_or_default();
    let mut fraction = 0;
    if let Some(after_dot) = rest.strip_prefix('.') {
        fraction = digits(after_dot);
        rest = after_dot.get(fraction..).unwrap_or_default();
    } else if integer == 0 {
        return false;
    }
    if integer == 0 && fraction == 0 {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let Some(exponent) = rest.strip_prefix(['e', 'E']) else { return false };
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    !exponent.is_empty() && digits(exponent) == exponent.len()
}

/// A double-quoted scalar with YAML's escapes.
fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\0' => out.push_str("\\0"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            // DEL stays as it is, as in LLVM's output.
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
