//! LLVM IR bitcode: what the schema alone cannot say. The value numbering that turns
//! relative operands into absolute value ids, the walk that gives every record with the
//! right decode context, and (with the IR schema) typed modules.

mod check;
mod context;
pub mod dis;
pub mod ir;
mod metadata_strings;
pub mod module;
mod numbering;
mod symbols;
mod walk;

pub use check::{check_stream, check_stream_parallel, CheckReport};
pub use context::LlvmContext;
pub use metadata_strings::{check_metadata_strings, metadata_strings};
pub use numbering::ValueNumbering;
pub use symbols::{display_bytes, module_symbols, module_values, Symbol, SymbolKind};
pub use walk::{for_each_record, Walker, WalkerEvent};
