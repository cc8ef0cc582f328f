//! Blocks and records: the format's constants, one module per block with its record
//! structs and record enum, and the schema-level name tables and dispatcher.

use std::collections::HashSet;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};

use super::tokens::*;
use super::*;
use crate::model::Presence;

impl<'s> Cx<'s> {
    pub(super) fn format_items(&self, schema_path: &str) -> TokenStream {
        let f = &self.m.schema.format;
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

    pub(super) fn block_module(&self, b: &BlockInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let def = b.def;
        let module = &b.module;
        let doc =
            doc_attr(def.doc.as_deref(), || format!("The `{}` block (id {}).", def.name.value, def.id.value));
        let (id_lit, name_lit) = (Literal::u32_suffixed(def.id.value), str_lit(&def.name.value));
        let deferrable = def.deferrable;
        let numbering = self.numbering_items(b);
        let mut shadowed: HashSet<String> = b.records.iter().map(|r| ident_key(&r.ident)).collect();
        shadowed.insert("Record".to_string());
        let scope = Scope { shadowed };
        let (u32_, str_, s, opt, sm, nn, okk) =
            (prim("u32"), prim("str"), static_str(), option(), some(), none(), ok());

        let structs = b.records.iter().map(|r| self.record_struct(b, r, &scope));
        let mut variants = Vec::new();
        let mut dispatch = Vec::new();
        let mut name_arms = Vec::new();
        let mut display_arms = Vec::new();
        let mut code_arms = Vec::new();
        let mut check_arms = Vec::new();
        let mut encode_arms = Vec::new();
        for r in &b.records {
            let rid = &r.ident;
            let lt = if self.record_lifetime(r) { quote!(<'a>) } else { TokenStream::new() };
            let code = Literal::u32_unsuffixed(r.def.code.value);
            let rname = str_lit(&r.def.name.value);
            let vdoc = format!("A `{}` record.", r.def.name.value);
            variants.push(quote!(#[doc = #vdoc] #rid(#rid #lt)));
            dispatch.push(quote!(#code => #rid::decode(record, ctx).map(Self::#rid)));
            check_arms.push(quote!(#code => #rid::decode(record, ctx).map(|_| true)));
            name_arms.push(quote!(Self::#rid(_) => #rname));
            encode_arms.push(quote!(Self::#rid(r) => r.encode_into(ctx, min_operands, encoded)));
            display_arms.push(quote!(Self::#rid(r) => ::core::fmt::Display::fmt(r, f)));
            code_arms.push(quote!(#code => #sm(#rname)));
        }
        let encode_methods = encode_methods(
            rt,
            &quote!('a),
            true,
            "As [`encode`](Self::encode), with at least `min_operands` operands\n\
             where the fields give that many (see each record's `encode_with_len`).\n\n\
             # Errors\n\nAs [`encode`](Self::encode).",
            "As [`encode_with_len`](Self::encode_with_len), into `encoded`, whose\n\
             operand list is reused (see each record's `encode_into`).\n\n\
             # Errors\n\nAs [`encode`](Self::encode).",
            quote! {
                match self {
                    #(#encode_arms,)*
                    Self::Unknown(raw) => {
                        *encoded = raw.to_encoded();
                        #okk(())
                    }
                }
            },
        );
        let unknown = quote!(#okk(Self::Unknown(#rt::__private::unknown_record(NAME, record, ctx))));
        let dispatch_body = if dispatch.is_empty() {
            unknown
        } else {
            quote!(match record.code { #(#dispatch,)* _ => #unknown, })
        };
        // A record of an unknown code is decoded as `Record::decode` does (for its warning).
        let check_unknown = quote!({
            let _ = #rt::__private::unknown_record(NAME, record, ctx);
            #okk(false)
        });
        let check_body = if check_arms.is_empty() {
            check_unknown
        } else {
            quote!(match record.code { #(#check_arms,)* _ => #check_unknown, })
        };
        let record_name_body = if code_arms.is_empty() {
            quote!({ let _ = code; #nn })
        } else {
            quote!(match code { #(#code_arms,)* _ => #nn, })
        };
        let enum_doc = format!("A record of the `{}` block.", def.name.value);
        let id_doc = format!("The block id of `{}`.", def.name.value);
        let name_doc = format!("The block's name as the schema spells it, `{}`.", def.name.value);

        let serde = super::tokens::serde_derive(rt);
        quote! {
            #doc
            pub mod #module {
                #[allow(unused_imports)]
                use super::*;

                #[doc = #id_doc]
                pub const ID: #u32_ = #id_lit;
                #[doc = #name_doc]
                pub const NAME: &#str_ = #name_lit;
                /// True when the block changes nothing the rest of the stream reads (no
                /// value, type or layout outside it), so a reader may read it apart: later,
                /// in parallel, or skipped by its length.
                pub const DEFERRABLE: ::core::primitive::bool = #deferrable;
                #numbering

                #(#structs)*

                #[doc = #enum_doc]
                #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
                #serde
                pub enum Record<'a> {
                    #(#variants,)*
                    /// A record of a code the schema does not name, kept raw.
                    Unknown(#rt::decode::RawRecord<'a>),
                }

                impl<'a> #rt::decode::BlockRecords<'a> for Record<'a> {
                    const BLOCK_ID: #u32_ = ID;
                    const BLOCK_NAME: #s = NAME;

                    fn decode<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                        record: &#rt::Record<'_, 'a>,
                        ctx: &mut C,
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
                    pub fn decode<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                        record: &#rt::Record<'_, 'a>,
                        ctx: &mut C,
                    ) -> #rt::Result<Self> {
                        <Self as #rt::decode::BlockRecords<'a>>::decode(record, ctx)
                    }

                    /// The record as operands to write (see each record's `encode`); an
                    /// `Unknown` record gives its operands as they were.
                    ///
                    /// # Errors
                    ///
                    /// When a field's value cannot be written so that a decoder reads it back.
                    pub fn encode<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                        &self,
                        ctx: &C,
                    ) -> #rt::Result<#rt::encode::EncodedRecord<'a>> {
                        self.encode_with_len(ctx, 0)
                    }

                    #encode_methods

                    /// The record's name as the schema spells it (`"unknown"` for `Unknown`).
                    pub fn name(&self) -> #s {
                        match self {
                            #(#name_arms,)*
                            Self::Unknown(_) => "unknown",
                        }
                    }
                }

                impl ::core::fmt::Display for Record<'_> {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        match self {
                            #(#display_arms,)*
                            Self::Unknown(raw) => {
                                f.write_str("unknown ")?;
                                #rt::__private::ShowField::show(raw, f)
                            }
                        }
                    }
                }

                /// The schema name of the record with `code` in this block.
                pub fn record_name(code: #u32_) -> #opt<#s> {
                    #record_name_body
                }

                /// Decodes one record of this block into its type and drops it, as
                /// [`Record::decode`] would decode it (warnings included) but without
                /// building a [`Record`]: true when the schema names the record's code.
                ///
                /// # Errors
                ///
                /// When the record lacks a required operand or a value does not fit its field.
                pub fn check<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                    record: &#rt::Record<'_, '_>,
                    ctx: &mut C,
                ) -> #rt::Result<::core::primitive::bool> {
                    #check_body
                }
            }
        }
    }

    /// The record's struct fields: the union of its layouts' fields by schema name.
    pub(super) fn record_slots<'r>(&self, r: &'r RecordInfo<'s>) -> (Vec<Slot<'r>>, Vec<Vec<Read<'r>>>) {
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
            let any_optional = reads.iter().flatten().any(|r| {
                r.slot == Some(i)
                    && (matches!(r.field.presence, Presence::Optional)
                        || r.field.condition.is_some()
                        || r.field.versions.is_some())
            });
            slot.partial = !in_all;
            slot.wrapped = !slot.kind.is_option() && (!in_all || any_optional);
        }
        (slots, reads)
    }

    pub(super) fn has_extra(r: &RecordInfo<'_>) -> bool {
        r.layouts.is_empty()
            || r.layouts.iter().any(|(_, fields)| !fields.iter().any(|f| f.kind.takes_rest()))
    }

    pub(super) fn record_lifetime(&self, r: &RecordInfo<'_>) -> bool {
        let (slots, _) = self.record_slots(r);
        slots.iter().any(|s| self.m.needs_lifetime(&s.kind))
    }

    pub(super) fn record_struct(&self, b: &BlockInfo<'_>, r: &RecordInfo<'_>, scope: &Scope) -> TokenStream {
        let rt = self.rt;
        let def = r.def;
        let id = &r.ident;
        let block = &b.def.name.value;
        let doc = doc_attr(def.doc.as_deref(), || {
            format!("The `{}` record (code {}) of `{block}`.", def.name.value, def.code.value)
        });
        let (slots, reads) = self.record_slots(r);
        let lifetime = slots.iter().any(|s| self.m.needs_lifetime(&s.kind));
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
        let full_range = super::numbering::full_range;
        let bound = |end: u64| match end {
            u64::MAX => quote!(::core::primitive::u64::MAX),
            end => Literal::u64_unsuffixed(end).into_token_stream(),
        };
        let ranges: Vec<TokenStream> = r
            .layouts
            .iter()
            .map(|(l, _)| {
                let (a, z) = (Literal::u64_unsuffixed(l.versions.value.start), bound(l.versions.value.end));
                let counts = l.operands.as_ref().map(|n| {
                    let (lo, hi) = (Literal::u64_unsuffixed(n.value.start), bound(n.value.end));
                    quote!(.with_operands(#lo, #hi))
                });
                quote!(#rt::layout::LayoutRange::new(#a, #z) #counts)
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
        let uses_ctx = has_extra
            || picks_layout
            || reads.iter().flatten().any(|r| r.field.kind.needs_ctx() || r.field.versions.is_some());
        let mut_ = any_read.then(|| quote!(mut));
        let allow = (!uses_ctx).then(|| quote!(#[allow(unused_variables)]));
        let (impl_lt, rec_lt) =
            if lifetime { (quote!(<'a>), quote!('a)) } else { (TokenStream::new(), quote!('_)) };
        let code = Literal::u32_suffixed(def.code.value);
        let (block_lit, rname) = (str_lit(block), str_lit(&def.name.value));
        let code_doc = format!("The record code of `{}`.", def.name.value);
        let name_doc = format!("The record's name as the schema spells it, `{}`.", def.name.value);

        let shows = slots.iter().map(|slot| {
            let label = str_lit(&format!(" {}=", slot.name));
            let fid = &slot.ident;
            quote!(f.write_str(#label)?; #rt::__private::ShowField::show(&self.#fid, f)?;)
        });
        let show_extra = has_extra.then(|| {
            quote! {
                if !self.extra_operands.is_empty() {
                    ::core::write!(f, " extra={:?}", self.extra_operands)?;
                }
            }
        });
        // encode: the slots bound by reference as `field0`, `field1`, ..., each layout's
        // fields written from them in operand order.
        let bindings: Vec<Ident> = (0..slots.len()).map(|i| format_ident!("field{}", i)).collect();
        let pats = slots.iter().zip(&bindings).map(|(slot, b)| {
            let fid = &slot.ident;
            quote!(#fid: #b)
        });
        let extra_pat = has_extra.then(|| quote!(extra_operands,));
        let extra_arg = if has_extra { quote!(extra_operands) } else { quote!(&[]) };
        let layout_puts: Vec<TokenStream> = reads
            .iter()
            .map(|layout_reads| {
                let puts: Vec<super::encode::Put<'_>> = layout_reads
                    .iter()
                    .map(|r| super::encode::Put {
                        field: r.field,
                        binding: r.slot.and_then(|i| bindings.get(i).cloned()),
                        wrapped: r.slot.and_then(|i| slots.get(i)).is_some_and(|s| s.wrapped),
                    })
                    .collect();
                self.write_puts(&puts, scope)
            })
            .collect();
        // A layout of an operand count is written for a value with just the fields it
        // reads: each field some layouts lack is there exactly when this one reads it.
        let fits = r.layouts.iter().zip(&reads).map(|((l, _), layout_reads)| {
            if l.operands.is_none() {
                return quote!(true);
            }
            let tests = slots.iter().zip(&bindings).enumerate().filter(|(_, (s, _))| s.partial).filter_map(
                |(i, (slot, b))| match layout_reads.iter().find(|r| r.slot == Some(i)) {
                    None => Some(quote!(#b.is_none())),
                    Some(read)
                        if slot.wrapped
                            && matches!(read.field.presence, Presence::Required)
                            && read.field.condition.is_none()
                            && read.field.versions.is_none() =>
                    {
                        Some(quote!(#b.is_some()))
                    }
                    Some(_) => None,
                },
            );
            quote!(true #(&& #tests)*)
        });
        let encode_body = match (r.layouts.as_slice(), layout_puts.as_slice()) {
            ([], _) | (_, []) => TokenStream::new(),
            ([(l, _)], [body]) if full_range(l) => body.clone(),
            ([_], [body]) => quote!(let _ = out.layout(ctx.version(), &[#(#ranges),*], &[true])?; #body),
            (_, [first @ .., last]) => {
                let arms = first.iter().enumerate().map(|(i, body)| {
                    let i = Literal::usize_unsuffixed(i);
                    quote!(#i => { #body })
                });
                quote!(match out.layout(ctx.version(), &[#(#ranges),*], &[#(#fits),*])? { #(#arms,)* _ => { #last } })
            }
        };
        let called = self.called_fn(block, r, &slots, &reads, &ranges, scope);
        let enc_lt = if lifetime { quote!('a) } else { quote!('static) };
        // At least one operand a field: what the operand list is made room for up front.
        let field_count = Literal::usize_unsuffixed(slots.len());
        let ok_ = ok();
        let encode_methods = encode_methods(
            rt,
            &enc_lt,
            lifetime,
            "As [`encode`](Self::encode), but with at least `min_operands` operands\n\
             where the fields give that many: trailing fields at their default are\n\
             written out up to that count (give the operand count of the record this\n\
             one was decoded from to write it back as it was).\n\n\
             # Errors\n\nAs [`encode`](Self::encode).",
            "As [`encode_with_len`](Self::encode_with_len), into `encoded`, whose\n\
             operand list is reused: encoding record after record into one\n\
             `EncodedRecord` allocates nothing once the list is long enough.\n\n\
             # Errors\n\nAs [`encode`](Self::encode); `encoded` is then left empty.",
            quote! {
                static INFO: #rt::__private::RecordInfo =
                    #rt::__private::RecordInfo { block: #block_lit, record: #rname };
                let mut builder = #rt::__private::OperandsOut::reusing(
                    &INFO,
                    Self::CODE,
                    ::core::mem::take(&mut encoded.ops),
                    min_operands.max(#field_count),
                );
                let out = &mut builder;
                let Self { #(#pats,)* #extra_pat } = self;
                #encode_body
                *encoded = builder.finish("extra_operands", min_operands, #extra_arg)?;
                #ok_(())
            },
        );
        let serde = super::tokens::serde_derive(rt);
        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            #serde
            pub struct #id #params {
                #(#decls,)*
                #extra_decl
            }

            impl #impl_lt ::core::fmt::Display for #id #params {
                /// The record's schema name, then `field=value` for each field.
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(#rname)?;
                    #(#shows)*
                    #show_extra
                    ::core::result::Result::Ok(())
                }
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
                pub fn decode<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                    record: &#rt::Record<'_, #rec_lt>,
                    ctx: &mut C,
                ) -> #rt::Result<Self> {
                    static INFO: #rt::__private::RecordInfo =
                        #rt::__private::RecordInfo { block: #block_lit, record: #rname };
                    let #mut_ ops = #rt::__private::Operands::new(record, &INFO);
                    #body
                }

                /// The record as operands to write: the way back from [`decode`](Self::decode).
                /// Trailing fields that are absent or at their default are left out.
                ///
                /// # Errors
                ///
                /// When a field's value cannot be written so that a decoder reads it back
                /// (a forward reference without its type, a value for a field whose
                /// condition says it is absent, ...).
                pub fn encode<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                    &self,
                    ctx: &C,
                ) -> #rt::Result<#rt::encode::EncodedRecord<#enc_lt>> {
                    self.encode_with_len(ctx, 0)
                }

                #encode_methods

                #called
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Schema level
    // -----------------------------------------------------------------------------------

    pub(super) fn schema_items(&self, blocks: &[BlockInfo<'_>]) -> TokenStream {
        let rt = self.rt;
        let (u32_, s, opt, nn, okk) = (prim("u32"), static_str(), option(), none(), ok());
        let sm = some();
        let dispatched: Vec<(&BlockInfo<'_>, &Ident)> =
            blocks.iter().filter_map(|b| b.any_variant.as_ref().map(|v| (b, v))).collect();
        let mut name_arms = Vec::new();
        let mut record_arms = Vec::new();
        let mut deferrable_ids = Vec::new();
        let mut numbered = Vec::new();
        let mut variants = Vec::new();
        let mut decode_arms = Vec::new();
        let mut any_name_arms = Vec::new();
        let mut any_display_arms = Vec::new();
        let mut any_unknown_arms = Vec::new();
        let mut check_arms = Vec::new();
        let mut any_encode_arms = Vec::new();
        for (b, var) in &dispatched {
            let m = &b.module;
            let id = Literal::u32_unsuffixed(b.def.id.value);
            name_arms.push(quote!(#id => #sm(#m::NAME)));
            record_arms.push(quote!(#id => #m::record_name(code)));
            if b.def.deferrable {
                deferrable_ids.push(id.clone());
            }
            if b.def.numbers.is_some() {
                numbered.push(quote!(#rt::numbering::NumberedBlock {
                    id: #m::ID,
                    name: #m::NAME,
                    numbers: #m::NUMBERS,
                    defines: &#m::DEFINES,
                }));
            }
            let vdoc = format!("A record of a `{}` block.", b.def.name.value);
            variants.push(quote!(#[doc = #vdoc] #var(#m::Record<'a>)));
            decode_arms.push(quote!(#id => #m::Record::decode(record, ctx).map(AnyRecord::#var)));
            any_name_arms.push(quote!(AnyRecord::#var(r) => r.name()));
            any_encode_arms.push(quote!(AnyRecord::#var(r) => r.encode_into(ctx, min_operands, encoded)));
            any_display_arms.push(quote!(AnyRecord::#var(r) => ::core::fmt::Display::fmt(r, f)));
            any_unknown_arms.push(quote!(AnyRecord::#var(#m::Record::Unknown(_)) => true));
            check_arms.push(quote!(#id => #m::check(record, ctx)));
        }
        let (name_body, record_body) = if dispatched.is_empty() {
            (quote!({ let _ = id; #nn }), quote!({ let _ = (block_id, code); #nn }))
        } else {
            (
                quote!(match id { #(#name_arms,)* _ => #nn, }),
                quote!(match block_id { #(#record_arms,)* _ => #nn, }),
            )
        };
        let deferrable_body = if deferrable_ids.is_empty() {
            quote!({
                let _ = block_id;
                false
            })
        } else {
            quote!(::core::matches!(block_id, #(#deferrable_ids)|*))
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
        let check_body = if dispatched.is_empty() {
            quote!({ let _ = (block_id, record, ctx); #okk(false) })
        } else {
            quote!(match block_id { #(#check_arms,)* _ => #okk(false), })
        };
        let any_encode_methods = encode_methods(
            rt,
            &quote!('a),
            true,
            "The record as operands to write, with at least `min_operands` operands\n\
             where the fields give that many (see each record's `encode_with_len`); a\n\
             record of a code or a block the schema does not name gives its operands as\n\
             they were.\n\n\
             # Errors\n\n\
             When a field's value cannot be written so that a decoder reads it back.",
            "As [`encode_with_len`](Self::encode_with_len), into `encoded`, whose\n\
             operand list is reused (see each record's `encode_into`).\n\n\
             # Errors\n\nAs [`encode_with_len`](Self::encode_with_len).",
            quote! {
                match self {
                    #(#any_encode_arms,)*
                    AnyRecord::UnknownBlock { record, .. } => {
                        *encoded = record.to_encoded();
                        #okk(())
                    }
                }
            },
        );

        let serde = super::tokens::serde_derive(rt);
        quote! {
            /// The schema name of the block with `id`.
            pub fn block_name(id: #u32_) -> #opt<#s> {
                #name_body
            }

            /// The schema name of the record with `code` in the block with `block_id`.
            pub fn record_name(block_id: #u32_, code: #u32_) -> #opt<#s> {
                #record_body
            }

            /// True when the block with `block_id` is `deferrable` in the schema: it changes
            /// nothing the rest of the stream reads, so it may be read apart (false for a block
            /// the schema does not name).
            pub fn deferrable(block_id: #u32_) -> ::core::primitive::bool {
                #deferrable_body
            }

            /// The schema's numbered blocks (`numbers`) and what each of their records
            /// defines (`defines`), for a numbering layer to count with.
            pub static NUMBERING: #rt::numbering::Numbering =
                #rt::numbering::Numbering { blocks: &[#(#numbered),*] };

            /// A record of any block of the schema.
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            #serde
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

            impl<'a> AnyRecord<'a> {
                /// The record's name as the schema spells it (`"unknown"` for a code or a
                /// block the schema does not name).
                pub fn name(&self) -> #s {
                    match self {
                        #(#any_name_arms,)*
                        AnyRecord::UnknownBlock { .. } => "unknown",
                    }
                }

                #any_encode_methods

                /// True for a record of a code or a block the schema does not name.
                pub fn is_unknown(&self) -> ::core::primitive::bool {
                    match self {
                        #(#any_unknown_arms,)*
                        AnyRecord::UnknownBlock { .. } => true,
                        #[allow(unreachable_patterns)]
                        _ => false,
                    }
                }
            }

            impl ::core::fmt::Display for AnyRecord<'_> {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    match self {
                        #(#any_display_arms,)*
                        AnyRecord::UnknownBlock { block_id, record } => {
                            ::core::write!(f, "unknown block {block_id}: ")?;
                            #rt::__private::ShowField::show(record, f)
                        }
                    }
                }
            }

            /// Decodes a record of the block with `block_id`; a record of a block the schema
            /// does not name is kept raw (without a warning).
            ///
            /// # Errors
            ///
            /// When the record lacks a required operand or a value does not fit its field.
            pub fn decode_record<'a, C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                block_id: #u32_,
                record: &#rt::Record<'_, 'a>,
                ctx: &mut C,
            ) -> #rt::Result<AnyRecord<'a>> {
                #decode_body
            }

            /// Decodes a record of the block with `block_id` into its type and drops it, as
            /// [`decode_record`] would decode it but without building an [`AnyRecord`]:
            /// true when the schema names the record's block and code. For validators.
            ///
            /// # Errors
            ///
            /// When the record lacks a required operand or a value does not fit its field.
            pub fn check_record<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                block_id: #u32_,
                record: &#rt::Record<'_, '_>,
                ctx: &mut C,
            ) -> #rt::Result<::core::primitive::bool> {
                #check_body
            }
        }
    }
}

/// A generated type's `encode_with_len`, which encodes through `encode_into` into a fresh
/// `EncodedRecord`, and its `encode_into`, whose body is `into_body` (with `self`, `ctx`,
/// `min_operands` and `encoded` in scope). `lt` is the lifetime of the encoding
/// `encode_with_len` gives: the type's own `'a` when `has_lifetime`, which then bounds the
/// caller's `'o`. Each doc is one line a `\n`.
fn encode_methods(
    rt: &TokenStream,
    lt: &TokenStream,
    has_lifetime: bool,
    with_len_doc: &str,
    into_doc: &str,
    into_body: TokenStream,
) -> TokenStream {
    let docs = |text: &str| {
        let lines = text.lines().map(|line| Literal::string(&format!(" {line}")));
        quote!(#(#[doc = #lines])*)
    };
    let (with_len_doc, into_doc) = (docs(with_len_doc), docs(into_doc));
    let outlives = has_lifetime.then(|| quote!(where 'a: 'o));
    let okk = ok();
    quote! {
        #with_len_doc
        pub fn encode_with_len<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
            &self,
            ctx: &C,
            min_operands: ::core::primitive::usize,
        ) -> #rt::Result<#rt::encode::EncodedRecord<#lt>> {
            let mut encoded = #rt::encode::EncodedRecord::new(0, ::std::vec::Vec::new());
            self.encode_into(ctx, min_operands, &mut encoded)?;
            #okk(encoded)
        }

        #into_doc
        #[allow(unused_variables)]
        pub fn encode_into<'o, C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
            &self,
            ctx: &C,
            min_operands: ::core::primitive::usize,
            encoded: &mut #rt::encode::EncodedRecord<'o>,
        ) -> #rt::Result<()>
        #outlives
        {
            #into_body
        }
    }
}
