//! Emission: a validated schema model turned into Rust items with `quote`.
//!
//! The input is the model after validation and repair (names unique where Rust needs them,
//! references resolved or replaced by [`Kind::Invalid`], layouts without overlap). The
//! emitter still never panics on any model: whatever cannot be emitted (an invalid
//! identifier, a duplicate name, code or tag, a reference that does not resolve) is
//! skipped, or read as a raw `u64` where skipping would shift the operands.
//!
//! Generated code names the runtime only through the `runtime` path it is given and std
//! only through absolute paths (`::core::option::Option`, `::core::primitive::u32`), so
//! nothing at the call site can shadow them. Every public item carries a doc comment.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::model::{
    Block, Enum, Field, Flags, Group, Kind, Layout, Presence, RecordDef, Schema, UnknownPolicy,
};
use crate::names;

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
pub fn emit(schema: &Schema, runtime: &TokenStream, schema_path: &str) -> TokenStream {
    let cx = Cx::new(schema, runtime);
    let mut out = cx.format_items(schema_path);
    for e in &cx.enums {
        out.extend(cx.enum_items(e));
    }
    for f in &cx.flags {
        out.extend(cx.flags_items(f));
    }
    for st in &cx.structs {
        out.extend(cx.struct_items(st));
    }
    for g in &cx.groups {
        out.extend(cx.group_items(g));
    }
    let blocks = cx.blocks();
    for b in &blocks {
        out.extend(cx.block_module(b));
    }
    out.extend(cx.schema_items(&blocks));
    out
}

/// A field kind with its references resolved to emitted items.
#[derive(Clone, Debug, PartialEq)]
enum RKind {
    /// An unsigned integer of this primitive type (`u8` .. `u64`).
    Unsigned(&'static str),
    Bool,
    Signed,
    /// Index into [`Cx::enums`].
    Enum(usize),
    /// Index into [`Cx::flags`].
    Flags(usize),
    Value,
    Relative,
    SignedRelative,
    ValueType,
    Type,
    OptionalIndex,
    Align,
    String,
    CString,
    Blob,
    Array(Box<RKind>),
    CountedArray(Box<RKind>),
    /// Index into [`Cx::groups`].
    Group(usize),
    /// Index into [`Cx::structs`] (an array element).
    Struct(usize),
    /// A constant range whose bit width is the earlier field of this schema name.
    ConstantRange(String),
    /// A counted array whose count is the earlier field of this schema name.
    CountedBy(Box<RKind>, String),
    /// A call's arguments.
    CallArgs,
    /// A raw `u64` (an invalid or unresolved kind).
    Raw,
}

impl RKind {
    fn takes_rest(&self) -> bool {
        match self {
            RKind::Array(e) => !matches!(**e, RKind::Struct(_)),
            RKind::String | RKind::Group(_) | RKind::CallArgs => true,
            _ => false,
        }
    }

    /// The schema names of earlier fields this kind reads (a width, a count).
    fn refers_to(&self) -> Vec<&str> {
        match self {
            RKind::ConstantRange(w) => vec![w.as_str()],
            RKind::CountedBy(e, c) => {
                let mut v = e.refers_to();
                v.push(c.as_str());
                v
            }
            RKind::Array(e) | RKind::CountedArray(e) => e.refers_to(),
            _ => Vec::new(),
        }
    }

    /// Kinds whose Rust type is already an `Option`.
    fn is_option(&self) -> bool {
        matches!(self, RKind::OptionalIndex | RKind::Align)
    }

    /// Kinds whose reader needs the decode context.
    fn needs_ctx(&self) -> bool {
        match self {
            RKind::Relative
            | RKind::SignedRelative
            | RKind::ValueType
            | RKind::Group(_)
            | RKind::Struct(_) => true,
            RKind::Array(e) | RKind::CountedArray(e) => e.needs_ctx(),
            _ => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    Error,
    Keep,
    /// Index into the enum's variants.
    Default(usize),
}

struct VariantInfo<'s> {
    name: &'s str,
    ident: Ident,
    code: u64,
    doc: Option<&'s str>,
    /// For an obsolete value, the index of the current variant it folds to.
    folds_to: Option<usize>,
}

struct EnumInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    variants: Vec<VariantInfo<'s>>,
    policy: Policy,
}

impl EnumInfo<'_> {
    fn variant_by_name(&self, name: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.name == name)
    }
}

