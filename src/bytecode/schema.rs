//! The typed decoders of LLVM 1.x bytecode, generated from `schema/llvm_bytecode.toml`.
crate::schema!("schema/llvm_bytecode.toml");
