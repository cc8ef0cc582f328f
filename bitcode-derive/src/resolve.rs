//! The resolved model: what `validate` hands `emit`. Every reference a kind makes to an
//! enum, flags, group or struct is an index into the lists here; every Rust name is an
//! identifier, unique where Rust needs it; obsolete enum values know the value they fold
//! to. Validation reports and repairs the schema's mistakes first; resolution still never
//! panics on any model: what cannot be emitted (an invalid identifier, a duplicate name,
//! code or tag, a reference that does not resolve) is left out, or becomes
//! [`Kind::Invalid`] (read as a raw `u64`) where leaving it out would shift the operands.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use proc_macro2::Ident;

use crate::kinds::{Kind, ResolvedKind};
use crate::model::{
    Block, DefaultValue, Enum, Field, Flags, Group, GroupVariant, Layout, Presence, RecordDef, Schema,
    Select, Spanned, StructDef, UnknownPolicy,
};
use crate::names::{self, ident, ident_key};

/// What an enum does with a code it does not name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Decoding fails.
    Error,
    /// An `Unknown(u64)` variant keeps the code.
    Keep,
    /// This variant (an index into the enum's variants) stands for every unknown code.
    Default(usize),
}

/// One value of an enum.
pub struct VariantInfo<'s> {
    /// The schema spelling.
    pub name: &'s str,
    /// The Rust variant.
    pub ident: Ident,
    /// The code.
    pub code: u64,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// For an obsolete value, the index of the current variant it folds to.
    pub folds_to: Option<usize>,
}

/// An enum: its values with distinct names and codes.
pub struct EnumInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// The Rust type.
    pub ident: Ident,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The values, in file order.
    pub variants: Vec<VariantInfo<'s>>,
    /// What an unknown code becomes.
    pub policy: Policy,
}

impl EnumInfo<'_> {
    /// The index of the value spelled `name`.
    pub fn variant_by_name(&self, name: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.name == name)
    }
}

/// One named part of a flag word, with a valid bit range.
pub struct FlagInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// The Rust field.
    pub ident: Ident,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The first bit.
    pub lo: u32,
    /// The bit after the last.
    pub hi: u32,
    /// True for a one-bit `bool`.
    pub single: bool,
    /// The enum the bits decode as: an index into [`Resolved::enums`].
    pub enumeration: Option<usize>,
}

/// A flag word.
pub struct FlagsInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// The Rust type.
    pub ident: Ident,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The named parts, with distinct Rust names.
    pub fields: Vec<FlagInfo<'s>>,
}

/// A field of a record layout, group variant or struct.
pub struct FieldInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// `None` when the Rust name is not a usable identifier: the operand is still read.
    pub ident: Option<Ident>,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The kind, its references resolved.
    pub kind: ResolvedKind,
    /// `optional` / `default` (an enum's default given by name is given by its code).
    pub presence: Presence,
    /// `present_if`: read only when this earlier field (or its flag) is true.
    pub condition: Option<Condition<'s>>,
    /// `versions`: read only in these format versions.
    pub versions: Option<Range<u64>>,
    /// The field as loaded and validated (byte framing reads `wire`, `until`, `tell` and
    /// the expressions from it).
    pub src: &'s Field,
}

/// `present_if`, resolved against the fields before it.
pub struct Condition<'s> {
    /// The schema name of the earlier field that decides.
    pub field: &'s str,
    /// What of it is tested.
    pub test: Test,
}

/// What a [`Condition`] tests of the earlier field.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// The `bool` field itself.
    Bool,
    /// This one-bit flag (the Rust field of the flags type) of the `flags` field.
    Flag(Ident),
    /// Nothing that can be true: the reference did not resolve (validation reported it).
    Never,
}

/// A struct: the element of an array.
pub struct StructInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// The Rust type.
    pub ident: Ident,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The fields, in operand order (plain operands: no presence, condition or versions).
    pub fields: Vec<FieldInfo<'s>>,
    /// True when some field borrows the input (the type gets `<'a>`).
    pub lifetime: bool,
}