struct FlagInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    lo: u32,
    hi: u32,
    single: bool,
    /// Index into [`Cx::enums`].
    enumeration: Option<usize>,
}

struct FlagsInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    fields: Vec<FlagInfo<'s>>,
}

/// A field of a record layout or group variant, resolved.
struct FieldInfo<'s> {
    name: &'s str,
    /// `None` when the Rust name is not a usable identifier: the operand is still read.
    ident: Option<Ident>,
    doc: Option<&'s str>,
    kind: RKind,
    presence: &'s Presence,
    /// `present_if`: read only when this earlier field (or its flag) is true.
    condition: Option<&'s crate::model::Condition>,
    /// `versions`: read only in these format versions.
    versions: Option<std::ops::Range<u64>>,
}

/// A struct: the element of an array.
struct StructInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    fields: Vec<FieldInfo<'s>>,
    /// True when some field borrows the input (the type gets `<'a>`).
    lifetime: bool,
}

struct GVariantInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    tag: u64,
    fields: Vec<FieldInfo<'s>>,
}

struct GroupInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    variants: Vec<GVariantInfo<'s>>,
    /// True when some field borrows the input (the type gets `<'a>`).
    lifetime: bool,
}

/// One struct field of a record: the union of its layouts' fields of that name.
struct Slot<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    kind: RKind,
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

struct RecordInfo<'s> {
    def: &'s RecordDef,
    ident: Ident,
    layouts: Vec<(&'s Layout, Vec<FieldInfo<'s>>)>,
}

struct BlockInfo<'s> {
    def: &'s Block,
    module: Ident,
    records: Vec<RecordInfo<'s>>,
    /// The block's variant of `AnyRecord`; `None` when not dispatched by id (duplicate id).
    any_variant: Option<Ident>,
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

struct Cx<'s> {
    schema: &'s Schema,
    rt: &'s TokenStream,
    enums: Vec<EnumInfo<'s>>,
    flags: Vec<FlagsInfo<'s>>,
    groups: Vec<GroupInfo<'s>>,
    structs: Vec<StructInfo<'s>>,
    enum_index: HashMap<&'s str, usize>,
    flags_index: HashMap<&'s str, usize>,
    group_index: HashMap<&'s str, usize>,
    struct_index: HashMap<&'s str, usize>,
}

