//! Emission: the resolved model (`resolve.rs`, what `validate` hands over) turned into
//! Rust items with `quote`. The emitter resolves no name itself: every reference is an
//! index into the model's lists, every name an identifier. It still never panics on any
//! model: a field without a usable identifier is read and discarded, an invalid kind is
//! read as a raw `u64`.
//!
//! Generated code names the runtime only through the `runtime` path it is given and std
//! only through absolute paths (`::core::option::Option`, `::core::primitive::u32`), so
//! nothing at the call site can shadow them. Every public item carries a doc comment.

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::kinds::{Kind, ResolvedKind};
use crate::resolve::*;

mod bytes;
mod encode;
mod fields;
mod numbering;
mod records;
#[cfg(test)]
mod tests;
mod tokens;
mod types;

use tokens::*;

/// The generated items for `schema`. `runtime` is the path of the runtime crate (e.g.
/// `::bitcode_schema_runtime`); `schema_path` is the schema file's absolute path, included as
/// bytes so that cargo rebuilds when it changes.
pub fn emit(model: &Resolved<'_>, runtime: &TokenStream, schema_path: &str) -> TokenStream {
    let cx = Cx { m: model, rt: runtime };
    let mut out = cx.format_items(schema_path);
    for e in &model.enums {
        out.extend(cx.enum_items(e));
    }
    for f in &model.flags {
        out.extend(cx.flags_items(f));
    }
    if bytes::is_bytes(model) {
        out.extend(cx.bytes_items());
        return out;
    }
    for st in &model.structs {
        out.extend(cx.struct_items(st));
    }
    for g in &model.groups {
        out.extend(cx.group_items(g));
    }
    for b in &model.blocks {
        out.extend(cx.block_module(b));
    }
    out.extend(cx.schema_items(&model.blocks));
    out
}

/// One struct field of a record: the union of its layouts' fields of that name.
struct Slot<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    kind: ResolvedKind,
    /// The struct type is `Option<T>` though `T` is not an option (missing from a layout,
    /// or optional in one).
    wrapped: bool,
    /// Missing from some layout.
    partial: bool,
}

/// One operand read of a layout or variant: into a slot, or discarded.
struct Read<'s> {
    slot: Option<usize>,
    field: &'s FieldInfo<'s>,
}

/// Where a type is named: at the call site, or inside a block module whose record structs
/// may shadow the call site's types (then they are named through `super::`).
struct Scope {
    shadowed: HashSet<String>,
}

impl Scope {
    fn top() -> Self {
        Scope { shadowed: HashSet::new() }
    }

    fn path(&self, id: &Ident) -> TokenStream {
        if self.shadowed.contains(&ident_key(id)) {
            quote!(super::#id)
        } else {
            quote!(#id)
        }
    }
}

/// The emitter's context: the resolved model and the path of the runtime.
struct Cx<'s> {
    m: &'s Resolved<'s>,
    rt: &'s TokenStream,
}
