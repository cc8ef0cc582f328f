//! The LLVM IR schema, schema/llvm_ir.toml, as typed Rust: one module per block (e.g.
//! [`module_block`], [`function_block`]), the shared enums ([`Linkage`], [`CallingConv`],
//! [`BinaryOpcode`]...), and [`decode_record`] for any record of any block.
//!
//! Relative value operands need the value numbering: decode with the context a
//! [`Walker`](super::Walker) gives each record.
#![allow(missing_docs)] // the generated items carry the schema's docs

crate::schema!("schema/llvm_ir.toml");

#[cfg(test)]
mod tests {
    /// Every decoded record is moved as an `AnyRecord` (returned, matched, handed to an
    /// edit): an array that kept large elements inline made it 1,448 bytes, and copying
    /// that cost the rewrite a fifth of its time. Arrays are `Vec`s now; this keeps it so.
    #[test]
    fn any_record_stays_small() {
        let size = std::mem::size_of::<super::AnyRecord<'_>>();
        assert!(size <= 320, "ir::AnyRecord is {size} bytes");
    }
}
