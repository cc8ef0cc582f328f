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

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, ToTokens};

use crate::model::{
    self, Block, DefaultValue, Enum, Field, Flags, Group, Kind, Layout, Presence, RecordDef, Schema,
    UnknownPolicy,
};
use crate::names;

/// The generated items for `schema`. `runtime` is the path of the runtime crate (e.g.
/// `::bitcode_runtime`); `schema_path` is the schema file's absolute path, included as
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

// ---------------------------------------------------------------------------------------
// Names and small token helpers
// ---------------------------------------------------------------------------------------

/// Keywords that cannot be identifiers, not even raw ones.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The identifier for a Rust name (`r#type` or a keyword becomes a raw identifier), or
/// `None` when the name cannot be one. Never panics.
fn ident(name: &str) -> Option<Ident> {
    let (raw, bare) = match name.strip_prefix("r#") {
        Some(bare) => (true, bare),
        None => (false, name),
    };
    let mut chars = bare.chars();
    let first_ok = matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic());
    if !first_ok || !chars.all(|c| c == '_' || c.is_ascii_alphanumeric()) || NOT_RAW.contains(&bare) {
        return None;
    }
    if raw || names::is_keyword(bare) {
        Some(Ident::new_raw(bare, Span::call_site()))
    } else {
        Some(Ident::new(bare, Span::call_site()))
    }
}

/// The identifier as written in Rust, for comparing names.
fn ident_key(id: &Ident) -> String {
    id.to_string()
}

