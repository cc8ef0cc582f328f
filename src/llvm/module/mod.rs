//! The module model: an LLVM IR module read from bitcode into types, global values,
//! constants, function bodies and metadata, with every operand resolved.

pub mod metadata;
