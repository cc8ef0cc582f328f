//! Textual IR: a [module](super::module) printed as the `llvm-dis` of a given LLVM version
//! prints it.
//!
//! [`disassemble`] reads every module of a stream and prints it: the header, struct
//! types, comdats, globals, aliases, ifuncs, functions (each body read, printed and
//! dropped in turn), attribute groups and metadata. Version differences are picked by the
//! LLVM major version (`llvm_major`), never by file.

mod attributes;
mod constants;
mod debug_records;
mod floats;
mod instructions;
mod md;
pub mod metadata;
mod module;
mod names;
mod nesting;
mod slots;
mod summary;
mod types;

#[cfg(test)]
mod tests;

use bitcode_schema_runtime::{Bitstream, Result};

use super::ir;
use super::module::read_modules;

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
    let modules = read_modules(stream)?;
    let mut out = Vec::with_capacity(modules.len());
    for m in modules {
        let major = options
            .llvm_major
            .or_else(|| m.producer.as_ref().and_then(|p| major_of(p)))
            .unwrap_or(DEFAULT_MAJOR);
        out.push(module::print(m, major, &options.module_id)?);
    }
    Ok(out)
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
