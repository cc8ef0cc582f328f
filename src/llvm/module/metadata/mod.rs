//! Metadata of a module: strings, tuples, values wrapped as metadata, named metadata,
//! kinds, global attachments and every debug-info node kind, read from the METADATA
//! blocks as LLVM's MetadataLoader reads them.
//!
//! Nodes live in one arena ([`Metadata`]) and refer to each other by [`MdRef`]; the
//! bitcode's metadata ids map onto the arena (module ids first, then each function's),
//! so a forward reference needs no placeholder.
//!
//! Reading a module: [`Metadata::add_kind`] for METADATA_KIND records,
//! [`Metadata::add_module_record`] for the module-level METADATA_BLOCK, then for every
//! function body in stream order [`Metadata::begin_function`] (the body's ordinal, from
//! 0, is what [`Md::Value`] keeps as `function`), its METADATA_BLOCK records through
//! [`Metadata::add_function_record`], [`Metadata::debug_loc`] for its DEBUG_LOC records,
//! and [`Metadata::end_function`]. [`Metadata::get`] resolves a metadata id in the current
//! scope (attachments, metadata call operands, debug records).

mod arena;
mod di;
mod location;
mod reader;

pub use arena::{Md, MdRef, Metadata};
pub use di::{Bits, Bound, DiNode, Enumerator, Location, Ref};
