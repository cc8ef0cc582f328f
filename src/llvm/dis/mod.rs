//! Textual IR: a [module](super::module) printed as the `llvm-dis` of a given LLVM version
//! prints it.

pub mod metadata;
