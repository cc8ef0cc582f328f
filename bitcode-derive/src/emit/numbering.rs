//! Numbering: a numbered block's `NUMBERS`, its table of what each code `DEFINES`, and for
//! each record that defines a call result the `called` reader of its callee.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::tokens::*;
use super::*;
use crate::model::{Defines, Layout, Numbers};
use crate::validate::MAX_NUMBERED_CODE;

impl<'s> Cx<'s> {
    /// The block module's numbering items, when the block has `numbers`.
    pub(super) fn numbering_items(&self, b: &BlockInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let Some(numbers) = &b.def.numbers else { return TokenStream::new() };
        let numbers = match numbers.value {
            Numbers::Values => quote!(#rt::numbering::Numbers::Values),
            Numbers::Types => quote!(#rt::numbering::Numbers::Types),
        };
        let numbered: Vec<&RecordInfo<'_>> =
            b.records.iter().filter(|r| r.def.code.value <= MAX_NUMBERED_CODE).collect();
        let len = numbered.iter().map(|r| r.def.code.value as usize + 1).max().unwrap_or(0);
        let nothing = quote!(#rt::numbering::Defines::Nothing);
        let mut table = vec![nothing; len];
        for r in numbered {
            let rid = &r.ident;
            let entry = match r.def.defines.as_ref().map(|d| d.value) {
                None | Some(Defines::Nothing) => continue,
                Some(Defines::Value) => quote!(#rt::numbering::Defines::Value),
                Some(Defines::Type) => quote!(#rt::numbering::Defines::Type),
                Some(Defines::CallResult) => quote!(#rt::numbering::Defines::CallResult(#rid::called)),
            };
            if let Some(slot) = table.get_mut(r.def.code.value as usize) {
                *slot = entry;
            }
        }
        let len = Literal::usize_unsuffixed(len);
        let u32_ = prim("u32");
        quote! {
            /// What the block's records are numbered as.
            pub const NUMBERS: #rt::numbering::Numbers = #numbers;
            /// What each record code of the block adds to its numbering, indexed by code.
            pub static DEFINES: [#rt::numbering::Defines; #len] = [#(#table),*];
            /// What a record of `code` adds to the block's numbering (nothing for a code the
            /// schema does not name).
            #[inline]
            pub fn defines(code: #u32_) -> #rt::numbering::Defines {
                #rt::numbering::Defines::of(&DEFINES, code)
            }
        }
    }

    /// `called`, for a record that defines a call result: its fields read up to `callee`
    /// (the arguments after it need the function type this finds), giving the callee and
    /// the explicit function type.
    pub(super) fn called_fn(
        &self,
        block: &str,
        r: &RecordInfo<'_>,
        slots: &[Slot<'_>],
        reads: &[Vec<Read<'_>>],
        ranges: &[TokenStream],
        scope: &Scope,
    ) -> TokenStream {
        let rt = self.rt;
        if r.def.defines.as_ref().map(|d| d.value) != Some(Defines::CallResult) {
            return TokenStream::new();
        }
        let heads: Vec<&[Read<'_>]> = reads
            .iter()
            .map(|l| match l.iter().position(|read| read.field.name == "callee") {
                Some(i) => &l[..=i],
                None => &l[..],
            })
            .collect();
        let read_in = |i: usize, head: &[Read<'_>]| head.iter().any(|read| read.slot == Some(i));
        // Per slot: read by some layout's head; read by every one (else it may be absent).
        let in_some: Vec<bool> = (0..slots.len()).map(|i| heads.iter().any(|h| read_in(i, h))).collect();
        let wrap: Vec<bool> = slots
            .iter()
            .enumerate()
            .map(|(i, s)| s.wrapped || !heads.iter().all(|h| read_in(i, h)))
            .collect();
        let idents: Vec<Ident> = slots.iter().map(|s| s.ident.clone()).collect();
        let opt = option();
        let decls = slots.iter().enumerate().map(|(i, s)| {
            let fid = &s.ident;
            if !in_some[i] {
                return quote!(#fid: #opt<()>);
            }
            let ty = self.type_of(&s.kind, scope);
            if wrap[i] && !s.kind.is_option() {
                quote!(#fid: #opt<#ty>)
            } else {
                quote!(#fid: #ty)
            }
        });
        let lifetime = slots.iter().zip(&in_some).any(|(s, &read)| read && self.m.needs_lifetime(&s.kind));
        let (lt, rec_lt) =
            if lifetime { (quote!(<'a>), quote!('a)) } else { (TokenStream::new(), quote!('_)) };
        let ctx = quote!(ctx);
        let bodies: Vec<TokenStream> = heads
            .iter()
            .map(|head| self.construct(quote!(Head), &idents, &wrap, head, None, &ctx, scope))
            .collect();
        let body = match (r.layouts.as_slice(), bodies.as_slice()) {
            ([(l, _)], [body]) if full_range(l) => body.clone(),
            (_, [body]) => quote!(let _ = ops.layout(ctx.version(), &[#(#ranges),*])?; #body),
            (_, [first @ .., last]) => {
                let arms = first.iter().enumerate().map(|(i, body)| {
                    let i = Literal::usize_unsuffixed(i);
                    quote!(#i => #body)
                });
                quote!(match ops.layout(ctx.version(), &[#(#ranges),*])? { #(#arms,)* _ => #last, })
            }
            (_, []) => return TokenStream::new(),
        };
        let find = |name: &str| slots.iter().position(|s| s.name == name);
        let Some(callee_at) = find("callee") else { return TokenStream::new() };
        let callee_id = &slots[callee_at].ident;
        let callee = match slots[callee_at].kind {
            Kind::ValueType => quote!(head.#callee_id),
            _ => quote!(#rt::decode::ValueRef { id: head.#callee_id, ty: ::core::option::Option::None }),
        };
        let function_type = match find("function_type") {
            Some(i) if in_some[i] => {
                let fid = &slots[i].ident;
                if wrap[i] {
                    quote!(head.#fid)
                } else {
                    quote!(::core::option::Option::Some(head.#fid))
                }
            }
            _ => quote!(::core::option::Option::None),
        };
        let (block, rname) = (str_lit(block), str_lit(&r.def.name.value));
        quote! {
            /// The called function: the record's fields read up to its callee, without the
            /// arguments (how many of them are fixed parameters is what the function type
            /// this gives tells). A value numbering counts the record with it.
            ///
            /// # Errors
            ///
            /// As [`decode`](Self::decode), for the fields up to the callee.
            pub fn called #lt(
                record: &#rt::Record<'_, #rec_lt>,
                ctx: &dyn #rt::decode::DecodeContext,
            ) -> #rt::Result<#rt::numbering::Called> {
                #[allow(dead_code)]
                struct Head #lt { #(#decls,)* }
                static INFO: #rt::__private::RecordInfo =
                    #rt::__private::RecordInfo { block: #block, record: #rname };
                let mut ops = #rt::__private::Operands::new(record, &INFO);
                let head: Head #lt = (|| -> #rt::Result<Head #lt> { #body })()?;
                ::core::result::Result::Ok(#rt::numbering::Called { function_type: #function_type, callee: #callee })
            }
        }
    }
}

/// True for a layout of every version and operand count (a record's plain `fields`).
pub(super) fn full_range(l: &Layout) -> bool {
    l.versions.value.start == 0 && l.versions.value.end == u64::MAX && l.operands.is_none()
}
