//! The LLVM IR schema, schema/llvm_ir.toml, as typed Rust: one module per block (e.g.
//! [`module_block`], [`function_block`]), the shared enums ([`Linkage`], [`CallingConv`],
//! [`BinaryOpcode`]...), and [`decode_record`] for any record of any block.
//!
//! Relative value operands need the value numbering: decode with the context a
//! [`Walker`](super::Walker) gives each record.
#![allow(missing_docs)] // the generated items carry the schema's docs

crate::schema!("schema/llvm_ir.toml");
