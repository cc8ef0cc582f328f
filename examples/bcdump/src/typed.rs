//! The typed dump: blocks by their schema names, each record decoded into its schema type
//! and shown with the schema's field names and enum spellings. For LLVM IR a record that
//! defines a value is prefixed with the value's number (`%12 = INST_BINOP ...`); other
//! formats (diagnostics, remarks) are dumped with their own schema's decoder.

use std::io::Write;

use bitcode_schema::llvm::{ir, Walker, WalkerEvent};
use bitcode_schema::runtime::decode::{BasicContext, DecodeContext};
use bitcode_schema::{Bitstream, Entry, Record};

/// Writes the typed dump of `stream` with its format's schema (LLVM IR, diagnostics,
/// remarks; the raw dump for any other), or with `json` one JSON object per record.
pub fn write_any(
    stream: &Bitstream<'_>,
    out: &mut impl Write,
    parallel: bool,
    json: bool,
) -> Result<(), crate::Failure> {
    use bitcode_schema::Magic;
    use bitcode_schema::{diagnostics::schema as dia, remarks::schema as rmk};
    match (stream.magic(), json) {
        (Magic::LlvmIr, false) => write(stream, out, parallel),
        (Magic::LlvmIr, true) => write_json(stream, out),
        (Magic::ClangDiagnostics, false) => {
            write_with_schema(stream, out, dia::block_name, |block, record, ctx| {
                dia::decode_record(block, record, ctx).map(|r| r.to_string())
            })
        }
        (Magic::ClangDiagnostics, true) => {
            write_json_with_schema(stream, out, dia::block_name, dia::record_name, |block, record, ctx| {
                to_json(dia::decode_record(block, record, ctx))
            })
        }
        (Magic::Remarks, false) => write_with_schema(stream, out, rmk::block_name, |block, record, ctx| {
            rmk::decode_record(block, record, ctx).map(|r| r.to_string())
        }),
        (Magic::Remarks, true) => {
            write_json_with_schema(stream, out, rmk::block_name, rmk::record_name, |block, record, ctx| {
                to_json(rmk::decode_record(block, record, ctx))
            })
        }
        (_, false) => crate::dump::write(stream, out),
        (_, true) => write_json_with_schema(
            stream,
            out,
            |_| None,
            |_, _| None,
            |_, record, _| Ok(serde_json::json!({ "ops": record.ops })),
        ),
    }
}

/// A decoded record as JSON, or the message of why it is not one.
fn to_json<T: serde::Serialize>(decoded: bitcode_schema::Result<T>) -> Result<serde_json::Value, String> {
    let typed = decoded.map_err(|e| e.to_string())?;
    let mut value = serde_json::to_value(typed).map_err(|e| format!("record as JSON: {e}"))?;
    // `{"ModuleBlock": {"Version": {fields}}}` (the block's variant, the record's): the
    // line names both already, keep the fields.
    for _ in 0..2 {
        value = match value {
            serde_json::Value::Object(map) if map.len() == 1 => match map.into_iter().next() {
                Some((_, inner)) => inner,
                None => serde_json::Value::Null,
            },
            other => other,
        };
    }
    Ok(value)
}

/// One JSON line for a record: its block, its record name and its fields (or its error).
#[derive(serde::Serialize)]
struct JsonRecord<'n> {
    block: std::borrow::Cow<'n, str>,
    block_id: u32,
    record: std::borrow::Cow<'n, str>,
    code: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fields: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn name_or<'n>(name: Option<&'n str>, what: &str, id: u32) -> std::borrow::Cow<'n, str> {
    name.map_or_else(|| format!("{what} {id}").into(), Into::into)
}

fn json_line(out: &mut impl Write, line: &JsonRecord<'_>) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, line).map_err(std::io::Error::other)?;
    out.write_all(b"\n")
}

