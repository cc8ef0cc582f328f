//! The typed dump: blocks by their schema names, each record decoded into its schema type
//! and shown with the schema's field names and enum spellings. For LLVM IR a record that
//! defines a value is prefixed with the value's number (`%12 = INST_BINOP ...`); other
//! formats (diagnostics, remarks) are dumped with their own schema's decoder.

use std::io::Write;

use bitcode::llvm::{ir, Walker, WalkerEvent};
use bitcode::runtime::decode::{BasicContext, DecodeContext};
use bitcode::{Bitstream, Entry, Record};

/// The name of a BLOCKINFO record (their meanings are fixed by the container format).
pub fn blockinfo_record_name(code: u32) -> Option<&'static str> {
    match code {
        1 => Some("SETBID"),
        2 => Some("BLOCKNAME"),
        3 => Some("SETRECORDNAME"),
        _ => None,
    }
}

/// A BLOCKINFO record as a line: `SETBID 8`, `BLOCKNAME "Meta"`, `SETRECORDNAME 1 "Version"`.
fn blockinfo_line(record: &Record<'_, '_>) -> String {
    let text = |ops: &[u64]| ops.iter().map(|&b| u8::try_from(b).map_or('?', char::from)).collect::<String>();
    match (blockinfo_record_name(record.code), record.ops) {
        (Some("SETBID"), [id]) => format!("SETBID {id}"),
        (Some("BLOCKNAME"), name) => format!("BLOCKNAME {:?}", text(name)),
        (Some("SETRECORDNAME"), [code, name @ ..]) => format!("SETRECORDNAME {code} {:?}", text(name)),
        (_, ops) => format!("record {} {ops:?}", record.code),
    }
}

/// Writes the typed dump of a stream whose schema gives `block_name` and `decode` (a
/// schema's generated `block_name` and `decode_record`, its record shown as text).
pub fn write_with_schema(
    stream: &Bitstream<'_>,
    out: &mut impl Write,
    block_name: fn(u32) -> Option<&'static str>,
    decode: impl Fn(u32, &Record<'_, '_>, &mut dyn DecodeContext) -> bitcode::Result<String>,
) -> Result<(), crate::Failure> {
    crate::dump::write_header(stream, out)?;
    let mut cursor = stream.cursor();
    let mut ctx = BasicContext::default();
    let mut depth = 0usize;
    loop {
        let block = cursor.current_block().unwrap_or(0);
        let Some(entry) = cursor.next_entry()? else { break };
        let indent = depth * 2;
        match entry {
            Entry::Block(h) => {
                let name = match h.id {
                    0 => "BLOCKINFO_BLOCK".to_string(),
                    id => block_name(id).map_or_else(|| format!("block {id}"), str::to_string),
                };
                writeln!(out, "{:indent$}{name} {{  # id {}, {} words", "", h.id, h.words)?;
                depth += 1;
            }
            Entry::EndBlock(_) => {
                depth = depth.saturating_sub(1);
                writeln!(out, "{:indent$}}}", "", indent = depth * 2)?;
            }
            Entry::Record(record) if block == 0 => {
                writeln!(out, "{:indent$}{}", "", blockinfo_line(&record))?
            }
            Entry::Record(record) => match decode(block, &record, &mut ctx) {
                Ok(text) => writeln!(out, "{:indent$}{text}", "")?,
                Err(e) => writeln!(out, "{:indent$}error: {e}", "")?,
            },
        }
    }
    Ok(())
}

/// Writes the typed dump of an LLVM IR stream.
pub fn write(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    crate::dump::write_header(stream, out)?;
    let mut walker = Walker::new(stream);
    let mut depth = 0usize;
    loop {
        let before = walker.numbering().next_value();
        let Some(event) = walker.next_event()? else { break };
        let mut is_record = false;
        let line = match event {
            WalkerEvent::Block(h) => {
                let name = match h.id {
                    0 => "BLOCKINFO_BLOCK".to_string(),
                    id => ir::block_name(id).map_or_else(|| format!("block {id}"), str::to_string),
                };
                let text =
                    format!("{:indent$}{name} {{  # id {}, {} words", "", h.id, h.words, indent = depth * 2);
                depth += 1;
                text
            }
            WalkerEvent::EndBlock(_) => {
                depth = depth.saturating_sub(1);
                format!("{:indent$}}}", "", indent = depth * 2)
            }
            WalkerEvent::Record { block: 0, record, .. } => {
                format!("{:indent$}{}", "", blockinfo_line(&record), indent = depth * 2)
            }
            WalkerEvent::Record { block, record, ctx } => {
                is_record = true;
                match ir::decode_record(block, &record, ctx) {
                    Ok(typed) => format!("{:indent$}{typed}", "", indent = depth * 2),
                    Err(e) => format!("{:indent$}error: {e}", "", indent = depth * 2),
                }
            }
        };
        // A record that made the numbering advance defined value `before`.
        if is_record && walker.numbering().next_value() != before {
            let trimmed = line.trim_start();
            writeln!(out, "{:indent$}%{before} = {trimmed}", "", indent = depth * 2)?;
        } else {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
