//! Schema types: enums, flag words and tagged groups.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::tokens::*;
use super::*;
use crate::model::Presence;

impl<'s> Cx<'s> {
    pub(super) fn enum_items(&self, e: &EnumInfo<'_>) -> TokenStream {
        let rt = self.rt;
        let id = &e.ident;
        let name = str_lit(e.name);
        let doc = doc_attr(e.doc, || format!("The `{}` enum of the schema.", e.name));
        let keep = e.policy == Policy::Keep;
        let (u64_, s) = (prim("u64"), static_str());
        let (opt, sm, nn) = (option(), some(), none());

        let variants = e.variants.iter().enumerate().map(|(i, v)| {
            let mut text = match v.doc {
                Some(d) if !d.trim().is_empty() => d.to_string(),
                _ => format!("`{}` (code {}).", v.name, v.code),
            };
            if let Some(current) = v.folds_to.and_then(|t| e.variants.get(t)) {
                text.push_str(&format!(
                    "\n\nObsolete: LLVM reads it as `{}`; `folded()` gives that.",
                    current.name
                ));
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
        let fold_arms = e.variants.iter().filter_map(|v| {
            let current = &e.variants.get(v.folds_to?)?.ident;
            let vid = &v.ident;
            Some(quote!(Self::#vid => Self::#current))
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

        // from_code: each value's code, then the policy.
        let mut arms: Vec<(Vec<u64>, &Ident)> = e.variants.iter().map(|v| (vec![v.code], &v.ident)).collect();
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

        let serde = super::tokens::serde_derive(rt);
        quote! {
            #doc
            #[derive(
                ::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug,
                ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash
            )]
            #serde
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

                /// The value as LLVM's reader takes it: an obsolete value gives the
                /// current one it stands for, every other value itself.
                #[allow(clippy::match_single_binding)]
                pub const fn folded(self) -> Self {
                    match self { #(#fold_arms,)* other => other }
                }
            }

            impl #rt::decode::SchemaEnum for #id {
                const NAME: #s = #name;

                fn from_code(code: #u64_) -> #opt<Self> {
                    #from_body
                }

                fn code(self) -> #u64_ {
                    #id::code(self)
                }
            }

            impl ::core::convert::TryFrom<#u64_> for #id {
                type Error = #rt::decode::UnknownCode;

                fn try_from(code: #u64_) -> ::core::result::Result<Self, #rt::decode::UnknownCode> {
                    <Self as #rt::decode::SchemaEnum>::from_code(code)
                        .ok_or(#rt::decode::UnknownCode::new(#name, code))
                }
            }

            impl ::core::fmt::Display for #id {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    #display
                }
            }

            impl #rt::__private::ShowField for #id {
                fn show(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    ::core::fmt::Display::fmt(self, f)
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Flags
    // -----------------------------------------------------------------------------------

    pub(super) fn flags_items(&self, f: &FlagsInfo<'_>) -> TokenStream {
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
        let mut shows = Vec::new();
        for ff in &f.fields {
            let fid = &ff.ident;
            let fname = str_lit(ff.name);
            let fname_eq = str_lit(&format!("{}=", ff.name));
            shows.push(if ff.single {
                quote!(if self.#fid { sep(f)?; f.write_str(#fname)?; })
            } else if ff.enumeration.is_some() {
                quote!(sep(f)?; f.write_str(#fname_eq)?; #rt::__private::ShowField::show(&self.#fid, f)?;)
            } else {
                quote!(if self.#fid != 0 { sep(f)?; ::core::write!(f, "{}{}", #fname_eq, self.#fid)?; })
            });
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
            let enumeration = ff.enumeration.and_then(|e| self.m.enums.get(e));
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

        let serde = super::tokens::serde_derive(rt);
        quote! {
            #doc
            #[derive(
                ::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug,
                ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash
            )]
            #serde
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

                fn bits(&self) -> #u64_ {
                    #id::bits(self)
                }
            }

            impl #rt::__private::ShowField for #id {
                fn show(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    let mut first = true;
                    let mut sep = |f: &mut ::core::fmt::Formatter<'_>| -> ::core::fmt::Result {
                        if first {
                            first = false;
                            ::core::result::Result::Ok(())
                        } else {
                            f.write_str("|")
                        }
                    };
                    f.write_str("{")?;
                    #(#shows)*
                    if self.other_bits != 0 {
                        sep(f)?;
                        ::core::write!(f, "other={:#x}", self.other_bits)?;
                    }
                    f.write_str("}")
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Groups
    // -----------------------------------------------------------------------------------

    pub(super) fn struct_items(&self, st: &StructInfo<'_>) -> TokenStream {
        let id = &st.ident;
        let doc = doc_attr(st.doc, || format!("One element of the `{}` struct of the schema.", st.name));
        let scope = Scope::top();
        let params = lifetime_params(st.lifetime);
        let fields = st.fields.iter().filter_map(|f| {
            let fid = f.ident.as_ref()?;
            let fdoc = doc_attr(f.doc, || format!("The `{}` operand.", f.name));
            let ty = self.type_of(&f.kind, &scope);
            Some(quote!(#fdoc pub #fid: #ty))
        });
        let rt = self.rt;
        let shows =
            st.fields.iter().filter_map(|f| f.ident.as_ref().map(|fid| (f.name, fid))).enumerate().map(
                |(i, (name, fid))| {
                    let label = str_lit(&format!("{}{}=", if i > 0 { ", " } else { "" }, name));
                    quote!(f.write_str(#label)?; #rt::__private::ShowField::show(&self.#fid, f)?;)
                },
            );
        let serde = super::tokens::serde_derive(rt);
        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            #serde
            pub struct #id #params {
                #(#fields,)*
            }

            impl #params #rt::__private::ShowField for #id #params {
                fn show(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str("(")?;
                    #(#shows)*
                    f.write_str(")")
                }
            }
        }
    }

    pub(super) fn group_items(&self, g: &GroupInfo<'_>) -> TokenStream {
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
        let mut show_arms = Vec::new();
        let mut write_arms = Vec::new();
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
                    if (matches!(f.presence, Presence::Optional) || f.condition.is_some())
                        && !f.kind.is_option()
                    {
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

            uses_ctx |= v.fields.iter().any(|f| f.kind.needs_ctx() || f.versions.is_some());
            let vname = str_lit(v.name);
            let named: Vec<(&str, &Ident)> =
                v.fields.iter().filter_map(|f| f.ident.as_ref().map(|id| (f.name, id))).collect();
            show_arms.push(if named.is_empty() {
                if v.fields.is_empty() {
                    quote!(Self::#vid => f.write_str(#vname))
                } else {
                    quote!(Self::#vid { .. } => f.write_str(#vname))
                }
            } else {
                // Bound to names of our own: a field may be called `f`, like the formatter.
                let ids = named.iter().enumerate().map(|(i, (_, id))| {
                    let b = format_ident!("field{}", i);
                    quote!(#id: #b)
                });
                let parts = named.iter().enumerate().map(|(i, (name, _))| {
                    let label = str_lit(&format!("{}{}=", if i > 0 { ", " } else { "" }, name));
                    let b = format_ident!("field{}", i);
                    quote!(f.write_str(#label)?; #rt::__private::ShowField::show(#b, f)?;)
                });
                let open = str_lit(&format!("{}(", v.name));
                quote!(Self::#vid { #(#ids,)* .. } => { f.write_str(#open)?; #(#parts)* f.write_str(")") })
            });
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
            // write: the variant's fields bound by reference as `field0`, `field1`, ...
            let bindings: Vec<Option<Ident>> = v
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| f.ident.as_ref().map(|_| format_ident!("field{}", i)))
                .collect();
            let pats = v.fields.iter().zip(&bindings).filter_map(|(f, b)| {
                let (fid, b) = (f.ident.as_ref()?, b.as_ref()?);
                Some(quote!(#fid: #b))
            });
            let puts: Vec<super::encode::Put<'_>> = v
                .fields
                .iter()
                .zip(&bindings)
                .map(|(f, b)| super::encode::Put {
                    field: f,
                    binding: b.clone(),
                    wrapped: (matches!(f.presence, Presence::Optional) || f.condition.is_some())
                        && !f.kind.is_option(),
                })
                .collect();
            let writes = self.write_puts(&puts, &scope);
            let tag64 = Literal::u64_suffixed(v.tag);
            write_arms.push(if v.fields.is_empty() {
                quote!(Self::#vid => { out.raw(#tag64); out.keep(field)?; })
            } else {
                quote!(Self::#vid { #(#pats,)* .. } => { out.raw(#tag64); out.keep(field)?; #writes })
            });
            let body = if v.fields.is_empty() {
                quote!(#okk(Self::#vid))
            } else {
                let wrap = vec![false; slots.len()];
                self.construct(quote!(Self::#vid), &slots, &wrap, &reads, None, &ctx, &scope)
            };
            arms.push(quote!(#tag => #body));
        }
        let ctx_param = if uses_ctx { quote!(ctx) } else { quote!(_ctx) };

        let serde = super::tokens::serde_derive(rt);
        quote! {
            #doc
            #[derive(::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq, ::core::cmp::Eq)]
            #serde
            pub enum #id #params {
                #(#decls,)*
            }

            impl<'a> #rt::__private::SchemaGroup<'a> for #id #params {
                const NAME: #s = #name;

                fn read<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                    ops: &mut #rt::__private::Operands<'_, 'a>,
                    field: #s,
                    #ctx_param: &C,
                ) -> #rt::Result<Self> {
                    let tag = ops.raw(field)?;
                    match tag {
                        #(#arms,)*
                        _ => ::core::result::Result::Err(ops.unknown_tag(field, tag, #name)),
                    }
                }

                #[allow(unused_variables)]
                fn write<C: #rt::decode::DecodeContext + ?::core::marker::Sized>(
                    &self,
                    out: &mut #rt::encode::OperandsOut<'a>,
                    field: #s,
                    ctx: &C,
                ) -> #rt::Result<()> {
                    match self {
                        #(#write_arms)*
                    }
                    ::core::result::Result::Ok(())
                }
            }

            impl #params #rt::__private::ShowField for #id #params {
                #[allow(unused_variables)]
                fn show(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    match self {
                        #(#show_arms,)*
                    }
                }
            }
        }
    }
}
