//! Encoders: the way back from a typed record, group or struct to its operands, the mirror
//! of the readers in `fields.rs`. Each field is one call on the runtime's operand builder
//! (`OperandsOut`); presence decides whether the field must be written (kept) or may be
//! left out at the end of the record.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};

use super::tokens::*;
use super::*;
use crate::model::Presence;

/// One field to write: the field, the binding that holds its value (a reference to the
/// struct field or variant field), and whether that value is an `Option` the kind does not
/// make (a field missing from some layout, optional, or conditional).
pub(super) struct Put<'r> {
    pub(super) field: &'r FieldInfo<'r>,
    pub(super) binding: Option<Ident>,
    pub(super) wrapped: bool,
}

impl<'s> Cx<'s> {
    /// Statements writing a value of kind `k` held by `x` (an expression of type `&T`).
    /// `refs` gives, for earlier fields this one reads (a width, a count), a `u64`
    /// expression.
    pub(super) fn write_value(
        &self,
        k: &ResolvedKind,
        name: &str,
        x: &TokenStream,
        scope: &Scope,
        refs: &[(&str, TokenStream)],
    ) -> TokenStream {
        let rt = self.rt;
        let n = str_lit(name);
        let earlier = |field: &str| {
            refs.iter().rev().find(|(f, _)| *f == field).map_or_else(|| quote!(0u64), |(_, e)| e.clone())
        };
        match k {
            Kind::Unsigned(_) => quote!(out.uint(*#x);),
            Kind::Bool => quote!(out.boolean(*#x);),
            Kind::Signed => quote!(out.signed(*#x);),
            Kind::Enum(_) => quote!(out.enumeration(*#x);),
            Kind::Flags(_) => quote!(out.flags(#x);),
            Kind::Value => quote!(out.value(*#x);),
            Kind::Relative => quote!(out.relative(*#x, ctx);),
            Kind::SignedRelative => quote!(out.signed_relative(*#x, ctx);),
            Kind::ValueType => quote!(out.value_type(#n, #x, ctx)?;),
            Kind::Type => quote!(out.type_id(*#x);),
            Kind::OptionalIndex => quote!(out.optional_index(*#x);),
            Kind::Align => quote!(out.align(*#x);),
            Kind::String => quote!(out.string(#x);),
            Kind::CString => quote!(out.cstring(#n, #x)?;),
            Kind::Blob => quote!(out.blob(*#x);),
            // Byte-framed kinds are never in a bitstream schema (validation made them
            // invalid there), and byte-framed schemas have no encoders.
            Kind::Invalid
            | Kind::Float32
            | Kind::Float64
            | Kind::ByteString(_)
            | Kind::Align32
            | Kind::Blocks => {
                quote!(out.raw(*#x);)
            }
            Kind::Array(e) => {
                let each = self.write_value(&e.value, name, &quote!(element), scope, refs);
                quote!(for element in #x.iter() { #each })
            }
            Kind::CountedArray(e, None) => {
                let each = self.write_value(&e.value, name, &quote!(element), scope, refs);
                quote!(out.count(#x.len()); for element in #x.iter() { #each })
            }
            Kind::CountedArray(e, Some(count)) => {
                let each = self.write_value(&e.value, name, &quote!(element), scope, refs);
                let count = earlier(count);
                quote!(out.check_count(#n, #count, #x.len())?; for element in #x.iter() { #each })
            }
            Kind::ConstantRange(width) => {
                let width = earlier(width);
                quote!(out.constant_range(#n, #x, #width)?;)
            }
            Kind::CallArgs => quote!(out.call_args(#n, #x, ctx)?;),
            Kind::Group(g) => {
                let t = self.group_type(*g, scope, quote!('_));
                // A group field holds every entry to the end of the record.
                quote!(for element in #x.iter() { <#t as #rt::__private::SchemaGroup<'_>>::write(element, out, #n, ctx)?; })
            }
            Kind::Struct(st) => match self.m.structs.get(*st) {
                Some(info) => {
                    let path = scope.path(&info.ident);
                    let named: Vec<(&Ident, Ident)> = info
                        .fields
                        .iter()
                        .enumerate()
                        .filter_map(|(i, f)| f.ident.as_ref().map(|id| (id, format_ident!("part{}", i))))
                        .collect();
                    let pats = named.iter().map(|(id, b)| quote!(#id: #b));
                    let writes = info.fields.iter().enumerate().map(|(i, f)| match &f.ident {
                        Some(_) => self.write_value(
                            &f.kind,
                            f.name,
                            &format_ident!("part{}", i).into_token_stream(),
                            scope,
                            &[],
                        ),
                        None => cannot(f.name, "the struct gives the field no name"),
                    });
                    quote!({ let #path { #(#pats,)* .. } = #x; #(#writes)* })
                }
                None => quote!(out.raw(0);),
            },
        }
    }

    /// Statements writing `puts` in order, each as its presence says.
    pub(super) fn write_puts(&self, puts: &[Put<'_>], scope: &Scope) -> TokenStream {
        let mut stmts = Vec::new();
        for (i, p) in puts.iter().enumerate() {
            let f = p.field;
            let n = str_lit(f.name);
            let Some(b) = &p.binding else {
                stmts.push(cannot(f.name, "the schema gives the field no slot of its own in the record"));
                break;
            };
            // Earlier unsigned fields, as `u64`, for a width or a count.
            let refs: Vec<(&str, TokenStream)> = puts[..i]
                .iter()
                .filter(|q| matches!(q.field.kind, Kind::Unsigned(_)))
                .filter_map(|q| {
                    let qb = q.binding.as_ref()?;
                    let e = if q.wrapped {
                        quote!(#qb.map_or(0u64, |v| v as ::core::primitive::u64))
                    } else {
                        quote!((*#qb as ::core::primitive::u64))
                    };
                    Some((q.field.name, e))
                })
                .collect();
            let write = |x: &TokenStream| self.write_value(&f.kind, f.name, x, scope, &refs);
            let keep = quote!(out.keep(#n)?;);
            // The statements for a value `x` that is there (type `&T`).
            let present = |x: &TokenStream| -> TokenStream {
                let w = write(x);
                match &f.presence {
                    Presence::Optional if f.kind.is_option() => quote!(#w if #x.is_some() { #keep }),
                    Presence::Default(v) => match self.default_literal(&f.kind, &v.value, scope) {
                        Some(lit) => quote!(#w if *#x != (#lit) { #keep }),
                        None => quote!(#w #keep),
                    },
                    _ => quote!(#w #keep),
                }
            };
            let bx = quote!(#b);
            let body = if p.wrapped {
                let none = if matches!(f.presence, Presence::Optional) {
                    quote!(out.absent())
                } else {
                    quote!(return ::core::result::Result::Err(out.missing(#n)))
                };
                let some = present(&quote!(x));
                quote!(match #b { ::core::option::Option::Some(x) => { #some } ::core::option::Option::None => #none, })
            } else {
                present(&bx)
            };
            let test = self.put_condition(p, &puts[..i]);
            stmts.push(match test {
                None => body,
                Some(test) if p.wrapped => {
                    let stray = cannot(f.name, "the field's condition says it is absent, but it has a value");
                    quote!(if #test { #body } else if #b.is_some() { #stray })
                }
                Some(test) => quote!(if #test { #body }),
            });
        }
        quote!(#(#stmts)*)
    }

    /// The test of a field that is there only in some versions or when an earlier field
    /// says so.
    fn put_condition(&self, p: &Put<'_>, earlier: &[Put<'_>]) -> Option<TokenStream> {
        let f = p.field;
        if let Some(range) = &f.versions {
            let lo = Literal::u64_unsuffixed(range.start);
            return Some(if range.end == u64::MAX {
                quote!(ctx.version() >= #lo)
            } else {
                let hi = Literal::u64_unsuffixed(range.end);
                quote!((#lo..#hi).contains(&ctx.version()))
            });
        }
        let c = f.condition.as_ref()?;
        let Some(q) = earlier.iter().rev().find(|q| q.field.name == c.field) else {
            return Some(quote!(false));
        };
        let Some(qb) = &q.binding else { return Some(quote!(false)) };
        Some(match &c.test {
            Test::Bool if q.wrapped => quote!((*#qb == ::core::option::Option::Some(true))),
            Test::Bool => quote!(*#qb),
            Test::Flag(id) if q.wrapped => quote!(#qb.as_ref().is_some_and(|c| c.#id)),
            Test::Flag(id) => quote!(#qb.#id),
            Test::Never => quote!(false),
        })
    }
}

/// A statement failing the encoder for field `name`.
fn cannot(name: &str, reason: &str) -> TokenStream {
    let (n, r) = (str_lit(name), str_lit(reason));
    quote!(return ::core::result::Result::Err(out.cannot(#n, #r));)
}
