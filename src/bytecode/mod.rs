//! LLVM 1.x bytecode: the types `schema/llvm_bytecode.toml` generates ([`schema`]), the
//! reader that walks a module's blocks with them ([`reader`]), the in-memory model of a
//! module ([`ir`]) and a printer that writes it the way each 1.x release's `llvm-dis` did
//! ([`dis`]).

pub mod build;
pub mod dis;
pub mod equal_types;
pub mod ir;
pub mod reader;
pub mod schema;
