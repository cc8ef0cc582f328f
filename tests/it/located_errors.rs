//! Errors locate themselves: a real corpus module with one record damaged in place, decoded
//! through the generated decoders with no path added by the caller, through the LLVM layer
//! and through bcdump, gives a message that names the record's block path, its block and
//! record by their schema names, the field, the value and the bit offset; and every bcdump
//! error names the file it is about.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use bitcode_schema::{BitReader, Entry, Input};
use common::*;

/// The module the damaged copies are made of: clang 14's hello, -O2 (a plain .bc).
const MODULE: &str = "corpus/clang14__hello__O2.bc";

/// A record damaged in place, and the message its typed decode must give.
struct Damaged {
    bytes: Vec<u8>,
    /// Where the damaged record starts (absolute bit offset).
    at: u64,
    /// The ids of the blocks around it.
    path: Vec<u32>,
    /// The record's code.
    code: u32,
    /// The whole message of the decode error.
    message: String,
}

/// The module at `MODULE`, or `None` after reporting ../shared missing.
fn module(test: &str) -> Option<(PathBuf, Vec<u8>)> {
    let file = require_shared(test)?.join(MODULE);
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    Some((file, bytes))
}

/// Damages the first unabbreviated record of `code` in the block at `path` in `bytes`: the
/// first of its string operands (from operand `string_from` on) written in two VBR6 chunks
/// gets 31 in its second chunk, so that it reads as a number above 255 while every bit
/// after it stays where it was. `block` and `record` are the schema names, `field` the
/// string field's.
fn damage_string(
    bytes: &[u8],
    path: &[u32],
    code: u32,
    string_from: usize,
    (block, record, field): (&str, &str, &str),
) -> Damaged {
    let input = Input::parse(bytes).unwrap();
    let stream = input.streams().unwrap().into_iter().next().unwrap();
    let mut cursor = stream.cursor();
    let mut widths = Vec::new();
    let (at, width) = loop {
        match cursor.next_entry().unwrap().expect("the record is in the module") {
            Entry::Block(h) => widths.push(h.abbrev_width),
            Entry::EndBlock(_) => _ = widths.pop(),
            Entry::Record(r) => {
                let here: Vec<u32> = r.path.ids().collect();
                if here == path && r.code == code && r.abbreviation().is_none() {
                    break (r.bit_offset, *widths.last().unwrap());
                }
            }
        }
    };
    // Unabbreviated: the abbreviation id, then the code, the operand count and each
    // operand in VBR6.
    let mut reader = BitReader::new(bytes);
    reader.jump_to(at).unwrap();
    reader.read(width).unwrap();
    assert_eq!(reader.read_vbr(6).unwrap(), u64::from(code));
    let count = reader.read_vbr(6).unwrap();
    let (mut start, mut value) = (0, 0);
    for index in 0..count {
        start = reader.position();
        value = reader.read_vbr(6).unwrap();
        if index as usize >= string_from && (32..1024).contains(&value) {
            break;
        }
    }
    assert!((32..1024).contains(&value), "no operand of two chunks in the record at bit {at}");
    let mut damaged = bytes.to_vec();
    for bit in start + 6..start + 11 {
        damaged[(bit / 8) as usize] |= 1 << (bit % 8);
    }
    let value = (value & 31) | 31 << 5;
    let ids: Vec<String> = path.iter().map(u32::to_string).collect();
    let message = format!(
        "{block}/{record} at bit {at}: field {field}: {value} is not a byte (block path {})",
        ids.join("/")
    );
    Damaged { bytes: damaged, at, path: path.to_vec(), code, message }
}

/// A metadata kind's name (MODULE_BLOCK 8 / METADATA_KIND_BLOCK 22 / KIND 6).
fn damaged_kind(bytes: &[u8]) -> Damaged {
    damage_string(bytes, &[8, 22], 6, 1, ("METADATA_KIND_BLOCK", "KIND", "name"))
}

/// The module's target triple (MODULE_BLOCK 8 / TRIPLE 2).
fn damaged_triple(bytes: &[u8]) -> Damaged {
    damage_string(bytes, &[8], 2, 0, ("MODULE_BLOCK", "TRIPLE", "triple"))
}

/// The first error of the schema's `decode_record` over a plain cursor walk: the error as
/// the generated decoder gave it, nothing added.
fn first_decode_error(bytes: &[u8]) -> bitcode_schema::Error {
    let input = Input::parse(bytes).unwrap();
    let stream = input.streams().unwrap().into_iter().next().unwrap();
    let mut cursor = stream.cursor();
    let mut ctx = bitcode_schema::runtime::decode::BasicContext::new().with_version(2);
    loop {
        let block = cursor.current_block();
        let Some(entry) = cursor.next_entry().unwrap() else { panic!("every record decoded") };
        if let (Some(block), Entry::Record(record)) = (block, entry) {
            if block != 0 {
                if let Err(e) = bitcode_schema::llvm::ir::decode_record(block, &record, &mut ctx) {
                    return e;
                }
            }
        }
    }
}