impl<'s> Cx<'s> {
    pub(super) fn new(schema: &'s Schema, rt: &'s TokenStream) -> Self {
        let mut cx = Cx {
            schema,
            rt,
            enums: Vec::new(),
            flags: Vec::new(),
            groups: Vec::new(),
            structs: Vec::new(),
            enum_index: HashMap::new(),
            flags_index: HashMap::new(),
            group_index: HashMap::new(),
            struct_index: HashMap::new(),
        };
        // Type names at the call site: one namespace for enums, flags and groups, plus
        // `AnyRecord`, which the emitter defines there.
        let mut types: HashSet<String> = HashSet::from(["AnyRecord".to_string()]);
        let mut claim = |rust_name: &str| -> Option<Ident> {
            let id = ident(rust_name)?;
            types.insert(ident_key(&id)).then_some(id)
        };
        let mut enum_ids = Vec::new();
        for e in &schema.enums {
            enum_ids.push(claim(&e.rust_name));
        }
        let mut flags_ids = Vec::new();
        for f in &schema.flags {
            flags_ids.push(claim(&f.rust_name));
        }
        let mut group_ids = Vec::new();
        for g in &schema.groups {
            group_ids.push(claim(&g.rust_name));
        }
        let mut struct_ids = Vec::new();
        for st in &schema.structs {
            struct_ids.push(claim(&st.rust_name));
        }

        for (e, id) in schema.enums.iter().zip(enum_ids) {
            if let Some(id) = id {
                if !cx.enum_index.contains_key(e.name.value.as_str()) {
                    cx.enum_index.insert(&e.name.value, cx.enums.len());
                    cx.enums.push(resolve_enum(e, id));
                }
            }
        }
        for (f, id) in schema.flags.iter().zip(flags_ids) {
            if let Some(id) = id {
                if !cx.flags_index.contains_key(f.name.value.as_str()) {
                    let info = cx.resolve_flags(f, id);
                    cx.flags_index.insert(&f.name.value, cx.flags.len());
                    cx.flags.push(info);
                }
            }
        }
        // Structs hold one-operand fields (no groups, no structs): resolve them first, so
        // that groups may hold arrays of structs.
        for (st, id) in schema.structs.iter().zip(struct_ids) {
            if let Some(id) = id {
                if !cx.struct_index.contains_key(st.name.value.as_str()) {
                    let info = cx.resolve_struct(st, id);
                    cx.struct_index.insert(&st.name.value, cx.structs.len());
                    cx.structs.push(info);
                }
            }
        }
        // Groups may refer to each other: index them all before resolving their fields.
        let mut kept = Vec::new();
        for (g, id) in schema.groups.iter().zip(group_ids) {
            if let Some(id) = id {
                if !cx.group_index.contains_key(g.name.value.as_str()) {
                    cx.group_index.insert(&g.name.value, kept.len());
                    kept.push((g, id));
                }
            }
        }
        let groups: Vec<GroupInfo<'s>> = kept.into_iter().map(|(g, id)| cx.resolve_group(g, id)).collect();
        cx.groups = groups;
        cx.compute_group_lifetimes();
        cx
    }

