//! The module model: an LLVM IR module read from bitcode into types, global values,
//! constants, function bodies and metadata, with every operand resolved.
//!
//! [`read_modules`] reads every module of a stream; function bodies are read when asked
//! ([`Module::function_body`]), so a printer can build, print and drop one at a time.

pub mod attributes;
mod body;
mod casts;
pub mod constants;
mod fold;
pub mod function;
pub mod globals;
pub mod instructions;
pub mod metadata;
mod reader;
mod records;
pub mod types;
pub mod values;

#[cfg(test)]
mod tests;

use bitcode_schema_runtime::decode::Bytes;

pub use attributes::{Attribute, AttributeList, AttributeSet, Attributes};
pub use constants::{Constant, ValueRef};
pub use function::{BasicBlock, FunctionBody};
pub use globals::{Comdat, Function, GlobalCommon, GlobalVar, Indirect};
pub use instructions::{
    Atomic, AttachmentList, BundleInput, Call, DebugLoc, DebugRecord, Instruction, Op, ValueList,
};
pub use reader::read_modules;
pub use types::{StructNames, Type, TypeRef, Types};
pub use values::{Value, ValueKind};

/// Names the named structs of `modules` as LLVM does when it reads them all into one
/// context, as llvm-dis reads the modules of one file: a struct whose name an earlier
/// module's struct took is renamed `name.N` (see [`Types::name_structs_in`]).
pub fn name_structs_in_one_context(modules: &mut [Module<'_>]) {
    let mut context = StructNames::default();
    for m in modules {
        m.types.name_structs_in(&mut context);
    }
}

use crate::llvm::ir::{
    constants_block, full_lto_globalval_summary_block, globalval_summary_block, metadata_block, module_block,
};
use crate::llvm::Walker;
pub use records::{BlockRecords, RecordPlace};

/// An error of a module's content, with no offset (for callers outside the reader).
pub fn invalid_error(problem: String) -> bitcode_schema_runtime::Error {
    body::invalid(0, problem)
}

/// One module of a bitcode stream.
#[derive(Clone, Debug, Default)]
pub struct Module<'a> {
    /// The IDENTIFICATION block's producer string.
    pub producer: Option<Bytes<'a>>,
    /// MODULE_CODE_VERSION.
    pub version: u64,
    /// The target triple.
    pub triple: Bytes<'a>,
    /// The data layout string.
    pub datalayout: Bytes<'a>,
    /// The source file name.
    pub source_filename: Option<Bytes<'a>>,
    /// Module-level inline asm.
    pub asm: Bytes<'a>,
    /// The types.
    pub types: Types,
    /// The data layout's alloca address space (`A<n>`).
    pub alloca_address_space: u32,
    /// Whether the module's pointers are typed (LLVM 14 and older writers).
    pub typed_pointers: bool,
    /// Global variables in order.
    pub globals: Vec<GlobalVar<'a>>,
    /// Functions in order.
    pub functions: Vec<Function<'a>>,
    /// Aliases in order.
    pub aliases: Vec<Indirect<'a>>,
    /// Ifuncs in order.
    pub ifuncs: Vec<Indirect<'a>>,
    /// Comdats in order.
    pub comdats: Vec<Comdat<'a>>,
    /// Module-level values by id: global values in record order, then constants.
    pub values: Vec<Value<'a>>,
    /// Attribute groups and lists.
    pub attributes: Attributes<'a>,
    /// Synchronization scope names.
    pub sync_scopes: Vec<Bytes<'a>>,
    /// Operand bundle tags.
    pub bundle_tags: Vec<Bytes<'a>>,
    /// Metadata kinds (id, name) in record order.
    pub md_kinds: Vec<(u32, Bytes<'a>)>,
    /// MODULE_CODE_HASH: the module's hash words, when the writer gave one (ThinLTO).
    pub hash: Option<Vec<u32>>,
    /// The string table the module's names come from (the summary's type ids use it).
    pub strtab: &'a [u8],
    /// For each function with a body, in order: its index and a walker at its block.
    bodies: Vec<(u32, Walker<'a>)>,
    /// Where the first module-level CONSTANTS_BLOCK starts (absolute bit offset).
    constants_at: Option<u64>,
    /// How many bits of its block each instruction and each value took in the body read
    /// last, to reserve the next body's vectors by.
    body_density: body::BodyDensity,
    /// A walker at each module-level METADATA_BLOCK, in order (see
    /// [`Module::metadata_records`]).
    metadata_blocks: Vec<Walker<'a>>,
    /// A walker at each summary block, in order (see [`Module::summary_records`]).
    summary_blocks: Vec<Walker<'a>>,
}

impl<'a> Module<'a> {
    /// The functions that have bodies, in the order of their blocks.
    pub fn bodies(&self) -> impl Iterator<Item = u32> + '_ {
        self.bodies.iter().map(|(f, _)| *f)
    }

    /// Reads the body of the `n`th function with a body (in block order).
    pub fn function_body(&mut self, n: usize) -> bitcode_schema_runtime::Result<FunctionBody<'a>> {
        let mut types = std::mem::take(&mut self.types);
        let body = self.read_body(n, &mut types);
        self.types = types;
        body
    }

    /// Reads the body of the `n`th function with a body into `types`, a copy of the
    /// module's type table that the types the body makes (pointers to its allocas, vectors
    /// of its comparisons...) are added to; the module itself is not changed, so bodies can
    /// be read on another thread while the module is printed.
    pub fn read_body(&self, n: usize, types: &mut Types) -> bitcode_schema_runtime::Result<FunctionBody<'a>> {
        let Some((function, walker)) = self.bodies.get(n).cloned() else {
            return Err(body::invalid(0, format!("no function body number {n}")));
        };
        body::read_body(self, types, function, walker)
    }

    /// An error about the body of the `n`th function with a body: `problem`, after the
    /// function's name, at the start of its block.
    pub fn body_error(&self, n: u32, problem: String) -> bitcode_schema_runtime::Error {
        let Some((function, walker)) = self.bodies.get(n as usize) else {
            return body::invalid(0, format!("no function body number {n}: {problem}"));
        };
        walker.locate(body::invalid(walker.cursor().position(), body::in_function(self, *function, problem)))
    }

    /// An error about the module-level constants as a whole (a cycle among them):
    /// `problem`, at the start of their first block.
    pub fn constants_error(&self, problem: String) -> bitcode_schema_runtime::Error {
        let err = body::invalid(self.constants_at.unwrap_or(0), problem);
        match self.constants_at {
            Some(_) => err.with_block_path([module_block::ID, constants_block::ID]),
            None => err.with_block_path([module_block::ID]),
        }
    }

    /// The records of the module-level METADATA_BLOCKs in order, each decoded as it is
    /// taken: a module with debug info has hundreds of thousands, which are not kept. A
    /// record that does not decode ends the records with its error.
    pub fn metadata_records(&self) -> BlockRecords<'_, 'a, metadata_block::Record<'a>> {
        BlockRecords::new(&self.metadata_blocks, &[metadata_block::ID], metadata_block::Record::decode)
    }

    /// Whether the module has a summary (GLOBALVAL_SUMMARY_BLOCK or its full-LTO form).
    pub fn has_summary(&self) -> bool {
        !self.summary_blocks.is_empty()
    }

    /// The records of the module's summary blocks in order, each decoded as it is taken
    /// (the full-LTO block's as the ThinLTO block's, as LLVM reads them). A record that
    /// does not decode ends the records with its error.
    pub fn summary_records(&self) -> BlockRecords<'_, 'a, globalval_summary_block::Record<'a>> {
        // A full-LTO module's summary holds the same records as a ThinLTO one, read by the
        // same code in LLVM.
        BlockRecords::new(
            &self.summary_blocks,
            &[globalval_summary_block::ID, full_lto_globalval_summary_block::ID],
            globalval_summary_block::Record::decode,
        )
    }

    /// The name of a global value by value id, when it is one.
    pub fn global_name(&self, id: ValueRef) -> Option<&Bytes<'a>> {
        self.common(id).map(|c| &c.name)
    }

    /// The shared fields of the global value with value id `id`.
    pub fn common(&self, id: ValueRef) -> Option<&GlobalCommon<'a>> {
        match self.values.get(id as usize)?.kind {
            ValueKind::Global(i) => self.globals.get(i as usize).map(|g| &g.common),
            ValueKind::Function(i) => self.functions.get(i as usize).map(|g| &g.common),
            ValueKind::Alias(i) => self.aliases.get(i as usize).map(|g| &g.common),
            ValueKind::Ifunc(i) => self.ifuncs.get(i as usize).map(|g| &g.common),
            _ => None,
        }
    }
}