pub fn generated_decoders_name_path_record_field_value_and_bit() {
    let Some((_, bytes)) = module("generated_decoders_name_path_record_field_value_and_bit") else {
        return;
    };
    for damaged in [damaged_kind(&bytes), damaged_triple(&bytes)] {
        let err = first_decode_error(&damaged.bytes);
        assert_eq!(err.to_string(), damaged.message);
        assert_eq!(err.bit_offset(), damaged.at, "{err}");
        assert_eq!(err.block_path(), damaged.path, "{err}");
        assert_eq!(err.record_code(), Some(damaged.code), "{err}");
        assert!(matches!(err.kind(), bitcode_schema::ErrorKind::Field { .. }), "{err}");
    }
}

pub fn llvm_check_and_symbols_give_the_decoders_message() {
    let Some((_, bytes)) = module("llvm_check_and_symbols_give_the_decoders_message") else { return };
    for damaged in [damaged_kind(&bytes), damaged_triple(&bytes)] {
        let stream = bitcode_schema::Bitstream::new(&damaged.bytes).unwrap();
        let sequential = bitcode_schema::llvm::check_stream(&stream).unwrap();
        let parallel = bitcode_schema::llvm::check_stream_parallel(&stream).unwrap();
        assert_eq!(sequential.first_errors, std::slice::from_ref(&damaged.message));
        assert_eq!(parallel.first_errors, sequential.first_errors);
    }
    let damaged = damaged_triple(&bytes);
    let stream = bitcode_schema::Bitstream::new(&damaged.bytes).unwrap();
    let err = bitcode_schema::llvm::module_symbols(&stream).unwrap_err();
    assert_eq!(err.to_string(), damaged.message);
}

/// bcdump with `args` and `file`, or standard input when `file` is `None`.
fn bcdump_on(args: &[&str], file: Option<&Path>, stdin: &[u8]) -> Output {
    let mut cmd = Command::new(bcdump());
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    match file {
        Some(file) => cmd.arg(file),
        None => cmd.arg("-"),
    };
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut input, stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

pub fn bcdump_names_the_file_and_the_decoders_message() {
    let Some((_, bytes)) = module("bcdump_names_the_file_and_the_decoders_message") else { return };
    let dir = tempfile::tempdir().unwrap();
    for (name, damaged) in [("kind.bc", damaged_kind(&bytes)), ("triple.bc", damaged_triple(&bytes))] {
        let file = dir.path().join(name);
        std::fs::write(&file, &damaged.bytes).unwrap();
        let expected = format!("bcdump: {}: error: {}", file.display(), damaged.message);
        for jobs in ["1", "2"] {
            let out = bcdump_on(&["--check", "--jobs", jobs], Some(&file), &[]);
            assert_eq!(out.status.code(), Some(1), "--check --jobs {jobs}");
            assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), expected, "--check --jobs {jobs}");
            // The typed dump shows the error where the record stands, and goes on.
            let out = bcdump_on(&["--jobs", jobs], Some(&file), &[]);
            assert!(out.status.success(), "dump --jobs {jobs}");
            let dump = String::from_utf8_lossy(&out.stdout);
            let line = format!("error: {}", damaged.message);
            assert!(dump.lines().any(|l| l.trim_start() == line), "no {line:?} in the dump");
        }
        // From standard input, the file is called <stdin>.
        let out = bcdump_on(&["--check"], None, &damaged.bytes);
        let from_stdin = format!("bcdump: <stdin>: error: {}", damaged.message);
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), from_stdin);
    }
    let triple = dir.path().join("triple.bc");
    let out = bcdump_on(&["--symbols"], Some(&triple), &[]);
    assert_eq!(out.status.code(), Some(1));
    let expected = format!("bcdump: {}: error: {}", triple.display(), damaged_triple(&bytes).message);
    assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), expected);
}

/// Every mode names the file when its input is cut short: the first half of a diagnostics
/// file, of a remarks file and of a module.
pub fn every_bcdump_mode_names_the_file() {
    let Some(shared) = require_shared("every_bcdump_mode_names_the_file") else { return };
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 9] = [
        ("corpus/clang14__bad.dia", &["--diagnostics"]),
        ("corpus/clang14__bad.dia", &[]),
        ("corpus/clang16__remarks_structs_O2.opt.bitstream", &["--remarks"]),
        ("corpus/clang16__remarks_structs_O2.opt.bitstream", &[]),
        (MODULE, &[]),
        (MODULE, &["--check"]),
        (MODULE, &["--symbols"]),
        (MODULE, &["--stats"]),
        (MODULE, &["--trace"]),
    ];
    for (source, args) in cases {
        let bytes = std::fs::read(shared.join(source)).unwrap();
        let file = dir.path().join(Path::new(source).file_name().unwrap());
        std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
        let out = bcdump_on(args, Some(&file), &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{source} {args:?}: {err}");
        let prefix = format!("bcdump: {}: error: ", file.display());
        assert!(err.starts_with(&prefix) && err.lines().count() == 1, "{source} {args:?}: {err}");
        // A remarks file cut short may read as one without its string table.
        assert!(err.contains("at bit ") || args == ["--remarks"], "{source} {args:?}: {err}");
    }
}
