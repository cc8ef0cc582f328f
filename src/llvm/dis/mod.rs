//! Textual IR: a [module](super::module) printed as the `llvm-dis` of a given LLVM version
//! prints it.
//!
//! [`write_module`] (or [`write_module_to_file`]) writes a module as text: the header,
//! struct types, comdats, globals, aliases, ifuncs, functions (each body read, printed and
//! dropped in turn, on a reader thread with the `parallel` feature), attribute groups and
//! metadata; [`disassemble`] gives every module of a stream as a string. Version
//! differences are picked by the LLVM major version (`llvm_major`), never by file.

mod attributes;
mod constants;
mod debug_records;
mod feed;
mod floats;
mod global_refs;
mod instructions;
mod intrinsic_attributes;
mod lists;
mod local_names;
mod md;
pub mod metadata;
mod module;
mod names;
mod nesting;
mod operands;
mod output;
mod slots;
mod summary;
mod text;
mod type_order;
mod types;

#[cfg(test)]
mod tests;

use std::fs::File;
use std::io;

use bitcode_schema_runtime::{Bitstream, Error, Result};

use super::ir;
use super::module::{name_structs_in_one_context, read_modules, Module};
use output::Sink;

/// Options of the printer.
#[derive(Clone, Debug, Default)]
pub struct DisOptions {
    /// The LLVM major version whose llvm-dis to imitate; `None`: the producer's.
    pub llvm_major: Option<u32>,
    /// The `; ModuleID = '...'` name.
    pub module_id: String,
}

/// The version assumed when neither the options nor the file tell.
const DEFAULT_MAJOR: u32 = 22;

/// Every module of an LLVM IR bitstream as llvm-dis prints it (one text per module).
pub fn disassemble(stream: &Bitstream<'_>, options: &DisOptions) -> Result<Vec<String>> {
    let mut texts = Vec::new();
    for_each_module(stream, options, |m, major| {
        let mut text = Vec::new();
        module::print(m, major, &options.module_id, Sink::new(&mut text)).map_err(|e| match e {
            DisError::Input(e) => e,
            DisError::Output(e) => crate::llvm::module::invalid_error(e.to_string()),
        })?;
        texts.push(String::from_utf8_lossy(&text).into_owned());
        Ok(())
    })?;
    Ok(texts)
}

/// Writes module `m` (one of [`read_modules`]) to `out` as llvm-dis prints it (a file of
/// several modules: after [`name_structs_in_one_context`], as llvm-dis reads them all into
/// one context). The module
/// is read whole (every function body checked) before its first byte is written, so bad
/// input gives an error before any output; the text is written as it is made, but for the
/// functions', which waits for the struct types at the top (the bodies decide them).
/// [`write_module_to_file`] holds none of it.
pub fn write_module(
    m: Module<'_>,
    options: &DisOptions,
    out: &mut dyn io::Write,
) -> std::result::Result<(), DisError> {
    let major = major_for(&m, options);
    module::print(m, major, &options.module_id, Sink::new(out))
}

/// As [`write_module`], into `file` from its current position: there every line is
/// written as it is made, the struct types at the top put right once the bodies have
/// decided them (so the file is read back only when a struct type turns out unused). The
/// file ends where the text does: an old file need not be truncated first (overwriting its
/// pages is quicker than freeing them and taking new ones). On an error the file is cut
/// back to where it was. A file that is not a regular file (a pipe, a terminal) is written
/// as [`write_module`] writes. The file must be open for reading and writing (not for
/// appending).
pub fn write_module_to_file(
    m: Module<'_>,
    options: &DisOptions,
    file: &File,
) -> std::result::Result<(), DisError> {
    let major = major_for(&m, options);
    match Sink::file(file).map_err(DisError::Output)? {
        Some(sink) => module::print(m, major, &options.module_id, sink),
        None => module::print(m, major, &options.module_id, Sink::new(&mut &*file)),
    }
}

/// Reads every module and hands each, with the version to print it as, to `print`.
fn for_each_module(
    stream: &Bitstream<'_>,
    options: &DisOptions,
    mut print: impl FnMut(Module<'_>, u32) -> Result<()>,
) -> Result<()> {
    let mut modules = read_modules(stream)?;
    name_structs_in_one_context(&mut modules);
    for m in modules {
        let major = major_for(&m, options);
        print(m, major)?;
    }
    Ok(())
}

/// The LLVM major version to print module `m` as.
fn major_for(m: &Module<'_>, options: &DisOptions) -> u32 {
    options.llvm_major.or_else(|| m.producer.as_ref().and_then(|p| major_of(p))).unwrap_or(DEFAULT_MAJOR)
}

/// Why [`write_module`] failed.
#[derive(Debug)]
pub enum DisError {
    /// The input is malformed, or not a module llvm-dis would print.
    Input(Error),
    /// Writing the text failed.
    Output(io::Error),
}

impl From<Error> for DisError {
    fn from(e: Error) -> Self {
        DisError::Input(e)
    }
}

impl std::fmt::Display for DisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DisError::Input(e) => e.fmt(f),
            DisError::Output(e) => write!(f, "cannot write the text: {e}"),
        }
    }
}

impl std::error::Error for DisError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DisError::Input(e) => Some(e),
            DisError::Output(e) => Some(e),
        }
    }
}

/// The major version in a producer string (`LLVM14.0.6` gives 14).
fn major_of(producer: &[u8]) -> Option<u32> {
    let rest = producer.strip_prefix(b"LLVM")?;
    let digits: Vec<u8> = rest.iter().copied().take_while(u8::is_ascii_digit).collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// The LLVM major version that wrote the module, from its IDENTIFICATION block's
/// producer string ("LLVM14.0.6", "LLVM22.1.2-rust-1.95.0-stable", ...); None if absent.
pub fn producer_major(stream: &Bitstream<'_>) -> Option<u32> {
    let mut cursor = stream.cursor();
    let mut ctx = super::LlvmContext::default();
    let mut depth = 0usize;
    loop {
        match cursor.next_entry().ok()?? {
            bitcode_schema_runtime::Entry::Block(h) => {
                if h.id == ir::identification_block::ID {
                    depth += 1;
                } else {
                    cursor.skip_block().ok()?;
                }
            }
            bitcode_schema_runtime::Entry::EndBlock(_) => depth = depth.saturating_sub(1),
            bitcode_schema_runtime::Entry::Record(r) if depth > 0 => {
                if let Ok(ir::identification_block::Record::String(s)) =
                    ir::identification_block::Record::decode(&r, &mut ctx)
                {
                    return major_of(&s.producer);
                }
            }
            bitcode_schema_runtime::Entry::Record(_) => {}
        }
    }
}