/// The JSON lines of a stream whose schema gives `block_name`, `record_name` and `decode`.
fn write_json_with_schema(
    stream: &Bitstream<'_>,
    out: &mut impl Write,
    block_name: fn(u32) -> Option<&'static str>,
    record_name: fn(u32, u32) -> Option<&'static str>,
    decode: impl Fn(u32, &Record<'_, '_>, &mut dyn DecodeContext) -> Result<serde_json::Value, String>,
) -> Result<(), crate::Failure> {
    let mut cursor = stream.cursor();
    let mut ctx = BasicContext::default();
    loop {
        let block = cursor.current_block().unwrap_or(0);
        let Some(entry) = cursor.next_entry()? else { break };
        let Entry::Record(record) = entry else { continue };
        let (block_text, record_text) = match block {
            0 => {
                ("BLOCKINFO_BLOCK".into(), name_or(blockinfo_record_name(record.code), "record", record.code))
            }
            _ => (
                name_or(block_name(block), "block", block),
                name_or(record_name(block, record.code), "record", record.code),
            ),
        };
        let (fields, error) = match block {
            0 => (Some(serde_json::json!({ "ops": record.ops })), None),
            _ => match decode(block, &record, &mut ctx) {
                Ok(v) => (Some(v), None),
                Err(e) => (None, Some(e)),
            },
        };
        json_line(
            out,
            &JsonRecord {
                block: block_text,
                block_id: block,
                record: record_text,
                code: record.code,
                value: None,
                fields,
                error,
            },
        )?;
    }
    Ok(())
}

/// The JSON lines of an LLVM IR stream, read in one walk (value numbers resolved).
fn write_json(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    let mut walker = Walker::new(stream);
    loop {
        let before = walker.numbering().next_value();
        let Some(event) = walker.next_event()? else { break };
        let WalkerEvent::Record { block, record, ctx } = event else { continue };
        let (block_text, record_text) = match block {
            0 => {
                ("BLOCKINFO_BLOCK".into(), name_or(blockinfo_record_name(record.code), "record", record.code))
            }
            _ => (
                name_or(ir::block_name(block), "block", block),
                name_or(ir::record_name(block, record.code), "record", record.code),
            ),
        };
        let (fields, error) = match block {
            0 => (Some(serde_json::json!({ "ops": record.ops })), None),
            _ => {
                let decoded = ir::decode_record(block, &record, ctx).and_then(|typed| {
                    bitcode_schema::llvm::check_metadata_strings(block, &record, ctx).map(|()| typed)
                });
                match to_json(decoded) {
                    Ok(v) => (Some(v), None),
                    Err(e) => (None, Some(e)),
                }
            }
        };
        let (code, after) = (record.code, walker.numbering().next_value());
        let value = (after != before).then_some(u64::from(before));
        json_line(
            out,
            &JsonRecord {
                block: block_text,
                block_id: block,
                record: record_text,
                code,
                value,
                fields,
                error,
            },
        )?;
    }
    Ok(())
}

/// The name the schema of `magic` gives block `id` (BLOCKINFO, id 0, in every format).
pub fn schema_block_name(magic: bitcode_schema::Magic, id: u32) -> Option<&'static str> {
    use bitcode_schema::Magic;
    match (magic, id) {
        (_, 0) => Some("BLOCKINFO_BLOCK"),
        (Magic::LlvmIr, id) => ir::block_name(id),
        (Magic::ClangDiagnostics, id) => bitcode_schema::diagnostics::schema::block_name(id),
        (Magic::Remarks, id) => bitcode_schema::remarks::schema::block_name(id),
        _ => None,
    }
}

/// The name the schema of `magic` gives record `code` of block `block_id` (BLOCKINFO's
/// records by the container format).
pub fn schema_record_name(magic: bitcode_schema::Magic, block_id: u32, code: u32) -> Option<&'static str> {
    use bitcode_schema::Magic;
    match (magic, block_id) {
        (_, 0) => blockinfo_record_name(code),
        (Magic::LlvmIr, id) => ir::record_name(id, code),
        (Magic::ClangDiagnostics, id) => bitcode_schema::diagnostics::schema::record_name(id, code),
        (Magic::Remarks, id) => bitcode_schema::remarks::schema::record_name(id, code),
        _ => None,
    }
}

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
    decode: impl Fn(u32, &Record<'_, '_>, &mut dyn DecodeContext) -> bitcode_schema::Result<String>,
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

/// Where the dump of a handed-out block goes in the module-level dump: at byte `at`, indented
/// `depth` levels.
struct Hole {
    at: usize,
    depth: usize,
}

/// How many handed-out blocks are decoded at once (their dumps wait in memory until every
/// block before them is written).
const BATCH: usize = 256;

