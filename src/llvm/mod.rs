//! LLVM IR bitcode: what the schema alone cannot say. The value numbering that turns
//! relative operands into absolute value ids, the walk that gives every record with the
//! right decode context, and (with the IR schema) typed modules.

mod check;
mod context;
pub mod ir;
mod metadata_strings;
mod numbering;
mod symbols;
mod walk;

pub use check::{check_stream, check_stream_parallel, CheckReport};
pub use context::LlvmContext;
pub use metadata_strings::{check_metadata_strings, metadata_strings};
pub use numbering::ValueNumbering;
pub use symbols::{display_bytes, module_symbols, module_values, Symbol, SymbolKind};
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
    /// METADATA_ATTACHMENT_BLOCK
    pub const METADATA_ATTACHMENT: u32 = 16;
    /// TYPE_BLOCK (TYPE_BLOCK_ID_NEW)
    pub const TYPE: u32 = 17;
    /// USELIST_BLOCK
    pub const USELIST: u32 = 18;
    /// MODULE_STRTAB_BLOCK
    pub const MODULE_STRTAB: u32 = 19;
    /// GLOBALVAL_SUMMARY_BLOCK
    pub const GLOBALVAL_SUMMARY: u32 = 20;
    /// OPERAND_BUNDLE_TAGS_BLOCK
    pub const OPERAND_BUNDLE_TAGS: u32 = 21;
    /// METADATA_KIND_BLOCK
    pub const METADATA_KIND: u32 = 22;
    /// STRTAB_BLOCK
    pub const STRTAB: u32 = 23;
    /// FULL_LTO_GLOBALVAL_SUMMARY_BLOCK
    pub const FULL_LTO_GLOBALVAL_SUMMARY: u32 = 24;
    /// SYMTAB_BLOCK
    pub const SYMTAB: u32 = 25;
    /// SYNC_SCOPE_NAMES_BLOCK
    pub const SYNC_SCOPE_NAMES: u32 = 26;
}
