//! Metadata of a module: strings, tuples, values wrapped as metadata, named metadata,
//! kinds, global attachments and every debug-info node kind, read from the METADATA
//! blocks as LLVM's MetadataLoader reads them.
//!
//! Nodes live in one arena ([`Metadata`]) and refer to each other by [`MdRef`]; the
//! bitcode's metadata ids map onto the arena (module ids first, then each function's),
//! so a forward reference needs no placeholder.

mod arena;
mod di;
mod location;
mod reader;

pub use arena::{Md, MdRef, Metadata};
pub use di::{Bits, Bound, DiNode, Enumerator, Location, Ref};
