//! The `schema!` procedural macro: reads a TOML schema of a bitstream format at compile
//! time and generates typed decoders over `bitcode-runtime`.
//!
//! The macro arrives with the schema issue; this crate is a placeholder until then.
