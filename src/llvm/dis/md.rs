//! The one place the printer reaches the metadata model (`module::metadata`) and its
//! printer (`dis::metadata`).

pub use super::metadata::{MdPrinter, MdSlots, ValueWriter};
pub use crate::llvm::module::metadata::{MdRef, Metadata};
