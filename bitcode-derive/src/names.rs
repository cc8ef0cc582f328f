//! Rust names from schema names: upper camel case for types and variants, snake case for
//! modules and fields; keywords become raw identifiers (or get a trailing `_` where Rust
//! allows no raw form).

use proc_macro2::{Ident, Span};

/// Splits a schema name into lower-case words at `_`, `-`, and lower-to-upper case steps.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower_or_digit = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' || c == '.' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower_or_digit = false;
            continue;
        }
        if c.is_uppercase() && prev_lower_or_digit && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower_or_digit = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `weak_any` → `WeakAny`, `GLOBALVAR` → `Globalvar`, `INST_BINOP` → `InstBinop`.
pub fn upper_camel(name: &str) -> String {
    let mut out = String::new();
    for w in words(name) {
        let mut chars = w.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    type_keyword_safe(out)
}

/// `MODULE_BLOCK` → `module_block`, `isConst` → `is_const`, `type` → `r#type`.
pub fn snake(name: &str) -> String {
    value_keyword_safe(words(name).join("_"))
}

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

fn type_keyword_safe(name: String) -> String {
    if NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

fn value_keyword_safe(name: String) -> String {
    if NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else if is_keyword(&name) {
        format!("r#{name}")
    } else {
        name
    }
}

/// True for Rust's strict and reserved keywords (every edition).
pub fn is_keyword(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
        "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
        "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
        "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
        "priv", "typeof", "unsized", "virtual", "yield",
    ];
    KEYWORDS.contains(&name)
}

/// True when `name` (raw `r#` prefix allowed) is a valid Rust identifier.
pub fn is_valid_ident(name: &str) -> bool {
    let bare = name.strip_prefix("r#").unwrap_or(name);
    let mut chars = bare.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_ascii_alphabetic() => {}
        _ => return false,
    }
    bare != "_" && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// True when `name` can name a generated item: a valid identifier (`r#` allowed) that is
/// no keyword without a raw form (`self`, `Self`, `super`, `crate`).
pub fn is_rust_ident(name: &str) -> bool {
    let bare = name.strip_prefix("r#").unwrap_or(name);
    is_valid_ident(name) && !matches!(bare, "self" | "Self" | "super" | "crate")
}

/// The identifier for a Rust name (`r#type` or a keyword becomes a raw identifier), or
/// `None` when the name cannot be one. Never panics.
pub fn ident(name: &str) -> Option<Ident> {
    let (raw, bare) = match name.strip_prefix("r#") {
        Some(bare) => (true, bare),
        None => (false, name),
    };
    let mut chars = bare.chars();
    let first_ok = matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic());
    if !first_ok || !chars.all(|c| c == '_' || c.is_ascii_alphanumeric()) || NOT_RAW.contains(&bare) {
        return None;
    }
    if raw || is_keyword(bare) {
        Some(Ident::new_raw(bare, Span::call_site()))
    } else {
        Some(Ident::new(bare, Span::call_site()))
    }
}

/// The identifier as written in Rust, for comparing names.
pub fn ident_key(id: &Ident) -> String {
    id.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(upper_camel("weak_any"), "WeakAny");
        assert_eq!(upper_camel("GLOBALVAR"), "Globalvar");
        assert_eq!(upper_camel("INST_BINOP"), "InstBinop");
        assert_eq!(upper_camel("x86_stdcallcc"), "X86Stdcallcc");
        assert_eq!(upper_camel("DiagFlag"), "DiagFlag");
        assert_eq!(snake("MODULE_BLOCK"), "module_block");
        assert_eq!(snake("isConst"), "is_const");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(upper_camel("self"), "Self_");
    }

    #[test]
    fn validity() {
        assert!(is_valid_ident("r#type"));
        assert!(is_valid_ident("_x1"));
        assert!(!is_valid_ident("1st"));
        assert!(!is_valid_ident(""));
        assert!(!is_valid_ident("_"));
        assert!(!is_valid_ident(&snake("a+b")));
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
}
