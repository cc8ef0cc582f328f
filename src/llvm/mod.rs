//! LLVM IR bitcode: what the schema alone cannot say. The value numbering that turns
//! relative operands into absolute value ids, the walk that gives every record with the
//! right decode context, and (with the IR schema) typed modules.

mod check;
mod context;
pub mod ir;
mod numbering;
mod symbols;
mod walk;

pub use check::{check_stream, CheckReport};
pub use context::LlvmContext;
pub use numbering::ValueNumbering;
pub use symbols::{display_bytes, module_symbols, Symbol, SymbolKind};
pub use walk::{for_each_record, Walker, WalkerEvent};

/// LLVM IR block ids (LLVMBitCodes.h `BlockIDs`).
pub mod block_ids {
    /// MODULE_BLOCK
    pub const MODULE: u32 = 8;
    /// PARAMATTR_BLOCK
    pub const PARAMATTR: u32 = 9;
    /// PARAMATTR_GROUP_BLOCK
    pub const PARAMATTR_GROUP: u32 = 10;
    /// CONSTANTS_BLOCK
    pub const CONSTANTS: u32 = 11;
    /// FUNCTION_BLOCK
    pub const FUNCTION: u32 = 12;
    /// IDENTIFICATION_BLOCK
    pub const IDENTIFICATION: u32 = 13;
    /// VALUE_SYMTAB_BLOCK
    pub const VALUE_SYMTAB: u32 = 14;
    /// METADATA_BLOCK
    pub const METADATA: u32 = 15;
    /// TYPE_BLOCK (TYPE_BLOCK_ID_NEW)
    pub const TYPE: u32 = 17;
    /// GLOBALVAL_SUMMARY_BLOCK
    pub const GLOBALVAL_SUMMARY: u32 = 20;
    /// FULL_LTO_GLOBALVAL_SUMMARY_BLOCK
    pub const FULL_LTO_GLOBALVAL_SUMMARY: u32 = 24;
    /// STRTAB_BLOCK
    pub const STRTAB: u32 = 23;
}