/// Writes the typed dump of an LLVM IR stream. With `parallel`, the blocks that can be read
/// apart (function bodies, metadata, symbol tables...) are decoded on rayon's thread pool;
/// the output is the same, in the same order.
pub fn write(stream: &Bitstream<'_>, out: &mut impl Write, parallel: bool) -> Result<(), crate::Failure> {
    use rayon::prelude::*;

    crate::dump::write_header(stream, out)?;
    if !parallel {
        return write_sequential(stream, &mut SkipWriter { out, skip: 0 });
    }
    // The module-level dump, with holes where the handed-out blocks go.
    let mut walker = Walker::deferring(stream);
    let (mut module, mut holes) = (Vec::new(), Vec::new());
    let mut walk_result = dump_events(&mut walker, 0, &mut module, &mut holes, &mut |_| Ok(()));
    let parts = match walker.take_parts() {
        Ok(parts) => parts,
        Err(e) => {
            walk_result = walk_result.and(Err(e.into()));
            Vec::new()
        }
    };
    let mut parts: Vec<(Walker<'_>, usize)> = parts.into_iter().zip(holes.iter().map(|h| h.depth)).collect();
    let mut written = 0;
    // Bytes of dump written so far (after the header), for a fall-back to one walk.
    let mut emitted = 0u64;
    let mut holes = holes.iter();
    while !parts.is_empty() {
        let rest = parts.split_off(BATCH.min(parts.len()));
        let dumps: Vec<(Vec<u8>, Result<(), crate::Failure>, bool)> = std::mem::replace(&mut parts, rest)
            .into_par_iter()
            .map(|(mut part, depth)| {
                let mut text = Vec::new();
                let result = dump_events(&mut part, depth, &mut text, &mut Vec::new(), &mut |_| Ok(()));
                (text, result, part.changed_later_blocks())
            })
            .collect();
        for (text, result, changed_later_blocks) in dumps {
            let at = holes.next().map_or(module.len(), |h| h.at);
            let between = module.get(written..at).unwrap_or_default();
            out.write_all(between)?;
            written = at;
            out.write_all(&text)?;
            emitted += (between.len() + text.len()) as u64;
            result?;
            if changed_later_blocks {
                // Everything after this block was read as if it were not there (hostile
                // input only): one walk gives the rest, its first `emitted` bytes written.
                return write_sequential(stream, &mut SkipWriter { out, skip: emitted });
            }
        }
    }
    out.write_all(module.get(written..).unwrap_or_default())?;
    walk_result
}

/// The dump of the whole stream read in one walk (without the header).
fn write_sequential(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    let mut buffer = Vec::new();
    let result = dump_events(&mut Walker::new(stream), 0, &mut buffer, &mut Vec::new(), &mut |b| {
        out.write_all(b)?;
        b.clear();
        Ok(())
    });
    out.write_all(&buffer)?;
    result
}

/// A writer that drops its first `skip` bytes (written already) and passes on the rest.
struct SkipWriter<'w, W: Write> {
    out: &'w mut W,
    skip: u64,
}

impl<W: Write> Write for SkipWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let dropped = buf.len().min(usize::try_from(self.skip).unwrap_or(usize::MAX));
        self.skip -= dropped as u64;
        self.out.write_all(&buf[dropped..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Dumps the events of `walker` into `out`, indented from `depth`, calling `flush` when
/// `out` grows large; a handed-out block gets its header line and a hole.
fn dump_events(
    walker: &mut Walker<'_>,
    mut depth: usize,
    out: &mut Vec<u8>,
    holes: &mut Vec<Hole>,
    flush: &mut dyn FnMut(&mut Vec<u8>) -> std::io::Result<()>,
) -> Result<(), crate::Failure> {
    let block_line = |h: &bitcode_schema::BlockHeader, depth: usize| {
        let name = match h.id {
            0 => "BLOCKINFO_BLOCK".to_string(),
            id => ir::block_name(id).map_or_else(|| format!("block {id}"), str::to_string),
        };
        format!("{:indent$}{name} {{  # id {}, {} words", "", h.id, h.words, indent = depth * 2)
    };
    loop {
        if out.len() > 1 << 20 {
            flush(out)?;
        }
        let before = walker.numbering().next_value();
        let Some(event) = walker.next_event()? else { break };
        let mut is_record = false;
        let line = match event {
            WalkerEvent::Block(h) => {
                let text = block_line(&h, depth);
                depth += 1;
                text
            }
            WalkerEvent::Deferred { header, .. } => {
                writeln!(out, "{}", block_line(&header, depth))?;
                holes.push(Hole { at: out.len(), depth: depth + 1 });
                continue;
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
                let decoded = ir::decode_record(block, &record, ctx);
                let decoded = decoded.and_then(|typed| {
                    bitcode_schema::llvm::check_metadata_strings(block, &record, ctx).map(|()| typed)
                });
                match decoded {
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