/// One tagged variant of a group, with distinct tag and Rust name.
pub struct GVariantInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// The Rust variant.
    pub ident: Ident,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The tag.
    pub tag: u64,
    /// The fields after the tag.
    pub fields: Vec<FieldInfo<'s>>,
    /// The variant as loaded and validated.
    pub src: &'s GroupVariant,
}

/// A group: tagged variants read until the operands run out.
pub struct GroupInfo<'s> {
    /// The schema name.
    pub name: &'s str,
    /// The Rust type.
    pub ident: Ident,
    /// The schema's doc.
    pub doc: Option<&'s str>,
    /// The variants.
    pub variants: Vec<GVariantInfo<'s>>,
    /// True when some field borrows the input (the type gets `<'a>`).
    pub lifetime: bool,
    /// Where the tag comes from (byte framing).
    pub select: &'s Select,
}

/// A record with its layouts' fields resolved.
pub struct RecordInfo<'s> {
    /// The record as loaded and validated.
    pub def: &'s RecordDef,
    /// The Rust struct.
    pub ident: Ident,
    /// Each layout with its fields.
    pub layouts: Vec<(&'s Layout, Vec<FieldInfo<'s>>)>,
}

/// A block with the records that are emitted (valid Rust names, distinct codes and names).
pub struct BlockInfo<'s> {
    /// The block as loaded and validated.
    pub def: &'s Block,
    /// The Rust module.
    pub module: Ident,
    /// The records.
    pub records: Vec<RecordInfo<'s>>,
    /// The block's variant of `AnyRecord`; `None` when not dispatched by id (duplicate id).
    pub any_variant: Option<Ident>,
    /// The body's fields (byte framing).
    pub fields: Vec<FieldInfo<'s>>,
}

/// The resolved schema.
pub struct Resolved<'s> {
    /// The schema the model was resolved from.
    pub schema: &'s Schema,
    /// The enums that are emitted (valid, distinct Rust names), in file order.
    pub enums: Vec<EnumInfo<'s>>,
    /// The flags that are emitted.
    pub flags: Vec<FlagsInfo<'s>>,
    /// The groups that are emitted.
    pub groups: Vec<GroupInfo<'s>>,
    /// The structs that are emitted.
    pub structs: Vec<StructInfo<'s>>,
    /// The blocks that are emitted, with their records.
    pub blocks: Vec<BlockInfo<'s>>,
    enum_index: HashMap<&'s str, usize>,
    flags_index: HashMap<&'s str, usize>,
    group_index: HashMap<&'s str, usize>,
    struct_index: HashMap<&'s str, usize>,
}

