//! Metadata in textual IR: the slot numbers AsmWriter gives nodes (`!5`) and the lines
//! and operands it prints for them, in the spelling of a given LLVM version.

mod dwarf;
mod expression;
mod fields;
mod printer;
mod slots;
#[cfg(test)]
mod tests;

pub use printer::{MdPrinter, ValueWriter};
pub use slots::MdSlots;
