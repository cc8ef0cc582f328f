//! Small token helpers: identifiers, docs, absolute std paths, literals.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

pub(super) use crate::names::ident_key;

/// `#[doc = "..."]` with `doc`, or the generated text when the schema has none.
pub(super) fn doc_attr(doc: Option<&str>, generated: impl FnOnce() -> String) -> TokenStream {
    let text = match doc {
        Some(d) if !d.trim().is_empty() => d.to_string(),
        _ => generated(),
    };
    let lit = Literal::string(&text);
    quote!(#[doc = #lit])
}

/// The primitive type that holds an unsigned field of `bits` bits.
pub(super) fn unsigned_type(bits: u8) -> &'static str {
    match bits {
        0..=8 => "u8",
        9..=16 => "u16",
        17..=32 => "u32",
        _ => "u64",
    }
}

/// A primitive type by its absolute path, so a user type named `u32` cannot shadow it.
pub(super) fn prim(name: &str) -> TokenStream {
    let id = Ident::new(name, Span::call_site());
    quote!(::core::primitive::#id)
}

pub(super) fn str_lit(s: &str) -> Literal {
    Literal::string(s)
}

pub(super) fn option() -> TokenStream {
    quote!(::core::option::Option)
}

pub(super) fn some() -> TokenStream {
    quote!(::core::option::Option::Some)
}

pub(super) fn none() -> TokenStream {
    quote!(::core::option::Option::None)
}

pub(super) fn ok() -> TokenStream {
    quote!(::core::result::Result::Ok)
}

pub(super) fn vec() -> TokenStream {
    quote!(::std::vec::Vec)
}

pub(super) fn static_str() -> TokenStream {
    let s = prim("str");
    quote!(&'static #s)
}

/// `'a` when `yes`: the generic parameter list of a type that borrows the input.
pub(super) fn lifetime_params(yes: bool) -> TokenStream {
    if yes {
        quote!(<'a>)
    } else {
        TokenStream::new()
    }
}

/// `0x..u64`.
pub(super) fn hex_u64(v: u64) -> TokenStream {
    // A valid literal by construction; parsing cannot fail.
    format!("{v:#x}u64").parse().unwrap_or_else(|_| quote!(0u64))
}

/// The mask of `width` low bits (`width` in 1..=64).
pub(super) fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// With the `serde` feature, the attributes that make a generated type serializable through
/// the runtime's re-export of serde; nothing without it.
pub(super) fn serde_derive(rt: &TokenStream) -> TokenStream {
    if cfg!(feature = "serde") {
        let krate = format!("{rt}::__private::serde").replace(' ', "");
        quote!(#[derive(#rt::__private::serde::Serialize)] #[serde(crate = #krate)])
    } else {
        TokenStream::new()
    }
}