/// `#[doc = "..."]` with `doc`, or the generated text when the schema has none.
fn doc_attr(doc: Option<&str>, generated: impl FnOnce() -> String) -> TokenStream {
    let text = match doc {
        Some(d) if !d.trim().is_empty() => d.to_string(),
        _ => generated(),
    };
    let lit = Literal::string(&text);
    quote!(#[doc = #lit])
}

/// A primitive type by its absolute path, so a user type named `u32` cannot shadow it.
fn prim(name: &str) -> TokenStream {
    let id = Ident::new(name, Span::call_site());
    quote!(::core::primitive::#id)
}

fn str_lit(s: &str) -> Literal {
    Literal::string(s)
}

fn option() -> TokenStream {
    quote!(::core::option::Option)
}

fn some() -> TokenStream {
    quote!(::core::option::Option::Some)
}

fn none() -> TokenStream {
    quote!(::core::option::Option::None)
}

fn ok() -> TokenStream {
    quote!(::core::result::Result::Ok)
}

fn vec() -> TokenStream {
    quote!(::std::vec::Vec)
}

fn static_str() -> TokenStream {
    let s = prim("str");
    quote!(&'static #s)
}

/// `'a` when `yes`: the generic parameter list of a type that borrows the input.
fn lifetime_params(yes: bool) -> TokenStream {
    if yes {
        quote!(<'a>)
    } else {
        TokenStream::new()
    }
}

/// `0x..u64`.
fn hex_u64(v: u64) -> TokenStream {
    // A valid literal by construction; parsing cannot fail.
    format!("{v:#x}u64").parse().unwrap_or_else(|_| quote!(0u64))
}

/// The mask of `width` low bits (`width` in 1..=64).
fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

// ---------------------------------------------------------------------------------------
// The model, resolved: identifiers made, references turned into indices
// ---------------------------------------------------------------------------------------

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
    /// A raw `u64` (an invalid or unresolved kind).
    Raw,
}

impl RKind {
    fn takes_rest(&self) -> bool {
        matches!(self, RKind::String | RKind::Array(_) | RKind::Group(_))
    }

    /// Kinds whose Rust type is already an `Option`.
    fn is_option(&self) -> bool {
        matches!(self, RKind::OptionalIndex | RKind::Align)
    }

    /// Kinds whose reader needs the decode context.
    fn needs_ctx(&self) -> bool {
        match self {
            RKind::Relative | RKind::SignedRelative | RKind::ValueType | RKind::Group(_) => true,
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
}

struct EnumInfo<'s> {
    name: &'s str,
    ident: Ident,
    doc: Option<&'s str>,
    variants: Vec<VariantInfo<'s>>,
    /// `(code, variant index)`, codes distinct from every value's.
    aliases: Vec<(u64, usize)>,
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
    enum_index: HashMap<&'s str, usize>,
    flags_index: HashMap<&'s str, usize>,
    group_index: HashMap<&'s str, usize>,
}

impl<'s> Cx<'s> {
    fn new(schema: &'s Schema, rt: &'s TokenStream) -> Self {
        let mut cx = Cx {
            schema,
            rt,
            enums: Vec::new(),
            flags: Vec::new(),
            groups: Vec::new(),
            enum_index: HashMap::new(),
            flags_index: HashMap::new(),
            group_index: HashMap::new(),
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

    fn resolve_flags(&self, f: &'s Flags, ident_: Ident) -> FlagsInfo<'s> {
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

    fn resolve_group(&self, g: &'s Group, ident_: Ident) -> GroupInfo<'s> {
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
    fn compute_group_lifetimes(&mut self) {
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

    fn enum_of(&self, name: &str) -> Option<usize> {
        self.enum_index.get(name).copied()
    }

    fn resolve_field(&self, f: &'s Field) -> FieldInfo<'s> {
        FieldInfo {
            name: &f.name.value,
            ident: ident(&f.rust_name),
            doc: f.doc.as_deref(),
            kind: self.resolve_kind(&f.kind.value),
            presence: &f.presence,
        }
    }

    fn resolve_kind(&self, k: &Kind) -> RKind {
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
            Kind::Invalid => RKind::Raw,
        }
    }

    fn needs_lifetime(&self, k: &RKind) -> bool {
        match k {
            RKind::String | RKind::CString | RKind::Blob => true,
            RKind::Array(e) | RKind::CountedArray(e) => self.needs_lifetime(e),
            RKind::Group(g) => self.groups.get(*g).is_some_and(|g| g.lifetime),
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------
    // Types and readers
    // -----------------------------------------------------------------------------------

    /// The Rust type of a field of kind `k` (before `optional` and layouts).
    fn type_of(&self, k: &RKind, scope: &Scope) -> TokenStream {
        let rt = self.rt;
        match k {
            RKind::Unsigned(p) => prim(p),
            RKind::Bool => prim("bool"),
            RKind::Signed => prim("i64"),
            RKind::Enum(i) => self.enums.get(*i).map_or_else(|| prim("u64"), |e| scope.path(&e.ident)),
            RKind::Flags(i) => self.flags.get(*i).map_or_else(|| prim("u64"), |f| scope.path(&f.ident)),
            RKind::Value | RKind::Relative | RKind::SignedRelative => quote!(#rt::decode::ValueId),
            RKind::ValueType => quote!(#rt::decode::ValueRef),
            RKind::Type => quote!(#rt::decode::TypeId),
            RKind::OptionalIndex => {
                let (o, u) = (option(), prim("u32"));
                quote!(#o<#u>)
            }
            RKind::Align => {
                let o = option();
                quote!(#o<#rt::decode::Align>)
            }
            RKind::String | RKind::CString => quote!(#rt::decode::Bytes<'a>),
            RKind::Blob => {
                let u = prim("u8");
                quote!(&'a [#u])
            }
            RKind::Array(e) | RKind::CountedArray(e) => {
                let (v, t) = (vec(), self.type_of(e, scope));
                quote!(#v<#t>)
            }
            RKind::Group(g) => {
                let v = vec();
                let t = self.group_type(*g, scope, quote!('a));
                quote!(#v<#t>)
            }
            RKind::Raw => prim("u64"),
        }
    }

    /// A group's type with `lt` as its lifetime argument, if it has one.
    fn group_type(&self, g: usize, scope: &Scope, lt: TokenStream) -> TokenStream {
        match self.groups.get(g) {
            Some(info) => {
                let p = scope.path(&info.ident);
                if info.lifetime {
                    quote!(#p<#lt>)
                } else {
                    p
                }
            }
            None => prim("u64"),
        }
    }

    /// An expression of type `Result<T>` reading one field of kind `k` from `ops`.
    fn read_call(&self, k: &RKind, name: &str, ctx: &TokenStream, scope: &Scope, top: bool) -> TokenStream {
        let rt = self.rt;
        let n = str_lit(name);
        match k {
            RKind::Unsigned(p) => {
                let p = prim(p);
                quote!(ops.uint::<#p>(#n))
            }
            RKind::Bool => quote!(ops.boolean(#n)),
            RKind::Signed => quote!(ops.signed(#n)),
            RKind::Enum(_) => {
                let t = self.type_of(k, scope);
                quote!(ops.enumeration::<#t>(#n))
            }
            RKind::Flags(_) => {
                let t = self.type_of(k, scope);
                quote!(ops.flags::<#t>(#n))
            }
            RKind::Value => quote!(ops.value(#n)),
            RKind::Relative => quote!(ops.relative(#n, #ctx)),
            RKind::SignedRelative => quote!(ops.signed_relative(#n, #ctx)),
            RKind::ValueType => quote!(ops.value_type(#n, #ctx)),
            RKind::Type => quote!(ops.type_id(#n)),
            RKind::OptionalIndex => quote!(ops.optional_index(#n)),
            RKind::Align => quote!(ops.align(#n)),
            RKind::String => quote!(ops.string(#n)),
            RKind::CString => quote!(ops.cstring(#n)),
            RKind::Blob => quote!(ops.blob(#n)),
            RKind::Array(e) => {
                let inner = self.read_call(e, name, ctx, scope, false);
                quote!(ops.array(|ops| #inner))
            }
            RKind::CountedArray(e) => {
                let inner = self.read_call(e, name, ctx, scope, false);
                quote!(ops.counted_array(#n, |ops| #inner))
            }
            RKind::Group(g) if top => {
                let t = self.group_type(*g, scope, quote!('_));
                quote!(ops.groups::<#t>(#n, #ctx))
            }
            RKind::Group(g) => {
                let t = self.group_type(*g, scope, quote!('_));
                quote!(<#t as #rt::decode::SchemaGroup<'_>>::read(ops, #n, #ctx))
            }
            RKind::Raw => quote!(ops.raw(#n)),
        }
    }

    /// The value expression of one field read, with its presence: `T`, or `Option<T>` for
    /// an optional field (flattened when `T` is already an option).
    fn read_field(&self, f: &FieldInfo<'_>, ctx: &TokenStream, scope: &Scope) -> TokenStream {
        let call = self.read_call(&f.kind, f.name, ctx, scope, true);
        match f.presence {
            Presence::Required => quote!(#call?),
            Presence::Optional if f.kind.is_option() => quote!(ops.optional(|ops| #call)?.flatten()),
            Presence::Optional => quote!(ops.optional(|ops| #call)?),
            Presence::Default(v) => match self.default_literal(&f.kind, &v.value, scope) {
                Some(lit) => quote!(ops.or_default(#lit, |ops| #call)?),
                None => quote!(#call?),
            },
        }
    }

    /// A literal of the field's type for a `default`, or `None` when there is none (the
    /// field is then read as required).
    fn default_literal(&self, k: &RKind, v: &DefaultValue, scope: &Scope) -> Option<TokenStream> {
        let rt = self.rt;
        let int = match v {
            DefaultValue::Int(i) => Some(*i),
            _ => None,
        };
        match k {
            RKind::Unsigned(p) => {
                let i = int?;
                let lit = match *p {
                    "u8" => Literal::u8_suffixed(u8::try_from(i).ok()?),
                    "u16" => Literal::u16_suffixed(u16::try_from(i).ok()?),
                    "u32" => Literal::u32_suffixed(u32::try_from(i).ok()?),
                    _ => Literal::u64_suffixed(u64::try_from(i).ok()?),
                };
                Some(quote!(#lit))
            }
            RKind::Raw => {
                let lit = Literal::u64_suffixed(u64::try_from(int?).ok()?);
                Some(quote!(#lit))
            }
            RKind::Bool => match v {
                DefaultValue::Bool(b) => Some(quote!(#b)),
                DefaultValue::Int(i @ (0 | 1)) => {
                    let b = *i == 1;
                    Some(quote!(#b))
                }
                _ => None,
            },
            RKind::Signed => {
                let i = i64::try_from(int?).ok()?;
                if i == i64::MIN {
                    Some(quote!(::core::primitive::i64::MIN))
                } else if i < 0 {
                    let lit = Literal::i64_suffixed(-i);
                    Some(quote!(-#lit))
                } else {
                    let lit = Literal::i64_suffixed(i);
                    Some(quote!(#lit))
                }
            }
            RKind::Value | RKind::Relative | RKind::SignedRelative => {
                let lit = Literal::u32_suffixed(u32::try_from(int?).ok()?);
                Some(quote!(#rt::decode::ValueId(#lit)))
            }
            RKind::Type => {
                let lit = Literal::u32_suffixed(u32::try_from(int?).ok()?);
                Some(quote!(#rt::decode::TypeId(#lit)))
            }
            // The operand the record would have had: 0 is none, n is index n - 1.
            RKind::OptionalIndex => match u64::try_from(int?).ok()? {
                0 => Some(none()),
                n => {
                    let lit = Literal::u32_suffixed(u32::try_from(n - 1).ok()?);
                    let s = some();
                    Some(quote!(#s(#lit)))
                }
            },
            RKind::Align => match u64::try_from(int?).ok()? {
                0 => Some(none()),
                n @ 1..=64 => {
                    let lit = Literal::u8_suffixed(u8::try_from(n - 1).ok()?);
                    Some(quote!(#rt::decode::Align::from_log2(#lit)))
                }
                _ => None,
            },
            RKind::Enum(e) => {
                let info = self.enums.get(*e)?;
                let path = scope.path(&info.ident);
                match v {
                    DefaultValue::Variant(name) => {
                        let var = &info.variants.get(info.variant_by_name(name)?)?.ident;
                        Some(quote!(#path::#var))
                    }
                    DefaultValue::Int(i) => {
                        let code = u64::try_from(*i).ok()?;
                        self.enum_value_for_code(info, code, &path)
                    }
                    DefaultValue::Bool(_) => None,
                }
            }
            RKind::Flags(f) => self.flags_literal(*f, u64::try_from(int?).ok()?, scope),
            _ => None,
        }
    }

    /// What `from_code(code)` returns, as an expression of the enum's type.
    fn enum_value_for_code(&self, info: &EnumInfo<'_>, code: u64, path: &TokenStream) -> Option<TokenStream> {
        let by_value = info.variants.iter().position(|v| v.code == code);
        let by_alias = || info.aliases.iter().find(|(c, _)| *c == code).map(|(_, v)| *v);
        let variant = match (by_value.or_else(by_alias), info.policy) {
            (Some(v), _) | (None, Policy::Default(v)) => v,
            (None, Policy::Keep) => {
                let lit = Literal::u64_suffixed(code);
                return Some(quote!(#path::Unknown(#lit)));
            }
            (None, Policy::Error) => return None,
        };
        let var = &info.variants.get(variant)?.ident;
        Some(quote!(#path::#var))
    }

    /// The flags struct `from_bits(bits)` gives, as a struct literal; `None` when a bit
    /// range is not a code of its enum.
    fn flags_literal(&self, f: usize, bits: u64, scope: &Scope) -> Option<TokenStream> {
        let info = self.flags.get(f)?;
        let path = scope.path(&info.ident);
        let mut known = 0u64;
        let mut inits = Vec::new();
        for ff in &info.fields {
            let mask = low_mask(ff.hi - ff.lo);
            known |= mask << ff.lo;
            let v = (bits >> ff.lo) & mask;
            let id = &ff.ident;
            let value = if ff.single {
                let b = v != 0;
                quote!(#b)
            } else if let Some(e) = ff.enumeration {
                let e = self.enums.get(e)?;
                let epath = scope.path(&e.ident);
                self.enum_value_for_code(e, v, &epath)?
            } else {
                let lit = Literal::u64_suffixed(v);
                quote!(#lit)
            };
            inits.push(quote!(#id: #value));
        }
        let other = hex_u64(bits & !known);
        Some(quote!(#path { #(#inits,)* other_bits: #other }))
    }

    // -----------------------------------------------------------------------------------
    // Format
    // -----------------------------------------------------------------------------------

    fn format_items(&self, schema_path: &str) -> TokenStream {
        let f = &self.schema.format;
        let name = str_lit(&f.name.value);
        let shown = if f.name.value.is_empty() { "\"\"".to_string() } else { format!("`{}`", f.name.value) };
        let name_doc = match &f.doc {
            Some(d) if !d.trim().is_empty() => format!("The format's name, {shown}.\n\n{d}"),
            _ => format!("The format's name, {shown}."),
        };
        let magic = f.magic.value;
        let magic_text: String =
            magic.iter().map(|&b| if b.is_ascii_graphic() { char::from(b) } else { '.' }).collect();
        let magic_doc = format!(
            "The four magic bytes at the start of a {shown} stream ({:02X} {:02X} {:02X} {:02X}, `{}`).",
            magic[0], magic[1], magic[2], magic[3], magic_text
        );
        let bytes = magic.iter().map(|&b| Literal::u8_unsuffixed(b));
        let (u8_, str_, path) = (prim("u8"), prim("str"), str_lit(schema_path));
        quote! {
            #[doc = #name_doc]
            pub const FORMAT_NAME: &#str_ = #name;
            #[doc = #magic_doc]
            pub const MAGIC: [#u8_; 4] = [#(#bytes),*];
            const _: &[#u8_] = ::core::include_bytes!(#path);
        }
    }

    // -----------------------------------------------------------------------------------
    // Enums
    // -----------------------------------------------------------------------------------

    fn enum_items(&self, e: &EnumInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let id = &e.ident;
        let name = str_lit(e.name);
        let doc = doc_attr(e.doc, || format!("The `{}` enum of the schema.", e.name));
        let keep = e.policy == Policy::Keep;
        let (u64_, s) = (prim("u64"), static_str());
        let (opt, sm, nn) = (option(), some(), none());

        let variants = e.variants.iter().enumerate().map(|(i, v)| {
            let aliases: Vec<String> =
                e.aliases.iter().filter(|(_, var)| *var == i).map(|(c, _)| c.to_string()).collect();
            let mut text = match v.doc {
                Some(d) if !d.trim().is_empty() => d.to_string(),
                _ => format!("`{}` (code {}).", v.name, v.code),
            };
            if !aliases.is_empty() {
                text.push_str(&format!("\n\nAlso decoded from the obsolete code(s) {}.", aliases.join(", ")));
            }
            if e.policy == Policy::Default(i) {
                text.push_str("\n\nAlso decoded from every code the schema does not name.");
            }
            let vid = &v.ident;
            quote!(#[doc = #text] #vid)
        });
        let unknown_variant =
            keep.then(|| quote!(#[doc = "A code the schema does not name."] Unknown(#u64_)));
        let variants = variants.chain(unknown_variant);

        let code_arms = e.variants.iter().map(|v| {
            let (vid, c) = (&v.ident, Literal::u64_unsuffixed(v.code));
            quote!(Self::#vid => #c)
        });
        let name_arms = e.variants.iter().map(|v| {
            let (vid, n) = (&v.ident, str_lit(v.name));
            quote!(Self::#vid => #n)
        });
        let (code_unknown, name_unknown) = if keep {
            (quote!(Self::Unknown(code) => code,), quote!(Self::Unknown(_) => "unknown",))
        } else {
            (TokenStream::new(), TokenStream::new())
        };
        let display = match (keep, e.variants.is_empty()) {
            (true, false) => quote!(match *self {
                Self::Unknown(code) => ::core::write!(f, "unknown({})", code),
                other => f.write_str(other.name()),
            }),
            (true, true) => quote!(::core::write!(f, "unknown({})", self.code())),
            (false, _) => quote!(f.write_str(self.name())),
        };

        // from_code: each value's code, then aliases (distinct codes), then the policy.
        let mut arms: Vec<(Vec<u64>, &Ident)> = e.variants.iter().map(|v| (vec![v.code], &v.ident)).collect();
        for (code, var) in &e.aliases {
            if let Some(arm) = arms.get_mut(*var) {
                arm.0.push(*code);
            }
        }
        // The default variant's own codes go to the fallback arm, which gives it anyway.
        if let Policy::Default(i) = e.policy {
            if i < arms.len() {
                arms.remove(i);
            }
        }
        let from_arms = arms.iter().map(|(codes, vid)| {
            let codes = codes.iter().map(|&c| Literal::u64_unsuffixed(c));
            quote!(#(#codes)|* => #sm(Self::#vid))
        });
        let fallback = match e.policy {
            Policy::Error => quote!(#nn),
            Policy::Keep => quote!(#sm(Self::Unknown(code))),
            Policy::Default(i) => match e.variants.get(i) {
                Some(v) => {
                    let vid = &v.ident;
                    quote!(#sm(Self::#vid))
                }
                None => quote!(#nn),
            },
        };
        let from_body = if arms.is_empty() {
            if keep {
                fallback
            } else {
                quote!({ let _ = code; #fallback })
            }
        } else {
            quote!(match code { #(#from_arms,)* _ => #fallback, })
        };

        quote! {
            #doc
            #[derive(
                ::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug,
                ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash
            )]
            pub enum #id {
                #(#variants,)*
            }

            impl #id {
                /// The code this value is written as.
                pub const fn code(self) -> #u64_ {
                    match self { #(#code_arms,)* #code_unknown }
                }

                /// The value's name as the schema spells it (`"unknown"` for a code the
                /// schema does not name).
                pub const fn name(self) -> #s {
                    match self { #(#name_arms,)* #name_unknown }
                }
            }

            impl #rt::decode::SchemaEnum for #id {
                const NAME: #s = #name;

                fn from_code(code: #u64_) -> #opt<Self> {
                    #from_body
                }
            }

            impl ::core::convert::TryFrom<#u64_> for #id {
                type Error = #rt::decode::UnknownCode;

                fn try_from(code: #u64_) -> ::core::result::Result<Self, Self::Error> {
                    <Self as #rt::decode::SchemaEnum>::from_code(code)
                        .ok_or(#rt::decode::UnknownCode { enum_name: #name, code })
                }
            }

            impl ::core::fmt::Display for #id {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    #display
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Flags
    // -----------------------------------------------------------------------------------

    fn flags_items(&self, f: &FlagsInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let id = &f.ident;
        let name = str_lit(f.name);
        let doc = doc_attr(f.doc, || format!("The `{}` flag word of the schema.", f.name));
        let (u64_, s) = (prim("u64"), static_str());
        let scope = Scope::top();

        let mut known = 0u64;
        let mut decls = Vec::new();
        let mut inits = Vec::new();
        let mut parts = Vec::new();
        for ff in &f.fields {
            let fid = &ff.ident;
            let mask = low_mask(ff.hi - ff.lo);
            known |= mask << ff.lo;
            let range = if ff.hi - ff.lo == 1 {
                format!("bit {}", ff.lo)
            } else {
                format!("bits {}..{}", ff.lo, ff.hi)
            };
            let fdoc = doc_attr(ff.doc, || format!("`{}`: {range} of the word.", ff.name));
            let lo = Literal::u32_unsuffixed(ff.lo);
            let mask_lit = hex_u64(mask);
            let extract =
                if ff.lo == 0 { quote!(bits & #mask_lit) } else { quote!((bits >> #lo) & #mask_lit) };
            let shift = (ff.lo != 0).then(|| quote!(<< #lo));
            let enumeration = ff.enumeration.and_then(|e| self.enums.get(e));
            let (ty, init, part) = if ff.single {
                (prim("bool"), quote!(#extract != 0), quote!((#u64_::from(self.#fid) #shift)))
            } else if let Some(e) = enumeration {
                let ety = scope.path(&e.ident);
                let fname = str_lit(ff.name);
                let init = quote!(match <#ety as #rt::decode::SchemaEnum>::from_code(#extract) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return ::core::result::Result::Err((#fname, #extract)),
                });
                (ety, init, quote!(((self.#fid.code() & #mask_lit) #shift)))
            } else {
                (u64_.clone(), extract, quote!(((self.#fid & #mask_lit) #shift)))
            };
            decls.push(quote!(#fdoc pub #fid: #ty));
            inits.push(quote!(#fid: #init));
            parts.push(part);
        }
        let not_known = hex_u64(!known);

        quote! {
            #doc
            #[derive(
                ::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug,
                ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash
            )]
            pub struct #id {
                #(#decls,)*
                /// Set bits that no field names.
                pub other_bits: #u64_,
            }

            impl #id {
                /// The flag word these fields were read from.
                pub fn bits(&self) -> #u64_ {
                    self.other_bits #(| #parts)*
                }
            }

            impl #rt::decode::SchemaFlags for #id {
                const NAME: #s = #name;

                fn from_bits(bits: #u64_) -> ::core::result::Result<Self, (#s, #u64_)> {
                    ::core::result::Result::Ok(Self { #(#inits,)* other_bits: bits & #not_known })
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Groups
    // -----------------------------------------------------------------------------------

    fn group_items(&self, g: &GroupInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let id = &g.ident;
        let name = str_lit(g.name);
        let doc = doc_attr(g.doc, || format!("One entry of the `{}` group of the schema.", g.name));
        let scope = Scope::top();
        let params = lifetime_params(g.lifetime);
        let s = static_str();
        let okk = ok();
        let ctx = quote!(ctx);
        let mut uses_ctx = false;

        let mut decls = Vec::new();
        let mut arms = Vec::new();
        for v in &g.variants {
            let vid = &v.ident;
            let vdoc = doc_attr(v.doc, || format!("`{}` (tag {}).", v.name, v.tag));
            let fields: Vec<TokenStream> = v
                .fields
                .iter()
                .filter_map(|f| {
                    let fid = f.ident.as_ref()?;
                    let fdoc = doc_attr(f.doc, || format!("The `{}` operand.", f.name));
                    let mut ty = self.type_of(&f.kind, &scope);
                    if matches!(f.presence, Presence::Optional) && !f.kind.is_option() {
                        let o = option();
                        ty = quote!(#o<#ty>);
                    }
                    Some(quote!(#fdoc #fid: #ty))
                })
                .collect();
            decls.push(if v.fields.is_empty() {
                quote!(#vdoc #vid)
            } else {
                quote!(#vdoc #vid { #(#fields,)* })
            });

            uses_ctx |= v.fields.iter().any(|f| f.kind.needs_ctx());
            let slots: Vec<Ident> = v.fields.iter().filter_map(|f| f.ident.clone()).collect();
            let mut slot = 0;
            let reads: Vec<Read<'_>> = v
                .fields
                .iter()
                .map(|f| Read {
                    slot: f.ident.as_ref().map(|_| {
                        slot += 1;
                        slot - 1
                    }),
                    field: f,
                })
                .collect();
            let tag = Literal::u64_unsuffixed(v.tag);
            let body = if v.fields.is_empty() {
                quote!(#okk(Self::#vid))
            } else {
                let wrap = vec![false; slots.len()];
                self.construct(quote!(Self::#vid), &slots, &wrap, &reads, None, &ctx, &scope)
            };
            arms.push(quote!(#tag => #body));
        }
        let ctx_param = if uses_ctx { quote!(ctx) } else { quote!(_ctx) };

        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            pub enum #id #params {
                #(#decls,)*
            }

            impl<'a> #rt::decode::SchemaGroup<'a> for #id #params {
                const NAME: #s = #name;

                fn read(
                    ops: &mut #rt::decode::Operands<'_, 'a>,
                    field: #s,
                    #ctx_param: &dyn #rt::decode::DecodeContext,
                ) -> #rt::Result<Self> {
                    let tag = ops.raw(field)?;
                    match tag {
                        #(#arms,)*
                        _ => ::core::result::Result::Err(ops.unknown_tag(field, tag, #name)),
                    }
                }
            }
        }
    }

    /// `Ok(ctor { slot: value, ... })` after reading `reads` in order: a struct literal
    /// when every read fills the next slot, else `let` bindings first. `wrap[i]`: slot `i`
    /// is an `Option` its reads do not already produce; a slot no read fills is `None`.
    #[allow(clippy::too_many_arguments)]
    fn construct(
        &self,
        ctor: TokenStream,
        slots: &[Ident],
        wrap: &[bool],
        reads: &[Read<'_>],
        tail: Option<TokenStream>,
        ctx: &TokenStream,
        scope: &Scope,
    ) -> TokenStream {
        let okk = ok();
        let tail = tail.map(|t| quote!(#t,));
        let direct = reads.len() == slots.len() && reads.iter().enumerate().all(|(i, r)| r.slot == Some(i));
        let value = |r: &Read<'_>| {
            let v = self.read_field(r.field, ctx, scope);
            let needs_some = r.slot.is_some_and(|s| wrap.get(s).copied().unwrap_or(false))
                && !matches!(r.field.presence, Presence::Optional);
            (v, needs_some)
        };
        let sm = some();
        if direct {
            let inits = reads.iter().zip(slots).map(|(r, id)| {
                let (v, needs_some) = value(r);
                if needs_some {
                    quote!(#id: #sm(#v))
                } else {
                    quote!(#id: #v)
                }
            });
            return quote!(#okk(#ctor { #(#inits,)* #tail }));
        }
        let mut stmts = Vec::new();
        let mut filled: Vec<Option<TokenStream>> = vec![None; slots.len()];
        for r in reads {
            let (v, needs_some) = value(r);
            match r.slot {
                Some(s) if s < slots.len() && filled[s].is_none() => {
                    let b = format_ident!("v{}", s);
                    stmts.push(quote!(let #b = #v;));
                    filled[s] = Some(if needs_some { quote!(#sm(#b)) } else { quote!(#b) });
                }
                _ => stmts.push(quote!(let _ = #v;)),
            }
        }
        let nn = none();
        let inits = slots.iter().zip(filled).map(|(id, v)| match v {
            Some(v) => quote!(#id: #v),
            None => quote!(#id: #nn),
        });
        quote!({ #(#stmts)* #okk(#ctor { #(#inits,)* #tail }) })
    }

    // -----------------------------------------------------------------------------------
    // Blocks
    // -----------------------------------------------------------------------------------

    fn blocks(&self) -> Vec<BlockInfo<'s>> {
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

    fn block_module(&self, b: &BlockInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let def = b.def;
        let module = &b.module;
        let doc =
            doc_attr(def.doc.as_deref(), || format!("The `{}` block (id {}).", def.name.value, def.id.value));
        let (id_lit, name_lit) = (Literal::u32_suffixed(def.id.value), str_lit(&def.name.value));
        let strategy = match def.strategy {
            model::Strategy::Eager => quote!(#rt::decode::Strategy::Eager),
            model::Strategy::Lazy => quote!(#rt::decode::Strategy::Lazy),
            model::Strategy::Skip => quote!(#rt::decode::Strategy::Skip),
        };
        let mut shadowed: HashSet<String> = b.records.iter().map(|r| ident_key(&r.ident)).collect();
        shadowed.insert("Record".to_string());
        let scope = Scope { shadowed };
        let (u32_, str_, s, opt, sm, nn, okk) =
            (prim("u32"), prim("str"), static_str(), option(), some(), none(), ok());

        let structs = b.records.iter().map(|r| self.record_struct(b, r, &scope));
        let mut variants = Vec::new();
        let mut dispatch = Vec::new();
        let mut name_arms = Vec::new();
        let mut code_arms = Vec::new();
        for r in &b.records {
            let rid = &r.ident;
            let lt = if self.record_lifetime(r) { quote!(<'a>) } else { TokenStream::new() };
            let code = Literal::u32_unsuffixed(r.def.code.value);
            let rname = str_lit(&r.def.name.value);
            let vdoc = format!("A `{}` record.", r.def.name.value);
            variants.push(quote!(#[doc = #vdoc] #rid(#rid #lt)));
            dispatch.push(quote!(#code => #rid::decode(record, ctx).map(Self::#rid)));
            name_arms.push(quote!(Self::#rid(_) => #rname));
            code_arms.push(quote!(#code => #sm(#rname)));
        }
        let unknown = quote!(#okk(Self::Unknown(#rt::decode::unknown_record(NAME, record, ctx))));
        let dispatch_body = if dispatch.is_empty() {
            unknown
        } else {
            quote!(match record.code { #(#dispatch,)* _ => #unknown, })
        };
        let record_name_body = if code_arms.is_empty() {
            quote!({ let _ = code; #nn })
        } else {
            quote!(match code { #(#code_arms,)* _ => #nn, })
        };
        let enum_doc = format!("A record of the `{}` block.", def.name.value);
        let id_doc = format!("The block id of `{}`.", def.name.value);
        let name_doc = format!("The block's name as the schema spells it, `{}`.", def.name.value);

        quote! {
            #doc
            pub mod #module {
                #[allow(unused_imports)]
                use super::*;

                #[doc = #id_doc]
                pub const ID: #u32_ = #id_lit;
                #[doc = #name_doc]
                pub const NAME: &#str_ = #name_lit;
                /// How a reader treats this block.
                pub const STRATEGY: #rt::decode::Strategy = #strategy;

                #(#structs)*

                #[doc = #enum_doc]
                #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
                pub enum Record<'a> {
                    #(#variants,)*
                    /// A record of a code the schema does not name, kept raw.
                    Unknown(#rt::decode::RawRecord<'a>),
                }

                impl<'a> #rt::decode::BlockRecords<'a> for Record<'a> {
                    const BLOCK_ID: #u32_ = ID;
                    const BLOCK_NAME: #s = NAME;

                    fn decode(
                        record: &#rt::Record<'_, 'a>,
                        ctx: &mut dyn #rt::decode::DecodeContext,
                    ) -> #rt::Result<Self> {
                        #dispatch_body
                    }
                }

                impl<'a> Record<'a> {
                    /// Decodes one record of this block: an unknown code gives `Unknown` and a
                    /// warning.
                    ///
                    /// # Errors
                    ///
                    /// When the record lacks a required operand or a value does not fit its field.
                    pub fn decode(
                        record: &#rt::Record<'_, 'a>,
                        ctx: &mut dyn #rt::decode::DecodeContext,
                    ) -> #rt::Result<Self> {
                        <Self as #rt::decode::BlockRecords<'a>>::decode(record, ctx)
                    }

                    /// The record's name as the schema spells it (`"unknown"` for `Unknown`).
                    pub fn name(&self) -> #s {
                        match self {
                            #(#name_arms,)*
                            Self::Unknown(_) => "unknown",
                        }
                    }
                }

                /// The schema name of the record with `code` in this block.
                pub fn record_name(code: #u32_) -> #opt<#s> {
                    #record_name_body
                }
            }
        }
    }

    /// The record's struct fields: the union of its layouts' fields by schema name.
    fn record_slots<'r>(&self, r: &'r RecordInfo<'s>) -> (Vec<Slot<'r>>, Vec<Vec<Read<'r>>>) {
        let mut slots: Vec<Slot<'r>> = Vec::new();
        let mut used: HashSet<String> = HashSet::from(["extra_operands".to_string()]);
        let mut reads = Vec::new();
        for (_, fields) in &r.layouts {
            let mut layout_reads = Vec::new();
            for f in fields {
                let existing = slots.iter().position(|s| s.name == f.name);
                let slot = match existing {
                    Some(i)
                        if slots[i].kind == f.kind
                            && layout_reads.iter().all(|r: &Read<'_>| r.slot != Some(i)) =>
                    {
                        Some(i)
                    }
                    Some(_) => None,
                    None => f.ident.as_ref().filter(|id| used.insert(ident_key(id))).map(|id| {
                        slots.push(Slot {
                            name: f.name,
                            ident: id.clone(),
                            doc: f.doc,
                            kind: f.kind.clone(),
                            wrapped: false,
                            partial: false,
                        });
                        slots.len() - 1
                    }),
                };
                if let Some(i) = slot {
                    if slots[i].doc.is_none() {
                        slots[i].doc = f.doc;
                    }
                }
                layout_reads.push(Read { slot, field: f });
            }
            reads.push(layout_reads);
        }
        for (i, slot) in slots.iter_mut().enumerate() {
            let in_all = reads.iter().all(|l| l.iter().any(|r| r.slot == Some(i)));
            let any_optional = reads
                .iter()
                .flatten()
                .any(|r| r.slot == Some(i) && matches!(r.field.presence, Presence::Optional));
            slot.partial = !in_all;
            slot.wrapped = !slot.kind.is_option() && (!in_all || any_optional);
        }
        (slots, reads)
    }

    fn has_extra(r: &RecordInfo<'_>) -> bool {
        r.layouts.is_empty()
            || r.layouts.iter().any(|(_, fields)| !fields.iter().any(|f| f.kind.takes_rest()))
    }

    fn record_lifetime(&self, r: &RecordInfo<'_>) -> bool {
        let (slots, _) = self.record_slots(r);
        slots.iter().any(|s| self.needs_lifetime(&s.kind))
    }

    fn record_struct(&self, b: &BlockInfo<'_>, r: &RecordInfo<'_>, scope: &Scope) -> TokenStream {
        let rt = self.rt;
        let def = r.def;
        let id = &r.ident;
        let block = &b.def.name.value;
        let doc = doc_attr(def.doc.as_deref(), || {
            format!("The `{}` record (code {}) of `{block}`.", def.name.value, def.code.value)
        });
        let (slots, reads) = self.record_slots(r);
        let lifetime = slots.iter().any(|s| self.needs_lifetime(&s.kind));
        let params = lifetime_params(lifetime);
        let has_extra = Self::has_extra(r);
        let (u32_, u64_, s, opt, v) = (prim("u32"), prim("u64"), static_str(), option(), vec());

        let decls = slots.iter().map(|slot| {
            let mut ty = self.type_of(&slot.kind, scope);
            if slot.wrapped {
                ty = quote!(#opt<#ty>);
            }
            let mut text = match slot.doc {
                Some(d) if !d.trim().is_empty() => d.to_string(),
                _ => format!("The `{}` operand.", slot.name),
            };
            if slot.partial {
                text.push_str("\n\n`None` in the format versions whose layout of the record lacks it.");
            }
            let fid = &slot.ident;
            quote!(#[doc = #text] pub #fid: #ty)
        });
        let extra_decl = has_extra.then(|| {
            quote! {
                /// Operands after the last field, kept raw (decoding reported a warning).
                pub extra_operands: #v<#u64_>
            }
        });

        // decode
        let ctx = quote!(&*ctx);
        let slot_ids: Vec<Ident> = slots.iter().map(|s| s.ident.clone()).collect();
        let wrap: Vec<bool> = slots.iter().map(|s| s.wrapped).collect();
        let tail = has_extra.then(|| quote!(extra_operands: ops.finish(ctx)));
        let full_range = |l: &Layout| l.versions.value.start == 0 && l.versions.value.end == u64::MAX;
        let ranges: Vec<TokenStream> = r
            .layouts
            .iter()
            .map(|(l, _)| {
                let a = Literal::u64_unsuffixed(l.versions.value.start);
                let z = match l.versions.value.end {
                    u64::MAX => quote!(::core::primitive::u64::MAX),
                    end => Literal::u64_unsuffixed(end).into_token_stream(),
                };
                quote!((#a, #z))
            })
            .collect();
        let bodies: Vec<TokenStream> = reads
            .iter()
            .map(|layout_reads| {
                self.construct(quote!(Self), &slot_ids, &wrap, layout_reads, tail.clone(), &ctx, scope)
            })
            .collect();
        let (body, picks_layout) = match (r.layouts.as_slice(), bodies.as_slice()) {
            ([], _) | (_, []) => {
                (self.construct(quote!(Self), &slot_ids, &wrap, &[], tail.clone(), &ctx, scope), false)
            }
            ([(l, _)], [body]) if full_range(l) => (body.clone(), false),
            ([_], [body]) => (quote!(let _ = ops.layout(ctx.version(), &[#(#ranges),*])?; #body), true),
            (_, [first @ .., last]) => {
                let arms = first.iter().enumerate().map(|(i, body)| {
                    let i = Literal::usize_unsuffixed(i);
                    quote!(#i => #body)
                });
                (quote!(match ops.layout(ctx.version(), &[#(#ranges),*])? { #(#arms,)* _ => #last, }), true)
            }
        };
        let any_read = reads.iter().any(|l| !l.is_empty());
        let uses_ctx = has_extra || picks_layout || reads.iter().flatten().any(|r| r.field.kind.needs_ctx());
        let mut_ = any_read.then(|| quote!(mut));
        let allow = (!uses_ctx).then(|| quote!(#[allow(unused_variables)]));
        let (impl_lt, rec_lt) =
            if lifetime { (quote!(<'a>), quote!('a)) } else { (TokenStream::new(), quote!('_)) };
        let code = Literal::u32_suffixed(def.code.value);
        let (block_lit, rname) = (str_lit(block), str_lit(&def.name.value));
        let code_doc = format!("The record code of `{}`.", def.name.value);
        let name_doc = format!("The record's name as the schema spells it, `{}`.", def.name.value);

        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            pub struct #id #params {
                #(#decls,)*
                #extra_decl
            }

            impl #impl_lt #id #params {
                #[doc = #code_doc]
                pub const CODE: #u32_ = #code;
                #[doc = #name_doc]
                pub const NAME: #s = #rname;

                /// Decodes the record from its operands.
                ///
                /// # Errors
                ///
                /// When the record lacks a required operand or a value does not fit its field.
                #allow
                pub fn decode(
                    record: &#rt::Record<'_, #rec_lt>,
                    ctx: &mut dyn #rt::decode::DecodeContext,
                ) -> #rt::Result<Self> {
                    static INFO: #rt::decode::RecordInfo =
                        #rt::decode::RecordInfo { block: #block_lit, record: #rname };
                    let #mut_ ops = #rt::decode::Operands::new(record, &INFO);
                    #body
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Schema level
    // -----------------------------------------------------------------------------------

    fn schema_items(&self, blocks: &[BlockInfo<'_>]) -> TokenStream {
        let rt = self.rt;
        let (u32_, s, opt, nn, okk) = (prim("u32"), static_str(), option(), none(), ok());
        let sm = some();
        let dispatched: Vec<(&BlockInfo<'_>, &Ident)> =
            blocks.iter().filter_map(|b| b.any_variant.as_ref().map(|v| (b, v))).collect();
        let mut name_arms = Vec::new();
        let mut record_arms = Vec::new();
        let mut strategy_arms = Vec::new();
        let mut variants = Vec::new();
        let mut decode_arms = Vec::new();
        for (b, var) in &dispatched {
            let m = &b.module;
            let id = Literal::u32_unsuffixed(b.def.id.value);
            name_arms.push(quote!(#id => #sm(#m::NAME)));
            record_arms.push(quote!(#id => #m::record_name(code)));
            strategy_arms.push(quote!(#id => #m::STRATEGY));
            let vdoc = format!("A record of a `{}` block.", b.def.name.value);
            variants.push(quote!(#[doc = #vdoc] #var(#m::Record<'a>)));
            decode_arms.push(quote!(#id => #m::Record::decode(record, ctx).map(AnyRecord::#var)));
        }
        let (name_body, record_body, strategy_body) = if dispatched.is_empty() {
            (
                quote!({ let _ = id; #nn }),
                quote!({ let _ = (block_id, code); #nn }),
                quote!({ let _ = block_id; #rt::decode::Strategy::Eager }),
            )
        } else {
            (
                quote!(match id { #(#name_arms,)* _ => #nn, }),
                quote!(match block_id { #(#record_arms,)* _ => #nn, }),
                quote!(match block_id { #(#strategy_arms,)* _ => #rt::decode::Strategy::Eager, }),
            )
        };
        let unknown = quote!(#okk(AnyRecord::UnknownBlock {
            block_id,
            record: #rt::decode::RawRecord::from(record),
        }));
        let decode_body = if dispatched.is_empty() {
            quote!({ let _ = ctx; #unknown })
        } else {
            quote!(match block_id { #(#decode_arms,)* _ => #unknown, })
        };

        quote! {
            /// The schema name of the block with `id`.
            pub fn block_name(id: #u32_) -> #opt<#s> {
                #name_body
            }

            /// The schema name of the record with `code` in the block with `block_id`.
            pub fn record_name(block_id: #u32_, code: #u32_) -> #opt<#s> {
                #record_body
            }

            /// How a reader treats the block with `block_id` (eager for a block the schema
            /// does not name).
            pub fn strategy(block_id: #u32_) -> #rt::decode::Strategy {
                #strategy_body
            }

            /// A record of any block of the schema.
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            pub enum AnyRecord<'a> {
                #(#variants,)*
                /// A record of a block the schema does not name, kept raw.
                UnknownBlock {
                    /// The block's id.
                    block_id: #u32_,
                    /// The record.
                    record: #rt::decode::RawRecord<'a>,
                },
            }

            /// Decodes a record of the block with `block_id`; a record of a block the schema
            /// does not name is kept raw (without a warning).
            ///
            /// # Errors
            ///
            /// When the record lacks a required operand or a value does not fit its field.
            pub fn decode_record<'a>(
                block_id: #u32_,
                record: &#rt::Record<'_, 'a>,
                ctx: &mut dyn #rt::decode::DecodeContext,
            ) -> #rt::Result<AnyRecord<'a>> {
                #decode_body
            }
        }
    }
}

/// An enum's variants (valid, distinct names and codes), aliases (resolving, with codes no
/// value has) and unknown-code policy.
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
        });
    }
    let mut info = EnumInfo {
        name: &e.name.value,
        ident: ident_,
        doc: e.doc.as_deref(),
        variants,
        aliases: Vec::new(),
        policy: Policy::Error,
    };
    for a in &e.aliases {
        let Some(var) = info.variant_by_name(&a.variant.value) else { continue };
        if codes.insert(a.code.value) {
            info.aliases.push((a.code.value, var));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Alias, EnumValue, FlagField, Format, GroupVariant, Spanned, Strategy};

    fn sp<T>(value: T) -> Spanned<T> {
        Spanned::new(value, 0..0)
    }

    fn field(name: &str, kind: Kind) -> Field {
        Field {
            name: sp(name.into()),
            rust_name: names::snake(name),
            doc: None,
            kind: sp(kind),
            presence: Presence::Required,
        }
    }

    fn with(mut f: Field, presence: Presence) -> Field {
        f.presence = presence;
        f
    }

    fn default(v: DefaultValue) -> Presence {
        Presence::Default(sp(v))
    }

    fn of(k: Kind) -> Box<Spanned<Kind>> {
        Box::new(sp(k))
    }

    fn enum_def(name: &str, unknown: UnknownPolicy, values: &[(&str, u64)], aliases: &[(u64, &str)]) -> Enum {
        Enum {
            name: sp(name.into()),
            rust_name: names::upper_camel(name),
            doc: None,
            unknown,
            values: values
                .iter()
                .map(|&(n, c)| EnumValue {
                    name: sp(n.into()),
                    rust_name: names::upper_camel(n),
                    code: sp(c),
                    doc: None,
                })
                .collect(),
            aliases: aliases.iter().map(|&(c, v)| Alias { code: sp(c), variant: sp(v.into()) }).collect(),
        }
    }

    fn flag(name: &str, bits: std::ops::Range<u32>, enumeration: Option<&str>) -> FlagField {
        FlagField {
            name: sp(name.into()),
            rust_name: names::snake(name),
            doc: None,
            single: bits.end == bits.start + 1 && enumeration.is_none(),
            bits: sp(bits),
            enumeration: enumeration.map(|e| sp(e.into())),
        }
    }

    fn variant(name: &str, tag: u64, fields: Vec<Field>) -> GroupVariant {
        GroupVariant {
            name: sp(name.into()),
            rust_name: names::upper_camel(name),
            doc: None,
            tag: sp(tag),
            fields,
        }
    }

    fn record(name: &str, code: u32, fields: Vec<Field>) -> RecordDef {
        layouts(name, code, vec![(0..u64::MAX, fields)])
    }

    fn layouts(name: &str, code: u32, layouts: Vec<(std::ops::Range<u64>, Vec<Field>)>) -> RecordDef {
        RecordDef {
            name: sp(name.into()),
            rust_name: names::upper_camel(name),
            code: sp(code),
            doc: None,
            layouts: layouts.into_iter().map(|(v, fields)| Layout { versions: sp(v), fields }).collect(),
        }
    }

    fn block(name: &str, id: u32, strategy: Strategy, records: Vec<RecordDef>) -> Block {
        Block {
            name: sp(name.into()),
            module_name: names::snake(name),
            id: sp(id),
            doc: None,
            strategy,
            records,
        }
    }

    /// A schema that uses every construct.
    pub(super) fn demo() -> Schema {
        let mut linkage = enum_def(
            "Linkage",
            UnknownPolicy::Error,
            &[("external", 0), ("weak_any", 16), ("appending", 2), ("internal", 3)],
            &[(1, "weak_any"), (4, "weak_any"), (2, "internal"), (99, "nonexistent")],
        );
        linkage.doc = Some("How a global value is linked.".into());
        let visibility = enum_def(
            "Visibility",
            UnknownPolicy::Default(sp("default".into())),
            &[("default", 0), ("hidden", 1), ("protected", 2)],
            &[],
        );
        let cc = enum_def("CallingConv", UnknownPolicy::Keep, &[("c", 0), ("fast", 8)], &[]);
        let empty = enum_def("Nothing", UnknownPolicy::Error, &[], &[]);
        let kept_empty = enum_def("Opaque", UnknownPolicy::Keep, &[], &[]);
        let var_flags = Flags {
            name: sp("VarFlags".into()),
            rust_name: "VarFlags".into(),
            doc: None,
            fields: vec![
                flag("is_const", 0..1, None),
                flag("explicit_type", 1..2, None),
                flag("address_space", 2..34, None),
                flag("visibility", 34..36, Some("Visibility")),
                flag("linkage", 40..45, Some("Linkage")),
            ],
        };
        let attribute = Group {
            name: sp("Attribute".into()),
            rust_name: "Attribute".into(),
            doc: Some("One attribute.".into()),
            variants: vec![
                variant("enum_attr", 0, vec![field("kind", Kind::Unsigned(64))]),
                variant(
                    "int_attr",
                    1,
                    vec![field("kind", Kind::Unsigned(64)), field("value", Kind::Unsigned(64))],
                ),
                variant("string_attr", 3, vec![field("key", Kind::CString)]),
                variant(
                    "string_value_attr",
                    4,
                    vec![field("key", Kind::CString), field("value", Kind::CString)],
                ),
                variant("none_attr", 5, vec![]),
            ],
        };
        let operand = Group {
            name: sp("Operand".into()),
            rust_name: "Operand".into(),
            doc: None,
            variants: vec![
                variant("val", 0, vec![field("v", Kind::ValueType)]),
                variant(
                    "lit",
                    1,
                    vec![field("x", Kind::Signed), with(field("ty", Kind::Type), Presence::Optional)],
                ),
            ],
        };
        let module = block(
            "MODULE_BLOCK",
            8,
            Strategy::Eager,
            vec![
                record("VERSION", 1, vec![field("version", Kind::Unsigned(32))]),
                layouts(
                    "GLOBALVAR",
                    7,
                    vec![
                        (
                            0..2,
                            vec![
                                field("type", Kind::Type),
                                field("is_const", Kind::Bool),
                                field("linkage", Kind::Enum(sp("Linkage".into()))),
                                field("alignment", Kind::Align),
                            ],
                        ),
                        (
                            2..u64::MAX,
                            vec![
                                field("strtab_offset", Kind::Unsigned(32)),
                                field("strtab_size", Kind::Unsigned(32)),
                                field("type", Kind::Type),
                                field("is_const", Kind::Bool),
                                field("linkage", Kind::Enum(sp("Linkage".into()))),
                                with(
                                    field("visibility", Kind::Enum(sp("Visibility".into()))),
                                    Presence::Optional,
                                ),
                            ],
                        ),
                    ],
                ),
                record(
                    "EVERYTHING",
                    9,
                    vec![
                        field("a", Kind::Unsigned(8)),
                        field("b", Kind::Unsigned(16)),
                        field("c", Kind::Signed),
                        field("d", Kind::Flags(sp("VarFlags".into()))),
                        field("e", Kind::Value),
                        field("f", Kind::Relative),
                        field("g", Kind::SignedRelative),
                        field("h", Kind::ValueType),
                        field("i", Kind::OptionalIndex),
                        field("j", Kind::Enum(sp("CallingConv".into()))),
                        field("k", Kind::Invalid),
                        field("l", Kind::Blob),
                        field("m", Kind::CountedArray(of(Kind::Relative))),
                        field("n", Kind::Array(of(Kind::Unsigned(32)))),
                    ],
                ),
                record(
                    "DEFAULTS",
                    10,
                    vec![
                        field("version", Kind::Unsigned(32)),
                        with(field("dso_local", Kind::Bool), default(DefaultValue::Bool(false))),
                        with(
                            field("vis", Kind::Enum(sp("Visibility".into()))),
                            default(DefaultValue::Variant("hidden".into())),
                        ),
                        with(
                            field("cc", Kind::Enum(sp("CallingConv".into()))),
                            default(DefaultValue::Int(77)),
                        ),
                        with(field("delta", Kind::Signed), default(DefaultValue::Int(-5))),
                        with(field("idx", Kind::OptionalIndex), Presence::Optional),
                        with(field("al", Kind::Align), default(DefaultValue::Int(3))),
                        with(
                            field("fl", Kind::Flags(sp("VarFlags".into()))),
                            default(DefaultValue::Int(0b101 | (1 << 34) | (1 << 50))),
                        ),
                        with(field("t", Kind::Type), default(DefaultValue::Int(4))),
                        with(field("partition", Kind::Unsigned(64)), Presence::Optional),
                    ],
                ),
                record("SOURCE_FILENAME", 16, vec![field("name", Kind::String)]),
                record(
                    "ATTRS",
                    17,
                    vec![
                        field("id", Kind::Unsigned(32)),
                        field("attrs", Kind::Group(sp("Attribute".into()))),
                    ],
                ),
                record("OPERANDS", 18, vec![field("ops", Kind::Group(sp("Operand".into())))]),
                record("EMPTY", 19, vec![]),
                {
                    // A record struct named like a type of the schema: fields of that type
                    // must name it through `super::`.
                    let mut r =
                        record("LINKAGE_REC", 20, vec![field("linkage", Kind::Enum(sp("Linkage".into())))]);
                    r.rust_name = "Linkage".into();
                    r
                },
                record("RAW_ARRAY", 21, vec![field("stuff", Kind::Array(of(Kind::Blob)))]),
            ],
        );
        Schema {
            format: Format {
                name: sp("demo".into()),
                magic: sp(*b"DEMO"),
                doc: Some("A made-up format.".into()),
            },
            enums: vec![linkage, visibility, cc, empty, kept_empty],
            flags: vec![var_flags],
            groups: vec![attribute, operand],
            blocks: vec![
                module,
                block("PARAMATTR_BLOCK", 9, Strategy::Lazy, vec![]),
                block(
                    "FUNCTION_BLOCK",
                    12,
                    Strategy::Skip,
                    vec![record("DECLAREBLOCKS", 1, vec![field("n", Kind::Unsigned(32))])],
                ),
            ],
        }
    }

    fn emit_file(schema: &Schema) -> syn::File {
        let tokens = emit(schema, &quote!(::bitcode_runtime), "/tmp/demo.toml");
        match syn::parse2::<syn::File>(tokens.clone()) {
            Ok(f) => f,
            Err(e) => panic!("emitted code does not parse: {e}\n{tokens}"),
        }
    }

    fn s(t: impl quote::ToTokens) -> String {
        t.to_token_stream().to_string()
    }

    fn find_item<'f>(items: &'f [syn::Item], name: &str) -> Vec<&'f syn::Item> {
        items
            .iter()
            .filter(|i| match i {
                syn::Item::Struct(x) => x.ident == name,
                syn::Item::Enum(x) => x.ident == name,
                syn::Item::Mod(x) => x.ident == name,
                syn::Item::Fn(x) => x.sig.ident == name,
                syn::Item::Const(x) => x.ident == name,
                _ => false,
            })
            .collect()
    }

    fn module<'f>(file: &'f syn::File, name: &str) -> &'f [syn::Item] {
        match find_item(&file.items, name).first() {
            Some(syn::Item::Mod(m)) => m.content.as_ref().map(|(_, items)| items.as_slice()).unwrap_or(&[]),
            _ => panic!("no module {name}"),
        }
    }

    fn strukt<'f>(items: &'f [syn::Item], name: &str) -> &'f syn::ItemStruct {
        match find_item(items, name).first() {
            Some(syn::Item::Struct(x)) => x,
            _ => panic!("no struct {name}"),
        }
    }

    fn enumm<'f>(items: &'f [syn::Item], name: &str) -> &'f syn::ItemEnum {
        match find_item(items, name).first() {
            Some(syn::Item::Enum(x)) => x,
            _ => panic!("no enum {name}"),
        }
    }

    /// `(field name, type)` of a struct, types as token strings.
    fn fields(st: &syn::ItemStruct) -> Vec<(String, String)> {
        st.fields.iter().map(|f| (s(f.ident.as_ref().unwrap()), s(&f.ty))).collect()
    }

    /// Every `impl` block (anywhere in `items`) of the type named `name`, as text.
    fn impls_of(items: &[syn::Item], name: &str) -> String {
        items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Impl(x) if s(&x.self_ty).split(' ').next() == Some(name) => Some(s(x)),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn demo_parses_and_has_the_format_items() {
        let file = emit_file(&demo());
        let text = s(&file);
        assert!(text.contains("pub const FORMAT_NAME : & :: core :: primitive :: str = \"demo\""), "{text}");
        assert!(text.contains("pub const MAGIC : [:: core :: primitive :: u8 ; 4] = [68 , 69 , 77 , 79]"));
        assert!(text.contains(
            "const _ : & [:: core :: primitive :: u8] = :: core :: include_bytes ! (\"/tmp/demo.toml\")"
        ));
        for f in ["block_name", "record_name", "strategy", "decode_record"] {
            assert_eq!(find_item(&file.items, f).len(), 1, "{f}");
        }
    }

    #[test]
    fn enums_map_values_aliases_and_unknown_codes() {
        let file = emit_file(&demo());
        let linkage = enumm(&file.items, "Linkage");
        let names: Vec<String> = linkage.variants.iter().map(|v| v.ident.to_string()).collect();
        assert_eq!(names, ["External", "WeakAny", "Appending", "Internal"]);
        let impls = impls_of(&file.items, "Linkage");
        // aliases 1 and 4 fold into weak_any; alias 2 collides with appending's code and is
        // skipped; an alias of a variant that does not exist is skipped.
        assert!(
            impls.contains("16 | 1 | 4 => :: core :: option :: Option :: Some (Self :: WeakAny)"),
            "{impls}"
        );
        assert!(impls.contains("2 => :: core :: option :: Option :: Some (Self :: Appending)"));
        assert!(!impls.contains("99"));
        assert!(impls.contains("_ => :: core :: option :: Option :: None"));
        assert!(impls.contains("const NAME : & 'static :: core :: primitive :: str = \"Linkage\""));
        assert!(impls.contains("Self :: WeakAny => \"weak_any\""));
        assert!(
            impls.contains("impl :: core :: convert :: TryFrom < :: core :: primitive :: u64 > for Linkage")
        );
        assert!(impls.contains("impl :: core :: fmt :: Display for Linkage"));

        let vis = impls_of(&file.items, "Visibility");
        assert!(vis.contains("_ => :: core :: option :: Option :: Some (Self :: Default)"), "{vis}");
        assert!(!vis.contains("0 =>"), "the default's own code is the fallback's");

        let cc = enumm(&file.items, "CallingConv");
        assert_eq!(
            s(cc.variants.last().unwrap()).rsplit(']').next().unwrap().trim(),
            "Unknown (:: core :: primitive :: u64)"
        );
        let cci = impls_of(&file.items, "CallingConv");
        assert!(cci.contains("_ => :: core :: option :: Option :: Some (Self :: Unknown (code))"), "{cci}");
        assert!(cci.contains("Self :: Unknown (code) => code"));
        assert!(cci.contains("Self :: Unknown (_) => \"unknown\""));
        assert!(
            cci.contains("Self :: Unknown (code) => :: core :: write ! (f , \"unknown({})\" , code)"),
            "{cci}"
        );
        assert!(cci.contains("other => f . write_str (other . name ())"));

        assert!(enumm(&file.items, "Nothing").variants.is_empty());
        assert_eq!(enumm(&file.items, "Opaque").variants.len(), 1);
    }

    #[test]
    fn flags_split_the_word_into_typed_fields() {
        let file = emit_file(&demo());
        let st = strukt(&file.items, "VarFlags");
        let want = [
            ("is_const", ":: core :: primitive :: bool"),
            ("explicit_type", ":: core :: primitive :: bool"),
            ("address_space", ":: core :: primitive :: u64"),
            ("visibility", "Visibility"),
            ("linkage", "Linkage"),
            ("other_bits", ":: core :: primitive :: u64"),
        ];
        let got = fields(st);
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
        let impls = impls_of(&file.items, "VarFlags");
        assert!(impls.contains("(bits >> 2) & 0xffffffffu64"), "{impls}");
        assert!(impls
            .contains("return :: core :: result :: Result :: Err ((\"linkage\" , (bits >> 40) & 0x1fu64))"));
        // every named bit is outside other_bits
        let known: u64 = 0b11 | (0xffff_ffff << 2) | (0b11 << 34) | (0x1f << 40);
        assert!(impls.contains(&format!("other_bits : bits & {:#x}u64", !known)), "{impls}");
        assert!(impls.contains("pub fn bits (& self) -> :: core :: primitive :: u64"));
        assert!(impls.contains("self . linkage . code ()"));
    }

    #[test]
    fn groups_read_a_tag_then_the_variant_fields() {
        let file = emit_file(&demo());
        let attr = enumm(&file.items, "Attribute");
        assert_eq!(s(&attr.generics), "< 'a >", "cstring fields borrow the input");
        let v: Vec<String> = attr.variants.iter().map(|v| v.ident.to_string()).collect();
        assert_eq!(v, ["EnumAttr", "IntAttr", "StringAttr", "StringValueAttr", "NoneAttr"]);
        assert!(matches!(attr.variants[4].fields, syn::Fields::Unit));
        let impls = impls_of(&file.items, "Attribute");
        assert!(impls
            .contains("impl < 'a > :: bitcode_runtime :: decode :: SchemaGroup < 'a > for Attribute < 'a >"));
        assert!(impls.contains("let tag = ops . raw (field) ?"));
        assert!(impls.contains(
            "1 => :: core :: result :: Result :: Ok (Self :: IntAttr { kind : ops . uint :: < :: core :: primitive :: u64 > (\"kind\") ? , value : ops . uint :: < :: core :: primitive :: u64 > (\"value\") ? , })"
        ), "{impls}");
        assert!(impls.contains("5 => :: core :: result :: Result :: Ok (Self :: NoneAttr)"));
        assert!(impls.contains("ops . unknown_tag (field , tag , \"Attribute\")"));
        assert!(impls.contains("_ctx : & dyn"), "no field needs the context");

        let operand = enumm(&file.items, "Operand");
        assert!(operand.generics.params.is_empty(), "no borrowed field: no lifetime");
        let impls = impls_of(&file.items, "Operand");
        assert!(
            impls.contains("impl < 'a > :: bitcode_runtime :: decode :: SchemaGroup < 'a > for Operand {"),
            "{impls}"
        );
        assert!(impls.contains("ops . value_type (\"v\" , ctx)"));
        assert!(impls.contains("ops . optional (| ops | ops . type_id (\"ty\")) ?"));
    }

    #[test]
    fn blocks_are_modules_with_constants_records_and_dispatch() {
        let file = emit_file(&demo());
        let m = module(&file, "module_block");
        let text = s(quote!(#(#m)*));
        assert!(text.contains("pub const ID : :: core :: primitive :: u32 = 8u32"), "{text}");
        assert!(text.contains("pub const NAME : & :: core :: primitive :: str = \"MODULE_BLOCK\""));
        assert!(text.contains("pub const STRATEGY : :: bitcode_runtime :: decode :: Strategy = :: bitcode_runtime :: decode :: Strategy :: Eager"));
        let rec = enumm(m, "Record");
        let variants: Vec<String> = rec.variants.iter().map(|v| s(&v.fields)).collect();
        assert_eq!(
            variants,
            [
                "(Version)",
                "(Globalvar)",
                "(Everything < 'a >)",
                "(Defaults)",
                "(SourceFilename < 'a >)",
                "(Attrs < 'a >)",
                "(Operands)",
                "(Empty)",
                "(Linkage)",
                "(RawArray)",
                "(:: bitcode_runtime :: decode :: RawRecord < 'a >)",
            ]
        );
        let impls = impls_of(m, "Record");
        assert!(
            impls.contains("7 => Globalvar :: decode (record , ctx) . map (Self :: Globalvar)"),
            "{impls}"
        );
        assert!(impls.contains(
            "_ => :: core :: result :: Result :: Ok (Self :: Unknown (:: bitcode_runtime :: decode :: unknown_record (NAME , record , ctx)))"
        ));
        assert!(impls.contains("Self :: Unknown (_) => \"unknown\""));
        assert!(impls.contains("const BLOCK_ID : :: core :: primitive :: u32 = ID"));
        assert!(text.contains("16 => :: core :: option :: Option :: Some (\"SOURCE_FILENAME\")"));

        let lazy = module(&file, "paramattr_block");
        assert!(s(quote!(#(#lazy)*)).contains("Strategy :: Lazy"));
        assert_eq!(enumm(lazy, "Record").variants.len(), 1);

        let top = s(&file);
        assert!(
            top.contains(
                "8 => module_block :: Record :: decode (record , ctx) . map (AnyRecord :: ModuleBlock)"
            ),
            "{top}"
        );
        assert!(top.contains("12 => function_block :: STRATEGY"));
        let any = enumm(&file.items, "AnyRecord");
        let v: Vec<String> = any.variants.iter().map(|v| v.ident.to_string()).collect();
        assert_eq!(v, ["ModuleBlock", "ParamattrBlock", "FunctionBlock", "UnknownBlock"]);
    }

    #[test]
    fn record_fields_are_typed_and_read_one_call_each() {
        let file = emit_file(&demo());
        let m = module(&file, "module_block");
        let every = strukt(m, "Everything");
        assert_eq!(s(&every.generics), "< 'a >");
        let rt = ":: bitcode_runtime :: decode ::";
        let want = vec![
            ("a", ":: core :: primitive :: u8".to_string()),
            ("b", ":: core :: primitive :: u16".into()),
            ("c", ":: core :: primitive :: i64".into()),
            ("d", "VarFlags".into()),
            ("e", format!("{rt} ValueId")),
            ("f", format!("{rt} ValueId")),
            ("g", format!("{rt} ValueId")),
            ("h", format!("{rt} ValueRef")),
            ("i", ":: core :: option :: Option < :: core :: primitive :: u32 >".into()),
            ("j", "CallingConv".into()),
            ("k", ":: core :: primitive :: u64".into()),
            ("l", "& 'a [:: core :: primitive :: u8]".into()),
            ("m", format!(":: std :: vec :: Vec < {rt} ValueId >")),
            ("n", ":: std :: vec :: Vec < :: core :: primitive :: u32 >".into()),
        ];
        let want: Vec<(String, String)> = want.into_iter().map(|(a, b)| (a.to_string(), b)).collect();
        assert_eq!(fields(every), want, "an array takes the rest: no extra_operands");
        let body = impls_of(m, "Everything");
        for call in [
            "ops . uint :: < :: core :: primitive :: u8 > (\"a\") ?",
            "ops . signed (\"c\") ?",
            "ops . flags :: < VarFlags > (\"d\") ?",
            "ops . value (\"e\") ?",
            "ops . relative (\"f\" , & * ctx) ?",
            "ops . signed_relative (\"g\" , & * ctx) ?",
            "ops . value_type (\"h\" , & * ctx) ?",
            "ops . optional_index (\"i\") ?",
            "ops . enumeration :: < CallingConv > (\"j\") ?",
            "ops . raw (\"k\") ?",
            "ops . blob (\"l\") ?",
            "ops . counted_array (\"m\" , | ops | ops . relative (\"m\" , & * ctx)) ?",
            "ops . array (| ops | ops . uint :: < :: core :: primitive :: u32 > (\"n\")) ?",
            "static INFO : :: bitcode_runtime :: decode :: RecordInfo = :: bitcode_runtime :: decode :: RecordInfo { block : \"MODULE_BLOCK\" , record : \"EVERYTHING\" }",
            "pub const CODE : :: core :: primitive :: u32 = 9u32",
            "record : & :: bitcode_runtime :: Record < '_ , 'a >",
        ] {
            assert!(body.contains(call), "{call}\n{body}");
        }
        assert!(!body.contains("finish"), "the last field takes the rest");

        let version = strukt(m, "Version");
        assert!(version.generics.params.is_empty());
        assert_eq!(
            fields(version),
            [
                ("version".to_string(), ":: core :: primitive :: u32".to_string()),
                ("extra_operands".into(), ":: std :: vec :: Vec < :: core :: primitive :: u64 >".into())
            ]
        );
        let body = impls_of(m, "Version");
        assert!(body.contains("extra_operands : ops . finish (ctx)"), "{body}");
        assert!(body.contains("record : & :: bitcode_runtime :: Record < '_ , '_ >"));
        assert!(!body.contains("allow"), "ctx is used by finish");

        let empty = impls_of(m, "Empty");
        assert!(empty.contains("let ops ="), "nothing read: ops need not be mut\n{empty}");

        let source = impls_of(m, "SourceFilename");
        assert!(source.contains("# [allow (unused_variables)]"), "ctx unused\n{source}");
        assert!(source.contains("let mut ops"));

        // An array of blobs would repeat forever: its elements are read raw.
        let raw = strukt(m, "RawArray");
        assert_eq!(fields(raw)[0].1, ":: std :: vec :: Vec < :: core :: primitive :: u64 >");
        assert!(impls_of(m, "RawArray").contains("ops . array (| ops | ops . raw (\"stuff\"))"));

        let attrs = impls_of(m, "Attrs");
        assert!(attrs.contains("ops . groups :: < Attribute < '_ > > (\"attrs\" , & * ctx) ?"), "{attrs}");
        assert_eq!(fields(strukt(m, "Attrs"))[1].1, ":: std :: vec :: Vec < Attribute < 'a > >");
        assert!(impls_of(m, "Operands").contains("ops . groups :: < Operand > (\"ops\" , & * ctx) ?"));
    }

    #[test]
    fn optional_and_default_fields() {
        let file = emit_file(&demo());
        let m = module(&file, "module_block");
        let got = fields(strukt(m, "Defaults"));
        let types: Vec<&str> = got.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            types,
            [
                ":: core :: primitive :: u32",
                ":: core :: primitive :: bool",
                "Visibility",
                "CallingConv",
                ":: core :: primitive :: i64",
                ":: core :: option :: Option < :: core :: primitive :: u32 >",
                ":: core :: option :: Option < :: bitcode_runtime :: decode :: Align >",
                "VarFlags",
                ":: bitcode_runtime :: decode :: TypeId",
                ":: core :: option :: Option < :: core :: primitive :: u64 >",
                ":: std :: vec :: Vec < :: core :: primitive :: u64 >",
            ]
        );
        let body = impls_of(m, "Defaults");
        for call in [
            "ops . or_default (false , | ops | ops . boolean (\"dso_local\")) ?",
            "ops . or_default (Visibility :: Hidden , | ops | ops . enumeration :: < Visibility > (\"vis\")) ?",
            "ops . or_default (CallingConv :: Unknown (77u64) ,",
            "ops . or_default (- 5i64 , | ops | ops . signed (\"delta\")) ?",
            "ops . optional (| ops | ops . optional_index (\"idx\")) ? . flatten ()",
            "ops . or_default (:: bitcode_runtime :: decode :: Align :: from_log2 (2u8) ,",
            "ops . or_default (VarFlags { is_const : true , explicit_type : false , address_space : 1u64 , visibility : Visibility :: Hidden , linkage : super :: Linkage :: External , other_bits : 0x4000000000000u64 } ,",
            "ops . or_default (:: bitcode_runtime :: decode :: TypeId (4u32) ,",
            "partition : ops . optional (| ops | ops . uint :: < :: core :: primitive :: u64 > (\"partition\")) ?",
        ] {
            assert!(body.contains(call), "{call}\n{body}");
        }
    }

    #[test]
    fn layouts_union_their_fields_and_pick_by_version() {
        let file = emit_file(&demo());
        let m = module(&file, "module_block");
        let got = fields(strukt(m, "Globalvar"));
        let want = [
            ("r#type", ":: bitcode_runtime :: decode :: TypeId"),
            ("is_const", ":: core :: primitive :: bool"),
            ("linkage", "super :: Linkage"),
            ("alignment", ":: core :: option :: Option < :: bitcode_runtime :: decode :: Align >"),
            ("strtab_offset", ":: core :: option :: Option < :: core :: primitive :: u32 >"),
            ("strtab_size", ":: core :: option :: Option < :: core :: primitive :: u32 >"),
            ("visibility", ":: core :: option :: Option < Visibility >"),
            ("extra_operands", ":: std :: vec :: Vec < :: core :: primitive :: u64 >"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
        let body = impls_of(m, "Globalvar");
        assert!(body.contains("match ops . layout (ctx . version () , & [(0 , 2) , (2 , :: core :: primitive :: u64 :: MAX)]) ?"), "{body}");
        // layout 0 reads type, is_const, linkage, alignment; the strtab fields are None
        assert!(body.contains(
            "0 => { let v0 = ops . type_id (\"type\") ? ; let v1 = ops . boolean (\"is_const\") ? ; let v2 = ops . enumeration :: < super :: Linkage > (\"linkage\") ? ; let v3 = ops . align (\"alignment\") ? ; :: core :: result :: Result :: Ok (Self { r#type : v0 , is_const : v1 , linkage : v2 , alignment : v3 , strtab_offset : :: core :: option :: Option :: None , strtab_size : :: core :: option :: Option :: None , visibility : :: core :: option :: Option :: None , extra_operands : ops . finish (ctx) , }) }"
        ), "{body}");
        // layout 1, in its own operand order; an optional read is already an Option
        assert!(body.contains(
            "_ => { let v4 = ops . uint :: < :: core :: primitive :: u32 > (\"strtab_offset\") ? ; let v5"
        ));
        assert!(body.contains("strtab_offset : :: core :: option :: Option :: Some (v4)"));
        assert!(body.contains("alignment : :: core :: option :: Option :: None"));
        assert!(body.contains("visibility : v6"));
    }

    #[test]
    fn record_struct_named_like_a_schema_type_names_it_through_super() {
        let file = emit_file(&demo());
        let m = module(&file, "module_block");
        let st = strukt(m, "Linkage");
        assert_eq!(fields(st)[0].1, "super :: Linkage");
        assert!(impls_of(m, "Linkage").contains("ops . enumeration :: < super :: Linkage > (\"linkage\")"));
        // so is it everywhere in that block; in other blocks it is named plainly
        assert_eq!(fields(strukt(m, "Globalvar"))[2].1, "super :: Linkage");
        let mut schema = demo();
        schema.blocks[2].records[0].layouts[0].fields[0].kind = sp(Kind::Enum(sp("Linkage".into())));
        let file = emit_file(&schema);
        assert_eq!(fields(strukt(module(&file, "function_block"), "Declareblocks"))[0].1, "Linkage");
        assert!(m.iter().any(|i| s(i) == "# [allow (unused_imports)] use super :: * ;"));
    }

    /// Every `pub` item, field and variant has a doc attribute.
    #[test]
    fn every_public_item_is_documented() {
        fn has_doc(attrs: &[syn::Attribute]) -> bool {
            attrs.iter().any(|a| a.path().is_ident("doc"))
        }
        fn is_pub(v: &syn::Visibility) -> bool {
            matches!(v, syn::Visibility::Public(_))
        }
        fn check(items: &[syn::Item], missing: &mut Vec<String>) {
            for item in items {
                match item {
                    syn::Item::Struct(x) if is_pub(&x.vis) => {
                        if !has_doc(&x.attrs) {
                            missing.push(x.ident.to_string());
                        }
                        for f in &x.fields {
                            if is_pub(&f.vis) && !has_doc(&f.attrs) {
                                missing.push(format!("{}.{}", x.ident, s(&f.ident)));
                            }
                        }
                    }
                    syn::Item::Enum(x) if is_pub(&x.vis) => {
                        if !has_doc(&x.attrs) {
                            missing.push(x.ident.to_string());
                        }
                        for v in &x.variants {
                            if !has_doc(&v.attrs) {
                                missing.push(format!("{}::{}", x.ident, v.ident));
                            }
                            for f in v.fields.iter().filter(|f| f.ident.is_some()) {
                                if !has_doc(&f.attrs) {
                                    missing.push(format!("{}::{}.{}", x.ident, v.ident, s(&f.ident)));
                                }
                            }
                        }
                    }
                    syn::Item::Mod(x) if is_pub(&x.vis) => {
                        if !has_doc(&x.attrs) {
                            missing.push(x.ident.to_string());
                        }
                        if let Some((_, items)) = &x.content {
                            check(items, missing);
                        }
                    }
                    syn::Item::Fn(x) if is_pub(&x.vis) && !has_doc(&x.attrs) => {
                        missing.push(x.sig.ident.to_string())
                    }
                    syn::Item::Const(x) if is_pub(&x.vis) && !has_doc(&x.attrs) => {
                        missing.push(x.ident.to_string())
                    }
                    syn::Item::Impl(x) if x.trait_.is_none() => {
                        for i in &x.items {
                            let (vis, attrs, name) = match i {
                                syn::ImplItem::Fn(f) => (&f.vis, &f.attrs, f.sig.ident.to_string()),
                                syn::ImplItem::Const(c) => (&c.vis, &c.attrs, c.ident.to_string()),
                                _ => continue,
                            };
                            if is_pub(vis) && !has_doc(attrs) {
                                missing.push(format!("{}::{name}", s(&x.self_ty)));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut missing = Vec::new();
        check(&emit_file(&demo()).items, &mut missing);
        assert!(missing.is_empty(), "undocumented: {missing:?}");
    }

    #[test]
    fn schema_docs_become_doc_attributes() {
        let file = emit_file(&demo());
        let linkage = enumm(&file.items, "Linkage");
        assert_eq!(s(&linkage.attrs[0]), "# [doc = \"How a global value is linked.\"]");
        let weak = &linkage.variants[1];
        assert!(s(&weak.attrs[0]).contains("obsolete code(s) 1, 4"), "{}", s(&weak.attrs[0]));
        let name = find_item(&file.items, "FORMAT_NAME");
        assert!(s(name[0]).contains("A made-up format."));
    }

    #[test]
    fn raw_and_keyword_names_become_identifiers() {
        assert_eq!(ident("r#type").unwrap().to_string(), "r#type");
        assert_eq!(ident("type").unwrap().to_string(), "r#type");
        assert_eq!(ident("gen").unwrap().to_string(), "r#gen");
        assert_eq!(ident("foo_1").unwrap().to_string(), "foo_1");
        for bad in
            ["", "_", "1x", "a-b", "r#", "r#self", "self", "Self", "super", "crate", "r#r#x", "é", "a b"]
        {
            assert!(ident(bad).is_none(), "{bad}");
        }
    }

    /// A model the validator should never let through: invalid and duplicate names, codes,
    /// tags and ids, bad bit ranges, defaults that do not fit, kinds that differ by layout.
    fn broken() -> Schema {
        let mut schema = demo();
        let e = &mut schema.enums[0];
        e.rust_name = "1 bad".into();
        let mut dup = schema.enums[1].clone();
        dup.name = sp("Dup".into());
        schema.enums.push(dup); // duplicate rust name
        schema.enums[2].values.push(EnumValue {
            name: sp("unknown".into()),
            rust_name: "Unknown".into(),
            code: sp(5),
            doc: None,
        });
        schema.enums[2].values.push(EnumValue {
            name: sp("again".into()),
            rust_name: "Again".into(),
            code: sp(0),
            doc: None,
        });
        schema.flags[0].fields.push(flag("wide", 60..70, None));
        schema.flags[0].fields.push(flag("backwards", std::ops::Range { start: 9, end: 3 }, None));
        schema.flags[0].fields.push(flag("other_bits", 50..51, None));
        schema.groups[0].variants.push(variant("dup_tag", 0, vec![]));
        let mb = &mut schema.blocks[0];
        mb.records.push(record("VERSION_AGAIN", 1, vec![]));
        let mut r = record("RECORD", 30, vec![]);
        r.rust_name = "Record".into();
        mb.records.push(r);
        mb.records.push(record(
            "WEIRD",
            31,
            vec![
                field("x", Kind::Enum(sp("NoSuchEnum".into()))),
                field("x", Kind::Unsigned(8)),
                {
                    let mut f = field("bad name", Kind::Unsigned(8));
                    f.rust_name = "bad name".into();
                    f
                },
                field("extra_operands", Kind::Bool),
                with(field("s", Kind::String), default(DefaultValue::Int(3))),
                with(
                    field("f", Kind::Flags(sp("VarFlags".into()))),
                    default(DefaultValue::Int(1 << 40 | 7 << 40)),
                ),
                with(field("u", Kind::Unsigned(8)), default(DefaultValue::Int(300))),
                with(field("al", Kind::Align), default(DefaultValue::Int(99))),
                with(field("i", Kind::Signed), default(DefaultValue::Int(i64::MIN as i128))),
            ],
        ));
        mb.records.push(layouts(
            "MISMATCH",
            32,
            vec![
                (0..1, vec![field("a", Kind::Bool)]),
                (1..3, vec![field("a", Kind::Unsigned(8)), field("b", Kind::Bool)]),
            ],
        ));
        mb.records.push(layouts("PARTIAL", 33, vec![(5..9, vec![field("a", Kind::Bool)])]));
        mb.records.push(layouts("NOLAYOUT", 34, vec![]));
        let mut b = block("MODULE_BLOCK", 8, Strategy::Eager, vec![]);
        b.module_name = "module_block2".into();
        schema.blocks.push(b); // duplicate id
        schema.blocks.push(block("UNKNOWN_BLOCK", 40, Strategy::Eager, vec![]));
        let mut b = block("BAD", 41, Strategy::Eager, vec![]);
        b.module_name = "self".into();
        schema.blocks.push(b);

        schema
    }

    /// It still emits parseable code, skipping what cannot be emitted.
    #[test]
    fn a_broken_model_still_emits_parseable_code() {
        let schema = broken();
        let file = emit_file(&schema);
        assert!(find_item(&file.items, "Linkage").is_empty(), "invalid name skipped");
        assert_eq!(find_item(&file.items, "Visibility").len(), 1, "duplicate rust name skipped");
        let cc = enumm(&file.items, "CallingConv");
        assert_eq!(
            cc.variants.len(),
            3,
            "C, Fast, Unknown(u64): the clashing and duplicate-code values skipped"
        );
        let flags = fields(strukt(&file.items, "VarFlags"));
        assert_eq!(flags.len(), 6, "wide, backwards and other_bits skipped");
        assert_eq!(flags[4], ("linkage".into(), ":: core :: primitive :: u64".into()), "its enum is gone");
        let m = module(&file, "module_block");
        assert_eq!(enumm(m, "Record").variants.len(), 15, "duplicate code and `Record` skipped");
        let weird = fields(strukt(m, "Weird"));
        let names: Vec<&str> = weird.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["x", "s", "f", "u", "al", "i"], "a read-rest field: no extra_operands");
        let body = impls_of(m, "Weird");
        assert!(body.contains("let v0 = ops . raw (\"x\") ?"), "{body}");
        assert!(body.contains("let _ = ops . uint :: < :: core :: primitive :: u8 > (\"x\") ?"), "{body}");
        assert!(body.contains("let _ = ops . boolean (\"extra_operands\") ?"), "{body}");
        assert!(body.contains("let v1 = ops . string (\"s\") ?"), "no default for a string");
        assert!(
            body.contains("let v3 = ops . uint :: < :: core :: primitive :: u8 > (\"u\") ?"),
            "300 is no u8"
        );
        assert!(body.contains("let v4 = ops . align (\"al\") ?"));
        assert!(body.contains("ops . or_default (:: core :: primitive :: i64 :: MIN ,"));
        let mismatch = fields(strukt(m, "Mismatch"));
        assert_eq!(
            mismatch[0],
            ("a".into(), ":: core :: option :: Option < :: core :: primitive :: bool >".into())
        );
        let body = impls_of(m, "Mismatch");
        assert!(body.contains("_ => { let _ = ops . uint :: < :: core :: primitive :: u8 > (\"a\") ? ; let v1 = ops . boolean (\"b\") ? ;"), "{body}");
        let partial = impls_of(m, "Partial");
        assert!(partial.contains("let _ = ops . layout (ctx . version () , & [(5 , 9)]) ? ;"), "{partial}");
        assert!(!partial.contains("match"));
        assert!(impls_of(m, "Nolayout").contains("Ok (Self { extra_operands : ops . finish (ctx) , })"));
        let any = enumm(&file.items, "AnyRecord");
        let v: Vec<String> = any.variants.iter().map(|v| v.ident.to_string()).collect();
        assert_eq!(v, ["ModuleBlock", "ParamattrBlock", "FunctionBlock", "UnknownBlock2", "UnknownBlock"]);
        assert!(
            find_item(&file.items, "module_block2").len() == 1,
            "a block with a duplicate id keeps its module"
        );
    }

    #[test]
    fn an_empty_schema_emits_the_schema_level_items() {
        let file = emit_file(&Schema::default());
        assert_eq!(enumm(&file.items, "AnyRecord").variants.len(), 1);
        assert_eq!(find_item(&file.items, "decode_record").len(), 1);
    }
}
