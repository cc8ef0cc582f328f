//! The bitstream remarks schema, schema/remarks.toml, as typed Rust: the `META` and `REMARK`
//! blocks ([`meta`], [`remark`]), the [`RemarkType`] codes, and [`decode_record`] for any
//! record of either block. [`Container`](super::Container) and [`read`](super::read) give
//! the remarks with their strings resolved; these types are for reading the records one by
//! one.
#![allow(missing_docs)] // the generated items carry the schema's docs

crate::schema!("schema/remarks.toml");
