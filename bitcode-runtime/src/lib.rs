//! The LLVM bitstream container, read and written.
//!
//! LLVM bitcode, clang serialized diagnostics, clang AST files and LLVM remarks share one
//! container: bits read LSB-first; fixed-width, VBR and char6 fields; nested blocks with
//! their own abbreviation id width and a 32-bit word length; records written either
//! unabbreviated or through abbreviations defined in the stream or in a BLOCKINFO block.
//! This crate reads any such stream ([`Bitstream`], [`Cursor`]), writes them
//! ([`writer::StreamWriter`]), and holds what schema-generated decoders run on.
//!
//! Malformed input never panics: every problem is an [`Error`] with its absolute bit
//! offset and the ids of the enclosing blocks.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)
)]
#![warn(missing_docs)]

pub mod abbrev;
pub mod bits;
pub mod blockinfo;
pub mod byte_fields;
pub mod bytecode;
pub mod bytes;
pub mod container;
pub mod cursor;
pub mod decode;
#[cfg(feature = "object")]
pub mod embedded;
pub mod encode;
pub mod error;
pub mod input;
pub mod layout;
pub mod limits;
pub mod numbering;
pub mod path;
mod show;
pub mod writer;

pub use abbrev::{Abbrev, AbbrevOp, DefinedOp, ScalarEncoding};
pub use bits::BitReader;
pub use blockinfo::{BlockInfo, BlockInfoStore};
pub use bytecode::Bytecode;
pub use bytes::ByteReader;
pub use container::{Bitstream, Magic, WrapperHeader};
pub use cursor::{BlockHeader, Cursor, Entry, Record};
pub use error::{AbbrevProblem, Error, ErrorKind, Result};
pub use input::Input;
pub use limits::Limits;
pub use path::BlockPath;

/// What generated code names and users do not: the operand reader behind every generated
/// decoder, record names for its errors, group reading, how fields print in a typed dump.
/// Not a stable API; it changes with the `schema!` macro that uses it.
#[doc(hidden)]
pub mod __private {
    pub use crate::decode::{unknown_record, Operands, RecordInfo, SchemaGroup};
    pub use crate::encode::OperandsOut;
    pub use crate::show::{ShowField, Shown};
    /// serde, for the `Serialize` derives generated code carries with the `serde` feature.
    #[cfg(feature = "serde")]
    pub use serde;
}