    pub(super) fn resolve_flags(&self, f: &'s Flags, ident_: Ident) -> FlagsInfo<'s> {
        let mut used: HashSet<String> = HashSet::from(["other_bits".to_string()]);
        let mut fields = Vec::new();
        for ff in &f.fields {
            let Some(id) = ident(&ff.rust_name) else { continue };
            let (lo, hi) = (ff.bits.value.start, ff.bits.value.end);
            if lo >= hi || hi > 64 || !used.insert(ident_key(&id)) {
                continue;
            }
            let enumeration =
                if ff.single { None } else { ff.enumeration.as_ref().and_then(|e| self.enum_of(&e.value)) };
            fields.push(FlagInfo {
                name: &ff.name.value,
                ident: id,
                doc: ff.doc.as_deref(),
                lo,
                hi,
                single: ff.single,
                enumeration,
            });
        }
        FlagsInfo { name: &f.name.value, ident: ident_, doc: f.doc.as_deref(), fields }
    }

    pub(super) fn resolve_struct(&self, st: &'s crate::model::StructDef, ident_: Ident) -> StructInfo<'s> {
        let mut field_idents = HashSet::new();
        let fields: Vec<FieldInfo<'s>> = st
            .fields
            .iter()
            .map(|f| {
                let mut info = self.resolve_field(f);
                // A struct's fields are plain operands: no presence, no condition.
                info.condition = None;
                info.versions = None;
                if matches!(info.kind, RKind::Struct(_)) {
                    info.kind = RKind::Raw;
                }
                if let Some(id) = &info.ident {
                    if !field_idents.insert(ident_key(id)) {
                        info.ident = None;
                    }
                }
                info
            })
            .collect();
        let lifetime = fields.iter().any(|f| f.ident.is_some() && self.needs_lifetime(&f.kind));
        StructInfo { name: &st.name.value, ident: ident_, doc: st.doc.as_deref(), fields, lifetime }
    }

    pub(super) fn resolve_group(&self, g: &'s Group, ident_: Ident) -> GroupInfo<'s> {
        let mut tags = HashSet::new();
        let mut idents = HashSet::new();
        let mut variants = Vec::new();
        for v in &g.variants {
            let Some(id) = ident(&v.rust_name) else { continue };
            if !tags.insert(v.tag.value) || !idents.insert(ident_key(&id)) {
                continue;
            }
            let mut field_idents = HashSet::new();
            let fields = v
                .fields
                .iter()
                .map(|f| {
                    let mut info = self.resolve_field(f);
                    if let Some(id) = &info.ident {
                        if !field_idents.insert(ident_key(id)) {
                            info.ident = None;
                        }
                    }
                    info
                })
                .collect();
            variants.push(GVariantInfo {
                name: &v.name.value,
                ident: id,
                doc: v.doc.as_deref(),
                tag: v.tag.value,
                fields,
            });
        }
        GroupInfo { name: &g.name.value, ident: ident_, doc: g.doc.as_deref(), variants, lifetime: false }
    }

    /// Which groups borrow the input: a fixpoint, since groups may contain groups.
    pub(super) fn compute_group_lifetimes(&mut self) {
        loop {
            let mut changed = false;
            for i in 0..self.groups.len() {
                if self.groups[i].lifetime {
                    continue;
                }
                let needs = self.groups[i]
                    .variants
                    .iter()
                    .flat_map(|v| v.fields.iter())
                    .filter(|f| f.ident.is_some())
                    .any(|f| self.needs_lifetime(&f.kind));
                if needs {
                    self.groups[i].lifetime = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    pub(super) fn enum_of(&self, name: &str) -> Option<usize> {
        self.enum_index.get(name).copied()
    }

    pub(super) fn resolve_field(&self, f: &'s Field) -> FieldInfo<'s> {
        FieldInfo {
            name: &f.name.value,
            ident: ident(&f.rust_name),
            doc: f.doc.as_deref(),
            kind: match (&f.count, self.resolve_kind(&f.kind.value)) {
                (Some(count), RKind::CountedArray(e)) => RKind::CountedBy(e, count.value.clone()),
                (_, kind) => kind,
            },
            presence: &f.presence,
            condition: f.condition.as_ref().map(|c| &c.value),
            versions: f.versions.as_ref().map(|v| v.value.clone()),
        }
    }

    pub(super) fn resolve_kind(&self, k: &Kind) -> RKind {
        match k {
            Kind::Unsigned(n) => RKind::Unsigned(match n {
                0..=8 => "u8",
                9..=16 => "u16",
                17..=32 => "u32",
                _ => "u64",
            }),
            Kind::Bool => RKind::Bool,
            Kind::Signed => RKind::Signed,
            Kind::Enum(name) => self.enum_of(&name.value).map_or(RKind::Raw, RKind::Enum),
            Kind::Flags(name) => {
                self.flags_index.get(name.value.as_str()).map_or(RKind::Raw, |&i| RKind::Flags(i))
            }
            Kind::Value => RKind::Value,
            Kind::Relative => RKind::Relative,
            Kind::SignedRelative => RKind::SignedRelative,
            Kind::ValueType => RKind::ValueType,
            Kind::Type => RKind::Type,
            Kind::OptionalIndex => RKind::OptionalIndex,
            Kind::Align => RKind::Align,
            Kind::String => RKind::String,
            Kind::CString => RKind::CString,
            Kind::Blob => RKind::Blob,
            Kind::Array(of) => {
                // An element that may read no operand (a blob, a string taken from the blob)
                // would repeat forever: such elements are read raw.
                let e = match self.resolve_kind(&of.value) {
                    RKind::Blob | RKind::String => RKind::Raw,
                    e => e,
                };
                RKind::Array(Box::new(e))
            }
            Kind::CountedArray(of) => RKind::CountedArray(Box::new(self.resolve_kind(&of.value))),
            Kind::Group(name) => {
                self.group_index.get(name.value.as_str()).map_or(RKind::Raw, |&i| RKind::Group(i))
            }
            Kind::Struct(name) => {
                self.struct_index.get(name.value.as_str()).map_or(RKind::Raw, |&i| RKind::Struct(i))
            }
            Kind::ConstantRange(width) => RKind::ConstantRange(width.value.clone()),
            Kind::CallArgs => RKind::CallArgs,
            Kind::Invalid => RKind::Raw,
        }
    }

    pub(super) fn needs_lifetime(&self, k: &RKind) -> bool {
        match k {
            RKind::String | RKind::CString | RKind::Blob => true,
            RKind::Array(e) | RKind::CountedArray(e) | RKind::CountedBy(e, _) => self.needs_lifetime(e),
            RKind::Group(g) => self.groups.get(*g).is_some_and(|g| g.lifetime),
            RKind::Struct(st) => self.structs.get(*st).is_some_and(|st| st.lifetime),
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------
    // Types and readers
    // -----------------------------------------------------------------------------------

    pub(super) fn blocks(&self) -> Vec<BlockInfo<'s>> {
        let mut modules = HashSet::new();
        let mut ids = HashSet::new();
        let mut variants: HashSet<String> = HashSet::from(["UnknownBlock".to_string()]);
        let mut out = Vec::new();
        for b in &self.schema.blocks {
            let Some(module) = ident(&b.module_name) else { continue };
            if !modules.insert(ident_key(&module)) {
                continue;
            }
            let any_variant = if ids.insert(b.id.value) {
                let bare = b.module_name.strip_prefix("r#").unwrap_or(&b.module_name);
                let base = names::upper_camel(bare);
                // `a_1` and `a1` both give `A1`: number the later one.
                (1..100)
                    .map(|i| if i == 1 { base.clone() } else { format!("{base}{i}") })
                    .find(|n| !variants.contains(n) && ident(n).is_some())
                    .and_then(|n| {
                        variants.insert(n.clone());
                        ident(&n)
                    })
            } else {
                None
            };
            let mut codes = HashSet::new();
            let mut names_ = HashSet::from(["Record".to_string(), "Unknown".to_string()]);
            let mut records = Vec::new();
            for r in &b.records {
                let Some(id) = ident(&r.rust_name) else { continue };
                if !codes.insert(r.code.value) || !names_.insert(ident_key(&id)) {
                    continue;
                }
                let layouts = r
                    .layouts
                    .iter()
                    .map(|l| (l, l.fields.iter().map(|f| self.resolve_field(f)).collect()))
                    .collect();
                records.push(RecordInfo { def: r, ident: id, layouts });
            }
            out.push(BlockInfo { def: b, module, records, any_variant });
        }
        out
    }
}

/// An enum's variants (valid, distinct names and codes), what obsolete ones fold to, and
/// the unknown-code policy.
fn resolve_enum(e: &Enum, ident_: Ident) -> EnumInfo<'_> {
    let keep = matches!(e.unknown, UnknownPolicy::Keep);
    let mut idents: HashSet<String> = HashSet::new();
    if keep {
        idents.insert("Unknown".to_string());
    }
    let mut codes = HashSet::new();
    let mut variants = Vec::new();
    for v in &e.values {
        let Some(id) = ident(&v.rust_name) else { continue };
        if codes.contains(&v.code.value) || !idents.insert(ident_key(&id)) {
            continue;
        }
        codes.insert(v.code.value);
        variants.push(VariantInfo {
            name: &v.name.value,
            ident: id,
            code: v.code.value,
            doc: v.doc.as_deref(),
            folds_to: None,
        });
    }
    let mut info = EnumInfo {
        name: &e.name.value,
        ident: ident_,
        doc: e.doc.as_deref(),
        variants,
        policy: Policy::Error,
    };
    for v in &e.values {
        let (Some(target), Some(at)) = (&v.folds_to, info.variant_by_name(&v.name.value)) else { continue };
        info.variants[at].folds_to = info.variant_by_name(&target.value);
    }
    info.policy = match &e.unknown {
        UnknownPolicy::Error => Policy::Error,
        UnknownPolicy::Keep => Policy::Keep,
        UnknownPolicy::Default(name) => {
            info.variant_by_name(&name.value).map_or(Policy::Error, Policy::Default)
        }
    };
    info
}
