//! The one place the printer reaches the metadata model and printer: today a stand-in
//! of the same shape (`md_fallback`), until `module::metadata` and `dis::metadata` land.

pub use super::md_fallback::{MdPrinter, MdRef, MdSlots, Metadata, ValueWriter};
