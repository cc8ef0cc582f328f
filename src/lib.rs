//! Typed, schema-driven decoders for LLVM bitcode and other LLVM bitstream formats.
//!
//! This facade re-exports the runtime reader ([`bitcode_runtime`]) and the `schema!` macro.

pub mod llvm;

pub use bitcode_derive::schema;
pub use bitcode_runtime as runtime;
pub use bitcode_runtime::{
    Abbrev, AbbrevOp, AbbrevProblem, BitReader, Bitstream, BlockHeader, BlockInfoStore, Cursor, Entry, Error,
    ErrorKind, Input, Magic, Record, Result, ScalarEncoding, WrapperHeader,
};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
