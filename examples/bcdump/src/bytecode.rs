//! LLVM 1.x bytecode: the typed dump (each block with its decoded body), `--check` and
//! `--dis`, through `bitcode_schema::bytecode`.

use std::io::{self, Write};

use bitcode_schema::bytecode::schema::{self, AnyBody};
use bitcode_schema::bytecode::{build, reader};
use bitcode_schema::runtime::bytecode::Bytecode;

use crate::Failure;

/// The dump: one line per block (indented by depth: its name, id, offset), then its
/// decoded body (the module's version and a function's linkage for the blocks that hold
/// blocks).
pub fn dump(bytes: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    let bc = Bytecode::parse(bytes).map_err(Failure::Input)?;
    let header = bc.header().map_err(Failure::Input)?;
    writeln!(
        out,
        "LLVM 1.x bytecode: {}, revision {} ({}), module of {} bytes",
        bc.compression().magic(),
        header.version.revision,
        header.version.releases(),
        header.size
    )
    .map_err(Failure::Output)?;
    let revision = u64::from(header.version.revision);
    let mut written: io::Result<()> = Ok(());
    let walked = reader::walk_at(bytes, |path, offset, body| {
        if written.is_err() {
            return;
        }
        let indent = "  ".repeat(path.len().saturating_sub(1));
        let id = path.last().copied().unwrap_or(0);
        let name = schema::block_name(id, revision).unwrap_or("?");
        let line = match body {
            AnyBody::Module(m) => format!("{:?}", m.version),
            AnyBody::Function(f) => format!("linkage={}", f.linkage),
            other => format!("{} entries", reader::items(other)),
        };
        written = writeln!(out, "{indent}{name} (id {id}) at byte {offset}: {line}");
        if !matches!(body, AnyBody::Module(_) | AnyBody::Function(_)) {
            if let Err(e) = body_lines(body, &indent, out) {
                written = Err(e);
            }
        }
    });
    written.map_err(Failure::Output)?;
    walked.map(|_| ()).map_err(Failure::Input)
}

/// The decoded body, one line per entry list.
fn body_lines(body: &AnyBody<'_>, indent: &str, out: &mut impl Write) -> io::Result<()> {
    let text = format!("{body:?}");
    // `Name(Body { field: [...], ... })`: the fields, each on a line of its own.
    let inner = text.find("Body {").map_or(text.as_str(), |i| &text[i + 6..]);
    let inner = inner.trim_end_matches(')').trim_end_matches('}').trim();
    for field in split_top(inner) {
        writeln!(out, "{indent}  {}", field.trim())?;
    }
    Ok(())
}

/// Splits `a: x, b: [y, z]` at the commas outside brackets.
fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts, mut quoted) = (0i32, 0, Vec::new(), false);
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '[' | '(' | '{' if !quoted => depth += 1,
            ']' | ')' | '}' if !quoted => depth -= 1,
            ',' if depth == 0 && !quoted => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < s.len() {
        parts.push(&s[start..]);
    }
    parts
}

/// `--check`: decodes every block typed; the summary line of bitcode's `--check`, its
/// records being the blocks' entries. Problems (an unknown block, an error) exit 1.
pub fn check(bytes: &[u8], json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let (report, error) = match reader::check(bytes) {
        Ok(r) => (r, None),
        Err(e) => (reader::CheckReport::default(), Some(e)),
    };
    let errors = usize::from(error.is_some());
    if json {
        writeln!(
            out,
            "{{\"records\":{},\"typed\":{},\"unknown\":{},\"errors\":{errors},\"warnings\":0,\"blocks\":{}}}",
            report.items, report.items, report.unknown_blocks, report.blocks
        )
    } else {
        writeln!(
            out,
            "records={} typed={} unknown={} errors={errors} warnings=0 blocks={}",
            report.items, report.items, report.unknown_blocks, report.blocks
        )
    }
    .map_err(Failure::Output)?;
    match error {
        Some(e) => Err(Failure::Input(e)),
        None if report.unknown_blocks > 0 => Err(Failure::Check),
        None => Ok(()),
    }
}

/// `--dis`: the module as the llvm-dis of the release that wrote it printed it, its
/// `; ModuleID` being `name` (the file as given).
pub fn dis(bytes: &[u8], name: &str) -> Result<String, Failure> {
    build::disassemble_bytes(bytes, name).map_err(Failure::Input)
}
