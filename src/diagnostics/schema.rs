//! The serialized-diagnostics schema, schema/diagnostics.toml, as typed Rust: the `META` and
//! `DIAG` blocks ([`meta`], [`diag`]), the [`Severity`] codes, and [`decode_record`] for
//! any record of either block. [`read`](super::read) gives the diagnostics with their
//! tables resolved; these types are for reading the records one by one.
#![allow(missing_docs)] // the generated items carry the schema's docs

crate::schema!("schema/diagnostics.toml");
