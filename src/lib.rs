//! Typed, schema-driven decoders for LLVM bitcode and other LLVM bitstream formats.
//!
//! This facade re-exports the runtime reader ([`bitcode_schema_runtime`]) and the `schema!` macro.
// Input-driven code has no panic paths (the runtime denies the same).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)
)]
#![warn(missing_docs)]

pub mod bytecode;
pub mod diagnostics;
pub mod llvm;
pub mod remarks;
pub mod rewrite;

pub use bitcode_schema_derive::schema;
pub use bitcode_schema_runtime as runtime;
// Shortcuts to the runtime's items: documented once, in `runtime`.
#[doc(no_inline)]
pub use bitcode_schema_runtime::{
    Abbrev, AbbrevOp, AbbrevProblem, BitReader, Bitstream, BlockHeader, BlockInfoStore, BlockPath, Cursor,
    DefinedOp, Entry, Error, ErrorKind, Input, Limits, Magic, Record, Result, ScalarEncoding, WrapperHeader,
};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
