//! The decode context of an LLVM module: format version, value number, warnings.

use bitcode_runtime::decode::{DecodeContext, Warning};

/// What typed decoders of LLVM records need to know: the module's format version
/// (MODULE_CODE_VERSION: 0 absolute value ids, 1 relative ids, 2 strtab names) and the
/// number the next value gets. Warnings are collected.
#[derive(Clone, Debug, Default)]
pub struct LlvmContext {
    /// The module's MODULE_CODE_VERSION (0 until the record is read).
    pub version: u64,
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
        self.version >= 1
    }

    fn warn(&mut self, warning: Warning) {
        self.warnings.push(warning);
    }
}
