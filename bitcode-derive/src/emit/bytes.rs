//! Emission for byte-framed schemas (`framing = "bytes"`, LLVM 1.x bytecode): a struct per
//! struct and per block body, an enum per group, each with `read_bytes`, which reads its
//! fields in order over the runtime's `ByteFields` in their byte encodings; and per schema
//! `block_name`, the block ids by version, and `read_block`, which decodes a block's body
//! by its id into `AnyBody`.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::tokens::*;
use super::*;
use crate::expr::{parse_count, parse_test, Atom, Test};
use crate::model::{Framing, Presence, Select};

/// One field already read, for the expressions of later fields.
struct Bound<'f> {
    name: &'f str,
    local: Ident,
    kind: &'f ResolvedKind,
    /// The local is an `Option`.
    wrapped: bool,
}

impl<'s> Cx<'s> {
    /// Everything a byte-framed schema generates after its enums and flags.
    pub(super) fn bytes_items(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for st in &self.m.structs {
            out.extend(self.byte_struct(st));
        }
        for g in &self.m.groups {
            out.extend(self.byte_group(g));
        }
        for b in &self.m.blocks {
            out.extend(self.byte_block(b));
        }
        out.extend(self.byte_schema_items());
        out
    }

    /// The Rust type of a byte-framed field as its struct holds it (`None`: no field, for
    /// `align32`).
    fn byte_field_type(&self, f: &FieldInfo<'_>) -> Option<TokenStream> {
        let rt = self.rt;
        let scope = Scope::top();
        let base = match &f.kind {
            Kind::Align32 => return None,
            Kind::Group(g) => self.group_type(*g, &scope, quote!('a)),
            Kind::Array(e) | Kind::CountedArray(e, _) => match &e.value {
                Kind::Group(g) => {
                    let t = self.group_type(*g, &scope, quote!('a));
                    quote!(#rt::decode::Array<#t>)
                }
                _ => self.type_of(&f.kind, &scope),
            },
            k => self.type_of(k, &scope),
        };
        let wrapped = Self::byte_wrapped(f) && !f.kind.is_option();
        let o = option();
        Some(if wrapped { quote!(#o<#base>) } else { base })
    }

    fn byte_wrapped(f: &FieldInfo<'_>) -> bool {
        f.condition.is_some() || f.versions.is_some() || matches!(f.presence, Presence::Optional)
    }

    /// A test of the version the context reports.
    fn version_test(range: &std::ops::Range<u64>) -> TokenStream {
        let lo = Literal::u64_unsuffixed(range.start);
        if range.end == u64::MAX {
            quote!(ctx.version() >= #lo)
        } else {
            let hi = Literal::u64_unsuffixed(range.end);
            quote!((#lo..#hi).contains(&ctx.version()))
        }
    }

    /// An expression of type `u64` for an atom, given the fields read before.
    fn atom_value(&self, atom: &Atom, bound: &[Bound<'_>], field: &str) -> TokenStream {
        let rt = self.rt;
        let u = prim("u64");
        match atom {
            Atom::Number(n) => {
                let n = Literal::u64_suffixed(*n);
                quote!(#n)
            }
            Atom::Query(q) => {
                let (q, n) = (str_lit(q), str_lit(field));
                quote!(ctx.query(#q).ok_or_else(|| ops.unanswered(#n, #q))?)
            }
            Atom::Field(name, None) if name == "tag" && !bound.iter().any(|b| b.name == "tag") => quote!(tag),
            Atom::Field(name, part) => {
                let Some(b) = bound.iter().rev().find(|b| b.name == name) else { return quote!(0u64) };
                let v = quote!(v);
                let conv = match (b.kind, part) {
                    (Kind::Enum(_), None) => quote!(#rt::decode::SchemaEnum::code(#v)),
                    (Kind::Type, None) => quote!((#v.0 as #u)),
                    (Kind::Flags(_), None) => quote!(#rt::decode::SchemaFlags::bits(&#v)),
                    (Kind::Flags(fl), Some(part)) => {
                        let info = self.m.flags.get(*fl);
                        match info.and_then(|i| i.fields.iter().find(|x| x.name == part)) {
                            Some(x) => {
                                let id = &x.ident;
                                if x.enumeration.is_some() {
                                    quote!(#rt::decode::SchemaEnum::code(#v.#id))
                                } else {
                                    quote!((#v.#id as #u))
                                }
                            }
                            None => quote!(0u64),
                        }
                    }
                    _ => quote!((#v as #u)),
                };
                let local = &b.local;
                if b.wrapped {
                    quote!(#local.clone().map_or(0u64, |v| #conv))
                } else {
                    quote!({ let v = #local.clone(); #conv })
                }
            }
        }
    }

    fn test_value(&self, t: &Test, bound: &[Bound<'_>], field: &str) -> TokenStream {
        match t {
            Test::Any(v) => {
                let parts = v.iter().map(|t| self.test_value(t, bound, field));
                quote!((#(#parts)||*))
            }
            Test::All(v) => {
                let parts = v.iter().map(|t| self.test_value(t, bound, field));
                quote!((#(#parts)&&*))
            }
            Test::Not(t) => {
                let t = self.test_value(t, bound, field);
                quote!((!#t))
            }
            Test::Nested(t) => self.test_value(t, bound, field),
            Test::Compare(a, n, eq) => {
                let a = self.atom_value(a, bound, field);
                let n = Literal::u64_suffixed(*n);
                if *eq {
                    quote!((#a == #n))
                } else {
                    quote!((#a != #n))
                }
            }
            Test::Truthy(a) => {
                let a = self.atom_value(a, bound, field);
                quote!((#a != 0))
            }
        }
    }

    fn count_value(&self, text: &str, bound: &[Bound<'_>], field: &str) -> TokenStream {
        let Ok(c) = parse_count(text) else { return quote!(0u64) };
        let a = self.atom_value(&c.atom, bound, field);
        let off = Literal::i64_suffixed(c.offset);
        if c.offset == 0 {
            a
        } else {
            quote!((#a).saturating_add_signed(#off))
        }
    }

    /// An expression of type `Result<T>` reading one value of kind `k`.
    fn byte_read(&self, k: &ResolvedKind, f: &FieldInfo<'_>, bound: &[Bound<'_>]) -> TokenStream {
        let _ = self.rt;
        let n = str_lit(f.name);
        let scope = Scope::top();
        let okk = ok();
        match k {
            Kind::Unsigned(32) if f.src.fixed => quote!(ops.fixed32()),
            Kind::Unsigned(bits) => {
                let p = prim(unsigned_type(*bits));
                quote!(ops.uint::<#p>(#n))
            }
            Kind::Bool => quote!(ops.boolean(#n)),
            Kind::Signed => quote!(ops.signed(#n)),
            Kind::Enum(_) => {
                let t = self.type_of(k, &scope);
                quote!(ops.enumeration::<#t>(#n))
            }
            Kind::Flags(_) => {
                let t = self.type_of(k, &scope);
                let fixed = f.src.fixed;
                quote!(ops.flags::<#t>(#n, #fixed))
            }
            Kind::Type => {
                let escape = match &self.m.schema.format.type_escape {
                    Some(r) => Self::version_test(&r.value),
                    None => quote!(false),
                };
                quote!(ops.type_id(#n, #escape))
            }
            Kind::Float32 => quote!(ops.float32()),
            Kind::Float64 => quote!(ops.float64()),
            Kind::String => quote!(ops.string(#n)),
            Kind::ByteString(count) => {
                let c = self.count_value(count, bound, f.name);
                quote!((|| { let c = ops.check(#n, #c)?; ops.bytes(#n, c) })())
            }
            Kind::Align32 => quote!({ ops.align32(); #okk(()) }),
            Kind::Blocks => quote!(ops.blocks(#n, ctx.version())),
            Kind::Struct(st) => {
                let t = self.struct_type(*st, &scope, quote!('_));
                quote!(<#t>::read_bytes(ops, ctx))
            }
            Kind::Group(g) => {
                let t = self.group_type(*g, &scope, quote!('_));
                quote!(<#t>::read_bytes(ops, #n, ctx))
            }
            Kind::Array(e) | Kind::CountedArray(e, _) => {
                let mut inner = self.byte_read(&e.value, f, bound);
                if f.src.tell && matches!(e.value, Kind::Group(_) | Kind::Struct(_)) {
                    // Each element is told as it is read.
                    let name = str_lit(f.name);
                    inner = quote!(#inner.map(|v| { ctx.tell_item(#name, &v); v }));
                }
                match (k, &f.src.until) {
                    (Kind::Array(_), None) => quote!(ops.until_end(|ops| #inner)),
                    (Kind::Array(_), Some(until)) => self.byte_until(&e.value, &until.value, inner),
                    (Kind::CountedArray(_, None), _) => {
                        quote!((|| { let c = ops.count(#n)?; ops.counted(c, |ops| #inner) })())
                    }
                    (Kind::CountedArray(_, Some(count)), _) => {
                        let c = self.count_value(count, bound, f.name);
                        quote!((|| { let c = ops.check(#n, #c)?; ops.counted(c, |ops| #inner) })())
                    }
                    _ => quote!(ops.until_end(|ops| #inner)),
                }
            }
            _ => quote!(ops.uint::<::core::primitive::u64>(#n)),
        }
    }

    /// Elements until one the test finds true: for a struct element, its first fields are
    /// read and tested, and the element read whole when it is not the end.
    fn byte_until(&self, element: &ResolvedKind, until: &str, inner: TokenStream) -> TokenStream {
        let okk = ok();
        let Kind::Struct(st) = element else {
            let n = Literal::u64_suffixed(until.trim().parse().unwrap_or(0));
            let value = match element {
                Kind::Type => quote!(::core::primitive::u64::from(v.0)),
                _ => quote!((v as ::core::primitive::u64)),
            };
            return quote!((|| {
                let mut out = ::std::vec::Vec::new();
                loop {
                    let v = #inner?;
                    if #value == #n { break; }
                    out.push(v);
                }
                #okk(out)
            })());
        };
        let Some(info) = self.m.structs.get(*st) else { return quote!(ops.until_end(|ops| #inner)) };
        let Ok(test) = parse_test(until) else { return quote!(ops.until_end(|ops| #inner)) };
        // The first fields, up to the last one the test reads.
        let last = test
            .atoms()
            .iter()
            .filter_map(|a| match a {
                Atom::Field(name, _) => info.fields.iter().position(|f| f.name == name),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let (stmts, bound) = self.byte_reads(info.fields.get(..=last).unwrap_or_default());
        let t = self.test_value(&test, &bound, info.name);
        quote!((|| {
            let mut out = ::std::vec::Vec::new();
            loop {
                let saved = ops.save();
                #(#stmts)*
                if #t { break; }
                ops.restore(saved);
                out.push(#inner?);
            }
            #okk(out)
        })())
    }

    /// `let` statements reading `fields` in order, with their bindings.
    fn byte_reads<'f>(&self, fields: &'f [FieldInfo<'f>]) -> (Vec<TokenStream>, Vec<Bound<'f>>) {
        let mut stmts = Vec::new();
        let mut bound: Vec<Bound<'f>> = Vec::new();
        let (sm, nn) = (some(), none());
        for (i, f) in fields.iter().enumerate() {
            let local = format_ident!("f{}", i);
            let read = self.byte_read(&f.kind, f, &bound);
            let item = matches!(f.kind, Kind::Group(_) | Kind::Struct(_));
            let tell = if f.src.tell && item {
                let name = str_lit(f.name);
                quote!(ctx.tell_item(#name, &v);)
            } else if f.src.tell && !matches!(f.kind, Kind::Array(_) | Kind::CountedArray(..)) {
                let name = str_lit(f.name);
                let b = [Bound { name: f.name, local: format_ident!("v"), kind: &f.kind, wrapped: false }];
                let value = self.atom_value(&Atom::Field(f.name.to_string(), None), &b, f.name);
                quote!(ctx.tell(#name, #value);)
            } else {
                quote!()
            };
            let one = quote!({ let v = #read?; #tell v });
            let mut tests = Vec::new();
            if let Some(r) = &f.versions {
                tests.push(Self::version_test(r));
            }
            if let Some(c) = &f.src.condition {
                if let Ok(t) = parse_test(&c.value.text) {
                    tests.push(self.test_value(&t, &bound, f.name));
                }
            }
            let flatten = if f.kind.is_option() { quote!(.flatten()) } else { quote!() };
            let value = match (&f.presence, tests.is_empty()) {
                (Presence::Optional, _) => {
                    let guard = if tests.is_empty() { quote!(true) } else { quote!(#(#tests)&&*) };
                    quote!(if #guard && !ops.is_empty() { #sm(#one) } else { #nn } #flatten)
                }
                (_, false) => quote!(if #(#tests)&&* { #sm(#one) } else { #nn } #flatten),
                (Presence::Default(d), true) => {
                    match self.default_literal(&f.kind, &d.value, &Scope::top()) {
                        Some(lit) => quote!(if ops.is_empty() { #lit } else { #one }),
                        None => one,
                    }
                }
                (Presence::Required, true) => one,
            };
            stmts.push(quote!(let #local = #value;));
            bound.push(Bound {
                name: f.name,
                local,
                kind: &f.kind,
                wrapped: Self::byte_wrapped(f) && !f.kind.is_option(),
            });
        }
        (stmts, bound)
    }

    /// The struct literal of `fields` read into `f0`, `f1`, ...
    fn byte_literal(fields: &[FieldInfo<'_>], ctor: TokenStream) -> TokenStream {
        let inits = fields.iter().enumerate().filter(|(_, f)| !matches!(f.kind, Kind::Align32)).filter_map(
            |(i, f)| {
                let id = f.ident.as_ref()?;
                let local = format_ident!("f{}", i);
                Some(quote!(#id: #local))
            },
        );
        quote!(#ctor { #(#inits,)* })
    }

    fn byte_field_decls(&self, fields: &[FieldInfo<'_>], public: bool) -> Vec<TokenStream> {
        fields
            .iter()
            .filter_map(|f| {
                let id = f.ident.as_ref()?;
                let ty = self.byte_field_type(f)?;
                let doc = doc_attr(f.doc, || format!("`{}`.", f.name));
                Some(if public { quote!(#doc pub #id: #ty) } else { quote!(#doc #id: #ty) })
            })
            .collect()
    }

    fn byte_struct(&self, st: &StructInfo<'_>) -> TokenStream {
        let doc = doc_attr(st.doc, || format!("The `{}` struct of the schema.", st.name));
        let id = &st.ident;
        self.byte_fields_type(quote!(#id), doc, st.lifetime, &st.fields, "Reads one, its fields in order.")
    }

    /// A struct of `fields` named `id`, with `read_bytes`, which reads them in order.
    fn byte_fields_type(
        &self,
        id: TokenStream,
        doc: TokenStream,
        lifetime: bool,
        fields: &[FieldInfo<'_>],
        read_doc: &str,
    ) -> TokenStream {
        let rt = self.rt;
        let params = lifetime_params(lifetime);
        let decls = self.byte_field_decls(fields, true);
        let (stmts, _) = self.byte_reads(fields);
        let lit = Self::byte_literal(fields, quote!(Self));
        let okk = ok();
        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq)]
            pub struct #id #params { #(#decls,)* }

            impl<'a> #id #params {
                #[doc = #read_doc]
                #[allow(unused_variables, clippy::redundant_closure_call, clippy::needless_question_mark)]
                pub fn read_bytes<C: #rt::byte_fields::ByteContext + ?::core::marker::Sized>(
                    ops: &mut #rt::byte_fields::ByteFields<'a, '_>,
                    ctx: &mut C,
                ) -> #rt::Result<Self> {
                    #(#stmts)*
                    #okk(#lit)
                }
            }
        }
    }

    fn byte_group(&self, g: &GroupInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let id = &g.ident;
        let name = str_lit(g.name);
        let doc = doc_attr(g.doc, || format!("The `{}` group of the schema.", g.name));
        let params = lifetime_params(g.lifetime);
        let okk = ok();
        let tag = match g.select {
            Select::Read => quote!(::core::primitive::u64::from(ops.uint::<::core::primitive::u32>(field)?)),
            Select::Query(q) => {
                let q = str_lit(q);
                quote!(ctx.query(#q).ok_or_else(|| ops.unanswered(field, #q))?)
            }
            Select::Peek { fixed, bits } => {
                let word = if *fixed { quote!(ops.peek_fixed32()?) } else { quote!(ops.peek_vbr32()?) };
                let lo = Literal::u32_unsuffixed(bits.start);
                let mask = Literal::u64_suffixed(low_mask(bits.end - bits.start));
                quote!((::core::primitive::u64::from(#word) >> #lo) & #mask)
            }
        };
        let mut decls = Vec::new();
        let mut arms = Vec::new();
        let mut others = Vec::new();
        for v in &g.variants {
            let vid = &v.ident;
            let vdoc = doc_attr(v.doc, || format!("`{}`.", v.name));
            let fields = self.byte_field_decls(&v.fields, false);
            decls.push(if fields.is_empty() {
                quote!(#vdoc #vid)
            } else {
                quote!(#vdoc #vid { #(#fields,)* })
            });
            let (stmts, _) = self.byte_reads(&v.fields);
            let body = if v.fields.iter().any(|f| f.ident.is_some() && !matches!(f.kind, Kind::Align32)) {
                let lit = Self::byte_literal(&v.fields, quote!(Self::#vid));
                quote!({ #(#stmts)* #okk(#lit) })
            } else {
                quote!({ #(#stmts)* #okk(Self::#vid) })
            };
            let guard = match &v.src.versions {
                Some(r) => {
                    let t = Self::version_test(&r.value);
                    quote!(if #t)
                }
                None => quote!(),
            };
            if v.src.other {
                others.push(quote!(_ #guard => #body));
                continue;
            }
            if v.src.tag_by_version.is_empty() {
                let tags = std::iter::once(v.tag)
                    .chain(v.src.more_tags.iter().copied())
                    .map(Literal::u64_unsuffixed);
                arms.push(quote!(#(#tags)|* #guard => #body));
            } else {
                for (range, t) in &v.src.tag_by_version {
                    let t = Literal::u64_unsuffixed(*t);
                    let test = Self::version_test(range);
                    arms.push(quote!(#t if #test => #body));
                }
            }
        }
        arms.extend(others);
        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq)]
            pub enum #id #params { #(#decls,)* }

            impl<'a> #id #params {
                /// Reads one: its tag, then the fields of the variant the tag selects.
                #[allow(unused_variables, clippy::redundant_closure_call, clippy::needless_question_mark, unreachable_patterns)]
                pub fn read_bytes<C: #rt::byte_fields::ByteContext + ?::core::marker::Sized>(
                    ops: &mut #rt::byte_fields::ByteFields<'a, '_>,
                    field: &'static ::core::primitive::str,
                    ctx: &mut C,
                ) -> #rt::Result<Self> {
                    let tag: ::core::primitive::u64 = #tag;
                    match tag {
                        #(#arms,)*
                        _ => ::core::result::Result::Err(ops.unknown_tag(field, tag, #name)),
                    }
                }
            }
        }
    }

    fn byte_block(&self, b: &BlockInfo<'_>) -> TokenStream {
        let module = &b.module;
        let name = str_lit(&b.def.name.value);
        let doc = doc_attr(b.def.doc.as_deref(), || format!("The `{}` block.", b.def.name.value));
        let lifetime = b.fields.iter().any(|f| self.m.needs_lifetime(&f.kind));
        let body = self.byte_fields_type(
            quote!(Body),
            quote!(#[doc = "The block's body, its fields in order."]),
            lifetime,
            &b.fields,
            "Reads the body from `ops` (the block's bytes, after its header).",
        );
        let id = Literal::u32_suffixed(b.def.id.value);
        let u32_ = prim("u32");
        quote! {
            #doc
            pub mod #module {
                #[allow(unused_imports)]
                use super::*;

                /// The block's schema name.
                pub const NAME: &::core::primitive::str = #name;
                /// The block's id in the versions `ids` does not name.
                pub const ID: #u32_ = #id;

                #body
            }
        }
    }

    fn byte_schema_items(&self) -> TokenStream {
        let rt = self.rt;
        let u32_ = prim("u32");
        let u64_ = prim("u64");
        let s = static_str();
        let opt = option();
        let mut name_arms = Vec::new();
        let mut any_variants = Vec::new();
        let mut read_arms = Vec::new();
        for b in &self.m.blocks {
            let name = str_lit(&b.def.name.value);
            let module = &b.module;
            let Some(variant) = &b.any_variant else { continue };
            let mut tests = Vec::new();
            for (range, id) in &b.def.ids {
                let id = Literal::u32_unsuffixed(id.value);
                let t = Self::version_test(&range.value);
                tests.push(quote!(#id if #t));
            }
            // The plain id, in every version `ids` does not cover.
            let covered: Vec<TokenStream> =
                b.def.ids.iter().map(|(r, _)| Self::version_test(&r.value)).collect();
            let id = Literal::u32_unsuffixed(b.def.id.value);
            let plain = if covered.is_empty() { quote!(#id) } else { quote!(#id if !(#(#covered)||*)) };
            tests.push(plain);
            for t in &tests {
                name_arms.push(quote!(#t => #opt::Some(#name)));
                read_arms
                    .push(quote!(#t => #opt::Some(AnyBody::#variant(#module::Body::read_bytes(ops, ctx)?))));
            }
            let lifetime = b.fields.iter().any(|f| self.m.needs_lifetime(&f.kind));
            let ty = if lifetime { quote!(#module::Body<'a>) } else { quote!(#module::Body) };
            let doc = format!("A `{}` block.", b.def.name.value);
            any_variants.push(quote!(#[doc = #doc] #variant(#ty)));
        }
        quote! {
            /// The schema name of the block with `id` in format version `version`.
            #[allow(unused_variables)]
            pub fn block_name(id: #u32_, version: #u64_) -> #opt<#s> {
                struct Ctx(#u64_);
                impl Ctx { fn version(&self) -> #u64_ { self.0 } }
                let ctx = Ctx(version);
                match id {
                    #(#name_arms,)*
                    _ => #opt::None,
                }
            }

            /// A block's body, decoded by the schema block its id names.
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq)]
            pub enum AnyBody<'a> {
                #(#any_variants,)*
                #[doc(hidden)]
                __Lifetime(::core::marker::PhantomData<&'a ()>),
            }

            /// Decodes the body of the block with `id` (in the version the context reports);
            /// `None` when no schema block has that id.
            #[allow(unused_variables)]
            pub fn read_block<'a, C: #rt::byte_fields::ByteContext + ?::core::marker::Sized>(
                id: #u32_,
                ops: &mut #rt::byte_fields::ByteFields<'a, '_>,
                ctx: &mut C,
            ) -> #rt::Result<#opt<AnyBody<'a>>> {
                ::core::result::Result::Ok(match id {
                    #(#read_arms,)*
                    _ => #opt::None,
                })
            }
        }
    }
}

/// True for a schema whose blocks are byte framed.
pub(super) fn is_bytes(m: &Resolved<'_>) -> bool {
    m.schema.format.framing == Framing::Bytes
}
