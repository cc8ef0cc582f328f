//! The text that refers to each of a function's values and blocks, `%name` or `%N`, made
//! once per function: a value is named at its definition and at every use, and rustc's
//! bodies use most values more than once, so checking and quoting each name every time
//! cost more than copying its text.

use super::lists::span;
use super::names;
use super::slots::LocalSlots;
use super::text::push_tagged;
use crate::llvm::module::FunctionBody;

/// The references of one function's locals, in one string: its arguments, constants and
/// instruction results by local index, then its blocks by block index. A constant has no
/// reference (an empty text); neither has a value or block without name or slot.
#[derive(Debug, Default)]
pub struct LocalNames {
    text: String,
    /// Where each reference ends in `text` (each begins where the one before ends).
    ends: Vec<u32>,
    /// The body's first local value id.
    first_local: u32,
    /// How many of the references are values' (the blocks' follow).
    values: usize,
}

impl LocalNames {
    /// Writes the references of `body`, numbered by `slots`, in place of the last body's
    /// (keeping the buffers).
    pub fn fill(&mut self, body: &FunctionBody<'_>, slots: &LocalSlots) {
        self.text.clear();
        self.ends.clear();
        self.first_local = body.first_local;
        self.values = body.values.len();
        for local in 0..body.values.len() as u32 {
            let id = body.first_local + local;
            if let Some(slot) = slots.value(id) {
                push_tagged(&mut self.text, "%", slot);
            } else if let Some(name) = body.name(id) {
                names::name(&mut self.text, '%', name);
            }
            self.ends.push(self.text.len() as u32);
        }
        for (block, slot) in body.blocks.iter().zip(&slots.blocks) {
            match (&block.name, slot) {
                (Some(name), _) => names::name(&mut self.text, '%', name),
                (None, Some(slot)) => push_tagged(&mut self.text, "%", *slot),
                (None, None) => {}
            }
            self.ends.push(self.text.len() as u32);
        }
    }

    /// The reference at position `index` of `ends`, unless it is empty.
    fn get(&self, index: usize) -> Option<&str> {
        self.text.get(span(&self.ends, index)?).filter(|t| !t.is_empty())
    }

    /// `%name` or `%N` of the argument or instruction result with value id `id`.
    pub fn value(&self, id: u32) -> Option<&str> {
        let local = id.checked_sub(self.first_local)? as usize;
        if local >= self.values {
            return None;
        }
        self.get(local)
    }

    /// `%name` or `%N` of block `block`.
    pub fn block(&self, block: u32) -> Option<&str> {
        self.get(self.values.checked_add(block as usize)?)
    }
}
