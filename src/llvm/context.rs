//! The decode context of an LLVM module: format version, value number, warnings.

/// What typed decoders of LLVM records need to know, kept by [`Walker`](super::Walker) for
/// each record: `version` picks record layouts — the module's MODULE_CODE_VERSION (0
/// absolute value ids, 1 relative ids, 2 strtab names), or inside a summary block the
/// summary's own FS_VERSION; `absolute_ids` is set before version 1; `value_number` is the
/// number the next value gets (the value id of the instruction being decoded);
/// `call_params` is, for a call record, the called function's number of fixed parameters
/// when known. Warnings of the decoders (unknown records, extra operands) are collected.
pub type LlvmContext = bitcode_schema_runtime::decode::BasicContext;