impl<'s> Resolved<'s> {
    /// Resolves `schema`: every name a kind refers to becomes an index, every Rust name an
    /// identifier, and whatever cannot be emitted is left out (see the module's doc).
    pub fn new(schema: &'s Schema) -> Self {
        let mut model = Resolved {
            schema,
            blocks: Vec::new(),
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
                if !model.enum_index.contains_key(e.name.value.as_str()) {
                    model.enum_index.insert(&e.name.value, model.enums.len());
                    model.enums.push(resolve_enum(e, id));
                }
            }
        }
        for (f, id) in schema.flags.iter().zip(flags_ids) {
            if let Some(id) = id {
                if !model.flags_index.contains_key(f.name.value.as_str()) {
                    let info = model.resolve_flags(f, id);
                    model.flags_index.insert(&f.name.value, model.flags.len());
                    model.flags.push(info);
                }
            }
        }
        // Structs and groups may refer to each other (in a byte-framed schema, a struct may
        // hold a group that holds a struct): index them all before resolving their fields.
        let mut kept_structs = Vec::new();
        for (st, id) in schema.structs.iter().zip(struct_ids) {
            if let Some(id) = id {
                if !model.struct_index.contains_key(st.name.value.as_str()) {
                    model.struct_index.insert(&st.name.value, kept_structs.len());
                    kept_structs.push((st, id));
                }
            }
        }
        let mut kept = Vec::new();
        for (g, id) in schema.groups.iter().zip(group_ids) {
            if let Some(id) = id {
                if !model.group_index.contains_key(g.name.value.as_str()) {
                    model.group_index.insert(&g.name.value, kept.len());
                    kept.push((g, id));
                }
            }
        }
        let structs: Vec<StructInfo<'s>> =
            kept_structs.into_iter().map(|(st, id)| model.resolve_struct(st, id)).collect();
        model.structs = structs;
        let groups: Vec<GroupInfo<'s>> = kept.into_iter().map(|(g, id)| model.resolve_group(g, id)).collect();
        model.groups = groups;
        model.compute_lifetimes();
        model.blocks = model.resolve_blocks();
        model
    }

    fn resolve_flags(&self, f: &'s Flags, rust_ident: Ident) -> FlagsInfo<'s> {
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
        FlagsInfo { name: &f.name.value, ident: rust_ident, doc: f.doc.as_deref(), fields }
    }

    fn resolve_struct(&self, st: &'s StructDef, rust_ident: Ident) -> StructInfo<'s> {
        let mut field_idents = HashSet::new();
        let fields: Vec<FieldInfo<'s>> = self
            .resolve_fields(&st.fields)
            .into_iter()
            .map(|mut info| {
                // A bitstream struct's fields are plain operands: no presence, no condition.
                let bytes = self.schema.format.framing == crate::model::Framing::Bytes;
                if !bytes {
                    info.condition = None;
                    info.versions = None;
                }
                if matches!(info.kind, Kind::Struct(_)) && !bytes {
                    info.kind = Kind::Invalid;
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
        StructInfo { name: &st.name.value, ident: rust_ident, doc: st.doc.as_deref(), fields, lifetime }
    }

    fn resolve_group(&self, g: &'s Group, rust_ident: Ident) -> GroupInfo<'s> {
        let mut tags = HashSet::new();
        let mut idents = HashSet::new();
        let mut variants = Vec::new();
        for v in &g.variants {
            let Some(id) = ident(&v.rust_name) else { continue };
            let shared = v.other || !v.tag_by_version.is_empty() || v.versions.is_some();
            if !(tags.insert(v.tag.value) || shared) || !idents.insert(ident_key(&id)) {
                continue;
            }
            let mut field_idents = HashSet::new();
            let fields = self
                .resolve_fields(&v.fields)
                .into_iter()
                .map(|mut info| {
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
                src: v,
            });
        }
        GroupInfo {
            name: &g.name.value,
            ident: rust_ident,
            doc: g.doc.as_deref(),
            variants,
            lifetime: false,
            select: &g.select.value,
        }
    }

    /// Which structs and groups borrow the input: a fixpoint, since they may contain each
    /// other.
    fn compute_lifetimes(&mut self) {
        loop {
            let mut changed = false;
            for i in 0..self.structs.len() {
                if !self.structs[i].lifetime
                    && self.structs[i]
                        .fields
                        .iter()
                        .any(|f| f.ident.is_some() && self.needs_lifetime(&f.kind))
                {
                    self.structs[i].lifetime = true;
                    changed = true;
                }
            }
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

    pub fn enum_of(&self, name: &str) -> Option<usize> {
        self.enum_index.get(name).copied()
    }

    /// A list of fields, each `present_if` resolved against the fields before it.
    fn resolve_fields(&self, fields: &'s [Field]) -> Vec<FieldInfo<'s>> {
        let mut out: Vec<FieldInfo<'s>> = Vec::new();
        for f in fields {
            let kind = self.resolve_kind(&f.kind.value);
            let condition = f.condition.as_ref().map(|c| self.resolve_condition(&c.value, &out));
            out.push(FieldInfo {
                name: &f.name.value,
                ident: ident(&f.rust_name),
                doc: f.doc.as_deref(),
                presence: self.resolve_presence(&f.presence, &kind),
                kind,
                condition,
                versions: f.versions.as_ref().map(|v| v.value.clone()),
                src: f,
            });
        }
        out
    }

    /// The earlier field a condition names (the last of that name), and its bool or flag.
    fn resolve_condition(&self, c: &'s crate::model::Condition, earlier: &[FieldInfo<'s>]) -> Condition<'s> {
        let kind = earlier.iter().rev().find(|e| e.name == c.field).map(|e| &e.kind);
        let test = match (kind, &c.flag) {
            (Some(Kind::Bool), None) => Test::Bool,
            (Some(Kind::Flags(flags)), Some(flag)) => self
                .flags
                .get(*flags)
                .and_then(|f| f.fields.iter().find(|x| x.name == flag))
                .map_or(Test::Never, |x| Test::Flag(x.ident.clone())),
            _ => Test::Never,
        };
        Condition { field: &c.field, test }
    }

    /// The presence with an enum default named by its value given by that value's code
    /// (a name that does not resolve, reported already, leaves the field required).
    fn resolve_presence(&self, presence: &Presence, kind: &ResolvedKind) -> Presence {
        let (Presence::Default(d), Kind::Enum(e)) = (presence, kind) else { return presence.clone() };
        let DefaultValue::Variant(name) = &d.value else { return presence.clone() };
        let info = self.enums.get(*e);
        match info.and_then(|info| info.variants.get(info.variant_by_name(name)?)) {
            Some(v) => Presence::Default(Spanned::new(DefaultValue::Int(v.code.into()), d.span.clone())),
            None => Presence::Required,
        }
    }

    /// The kind with its item references as indices (an unresolved one is read raw).
    fn resolve_kind(&self, k: &Kind) -> ResolvedKind {
        let index =
            |map: &HashMap<&str, usize>, name: &Spanned<String>| map.get(name.value.as_str()).copied();
        // Without its span: kinds written in two layouts compare equal.
        let element = |of: &Spanned<Kind>| Box::new(Spanned::new(self.resolve_kind(&of.value), 0..0));
        let resolved = match k {
            Kind::Unsigned(bits) => Some(Kind::Unsigned(*bits)),
            Kind::Enum(name) => index(&self.enum_index, name).map(Kind::Enum),
            Kind::Flags(name) => index(&self.flags_index, name).map(Kind::Flags),
            Kind::Group(name) => index(&self.group_index, name).map(Kind::Group),
            Kind::Struct(name) => index(&self.struct_index, name).map(Kind::Struct),
            Kind::ConstantRange(width) => Some(Kind::ConstantRange(width.value.clone())),
            Kind::ByteString(count) => Some(Kind::ByteString(count.value.clone())),
            Kind::Array(of) => {
                let mut e = element(of);
                // An element that may read no operand (a blob, a string taken from the blob)
                // would repeat forever: such elements are read raw.
                if matches!(e.value, Kind::Blob | Kind::String) {
                    e.value = Kind::Invalid;
                }
                Some(Kind::Array(e))
            }
            Kind::CountedArray(of, count) => {
                Some(Kind::CountedArray(element(of), count.as_ref().map(|c| c.value.clone())))
            }
            // The kinds without references.
            plain => Kind::plain(plain.word()),
        };
        resolved.unwrap_or(Kind::Invalid)
    }

    /// True when a field of kind `k` borrows the input (its type gets `<'a>`).
    pub fn needs_lifetime(&self, k: &ResolvedKind) -> bool {
        match k {
            Kind::String | Kind::CString | Kind::Blob | Kind::ByteString(_) | Kind::Blocks => true,
            Kind::Array(e) | Kind::CountedArray(e, _) => self.needs_lifetime(&e.value),
            Kind::Group(g) => self.groups.get(*g).is_some_and(|g| g.lifetime),
            Kind::Struct(st) => self.structs.get(*st).is_some_and(|st| st.lifetime),
            _ => false,
        }
    }

    fn resolve_blocks(&self) -> Vec<BlockInfo<'s>> {
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
                let layouts = r.layouts.iter().map(|l| (l, self.resolve_fields(&l.fields))).collect();
                records.push(RecordInfo { def: r, ident: id, layouts });
            }
            let fields = self.resolve_fields(&b.fields);
            out.push(BlockInfo { def: b, module, records, any_variant, fields });
        }
        out
    }
}

/// An enum's variants (valid, distinct names and codes), what obsolete ones fold to, and
/// the unknown-code policy.
fn resolve_enum(e: &Enum, rust_ident: Ident) -> EnumInfo<'_> {
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
        ident: rust_ident,
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
