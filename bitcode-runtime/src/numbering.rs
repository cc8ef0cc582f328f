//! What a schema says about numbering: which blocks give their records numbers (values,
//! types) and what each record of such a block adds. The `schema!` macro generates one
//! [`Numbering`] per schema (`NUMBERING`) from the blocks' `numbers` and the records'
//! `defines`; a hand-written layer (LLVM's value numbering) counts with it, so a record
//! added to the schema is counted without a change to that layer.

use crate::decode::{DecodeContext, TypeId, ValueRef};
use crate::{Record, Result};

/// What a block's records are numbered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Numbers {
    /// Values: each record that defines one takes the next value number.
    Values,
    /// Types: each record that defines one takes the next type id.
    Types,
}

/// Reads the called function of a call-like record: its explicit function type when the
/// record has one, and the callee.
pub type CalledFn = fn(&Record<'_, '_>, &dyn DecodeContext) -> Result<Called>;

/// What one record adds to its block's numbering (`defines` in the schema).
#[derive(Clone, Copy, Debug)]
pub enum Defines {
    /// Nothing: a record of no number (a store, a branch, a debug location, a code the
    /// schema does not name).
    Nothing,
    /// One value, always.
    Value,
    /// One value unless the called function returns void; the function reads the record's
    /// callee and function type (a call, an invoke).
    CallResult(CalledFn),
    /// One type.
    Type,
}

impl Defines {
    /// What a record of `code` defines by `table` (a block's `DEFINES`, indexed by code):
    /// nothing for a code past its end.
    #[inline]
    pub fn of(table: &[Defines], code: u32) -> Defines {
        match table.get(code as usize) {
            Some(&d) => d,
            None => Defines::Nothing,
        }
    }

    /// True for [`Defines::Value`].
    #[inline]
    pub fn is_value(self) -> bool {
        matches!(self, Defines::Value)
    }

    /// The schema's spelling: `nothing`, `value`, `call_result` or `type`.
    pub fn name(self) -> &'static str {
        match self {
            Defines::Nothing => "nothing",
            Defines::Value => "value",
            Defines::CallResult(_) => "call_result",
            Defines::Type => "type",
        }
    }
}

/// The called function of a call-like record, read without its arguments (how many fixed
/// parameters they fill is what the caller learns from this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Called {
    /// The explicit function type, when the record gives one.
    pub function_type: Option<TypeId>,
    /// The callee.
    pub callee: ValueRef,
}

/// The numbering of one block: what each record code defines.
#[derive(Clone, Copy, Debug)]
pub struct NumberedBlock {
    /// The block id.
    pub id: u32,
    /// The block's name as the schema spells it.
    pub name: &'static str,
    /// What the block's records are numbered as.
    pub numbers: Numbers,
    /// What each code defines, indexed by code (codes past the end define nothing).
    pub defines: &'static [Defines],
}

impl NumberedBlock {
    /// What a record of `code` defines.
    #[inline]
    pub fn defines(&self, code: u32) -> Defines {
        Defines::of(self.defines, code)
    }
}

/// A schema's numbered blocks.
#[derive(Clone, Copy, Debug)]
pub struct Numbering {
    /// The blocks with `numbers`, in schema order.
    pub blocks: &'static [NumberedBlock],
}

impl Numbering {
    /// The numbering of block `id`, when the schema numbers its records.
    pub fn block(&self, id: u32) -> Option<&'static NumberedBlock> {
        self.blocks.iter().find(|b| b.id == id)
    }
}
