//! The typed dump of LLVM IR: blocks by their schema names, each record decoded into its
//! schema type and shown with the schema's field names and enum spellings; a record that
//! defines a value is prefixed with the value's number (`%12 = INST_BINOP ...`).

use std::io::Write;

use bitcode::llvm::{ir, Walker, WalkerEvent};
use bitcode::Bitstream;

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
                let name = match record.code {
                    1 => "SETBID",
                    2 => "BLOCKNAME",
                    3 => "SETRECORDNAME",
                    _ => "record",
                };
                format!("{:indent$}{name} {:?}", "", record.ops, indent = depth * 2)
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
