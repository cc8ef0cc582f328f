//! Names and strings as the assembly writer spells them.

/// Whether each byte goes into a quoted string as it is: printable ASCII but `"` and `\`.
// Built at compile time, where an index out of range would fail the build.
#[allow(clippy::indexing_slicing)]
const PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        table[b] = b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    table
};

/// Whether each byte may be in a name written without quotes: letters, digits, `-`, `.`
/// and `_`.
#[allow(clippy::indexing_slicing)]
const IDENTIFIER: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_';
        b += 1;
    }
    table
};

/// Whether `table` holds byte `b` (a u8 always indexes 256 entries).
fn has(table: &[bool; 256], b: u8) -> bool {
    table.get(usize::from(b)).copied().unwrap_or(false)
}

/// `printEscapedString`: `\` doubled, printable ASCII but `"` as is, other bytes `\XX`.
pub fn escaped(out: &mut String, bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // A run of plain bytes goes in at once (it is ASCII, so a valid str).
        let run = rest.iter().position(|&b| !has(&PLAIN, b)).unwrap_or(rest.len());
        let (text, after) = rest.split_at(run);
        out.push_str(std::str::from_utf8(text).unwrap_or_default());
        let Some((&b, after)) = after.split_first() else { break };
        if b == b'\\' {
            out.push_str("\\\\");
        } else {
            hex_escape(out, b);
        }
        rest = after;
    }
}

/// `\XX`: a byte as a backslash and two upper-case hex digits.
pub fn hex_escape(out: &mut String, b: u8) {
    let digit = |d: u8| char::from(if d < 10 { b'0' + d } else { b'A' + d - 10 });
    out.push('\\');
    out.push(digit(b >> 4));
    out.push(digit(b & 15));
}

/// A name with its sigil (`@`, `%`, `$`), quoted when it has characters an identifier
/// cannot.
pub fn name(out: &mut String, sigil: char, bytes: &[u8]) {
    out.push(sigil);
    let plain =
        bytes.first().is_some_and(|b| !b.is_ascii_digit()) && bytes.iter().all(|&c| has(&IDENTIFIER, c));
    if plain || bytes.is_empty() {
        // Plain names are ASCII.
        out.push_str(std::str::from_utf8(bytes).unwrap_or_default());
    } else {
        out.push('"');
        escaped(out, bytes);
        out.push('"');
    }
}
