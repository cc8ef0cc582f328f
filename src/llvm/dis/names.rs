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
        let run = plain_run(rest);
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

/// Every byte of each 8 (as a little-endian word): `0x01` and `0x80`.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// Whether a word's 8 bytes are all plain ([`PLAIN`]), tested at once rather than byte by
/// byte (metadata strings, linkage names among them, run to a hundred bytes and more).
fn all_plain(word: u64) -> bool {
    // A byte below 0x20, a byte above 0x7e, a byte equal to `"` or to `\`: each test
    // is exact as to whether any byte of the word passes it.
    let below_space = word.wrapping_sub(ONES * 0x20) & !word;
    let above_tilde = word.wrapping_add(ONES) | word;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v;
    let quote = zero_byte(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_byte(word ^ (ONES * u64::from(b'\\')));
    (below_space | above_tilde | quote | backslash) & HIGHS == 0
}

/// How many bytes from the start of `bytes` are plain.
fn plain_run(bytes: &[u8]) -> usize {
    let mut run = 0;
    for word in bytes.chunks_exact(8) {
        let word: [u8; 8] = word.try_into().unwrap_or_default();
        if !all_plain(u64::from_le_bytes(word)) {
            break;
        }
        run += 8;
    }
    let rest = bytes.get(run..).unwrap_or_default();
    run + rest.iter().position(|&b| !has(&PLAIN, b)).unwrap_or(rest.len())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time run agrees with the table on every byte in every position.
    #[test]
    fn plain_runs_agree_with_the_table() {
        for b in 0..=255u8 {
            for at in 0..12 {
                let mut bytes = vec![b'a'; 12];
                if let Some(slot) = bytes.get_mut(at) {
                    *slot = b;
                }
                let by_table = bytes.iter().position(|&c| !has(&PLAIN, c)).unwrap_or(bytes.len());
                assert_eq!(plain_run(&bytes), by_table, "byte {b:#x} at {at}");
            }
        }
        // Neighbouring bytes that borrow or carry into each other.
        for pair in [[0x00u8, 0x20], [0xff, 0x21], [0x7f, 0x7e], [0x21, 0x22], [0x5b, 0x5c], [0x20, 0x1f]] {
            let bytes: Vec<u8> =
                pair.iter().chain(pair.iter()).chain(pair.iter()).chain(pair.iter()).copied().collect();
            let by_table = bytes.iter().position(|&c| !has(&PLAIN, c)).unwrap_or(bytes.len());
            assert_eq!(plain_run(&bytes), by_table, "{pair:?}");
        }
        // Words mixing bytes near every bound, from a fixed xorshift sequence.
        let near = [
            0x00u8, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xa2, 0xdc, 0xff, b'a',
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Mostly plain bytes, so that whole words are plain or hide one odd byte.
            let rare = state.wrapping_mul(0x2545_f491_4f6c_dd1d);
            let bytes: Vec<u8> = (0..16)
                .map(|i| {
                    let pick = near[((state >> (i * 4)) & 15) as usize];
                    if (rare >> (i * 4)) & 15 == 0 || has(&PLAIN, pick) {
                        pick
                    } else {
                        b'a'
                    }
                })
                .collect();
            let by_table = bytes.iter().position(|&c| !has(&PLAIN, c)).unwrap_or(bytes.len());
            assert_eq!(plain_run(&bytes), by_table, "{bytes:x?}");
        }
    }
}
