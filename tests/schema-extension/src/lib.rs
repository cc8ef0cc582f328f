//! The LLVM IR schema with one more instruction record, added in the schema copy alone
//! (see build.rs): the generated decoders and `NUMBERING` of that copy.
#![allow(missing_docs)] // the generated items carry the schema's docs

bitcode_schema::schema!("llvm_ir_extended.toml");
