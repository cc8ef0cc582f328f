//! The JSON-lines trace of ../shared/oracle/README.md: one object per block start, block
//! end and record, in stream order; DEFINE_ABBREV records are not part of it.

use std::io::Write;

use bitcode_schema::{Bitstream, Entry};
use serde::Serialize;

#[derive(Serialize)]
struct Enter {
    enter: u32,
    abbrev_width: u32,
    words: u32,
}

#[derive(Serialize)]
struct End {
    end: u32,
}

#[derive(Serialize)]
struct Record<'r> {
    record: u32,
    abbrev: Option<u32>,
    ops: &'r [u64],
    #[serde(skip_serializing_if = "Option::is_none")]
    blob: Option<String>,
}

/// Writes the trace of every entry of `stream`.
pub fn write(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    let mut cursor = stream.cursor();
    while let Some(entry) = cursor.next_entry()? {
        match entry {
            Entry::Block(h) => {
                line(out, &Enter { enter: h.id, abbrev_width: h.abbrev_width, words: h.words })?
            }
            Entry::EndBlock(id) => line(out, &End { end: id })?,
            Entry::Record(r) => {
                let blob = r.blob.map(hex);
                line(out, &Record { record: r.code, abbrev: r.abbreviation(), ops: r.ops, blob })?
            }
        }
    }
    Ok(())
}

fn line(out: &mut impl Write, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}
