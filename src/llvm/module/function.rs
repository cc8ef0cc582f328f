//! A function body: basic blocks of instructions, local values and names.

use bitcode_schema_runtime::decode::Bytes;

use super::instructions::Instruction;
use super::values::Value;
use crate::llvm::ir::metadata_block;

/// A basic block: a run of the body's instructions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BasicBlock<'a> {
    /// Its name, if any.
    pub name: Option<Bytes<'a>>,
    /// Index of its first instruction.
    pub start: u32,
    /// One past its last.
    pub end: u32,
}

/// The body of a defined function.
#[derive(Clone, Debug, Default)]
pub struct FunctionBody<'a> {
    /// The function's index in the module's functions.
    pub function: u32,
    /// The value id of the first local value (the module's value count).
    pub first_local: u32,
    /// Local values: arguments, constants, instruction results (ids from `first_local`).
    pub values: Vec<Value<'a>>,
    /// The basic blocks.
    pub blocks: Vec<BasicBlock<'a>>,
    /// The instructions in order.
    pub instructions: Vec<Instruction>,
    /// Names of local values by local index (value id − `first_local`); empty when the
    /// body names none (see [`FunctionBody::name`]).
    pub names: Vec<Option<Bytes<'a>>>,
    /// The function's own attachments: (kind, metadata id).
    pub attachments: Vec<(u32, u32)>,
    /// The records of the body's METADATA_BLOCK, for the metadata model.
    pub metadata: Vec<metadata_block::Record<'a>>,
    /// USELIST_BB records: each block's wanted use order, by block index.
    pub use_lists: Vec<(u32, Vec<u64>)>,
}

impl<'a> FunctionBody<'a> {
    /// The name of the local value with value id `id`, if it has one.
    pub fn name(&self, id: u32) -> Option<&Bytes<'a>> {
        let local = id.checked_sub(self.first_local)?;
        self.names.get(local as usize)?.as_ref()
    }
}
