//! Names and strings as the assembly writer spells them.

use std::fmt::Write;

/// `printEscapedString`: `\` doubled, printable ASCII but `"` as is, other bytes `\XX`.
pub fn escaped(out: &mut String, bytes: &[u8]) {
    let plain = |b: u8| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\';
    let mut rest = bytes;
    while !rest.is_empty() {
        // A run of printable bytes goes in at once (it is ASCII, so a valid str).
        let run = rest.iter().position(|&b| !plain(b)).unwrap_or(rest.len());
        let (text, after) = rest.split_at(run);
        out.push_str(std::str::from_utf8(text).unwrap_or_default());
        let Some((&b, after)) = after.split_first() else { break };
        if b == b'\\' {
            out.push_str("\\\\");
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
        rest = after;
    }
}

/// A name with its sigil (`@`, `%`, `$`), quoted when it has characters an identifier
/// cannot.
pub fn name(out: &mut String, sigil: char, bytes: &[u8]) {
    out.push(sigil);
    let plain = bytes.first().is_some_and(|b| !b.is_ascii_digit())
        && bytes.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_');
    if plain || bytes.is_empty() {
        // Plain names are ASCII.
        out.push_str(std::str::from_utf8(bytes).unwrap_or_default());
    } else {
        out.push('"');
        escaped(out, bytes);
        out.push('"');
    }
}
