//! Fields: their Rust types, the runtime call that reads each, default literals.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::tokens::*;
use super::*;
use crate::model::{DefaultValue, Presence};

impl<'s> Cx<'s> {
    /// The Rust type of a field of kind `k` (before `optional` and layouts).
    pub(super) fn type_of(&self, k: &ResolvedKind, scope: &Scope) -> TokenStream {
        let rt = self.rt;
        match k {
            Kind::Unsigned(bits) => prim(unsigned_type(*bits)),
            Kind::Bool => prim("bool"),
            Kind::Signed => prim("i64"),
            Kind::Enum(i) => self.m.enums.get(*i).map_or_else(|| prim("u64"), |e| scope.path(&e.ident)),
            Kind::Flags(i) => self.m.flags.get(*i).map_or_else(|| prim("u64"), |f| scope.path(&f.ident)),
            Kind::Value | Kind::Relative | Kind::SignedRelative => quote!(#rt::decode::ValueId),
            Kind::ValueType => quote!(#rt::decode::ValueRef),
            Kind::Type => quote!(#rt::decode::TypeId),
            Kind::OptionalIndex => {
                let (o, u) = (option(), prim("u32"));
                quote!(#o<#u>)
            }
            Kind::Align => {
                let o = option();
                quote!(#o<#rt::decode::Align>)
            }
            Kind::String | Kind::CString => quote!(#rt::decode::Bytes<'a>),
            Kind::Blob => {
                let u = prim("u8");
                quote!(&'a [#u])
            }
            Kind::Array(e) | Kind::CountedArray(e, _) => {
                let t = self.type_of(&e.value, scope);
                quote!(#rt::decode::Array<#t>)
            }
            Kind::ConstantRange(_) => quote!(#rt::decode::ConstantRange),
            Kind::CallArgs => {
                quote!(#rt::decode::Array<#rt::decode::ValueRef>)
            }
            Kind::Group(g) => {
                let t = self.group_type(*g, scope, quote!('a));
                quote!(#rt::decode::Array<#t>)
            }
            Kind::Struct(st) => self.struct_type(*st, scope, quote!('a)),
            Kind::Float32 => prim("f32"),
            Kind::Float64 => prim("f64"),
            Kind::ByteString(_) => quote!(#rt::decode::Bytes<'a>),
            Kind::Align32 => quote!(()),
            Kind::Blocks => quote!(#rt::decode::Array<#rt::byte_fields::SubBlock<'a>>),
            Kind::Invalid => prim("u64"),
        }
    }

    /// A struct's type with `lt` as its lifetime argument, if it has one.
    pub(super) fn struct_type(&self, st: usize, scope: &Scope, lt: TokenStream) -> TokenStream {
        match self.m.structs.get(st) {
            Some(info) => {
                let path = scope.path(&info.ident);
                if info.lifetime {
                    quote!(#path<#lt>)
                } else {
                    path
                }
            }
            None => prim("u64"),
        }
    }

    /// A group's type with `lt` as its lifetime argument, if it has one.
    pub(super) fn group_type(&self, g: usize, scope: &Scope, lt: TokenStream) -> TokenStream {
        match self.m.groups.get(g) {
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

    /// An expression of type `Result<T>` reading one field of kind `k` from `ops`. `refs`
    /// gives, for earlier fields this one reads (a width, a count), a `u64` expression.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn read_call(
        &self,
        k: &ResolvedKind,
        name: &str,
        ctx: &TokenStream,
        scope: &Scope,
        top: bool,
        refs: &[(&str, TokenStream)],
    ) -> TokenStream {
        let rt = self.rt;
        let n = str_lit(name);
        let earlier = |field: &str| {
            refs.iter().rev().find(|(f, _)| *f == field).map_or_else(|| quote!(0u64), |(_, e)| e.clone())
        };
        match k {
            Kind::Unsigned(bits) => {
                let p = prim(unsigned_type(*bits));
                quote!(ops.uint::<#p>(#n))
            }
            Kind::Bool => quote!(ops.boolean(#n)),
            Kind::Signed => quote!(ops.signed(#n)),
            Kind::Enum(_) => {
                let t = self.type_of(k, scope);
                quote!(ops.enumeration::<#t>(#n))
            }
            Kind::Flags(_) => {
                let t = self.type_of(k, scope);
                quote!(ops.flags::<#t>(#n))
            }
            Kind::Value => quote!(ops.value(#n)),
            Kind::Relative => quote!(ops.relative(#n, #ctx)),
            Kind::SignedRelative => quote!(ops.signed_relative(#n, #ctx)),
            Kind::ValueType => quote!(ops.value_type(#n, #ctx)),
            Kind::Type => quote!(ops.type_id(#n)),
            Kind::OptionalIndex => quote!(ops.optional_index(#n)),
            Kind::Align => quote!(ops.align(#n)),
            Kind::String => quote!(ops.string(#n, #ctx)),
            Kind::CString => quote!(ops.cstring(#n, #ctx)),
            Kind::Blob => quote!(ops.blob(#n)),
            Kind::Array(e) => {
                let inner = self.read_call(&e.value, name, ctx, scope, false, refs);
                match &e.value {
                    // Structs are taken whole: fields after the array read what is left.
                    Kind::Struct(st) => {
                        let min =
                            Literal::usize_unsuffixed(self.m.structs.get(*st).map_or(1, |s| s.fields.len()));
                        quote!(ops.array_whole(#min, |ops| #inner))
                    }
                    _ => quote!(ops.array(|ops| #inner)),
                }
            }
            Kind::CountedArray(e, None) => {
                let inner = self.read_call(&e.value, name, ctx, scope, false, refs);
                quote!(ops.counted_array(#n, |ops| #inner))
            }
            Kind::CountedArray(e, Some(count)) => {
                let inner = self.read_call(&e.value, name, ctx, scope, false, refs);
                let count = earlier(count);
                quote!(ops.counted_by(#n, #count, |ops| #inner))
            }
            Kind::ConstantRange(width) => {
                let width = earlier(width);
                quote!(ops.constant_range(#n, #width))
            }
            Kind::CallArgs => quote!(ops.call_args(#n, #ctx)),
            Kind::Struct(st) => match self.m.structs.get(*st) {
                // One element: each field read in order into the struct.
                Some(info) => {
                    let path = scope.path(&info.ident);
                    let reads = info.fields.iter().map(|f| {
                        let v = self.read_field(f, ctx, scope, &[]);
                        match &f.ident {
                            Some(id) => quote!(#id: #v),
                            None => quote!(),
                        }
                    });
                    let ty = self.struct_type(*st, scope, quote!('_));
                    quote!((|| -> #rt::Result<#ty> { ::core::result::Result::Ok(#path { #(#reads,)* }) })())
                }
                None => quote!(ops.raw(#n)),
            },
            Kind::Group(g) if top => {
                let t = self.group_type(*g, scope, quote!('_));
                quote!(ops.groups::<#t>(#n, #ctx))
            }
            Kind::Group(g) => {
                let t = self.group_type(*g, scope, quote!('_));
                quote!(<#t as #rt::__private::SchemaGroup<'_>>::read(ops, #n, #ctx))
            }
            // Byte-framed kinds are never in a bitstream schema (validation made them
            // invalid there); `bytes.rs` reads them.
            Kind::Invalid
            | Kind::Float32
            | Kind::Float64
            | Kind::ByteString(_)
            | Kind::Align32
            | Kind::Blocks => {
                quote!(ops.raw(#n))
            }
        }
    }

    /// The value expression of one field read, with its presence: `T`, or `Option<T>` for
    /// an optional field (flattened when `T` is already an option).
    pub(super) fn read_field(
        &self,
        f: &FieldInfo<'_>,
        ctx: &TokenStream,
        scope: &Scope,
        refs: &[(&str, TokenStream)],
    ) -> TokenStream {
        let call = self.read_call(&f.kind, f.name, ctx, scope, true, refs);
        match &f.presence {
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
    pub(super) fn default_literal(
        &self,
        k: &ResolvedKind,
        v: &DefaultValue,
        scope: &Scope,
    ) -> Option<TokenStream> {
        let rt = self.rt;
        let int = match v {
            DefaultValue::Int(i) => Some(*i),
            _ => None,
        };
        match k {
            Kind::Unsigned(bits) => {
                let i = int?;
                let lit = match unsigned_type(*bits) {
                    "u8" => Literal::u8_suffixed(u8::try_from(i).ok()?),
                    "u16" => Literal::u16_suffixed(u16::try_from(i).ok()?),
                    "u32" => Literal::u32_suffixed(u32::try_from(i).ok()?),
                    _ => Literal::u64_suffixed(u64::try_from(i).ok()?),
                };
                Some(quote!(#lit))
            }
            Kind::Invalid => {
                let lit = Literal::u64_suffixed(u64::try_from(int?).ok()?);
                Some(quote!(#lit))
            }
            Kind::Bool => match v {
                DefaultValue::Bool(b) => Some(quote!(#b)),
                DefaultValue::Int(i @ (0 | 1)) => {
                    let b = *i == 1;
                    Some(quote!(#b))
                }
                _ => None,
            },
            Kind::Signed => {
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
            Kind::Value | Kind::Relative | Kind::SignedRelative => {
                let lit = Literal::u32_suffixed(u32::try_from(int?).ok()?);
                Some(quote!(#rt::decode::ValueId(#lit)))
            }
            Kind::Type => {
                let lit = Literal::u32_suffixed(u32::try_from(int?).ok()?);
                Some(quote!(#rt::decode::TypeId(#lit)))
            }
            // The operand the record would have had: 0 is none, n is index n - 1.
            Kind::OptionalIndex => match u64::try_from(int?).ok()? {
                0 => Some(none()),
                n => {
                    let lit = Literal::u32_suffixed(u32::try_from(n - 1).ok()?);
                    let s = some();
                    Some(quote!(#s(#lit)))
                }
            },
            Kind::Align => match u64::try_from(int?).ok()? {
                0 => Some(none()),
                n @ 1..=64 => {
                    let lit = Literal::u8_suffixed(u8::try_from(n - 1).ok()?);
                    Some(quote!(#rt::decode::Align::from_log2(#lit)))
                }
                _ => None,
            },
            // The resolved model gives an enum's default by its code.
            Kind::Enum(e) => {
                let info = self.m.enums.get(*e)?;
                self.enum_value_for_code(info, u64::try_from(int?).ok()?, &scope.path(&info.ident))
            }
            Kind::Flags(f) => self.flags_literal(*f, u64::try_from(int?).ok()?, scope),
            _ => None,
        }
    }

    /// What `from_code(code)` returns, as an expression of the enum's type.
    pub(super) fn enum_value_for_code(
        &self,
        info: &EnumInfo<'_>,
        code: u64,
        path: &TokenStream,
    ) -> Option<TokenStream> {
        let by_value = info.variants.iter().position(|v| v.code == code);
        let variant = match (by_value, info.policy) {
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
    pub(super) fn flags_literal(&self, f: usize, bits: u64, scope: &Scope) -> Option<TokenStream> {
        let info = self.m.flags.get(f)?;
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
                let e = self.m.enums.get(e)?;
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

    /// `Ok(ctor { slot: value, ... })` after reading `reads` in order: a struct literal
    /// when every read fills the next slot, else `let` bindings first. `wrap[i]`: slot `i`
    /// is an `Option` its reads do not already produce; a slot no read fills is `None`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn construct(
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
        let conditional = reads.iter().any(|r| {
            r.field.condition.is_some() || r.field.versions.is_some() || !r.field.kind.refers_to().is_empty()
        });
        let direct = !conditional
            && reads.len() == slots.len()
            && reads.iter().enumerate().all(|(i, r)| r.slot == Some(i));
        let sm = some();
        let nn = none();
        let value = |r: &Read<'_>, bindings: &[(&str, Ident, &ResolvedKind)]| {
            // Earlier fields this one reads (a width, a count), as `u64` values.
            let refs: Vec<(&str, TokenStream)> = bindings
                .iter()
                .filter(|(_, _, k)| matches!(k, Kind::Unsigned(_)))
                .map(|(name, b, _)| (*name, quote!((#b as ::core::primitive::u64))))
                .collect();
            let v = self.read_field(r.field, ctx, scope, &refs);
            let slot_wrapped = r.slot.is_some_and(|s| wrap.get(s).copied().unwrap_or(false));
            if let Some(range) = &r.field.versions {
                // Read only in the field's format versions; `None` in the others.
                let lo = Literal::u64_unsuffixed(range.start);
                let test = if range.end == u64::MAX {
                    quote!(ctx.version() >= #lo)
                } else {
                    let hi = Literal::u64_unsuffixed(range.end);
                    quote!((#lo..#hi).contains(&ctx.version()))
                };
                let v = if r.field.kind.is_option() { quote!(#v) } else { quote!(#sm(#v)) };
                return (quote!(if #test { #v } else { #nn }), false);
            }
            if let Some(c) = &r.field.condition {
                // Read only when the earlier field (or its flag) is true; `None` otherwise.
                let cond = bindings.iter().rev().find(|(name, _, _)| *name == c.field).map(|(_, b, _)| {
                    match &c.test {
                        Test::Bool => quote!(#b),
                        Test::Flag(flag) => quote!(#b.#flag),
                        Test::Never => quote!(false),
                    }
                });
                let cond = cond.unwrap_or_else(|| quote!(false));
                let v = if r.field.kind.is_option() { quote!(#v) } else { quote!(#sm(#v)) };
                return (quote!(if #cond { #v } else { #nn }), false);
            }
            let needs_some = slot_wrapped && !matches!(r.field.presence, Presence::Optional);
            (v, needs_some)
        };
        if direct {
            let inits = reads.iter().zip(slots).map(|(r, id)| {
                let (v, needs_some) = value(r, &[]);
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
        let mut bindings: Vec<(&str, Ident, &ResolvedKind)> = Vec::new();
        for (i, r) in reads.iter().enumerate() {
            let (v, needs_some) = value(r, &bindings);
            match r.slot {
                Some(s) if s < slots.len() && filled[s].is_none() => {
                    let b = format_ident!("v{}", s);
                    stmts.push(quote!(let #b = #v;));
                    filled[s] = Some(if needs_some { quote!(#sm(#b)) } else { quote!(#b) });
                    bindings.push((r.field.name, b, &r.field.kind));
                }
                _ => {
                    let b = format_ident!("_r{}", i);
                    stmts.push(quote!(let #b = #v;));
                    bindings.push((r.field.name, b, &r.field.kind));
                }
            }
        }
        let inits = slots.iter().zip(filled).map(|(id, v)| match v {
            Some(v) => quote!(#id: #v),
            None => quote!(#id: #nn),
        });
        quote!({ #(#stmts)* #okk(#ctor { #(#inits,)* #tail }) })
    }

    // -----------------------------------------------------------------------------------
    // Blocks
    // -----------------------------------------------------------------------------------
}
