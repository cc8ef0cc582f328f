//! The decode context of an LLVM module: format version, value number, warnings.

use bitcode_runtime::decode::{DecodeContext, Warning};

/// What typed decoders of LLVM records need to know: the format version that picks record
/// layouts — the module's MODULE_CODE_VERSION (0 absolute value ids, 1 relative ids, 2
/// strtab names), or inside a summary block the summary's own FS_VERSION — and the number
/// the next value gets. Warnings are collected.
#[derive(Clone, Debug, Default)]
pub struct LlvmContext {
    /// The version that picks layouts: MODULE_CODE_VERSION (0 until the record is read), or
    /// a summary block's FS_VERSION inside that block.
    pub version: u64,
    /// Whether value operands are relative: MODULE_CODE_VERSION is 1 or more.
    pub relative_ids: bool,
    /// For a call record: the called function's number of fixed parameters, when known.
    pub call_params: Option<u32>,
    /// The number the next value gets (the value id of the instruction being decoded).
    pub value_number: u32,
    /// Warnings from decoders (unknown records, extra operands).
    pub warnings: Vec<Warning>,
}

impl DecodeContext for LlvmContext {
    fn version(&self) -> u64 {
        self.version
    }

    fn value_number(&self) -> u32 {
        self.value_number
    }

    fn relative_ids(&self) -> bool {
        self.relative_ids
    }

    fn call_params(&self) -> Option<u32> {
        self.call_params
    }

    fn warn(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }
}
