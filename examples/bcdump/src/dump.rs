//! The readable dump: blocks indented by depth, records with their operands, names from
//! the stream's BLOCKINFO where it gives them.

use std::io::Write;

use bitcode_schema::{Bitstream, Entry};

/// The lines before a stream's dump: its format, size, place, and wrapper header.
pub fn write_header(stream: &Bitstream<'_>, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{} stream, {} bytes at file offset {}",
        stream.magic(),
        stream.data().len(),
        stream.file_offset()
    )?;
    if let Some(w) = stream.wrapper() {
        writeln!(
            out,
            "wrapper header: version {} offset {} size {} cputype {}",
            w.version, w.offset, w.size, w.cpu_type
        )?;
    }
    Ok(())
}

/// Writes the indented dump of `stream`.
pub fn write(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    write_header(stream, out)?;
    let mut cursor = stream.cursor();
    let mut depth = 0usize;
    // A record borrows the cursor, so keep our own copy of the names BLOCKINFO gave,
    // refreshed whenever a BLOCKINFO block ends.
    let mut info = cursor.block_info().clone();
    loop {
        // Records do not change the block, so this is the block of a record read next.
        let block = cursor.current_block().unwrap_or(0);
        let Some(entry) = cursor.next_entry()? else { break };
        match entry {
            Entry::Block(h) => {
                let name = info.block_name(h.id).unwrap_or("block");
                writeln!(
                    out,
                    "{:indent$}{name} {} {{  # {} words, abbrev width {}",
                    "",
                    h.id,
                    h.words,
                    h.abbrev_width,
                    indent = depth * 2
                )?;
                depth += 1;
            }
            Entry::EndBlock(id) => {
                if id == 0 {
                    info = cursor.block_info().clone();
                }
                depth = depth.saturating_sub(1);
                writeln!(out, "{:indent$}}}", "", indent = depth * 2)?;
            }
            Entry::Record(r) => {
                // BLOCKINFO's own records have fixed meanings.
                let name = match block {
                    0 => crate::typed::blockinfo_record_name(r.code),
                    _ => info.record_name(block, r.code),
                };
                write!(out, "{:indent$}", "", indent = depth * 2)?;
                match name {
                    Some(n) => write!(out, "{n} (code {})", r.code)?,
                    None => write!(out, "record {}", r.code)?,
                }
                if let Some(a) = r.abbreviation() {
                    write!(out, " [abbrev {a}]")?;
                }
                write!(out, ":")?;
                for op in r.ops {
                    write!(out, " {op}")?;
                }
                if let Some(text) = printable(r.ops.iter().copied()) {
                    write!(out, "  \"{text}\"")?;
                }
                if let Some(blob) = r.blob {
                    match printable(blob.iter().map(|&b| b as u64)) {
                        Some(text) => write!(out, " blob \"{text}\"")?,
                        None => write!(out, " blob of {} bytes", blob.len())?,
                    }
                }
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

/// The values as text when there are at least two and all are printable ASCII.
fn printable(values: impl ExactSizeIterator<Item = u64>) -> Option<String> {
    if values.len() < 2 {
        return None;
    }
    let mut s = String::with_capacity(values.len());
    for v in values {
        let c = u8::try_from(v).ok().filter(|c| (0x20..0x7f).contains(c))?;
        if c == b'"' || c == b'\\' {
            s.push('\\');
        }
        s.push(c as char);
    }
    Some(s)
}
