//! Spelling of names: `%name`, `@name` (2.0dev globals), or quoted when not a plain identifier.

/// Which kind of name is being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sigil {
    /// Values local to a function, and types: `%name` or `"name"`.
    Local,
    /// Global values: `%name` (1.x) or `@name` (2.0dev); quoted `"name"` / `@"name"`.
    Global,
    /// A block's own label: `name` or `"name"`.
    Label,
}

/// The name as llvm-dis wrote it; `new_syntax` selects 2.0dev's `@` for globals.
pub(crate) fn llvm_name(name: &str, sigil: Sigil, new_syntax: bool) -> String {
    let global_at = sigil == Sigil::Global && new_syntax;
    if needs_quotes(name) {
        let prefix = if global_at { "@" } else { "" };
        return format!("{prefix}\"{name}\"");
    }
    match sigil {
        Sigil::Label => name.to_string(),
        _ if global_at => format!("@{name}"),
        _ => format!("%{name}"),
    }
}

/// A name needs quotes when it starts with a digit or has a character outside
/// `[A-Za-z0-9._-]`.
fn needs_quotes(name: &str) -> bool {
    let starts_with_digit = name.as_bytes().first().is_some_and(u8::is_ascii_digit);
    starts_with_digit || name.bytes().any(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_')))
}

/// Bytes as in a `c"..."` string: printable ASCII except `"` and `\` as is, the rest `\XX`.
pub(crate) fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("\\{b:02X}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_only_when_needed() {
        assert_eq!(llvm_name("a.b-c_1", Sigil::Local, false), "%a.b-c_1");
        assert_eq!(llvm_name("1x", Sigil::Local, false), "\"1x\"");
        assert_eq!(llvm_name("a b", Sigil::Global, true), "@\"a b\"");
        assert_eq!(llvm_name("g", Sigil::Global, true), "@g");
        assert_eq!(llvm_name("bb", Sigil::Label, true), "bb");
        assert_eq!(escape_bytes(b"a\"\n\\"), "a\\22\\0A\\5C");
    }
}
