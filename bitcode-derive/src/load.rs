//! Loading: the schema's TOML text, parsed with spans, into the [`Schema`] model. Every
//! table's keys are checked (unknown keys get the nearest known one as a suggestion), every
//! value's type, every required key. Mistakes become diagnostics and placeholders, never an
//! early return, so that one build reports them all.

use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned as TomlSpanned;

use crate::diag::{nearest, Diagnostics};
use crate::kinds::{self, Place, Takes};
use crate::model::*;
use crate::names::{is_keyword, is_rust_ident, snake, upper_camel};

type Value<'i> = TomlSpanned<DeValue<'i>>;

/// Parses `text` into a schema, reporting mistakes into `diags`.
pub fn load(text: &str, diags: &mut Diagnostics) -> Schema {
    let (root, errors) = DeTable::parse_recoverable(text);
    toml_errors(text, &errors, diags);
    let root = root.into_inner();
    let mut loader = Loader { diags, framing: Framing::Bits };
    loader.schema(&root, text.len())
}

/// Reports the TOML parser's errors. A key or table defined twice is named, with the line
/// of its first definition where it can be found; the keys of a table defined twice are
/// not reported again one by one. Of the syntax errors, the first of each line is kept
/// (the parser's recovery often reports the rest of a broken line again).
fn toml_errors(text: &str, errors: &[toml::de::Error], diags: &mut Diagnostics) {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |start, line| {
            let at = *start;
            *start += line.len();
            Some((at, line.trim_end_matches(['\n', '\r'])))
        })
        .collect();
    let line_of = |offset: usize| lines.partition_point(|(start, _)| *start <= offset).saturating_sub(1);
    // The lines of a table defined twice: its duplicated keys are already reported.
    let mut twice: Option<std::ops::Range<usize>> = None;
    let mut syntax_lines = Vec::new();
    for e in errors {
        let span = e.span().unwrap_or(0..0);
        let line = line_of(span.start);
        let text_of_line = lines.get(line).map_or("", |(_, l)| l.trim());
        if e.message() != "duplicate key" {
            if !syntax_lines.contains(&line) {
                syntax_lines.push(line);
                diags.syntax_error(span, format!("TOML syntax error: {}", e.message().trim_end()), None);
            }
            continue;
        }
        if twice.as_ref().is_some_and(|r| r.contains(&line)) {
            continue;
        }
        let key = text.get(span.clone()).unwrap_or("").trim();
        if let Some(header) = table_header(text_of_line) {
            let before = lines.get(..line).unwrap_or_default();
            let first = before.iter().position(|(_, l)| table_header(l.trim()).as_ref() == Some(&header));
            let end = lines
                .get(line + 1..)
                .unwrap_or_default()
                .iter()
                .position(|(_, l)| l.trim_start().starts_with('['))
                .map_or(lines.len(), |n| line + 1 + n);
            twice = Some(line + 1..end);
            let message = match first {
                Some(n) => format!("table [{header}] is defined twice, first on line {}", n + 1),
                None => format!("table [{header}] is defined twice: `{key}` is already defined above"),
            };
            let help = if header.split('.').nth(2) == Some("records") {
                "records of a block need names of their own: rename one, or merge the two tables"
            } else {
                "TOML allows a table once: merge the two tables, or rename one"
            };
            diags.error_with_help(span, message, help);
        } else {
            diags.error_with_help(
                span,
                format!("`{key}` is defined twice in the same table"),
                "TOML allows a key once in a table: remove one of them",
            );
        }
    }
}

/// The dotted name of a `[table]` header line (whitespace removed), or `None` for a line
/// that is no table header. Array-of-tables headers (`[[a.b]]`) may repeat: `None` too.
fn table_header(line: &str) -> Option<String> {
    let rest = line.strip_prefix('[')?;
    if rest.starts_with('[') {
        return None;
    }
    let end = rest.find(']')?;
    Some(rest[..end].chars().filter(|c| !c.is_whitespace()).collect())
}

/// Keys of each kind of table, for checking and for suggestions.
const ROOT_KEYS: &[&str] = &["format", "enums", "flags", "groups", "structs", "blocks"];
const FORMAT_KEYS: &[&str] = &["name", "magic", "doc", "framing", "queries", "type_escape"];
const ENUM_KEYS: &[&str] = &["doc", "rust_name", "unknown", "default", "values"];
const ENUM_VALUE_KEYS: &[&str] = &["value", "doc", "rust_name", "folds_to"];
const FLAGS_KEYS: &[&str] = &["doc", "rust_name", "fields"];
const FLAG_FIELD_KEYS: &[&str] = &["bit", "bits", "enum", "doc", "rust_name"];
const GROUP_KEYS: &[&str] = &["doc", "rust_name", "variants", "select"];
const STRUCT_KEYS: &[&str] = &["doc", "rust_name", "fields"];
const VARIANT_KEYS: &[&str] = &["tag", "tags", "other", "versions", "doc", "rust_name", "fields"];
const BLOCK_KEYS: &[&str] = &["id", "ids", "doc", "deferrable", "numbers", "records", "fields"];
const RECORD_KEYS: &[&str] = &["code", "doc", "rust_name", "defines", "fields", "layouts"];
const LAYOUT_KEYS: &[&str] = &["versions", "operands", "fields"];
const FIELD_KEYS: &[&str] = &[
    "name",
    "kind",
    "doc",
    "rust_name",
    "enum",
    "flags",
    "group",
    "struct",
    "of",
    "optional",
    "default",
    "present_if",
    "versions",
    "count",
    "width",
    "wire",
    "until",
    "tell",
];
/// The keys only a byte-framed schema may give, by the table they are in.
const BYTES_ONLY_KEYS: &[&str] =
    &["queries", "type_escape", "select", "tags", "other", "ids", "wire", "until", "tell"];

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

struct Loader<'d> {
    diags: &'d mut Diagnostics,
    /// The schema's framing, once `[format]` is read.
    framing: Framing,
}

/// One TOML table being read: its entries, where it was named, and what it is (for
/// messages like "block MODULE_BLOCK needs `id`").
struct Table<'t, 'i> {
    table: &'t DeTable<'i>,
    span: Span,
    what: String,
    known: &'static [&'static str],
}

impl<'t, 'i> Table<'t, 'i> {
    fn get(&self, key: &str) -> Option<&'t Value<'i>> {
        self.table.iter().find(|(k, _)| k.get_ref() == key).map(|(_, v)| v)
    }

    /// True when an unknown key of the table looks like a typo of `key` (reported with
    /// `key` as the suggestion): `key` is then not reported missing as well.
    fn has_typo_of(&self, key: &str) -> bool {
        self.table.iter().any(|(k, _)| {
            let k: &str = k.get_ref();
            !self.known.contains(&k) && nearest(k, self.known) == Some(key)
        })
    }
}

impl Loader<'_> {
    /// Checks a table's keys against `known`; returns a reader for it.
    fn table<'t, 'i>(
        &mut self,
        table: &'t DeTable<'i>,
        span: Span,
        what: String,
        known: &'static [&'static str],
    ) -> Table<'t, 'i> {
        for (k, _) in table.iter() {
            let key: &str = k.get_ref();
            if !known.contains(&key) {
                match nearest(key, known) {
                    Some(near) => self.diags.error_with_help(
                        k.span(),
                        format!("unknown key `{key}` in {what}"),
                        format!("did you mean `{near}`?"),
                    ),
                    None => self.diags.error_with_help(
                        k.span(),
                        format!("unknown key `{key}` in {what}"),
                        format!("the keys of {what} are: {}", known.join(", ")),
                    ),
                }
            }
        }
        if self.framing == Framing::Bits {
            for (k, v) in table.iter() {
                let key: &str = k.get_ref();
                // A block's `fields` is its body in a byte-framed schema.
                let bytes_only = BYTES_ONLY_KEYS.contains(&key) || (key == "fields" && known == BLOCK_KEYS);
                if bytes_only && known.contains(&key) {
                    self.diags.error_with_help(
                        k.span().start..v.span().end,
                        format!("`{key}` in {what} applies to byte-framed schemas only"),
                        "set `framing = \"bytes\"` in [format], or remove it",
                    );
                }
            }
        }
        Table { table, span, what, known }
    }

    fn wrong_type(&mut self, v: &Value<'_>, key: &str, what: &str, expected: &str) {
        self.diags
            .error(v.span(), format!("`{key}` of {what} must be {expected}, not {}", type_name(v.get_ref())));
    }

    fn missing(&mut self, t: &Table<'_, '_>, key: &str, example: &str) {
        self.missing_with_help(t, key, format!("add `{key} = {example}`"));
    }

    fn missing_with_help(&mut self, t: &Table<'_, '_>, key: &str, help: String) {
        if t.has_typo_of(key) {
            return;
        }
        self.diags.error_with_help(t.span.clone(), format!("{} needs `{key}`", t.what), help);
    }

    fn string(&mut self, t: &Table<'_, '_>, key: &str) -> Option<Spanned<String>> {
        let v = t.get(key)?;
        match v.get_ref() {
            DeValue::String(s) => Some(Spanned::new(s.to_string(), v.span())),
            _ => {
                self.wrong_type(v, key, &t.what, "a string");
                None
            }
        }
    }

    fn required_string(&mut self, t: &Table<'_, '_>, key: &str, example: &str) -> Option<Spanned<String>> {
        if t.get(key).is_none() {
            self.missing(t, key, example);
        }
        self.string(t, key)
    }

    fn doc(&mut self, t: &Table<'_, '_>) -> Option<String> {
        self.string(t, "doc").map(|s| s.value)
    }

    /// An integer value, checked to lie in `min..=max`.
    fn int_value(
        &mut self,
        v: &Value<'_>,
        key: &str,
        what: &str,
        min: i128,
        max: i128,
    ) -> Option<Spanned<i128>> {
        let DeValue::Integer(i) = v.get_ref() else {
            self.wrong_type(v, key, what, "an integer");
            return None;
        };
        let Ok(n) = i128::from_str_radix(i.as_str(), i.radix()) else {
            self.diags.error(v.span(), format!("`{key}` of {what} is out of range ({min} to {max})"));
            return None;
        };
        if n < min || n > max {
            self.diags.error(v.span(), format!("`{key}` of {what} is {n}, out of range ({min} to {max})"));
            return None;
        }
        Some(Spanned::new(n, v.span()))
    }

    fn int(&mut self, t: &Table<'_, '_>, key: &str, min: i128, max: i128) -> Option<Spanned<i128>> {
        let v = t.get(key)?;
        let what = t.what.clone();
        self.int_value(v, key, &what, min, max)
    }

    fn required_int(
        &mut self,
        t: &Table<'_, '_>,
        key: &str,
        help: &str,
        min: i128,
        max: i128,
    ) -> Option<Spanned<i128>> {
        if t.get(key).is_none() {
            self.missing_with_help(t, key, help.to_string());
        }
        self.int(t, key, min, max)
    }

    fn boolean(&mut self, t: &Table<'_, '_>, key: &str) -> Option<Spanned<bool>> {
        let v = t.get(key)?;
        match v.get_ref() {
            DeValue::Boolean(b) => Some(Spanned::new(*b, v.span())),
            _ => {
                self.wrong_type(v, key, &t.what, "true or false");
                None
            }
        }
    }

    /// The sub-table at `key`, with the span of its key.
    fn subtable<'t, 'i>(&mut self, t: &Table<'t, 'i>, key: &str) -> Option<(&'t DeTable<'i>, Span)> {
        let (k, v) = t.table.iter().find(|(k, _)| k.get_ref() == key)?;
        match v.get_ref() {
            DeValue::Table(inner) => Some((inner, k.span())),
            _ => {
                self.wrong_type(v, key, &t.what, "a table");
                None
            }
        }
    }

    fn array<'t, 'i>(&mut self, t: &Table<'t, 'i>, key: &str) -> Option<&'t DeArray<'i>> {
        let v = t.get(key)?;
        match v.get_ref() {
            DeValue::Array(a) => Some(a),
            _ => {
                self.wrong_type(v, key, &t.what, "an array");
                None
            }
        }
    }

    /// The entries of a table of named tables (`[enums.X]`, `[blocks.X]`): name, its span,
    /// and the table.
    fn named_tables<'t, 'i>(
        &mut self,
        t: &Table<'t, 'i>,
        key: &str,
        what: &str,
    ) -> Vec<(Spanned<String>, &'t DeTable<'i>)> {
        let Some((entries, _)) = self.subtable(t, key) else { return Vec::new() };
        let mut out = Vec::new();
        for (k, v) in entries.iter() {
            match v.get_ref() {
                DeValue::Table(inner) => out.push((Spanned::new(k.get_ref().to_string(), k.span()), inner)),
                other => self.diags.error(
                    v.span(),
                    format!("{what} `{}` must be a table, not {}", k.get_ref(), type_name(other)),
                ),
            }
        }
        out
    }

    fn schema(&mut self, root: &DeTable<'_>, len: usize) -> Schema {
        let root = self.table(root, 0..0, "the schema".into(), ROOT_KEYS);
        let format = match self.subtable(&root, "format") {
            Some((t, span)) => self.format(t, span),
            None => {
                self.diags.error_with_help(
                    0..len.min(1),
                    "the schema needs a [format] table",
                    "add [format] with `name` and `magic`",
                );
                Format::default()
            }
        };
        let enums = self
            .named_tables(&root, "enums", "enum")
            .into_iter()
            .map(|(n, t)| self.enumeration(n, t))
            .collect();
        let flags =
            self.named_tables(&root, "flags", "flags").into_iter().map(|(n, t)| self.flags(n, t)).collect();
        let groups =
            self.named_tables(&root, "groups", "group").into_iter().map(|(n, t)| self.group(n, t)).collect();
        let structs = self
            .named_tables(&root, "structs", "struct")
            .into_iter()
            .map(|(n, t)| self.structure(n, t))
            .collect();
        let blocks =
            self.named_tables(&root, "blocks", "block").into_iter().map(|(n, t)| self.block(n, t)).collect();
        Schema { format, enums, flags, groups, structs, blocks }
    }

    fn format(&mut self, table: &DeTable<'_>, span: Span) -> Format {
        // The framing decides which keys the rest may use, [format]'s own included.
        let bytes =
            table.iter().any(|(k, v)| k.get_ref() == "framing" && v.get_ref().as_str() == Some("bytes"));
        if bytes {
            self.framing = Framing::Bytes;
        }
        let t = self.table(table, span, "[format]".into(), FORMAT_KEYS);
        let name = self.required_string(&t, "name", "\"my_format\"").unwrap_or_default();
        let magic = match t.get("magic") {
            None => {
                self.missing(&t, "magic", "\"DEMO\"");
                Spanned::default()
            }
            Some(v) => self.magic(v),
        };
        let framing = self
            .word(&t, "framing", "framing", "[format]", &[("bits", Framing::Bits), ("bytes", Framing::Bytes)])
            .map_or(Framing::Bits, |f| f.value);
        self.framing = framing;
        let mut queries = Vec::new();
        if let Some((q, _)) = self.subtable(&t, "queries") {
            for (k, v) in q.iter() {
                let name = Spanned::new(k.get_ref().to_string(), k.span());
                match v.get_ref() {
                    DeValue::String(doc) => queries.push((name, Some(doc.to_string()))),
                    other => self.diags.error_with_help(
                        v.span(),
                        format!(
                            "query `{}` of [format] must be a string, not {}",
                            name.value,
                            type_name(other)
                        ),
                        "write `name = \"what the decode context answers\"`",
                    ),
                }
            }
        }
        let type_escape = self.versions_key(&t, "type_escape");
        Format { name, magic, doc: self.doc(&t), framing, queries, type_escape }
    }

    /// A version range under `key`, reported when it is not one.
    fn versions_key(&mut self, t: &Table<'_, '_>, key: &str) -> Option<Spanned<std::ops::Range<u64>>> {
        self.string(t, key).and_then(|v| match parse_range(&v.value, true) {
            Some(r) => Some(Spanned::new(r, v.span)),
            None => {
                self.diags.error_with_help(
                    v.span,
                    format!("`{key}` of {} is not a version range", t.what),
                    "write \"N\", \"A..B\", \"A..=B\" or \"A..\"",
                );
                None
            }
        })
    }

    fn magic(&mut self, v: &Value<'_>) -> Spanned<[u8; 4]> {
        const HELP: &str =
            "write four ASCII characters (\"DIAG\") or four byte values ([0x42, 0x43, 0xC0, 0xDE])";
        let bytes: Option<Vec<u8>> = match v.get_ref() {
            DeValue::String(s) => Some(s.as_bytes().to_vec()),
            DeValue::Array(a) => {
                let mut bytes = Vec::new();
                for b in a.iter() {
                    let byte = match b.get_ref() {
                        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
                            .ok()
                            .and_then(|n| u8::try_from(n).ok()),
                        _ => None,
                    };
                    match byte {
                        Some(byte) => bytes.push(byte),
                        None => {
                            self.diags.error_with_help(
                                b.span(),
                                "`magic` of [format] holds something that is not a byte (0 to 255)",
                                HELP,
                            );
                            return Spanned::new([0; 4], v.span());
                        }
                    }
                }
                Some(bytes)
            }
            _ => None,
        };
        match bytes {
            Some(b) => match <[u8; 4]>::try_from(b.as_slice()) {
                Ok(m) => Spanned::new(m, v.span()),
                Err(_) => {
                    self.diags.error_with_help(
                        v.span(),
                        format!("`magic` of [format] is {} bytes long, not 4", b.len()),
                        HELP,
                    );
                    Spanned::new([0; 4], v.span())
                }
            },
            None => {
                self.diags.error_with_help(
                    v.span(),
                    format!(
                        "`magic` of [format] must be a string or an array, not {}",
                        type_name(v.get_ref())
                    ),
                    HELP,
                );
                Spanned::new([0; 4], v.span())
            }
        }
    }

    fn rust_name(&mut self, t: &Table<'_, '_>, derived: String) -> String {
        self.given_rust_name(t).unwrap_or(derived)
    }

    /// `rust_name`, when it is given and is a Rust identifier (a keyword is fine: it is
    /// written raw). Another is reported at its value and ignored.
    fn given_rust_name(&mut self, t: &Table<'_, '_>) -> Option<String> {
        let s = self.string(t, "rust_name")?;
        if is_rust_ident(&s.value) {
            return Some(s.value);
        }
        let why = if is_keyword(s.value.trim_start_matches("r#")) {
            "a keyword that cannot be a raw identifier"
        } else {
            "not a valid Rust identifier"
        };
        self.diags.error_with_help(
            s.span,
            format!("`rust_name` of {} is `{}`, {why}", t.what, s.value),
            "use letters, digits and `_`, not starting with a digit",
        );
        None
    }

    fn enumeration(&mut self, name: Spanned<String>, table: &DeTable<'_>) -> Enum {
        let what = format!("enum {}", name.value);
        let t = self.table(table, name.span.clone(), what.clone(), ENUM_KEYS);
        let rust_name = self.rust_name(&t, upper_camel(&name.value));
        /// The words of `unknown`.
        #[derive(Clone, Copy)]
        enum Policy {
            Error,
            Keep,
            Default,
        }
        let policies = [("error", Policy::Error), ("keep", Policy::Keep), ("default", Policy::Default)];
        let unknown = match self.word(&t, "unknown", "policy", &what, &policies).map(|p| p.value) {
            None | Some(Policy::Error) => UnknownPolicy::Error,
            Some(Policy::Keep) => UnknownPolicy::Keep,
            Some(Policy::Default) => match self.string(&t, "default") {
                Some(d) => UnknownPolicy::Default(d),
                None => {
                    self.missing(&t, "default", "\"variant_name\"");
                    UnknownPolicy::Error
                }
            },
        };
        if !matches!(unknown, UnknownPolicy::Default(_)) {
            if let Some(d) = t.get("default") {
                self.diags.error_with_help(
                    d.span(),
                    format!("`default` of {what} needs `unknown = \"default\"`"),
                    "`default` names the variant unknown codes decode as",
                );
            }
        }
        let mut values = Vec::new();
        match self.subtable(&t, "values") {
            Some((vt, _)) => {
                for (k, v) in vt.iter() {
                    let vname = Spanned::new(k.get_ref().to_string(), k.span());
                    let value_what = format!("value {} of {what}", vname.value);
                    let (code, doc, rust, folds_to) = match v.get_ref() {
                        DeValue::Table(inner) => {
                            let vt = self.table(inner, k.span(), value_what, ENUM_VALUE_KEYS);
                            if vt.get("value").is_none() {
                                self.missing(&vt, "value", "0");
                            }
                            let code = self.int(&vt, "value", 0, u64::MAX as i128);
                            let rust = self.given_rust_name(&vt);
                            let folds_to = self.string(&vt, "folds_to");
                            (code, self.doc(&vt), rust, folds_to)
                        }
                        _ => (self.int_value(v, &vname.value, &what, 0, u64::MAX as i128), None, None, None),
                    };
                    // A value without a valid code is kept (its variant is still generated)
                    // with a placeholder code at its name's span, replaced in validation.
                    let code = match code {
                        Some(code) => Spanned::new(code.value as u64, code.span),
                        None => Spanned::new(0, vname.span.clone()),
                    };
                    let rust_name = rust.unwrap_or_else(|| upper_camel(&vname.value));
                    values.push(EnumValue { name: vname, rust_name, code, doc, folds_to });
                }
            }
            None => {
                if t.get("values").is_none() {
                    self.missing(&t, "values", "{ a = 0, b = 1 }");
                }
            }
        }
        Enum { name, rust_name, doc: self.doc(&t), unknown, values }
    }

    fn flags(&mut self, name: Spanned<String>, table: &DeTable<'_>) -> Flags {
        let what = format!("flags {}", name.value);
        let t = self.table(table, name.span.clone(), what.clone(), FLAGS_KEYS);
        let rust_name = self.rust_name(&t, upper_camel(&name.value));
        let mut fields = Vec::new();
        match self.subtable(&t, "fields") {
            Some((ft, _)) => {
                for (k, v) in ft.iter() {
                    let fname = Spanned::new(k.get_ref().to_string(), k.span());
                    let fwhat = format!("flag {} of {what}", fname.value);
                    let DeValue::Table(inner) = v.get_ref() else {
                        self.wrong_type(v, &fname.value, &what, "a table like { bit = 0 }");
                        continue;
                    };
                    let ft = self.table(inner, k.span(), fwhat.clone(), FLAG_FIELD_KEYS);
                    let bit = self.int(&ft, "bit", 0, 63);
                    let bits = self.string(&ft, "bits");
                    let range = match (bit, bits) {
                        (Some(b), None) => {
                            Some((Spanned::new(b.value as u32..b.value as u32 + 1, b.span), true))
                        }
                        (None, Some(r)) => match parse_range(&r.value, false) {
                            Some(range) if range.end <= 64 => {
                                Some((Spanned::new(range.start as u32..range.end as u32, r.span), false))
                            }
                            Some(range) => {
                                self.diags.error_with_help(
                                    r.span,
                                    format!(
                                        "{fwhat} covers bits {}..{}, outside a 64-bit word",
                                        range.start, range.end
                                    ),
                                    "flag bits are numbered 0 to 63: the range ends at 64 at most",
                                );
                                None
                            }
                            None => {
                                self.diags.error_with_help(
                                    r.span,
                                    format!("`bits` of {fwhat} is not a bit range"),
                                    "write the bits as \"LOW..HIGH\" (half-open), e.g. \"2..8\"",
                                );
                                None
                            }
                        },
                        (Some(b), Some(_)) => {
                            self.diags.error(b.span, format!("{fwhat} has both `bit` and `bits`: give one"));
                            None
                        }
                        (None, None) if ft.get("bit").is_none() && ft.get("bits").is_none() => {
                            self.diags.error_with_help(
                                k.span(),
                                format!("{fwhat} needs `bit` or `bits`"),
                                "add `bit = 0` (a bool) or `bits = \"0..4\"` (a number)",
                            );
                            None
                        }
                        // `bit` or `bits` is there but invalid: reported above.
                        (None, None) => None,
                    };
                    let enumeration = self.string(&ft, "enum");
                    let single = match (&range, ft.get("bit")) {
                        (Some((_, single)), _) => *single,
                        (None, bit) => bit.is_some(),
                    };
                    if let (true, Some(e)) = (single, &enumeration) {
                        self.diags.error(e.span.clone(), format!("{fwhat} is one bit: `enum` needs `bits`"));
                    }
                    // A flag without valid bits is kept (its field is still generated) with a
                    // placeholder bit at its name's span, which validation leaves out of the
                    // overlap checks.
                    let bits = match range {
                        Some((bits, _)) => bits,
                        None => Spanned::new(0..1, fname.span.clone()),
                    };
                    fields.push(FlagField {
                        rust_name: self.rust_name(&ft, snake(&fname.value)),
                        doc: self.doc(&ft),
                        name: fname,
                        bits,
                        single,
                        enumeration: enumeration.filter(|_| !single),
                    });
                }
            }
            None => {
                if t.get("fields").is_none() {
                    self.missing(&t, "fields", "{ flag = { bit = 0 } }");
                }
            }
        }
        Flags { name, rust_name, doc: self.doc(&t), fields }
    }

    fn group(&mut self, name: Spanned<String>, table: &DeTable<'_>) -> Group {
        let what = format!("group {}", name.value);
        let t = self.table(table, name.span.clone(), what.clone(), GROUP_KEYS);
        let rust_name = self.rust_name(&t, upper_camel(&name.value));
        let mut variants = Vec::new();
        let entries = self.named_tables(&t, "variants", "group variant");
        if entries.is_empty() && t.get("variants").is_none() {
            self.missing(&t, "variants", "{ name = { tag = 0, fields = [] } }");
        }
        for (vname, vtable) in entries {
            let vwhat = format!("variant {} of {what}", vname.value);
            let vt = self.table(vtable, vname.span.clone(), vwhat.clone(), VARIANT_KEYS);
            let other = self.boolean(&vt, "other").is_some_and(|b| b.value);
            let mut tag_by_version = Vec::new();
            if let Some(DeValue::Table(by)) = vt.get("tag").map(|v| v.get_ref()) {
                for (k, v) in by.iter() {
                    let range = parse_range(k.get_ref(), true);
                    let tag = match v.get_ref() {
                        DeValue::Integer(i) => u64::from_str_radix(i.as_str(), i.radix()).ok(),
                        _ => None,
                    };
                    match (range, tag) {
                        (Some(r), Some(t)) if self.framing == Framing::Bytes => tag_by_version.push((r, t)),
                        _ => self.diags.error_with_help(
                            k.span().start..v.span().end,
                            format!("`tag` of {vwhat} holds a bad entry"),
                            "write `tag = N`, or in a byte-framed schema `tag = { \"VERSIONS\" = N }`",
                        ),
                    }
                }
            }
            let more_tags = self.int_list(&vt, "tags");
            let help = "add `tag = N`, the tag operand that selects this variant";
            let tag = if let Some((_, t)) = tag_by_version.first() {
                Some(Spanned::new(*t as i128, vname.span.start..vname.span.start))
            } else if vt.get("tag").is_some_and(|v| matches!(v.get_ref(), DeValue::Table(_))) {
                None
            } else if other {
                self.int(&vt, "tag", 0, u64::MAX as i128)
            } else if vt.get("tag").is_none() && !more_tags.is_empty() {
                // `tags = [...]` alone: the first is the variant's tag.
                more_tags.first().map(|t| Spanned::new(*t as i128, vname.span.start..vname.span.start))
            } else {
                self.required_int(&vt, "tag", help, 0, u64::MAX as i128)
            };
            let versions = self.versions_key(&vt, "versions");
            let fields = match self.array(&vt, "fields") {
                Some(a) => self.fields(a, &vwhat),
                None => Vec::new(),
            };
            // A variant without a valid tag is kept (its type is still generated) with a
            // placeholder tag at its name's span, which validation replaces by a free one.
            let tag = match tag {
                Some(tag) => Spanned::new(tag.value as u64, tag.span),
                None => Spanned::new(0, vname.span.clone()),
            };
            variants.push(GroupVariant {
                rust_name: self.rust_name(&vt, upper_camel(&vname.value)),
                doc: self.doc(&vt),
                name: vname,
                tag,
                more_tags,
                tag_by_version,
                other,
                versions,
                fields,
            });
        }
        let select = self.select(&t);
        Group { name, rust_name, doc: self.doc(&t), variants, select }
    }

    /// A list of integers under `key` (`tags = [0, 1, 2]`).
    fn int_list(&mut self, t: &Table<'_, '_>, key: &str) -> Vec<u64> {
        let Some(a) = self.array(t, key) else { return Vec::new() };
        let mut out = Vec::new();
        for item in a.iter() {
            match item.get_ref() {
                DeValue::Integer(i) => match u64::from_str_radix(i.as_str(), i.radix()) {
                    Ok(n) => out.push(n),
                    Err(_) => self.diags.error(item.span(), format!("`{key}` of {}: not a tag", t.what)),
                },
                other => self.diags.error(
                    item.span(),
                    format!("`{key}` of {} must hold integers, not {}", t.what, type_name(other)),
                ),
            }
        }
        out
    }

    /// A group's `select`: `"@query"`, or `{ peek = "u32le" | "vbr", bits = "LO..HI" }`.
    fn select(&mut self, t: &Table<'_, '_>) -> Spanned<Select> {
        let Some(v) = t.get("select") else { return Spanned::new(Select::Read, t.span.clone()) };
        let bad = |this: &mut Self| {
            this.diags.error_with_help(
                v.span(),
                format!("`select` of {} is not a tag source", t.what),
                "write \"@query\" or { peek = \"u32le\", bits = \"0..2\" } (peek may be \"vbr\")",
            );
            Spanned::new(Select::Read, v.span())
        };
        match v.get_ref() {
            DeValue::String(q) => match q.strip_prefix('@') {
                Some(name) if !name.is_empty() => Spanned::new(Select::Query(name.to_string()), v.span()),
                _ => bad(self),
            },
            DeValue::Table(inner) => {
                let get = |key: &str| {
                    inner.iter().find(|(k, _)| k.get_ref() == key).and_then(|(_, v)| v.get_ref().as_str())
                };
                let fixed = match get("peek") {
                    Some("u32le") => true,
                    Some("vbr") => false,
                    _ => return bad(self),
                };
                match get("bits").and_then(|b| parse_range(b, false)) {
                    Some(r) if r.end <= 32 => {
                        Spanned::new(Select::Peek { fixed, bits: r.start as u32..r.end as u32 }, v.span())
                    }
                    _ => bad(self),
                }
            }
            _ => bad(self),
        }
    }

    fn structure(&mut self, name: Spanned<String>, table: &DeTable<'_>) -> StructDef {
        let what = format!("struct {}", name.value);
        let t = self.table(table, name.span.clone(), what.clone(), STRUCT_KEYS);
        let rust_name = self.rust_name(&t, upper_camel(&name.value));
        let fields = match self.array(&t, "fields") {
            Some(a) => self.fields(a, &what),
            None => {
                if t.get("fields").is_none() {
                    self.missing(&t, "fields", "[{ name = \"value\", kind = \"u64\" }]");
                }
                Vec::new()
            }
        };
        StructDef { name, rust_name, doc: self.doc(&t), fields }
    }

    fn block(&mut self, name: Spanned<String>, table: &DeTable<'_>) -> Block {
        let what = format!("block {}", name.value);
        let t = self.table(table, name.span.clone(), what.clone(), BLOCK_KEYS);
        let help = "add `id = N`, the block's id (not 0: that is BLOCKINFO's)";
        let id = self.required_int(&t, "id", help, 0, u32::MAX as i128);
        let deferrable = self.boolean(&t, "deferrable").is_some_and(|b| b.value);
        let numbers = self.word(
            &t,
            "numbers",
            "numbers",
            &what,
            &[("values", Numbers::Values), ("types", Numbers::Types)],
        );
        let ids = self.block_ids(&t);
        let fields = match self.array(&t, "fields") {
            Some(a) if self.framing == Framing::Bytes => self.fields(a, &what),
            _ => Vec::new(),
        };
        let mut records: Vec<RecordDef> = self
            .named_tables(&t, "records", "record")
            .into_iter()
            .map(|(rname, rtable)| self.record(rname, rtable, &name.value))
            .collect();
        // An invalid `numbers` (reported) leaves the block unnumbered, and its records'
        // `defines` unchecked, rather than reported again against each record.
        if numbers.is_none() && t.get("numbers").is_some() {
            for r in &mut records {
                r.defines = None;
            }
        }
        Block {
            module_name: snake(&name.value),
            // A block without a valid id is kept with a placeholder id at its name's span,
            // which validation replaces by a free one.
            id: id
                .map(|i| Spanned::new(i.value as u32, i.span))
                .unwrap_or_else(|| Spanned::new(0, name.span.clone())),
            doc: self.doc(&t),
            deferrable,
            numbers,
            records,
            ids,
            fields,
            name,
        }
    }

    /// A block's `ids = { "0..=2" = 0x15 }`: its id in other versions.
    fn block_ids(&mut self, t: &Table<'_, '_>) -> Vec<(Spanned<std::ops::Range<u64>>, Spanned<u32>)> {
        let Some((ids, _)) = self.subtable(t, "ids") else { return Vec::new() };
        let mut out = Vec::new();
        for (k, v) in ids.iter() {
            let range = parse_range(k.get_ref(), true);
            let id = match v.get_ref() {
                DeValue::Integer(i) => u32::from_str_radix(i.as_str(), i.radix()).ok(),
                _ => None,
            };
            match (range, id) {
                (Some(r), Some(id)) => out.push((Spanned::new(r, k.span()), Spanned::new(id, v.span()))),
                _ => self.diags.error_with_help(
                    k.span().start..v.span().end,
                    format!("`ids` of {} holds a bad entry", t.what),
                    "write `\"VERSIONS\" = ID`, e.g. `\"0..=2\" = 0x15`",
                ),
            }
        }
        out
    }

    fn record(&mut self, name: Spanned<String>, table: &DeTable<'_>, block: &str) -> RecordDef {
        let what = format!("record {} of block {block}", name.value);
        let t = self.table(table, name.span.clone(), what.clone(), RECORD_KEYS);
        let code = self.required_int(
            &t,
            "code",
            "add `code = N`, the record's code in its block",
            0,
            u32::MAX as i128,
        );
        let defines = self
            .word(
                &t,
                "defines",
                "defines",
                &what,
                &[
                    ("nothing", Defines::Nothing),
                    ("value", Defines::Value),
                    ("call_result", Defines::CallResult),
                    ("type", Defines::Type),
                ],
            )
            // An invalid one (reported) stands as `nothing`, so that it is not reported missing.
            .or_else(|| t.get("defines").map(|v| Spanned::new(Defines::Nothing, v.span())));
        let layouts = match (t.get("fields"), t.get("layouts")) {
            (Some(_), Some(l)) => {
                self.diags.error_with_help(
                    l.span(),
                    format!("{what} has both `fields` and `layouts`"),
                    "give `fields` for one layout, or `layouts` with `fields` in each",
                );
                Vec::new()
            }
            (Some(_), None) => {
                let fields = self.array(&t, "fields").map(|a| self.fields(a, &what)).unwrap_or_default();
                vec![Layout {
                    versions: Spanned::new(0..u64::MAX, name.span.clone()),
                    operands: None,
                    fields,
                }]
            }
            (None, Some(_)) => self.layouts(&t, &what),
            (None, None) if t.has_typo_of("fields") || t.has_typo_of("layouts") => Vec::new(),
            (None, None) => {
                self.diags.error_with_help(
                    t.span.clone(),
                    format!("{what} needs `fields` (or `layouts`)"),
                    "add `fields = []` for a record without operands",
                );
                Vec::new()
            }
        };
        RecordDef {
            rust_name: self.rust_name(&t, upper_camel(&name.value)),
            // As for blocks: a placeholder code at the name's span, replaced in validation.
            code: code
                .map(|c| Spanned::new(c.value as u32, c.span))
                .unwrap_or_else(|| Spanned::new(0, name.span.clone())),
            doc: self.doc(&t),
            layouts,
            defines,
            name,
        }
    }

    /// The string at `key`, one of `words`; otherwise a diagnostic (`unknown NOUN "..." in
    /// WHAT`) naming the nearest word, and `None`.
    fn word<T: Copy>(
        &mut self,
        t: &Table<'_, '_>,
        key: &str,
        noun: &str,
        what: &str,
        words: &[(&str, T)],
    ) -> Option<Spanned<T>> {
        let s = self.string(t, key)?;
        if let Some((_, v)) = words.iter().find(|(w, _)| *w == s.value) {
            return Some(Spanned::new(*v, s.span));
        }
        let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        let help = match (nearest(&s.value, &names), names.split_last()) {
            (Some(n), _) => format!("did you mean \"{n}\"?"),
            (None, Some((last, []))) => format!("use \"{last}\""),
            (None, Some((last, rest))) => {
                let rest: Vec<String> = rest.iter().map(|n| format!("\"{n}\"")).collect();
                format!("use {} or \"{last}\"", rest.join(", "))
            }
            (None, None) => String::new(),
        };
        self.diags.error_with_help(s.span, format!("unknown {noun} \"{}\" in {what}", s.value), help);
        None
    }

    fn layouts(&mut self, t: &Table<'_, '_>, what: &str) -> Vec<Layout> {
        let Some(array) = self.array(t, "layouts") else { return Vec::new() };
        let mut out = Vec::new();
        for (i, item) in array.iter().enumerate() {
            let lwhat = format!("layout {} of {what}", i + 1);
            let DeValue::Table(inner) = item.get_ref() else {
                self.wrong_type(item, "layouts", what, "an array of tables");
                continue;
            };
            let lt = self.table(inner, item.span(), lwhat.clone(), LAYOUT_KEYS);
            let versions = match self.required_string(&lt, "versions", "\"0..\"") {
                Some(v) => match parse_range(&v.value, true) {
                    Some(r) => Spanned::new(r, v.span),
                    None => {
                        self.diags.error_with_help(
                            v.span,
                            format!("`versions` of {lwhat} is not a version range"),
                            "write \"N\", \"A..B\", \"A..=B\" or \"A..\"",
                        );
                        continue;
                    }
                },
                None => continue,
            };
            let operands = match self.string(&lt, "operands") {
                Some(v) => match parse_range(&v.value, true) {
                    Some(r) => Some(Spanned::new(r, v.span)),
                    None => {
                        self.diags.error_with_help(
                            v.span,
                            format!("`operands` of {lwhat} is not a range of operand counts"),
                            "write \"N\", \"A..B\", \"A..=B\" or \"A..\"",
                        );
                        continue;
                    }
                },
                None => None,
            };
            let fields = match self.array(&lt, "fields") {
                Some(a) => self.fields(a, &lwhat),
                None => {
                    self.missing(&lt, "fields", "[]");
                    Vec::new()
                }
            };
            out.push(Layout { versions, operands, fields });
        }
        out
    }

    fn fields(&mut self, array: &DeArray<'_>, owner: &str) -> Vec<Field> {
        let mut out = Vec::new();
        for (i, item) in array.iter().enumerate() {
            let DeValue::Table(inner) = item.get_ref() else {
                self.diags.error_with_help(
                    item.span(),
                    format!("field {} of {owner} must be a table, not {}", i + 1, type_name(item.get_ref())),
                    "write fields as { name = \"...\", kind = \"...\" }",
                );
                continue;
            };
            // Name the field in messages by its name when it has one.
            let named =
                inner.iter().find(|(k, _)| k.get_ref() == "name").and_then(|(_, v)| v.get_ref().as_str());
            let fwhat = match named {
                Some(n) => format!("field {n} of {owner}"),
                None => format!("field {} of {owner}", i + 1),
            };
            let ft = self.table(inner, item.span(), fwhat, FIELD_KEYS);
            let Some(name) = self.required_string(&ft, "name", "\"field_name\"") else { continue };
            let kind = match self.required_string(&ft, "kind", "\"u32\"") {
                Some(k) => self.kind(&ft, &k, false),
                None => Spanned::new(Kind::Invalid, name.span.clone()),
            };
            self.check_kind_parameters(&ft, &kind);
            let presence = self.presence(&ft);
            let condition = self.string(&ft, "present_if").and_then(|c| {
                let (field, flag) = match c.value.split_once('.') {
                    Some((field, flag)) => (field.trim().to_string(), Some(flag.trim().to_string())),
                    None => (c.value.trim().to_string(), None),
                };
                if field.is_empty() || flag.as_deref() == Some("") {
                    self.diags.error_with_help(
                        c.span.clone(),
                        format!("`present_if` of {} names no field", ft.what),
                        "write \"FIELD\" (a bool field) or \"FIELD.FLAG\" (a one-bit flag of a flags field)",
                    );
                    return None;
                }
                Some(Spanned::new(Condition { field, flag, text: c.value.clone() }, c.span))
            });
            let versions = self.string(&ft, "versions").and_then(|v| match parse_range(&v.value, true) {
                Some(r) => Some(Spanned::new(r, v.span)),
                None => {
                    self.diags.error_with_help(
                        v.span,
                        format!("`versions` of {} is not a version range", ft.what),
                        "write \"N\", \"A..B\", \"A..=B\" or \"A..\"",
                    );
                    None
                }
            });
            let fixed = self
                .word(&ft, "wire", "wire", &ft.what.clone(), &[("vbr", false), ("u32le", true)])
                .is_some_and(|w| w.value);
            let until = self.string(&ft, "until");
            let tell = self.boolean(&ft, "tell").is_some_and(|b| b.value);
            out.push(Field {
                fixed,
                until,
                tell,
                rust_name: self.rust_name(&ft, snake(&name.value)),
                doc: self.doc(&ft),
                name,
                kind,
                presence,
                condition,
                versions,
            });
        }
        out
    }

    /// The kind named `k`, with parameters from the field's table. `element` is true for
    /// the `of` of an array.
    fn kind(&mut self, t: &Table<'_, '_>, k: &Spanned<String>, element: bool) -> Spanned<Kind> {
        let span = k.span.clone();
        let invalid = Spanned::new(Kind::Invalid, span.clone());
        let Some(spelling) = kinds::spelling(&k.value) else {
            let words = kinds::framing_words(self.framing == Framing::Bytes);
            let help = match nearest(&k.value, &words) {
                Some(n) => format!("did you mean `{n}`?"),
                None => format!("the kinds are: {}", words.join(", ")),
            };
            let which = if element { "element kind" } else { "kind" };
            self.diags.error_with_help(span, format!("unknown {which} `{}` in {}", k.value, t.what), help);
            return invalid;
        };
        // A byte-framed body reads one struct or one group where it stands.
        let anywhere = self.framing == Framing::Bytes && matches!(spelling.word, "struct" | "group");
        if spelling.place == Place::Element && !element && !anywhere {
            self.diags.error_with_help(
                span,
                format!("kind `{}` of {} is an array element", k.value, t.what),
                format!("write `kind = \"array\", of = \"{0}\", {0} = \"Name\"` (or counted_array)", k.value),
            );
            return invalid;
        }
        let param = |this: &mut Self, key: &str, example: &str| -> Option<Spanned<String>> {
            let v = this.string(t, key);
            if v.is_none() && t.get(key).is_none() {
                this.diags.error_with_help(
                    span.clone(),
                    format!("kind `{}` of {} needs `{key}`", k.value, t.what),
                    format!("add `{key} = \"{example}\"`"),
                );
            }
            v
        };
        let kind = match spelling.takes {
            Takes::Nothing => Kind::plain(spelling.word),
            Takes::Name { key, example } => {
                param(self, key, example).and_then(|n| Kind::named(spelling.word, n))
            }
            Takes::Element { .. } => param(self, "of", "u64").and_then(|of| {
                let group_element =
                    self.framing == Framing::Bytes && matches!(of.value.as_str(), "group" | "string");
                if kinds::spelling(&of.value).is_some_and(|s| s.place == Place::Field) && !group_element {
                    self.diags.error_with_help(
                        of.span.clone(),
                        format!("`of` of {} cannot be `{}`", t.what, of.value),
                        "array elements are one-operand kinds, value_type, cstring or struct",
                    );
                    return None;
                }
                let element = Box::new(self.kind(t, &of, true));
                Kind::of(spelling.word, element, self.string(t, "count"))
            }),
        };
        Spanned::new(kind.unwrap_or(Kind::Invalid), span)
    }

    /// Reports a parameter (`enum`, `of`, `count`, ...) given to a kind that does not use it.
    fn check_kind_parameters(&mut self, t: &Table<'_, '_>, kind: &Spanned<Kind>) {
        if matches!(kind.value, Kind::Invalid) {
            return;
        }
        // The keys the kind and its element use.
        let mut used = kind.value.spelling().map(|s| s.takes.keys()).unwrap_or_default();
        if let Kind::Array(element) | Kind::CountedArray(element, _) = &kind.value {
            used.extend(element.value.spelling().map(|s| s.takes.keys()).unwrap_or_default());
        }
        let mut checked = Vec::new();
        for spelling in kinds::SPELLINGS {
            for key in spelling.takes.keys() {
                if checked.contains(&key) {
                    continue;
                }
                checked.push(key);
                let Some(v) = t.get(key).filter(|_| !used.contains(&key)) else { continue };
                let msg = match spelling.takes {
                    // `count` belongs to one kind: name it.
                    Takes::Element { counted: true } if key == "count" => {
                        format!("`count` applies to kind `{}` only, in {}", spelling.word, t.what)
                    }
                    _ => format!("`{key}` does not apply to the kind of {}", t.what),
                };
                self.diags.error(v.span(), msg);
            }
        }
    }

    fn presence(&mut self, t: &Table<'_, '_>) -> Presence {
        let optional = self.boolean(t, "optional");
        let default = t.get("default").and_then(|v| match v.get_ref() {
            DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
                .ok()
                .map(|n| Spanned::new(DefaultValue::Int(n), v.span())),
            DeValue::Boolean(b) => Some(Spanned::new(DefaultValue::Bool(*b), v.span())),
            DeValue::String(s) => Some(Spanned::new(DefaultValue::Variant(s.to_string()), v.span())),
            other => {
                self.diags.error(
                    v.span(),
                    format!(
                        "`default` of {} must be an integer, a boolean or a variant name, not {}",
                        t.what,
                        type_name(other)
                    ),
                );
                None
            }
        });
        match (optional, default) {
            (Some(o), Some(_)) if o.value => {
                self.diags.error(o.span, format!("{} has both `optional` and `default`: give one", t.what));
                Presence::Optional
            }
            (Some(o), _) if o.value => Presence::Optional,
            (_, Some(d)) => Presence::Default(d),
            _ => Presence::Required,
        }
    }
}

/// Parses `"N"`, `"A..B"`, `"A..=B"` (or `"A.."` when `open_end` is allowed) into a
/// half-open range; `"A.."` ends at `u64::MAX`. Empty ranges are refused.
pub fn parse_range(text: &str, open_end: bool) -> Option<std::ops::Range<u64>> {
    let text = text.trim();
    let num = |s: &str| s.trim().parse::<u64>().ok();
    let range = if let Some((a, b)) = text.split_once("..=") {
        num(a)?..num(b)?.checked_add(1)?
    } else if let Some((a, b)) = text.split_once("..") {
        if b.trim().is_empty() {
            if !open_end {
                return None;
            }
            num(a)?..u64::MAX
        } else {
            num(a)?..num(b)?
        }
    } else {
        let n = num(text)?;
        n..n.checked_add(1)?
    };
    (range.start < range.end).then_some(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_ok(text: &str) -> Schema {
        let mut d = Diagnostics::new();
        let s = load(text, &mut d);
        assert!(d.is_empty(), "{:?}", d.list());
        s
    }

    fn messages(text: &str) -> Vec<String> {
        let mut d = Diagnostics::new();
        load(text, &mut d);
        d.list()
            .iter()
            .map(|d| d.message.clone() + &d.help.clone().map(|h| format!(" | {h}")).unwrap_or_default())
            .collect()
    }

    const HEAD: &str = "[format]\nname = \"demo\"\nmagic = \"DEMO\"\n";

    #[test]
    fn loads_every_construct() {
        let s = load_ok(&format!(
            "{HEAD}
[enums.Linkage]
unknown = \"keep\"
values = {{ external = 0, weak_any = {{ value = 16, doc = \"weak\" }}, weak_old = {{ value = 1, folds_to = \"weak_any\" }} }}
[flags.VarFlags]
fields = {{ is_const = {{ bit = 0 }}, space = {{ bits = \"2..8\" }} }}
[groups.Attr.variants.int_attr]
tag = 1
fields = [{{ name = \"kind\", kind = \"u64\" }}]
[blocks.MODULE_BLOCK]
id = 8
deferrable = true
numbers = \"values\"
[blocks.MODULE_BLOCK.records.GLOBALVAR]
code = 7
defines = \"value\"
[[blocks.MODULE_BLOCK.records.GLOBALVAR.layouts]]
versions = \"2..\"
fields = [{{ name = \"type\", kind = \"type\" }}, {{ name = \"ops\", kind = \"array\", of = \"enum\", enum = \"Linkage\" }}]
[[blocks.MODULE_BLOCK.records.GLOBALVAR.layouts]]
versions = \"0..=1\"
fields = [{{ name = \"n\", kind = \"u8\", default = 3 }}]
"
        ));
        assert_eq!(s.format.magic.value, *b"DEMO");
        let e = &s.enums[0];
        assert_eq!(e.unknown, UnknownPolicy::Keep);
        assert_eq!(e.values[1].rust_name, "WeakAny");
        assert_eq!(e.values[1].code.value, 16);
        assert_eq!(e.values[2].folds_to.as_ref().map(|f| f.value.as_str()), Some("weak_any"));
        assert_eq!(s.flags[0].fields[1].bits.value, 2..8);
        assert_eq!(s.groups[0].variants[0].tag.value, 1);
        let b = &s.blocks[0];
        assert_eq!((b.module_name.as_str(), b.id.value, b.deferrable), ("module_block", 8, true));
        assert_eq!(b.numbers.as_ref().map(|n| n.value), Some(Numbers::Values));
        let r = &b.records[0];
        assert_eq!(r.defines.as_ref().map(|d| d.value), Some(Defines::Value));
        assert_eq!(r.rust_name, "Globalvar");
        assert_eq!(r.layouts[0].versions.value, 2..u64::MAX);
        assert_eq!(r.layouts[1].versions.value, 0..2);
        assert_eq!(r.layouts[0].fields[0].rust_name, "r#type");
        assert!(
            matches!(&r.layouts[0].fields[1].kind.value, Kind::Array(k) if matches!(&k.value, Kind::Enum(n) if n.value == "Linkage"))
        );
        assert!(
            matches!(&r.layouts[1].fields[0].presence, Presence::Default(d) if d.value == DefaultValue::Int(3))
        );
    }

    #[test]
    fn unknown_keys_suggest_the_nearest() {
        let m = messages(&format!("{HEAD}[blocks.B]\nid = 8\nnumber = \"values\"\nrecords = {{}}\n"));
        assert_eq!(m, vec!["unknown key `number` in block B | did you mean `numbers`?"]);
        let m = messages(&format!("{HEAD}[blocks.B]\nid = 8\nnumbers = \"value\"\nrecords = {{}}\n"));
        assert_eq!(m, vec!["unknown numbers \"value\" in block B | did you mean \"values\"?"]);
        let m = messages(&format!("{HEAD}[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfields = [{{ name = \"x\", knd = \"u8\" }}]\n"));
        assert!(
            m.contains(
                &"unknown key `knd` in field x of record R of block B | did you mean `kind`?".to_string()
            ),
            "{m:?}"
        );
    }

    #[test]
    fn missing_keys_wrong_types_and_ranges() {
        let m =
            messages("[format]\nmagic = 5\n[blocks.B]\nid = 4294967296\n[blocks.B.records.R]\nfields = []\n");
        assert!(m.contains(&"[format] needs `name` | add `name = \"my_format\"`".to_string()), "{m:?}");
        assert!(
            m.iter()
                .any(|x| x.starts_with("`magic` of [format] must be a string or an array, not an integer")),
            "{m:?}"
        );
        let long = messages("[format]\nname = \"x\"\nmagic = \"TOOLONG\"\n");
        assert!(long[0].starts_with("`magic` of [format] is 7 bytes long, not 4 |"), "{long:?}");
        let bytes = messages("[format]\nname = \"x\"\nmagic = [1, 2, 256, 4]\n");
        assert!(
            bytes[0].starts_with("`magic` of [format] holds something that is not a byte (0 to 255) |"),
            "{bytes:?}"
        );
        assert!(
            m.contains(&"`id` of block B is 4294967296, out of range (0 to 4294967295)".to_string()),
            "{m:?}"
        );
        assert!(
            m.contains(
                &"record R of block B needs `code` | add `code = N`, the record's code in its block"
                    .to_string()
            ),
            "{m:?}"
        );
    }

    #[test]
    fn a_missing_key_with_a_typo_is_reported_once() {
        let m = messages(&format!(
            "{HEAD}[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfield = []\n[blocks.B.records.S]\ncode = 2\nfields = [{{ name = \"x\", knd = \"u8\" }}]\n"
        ));
        assert_eq!(
            m,
            vec![
                "unknown key `field` in record R of block B | did you mean `fields`?",
                "unknown key `knd` in field x of record S of block B | did you mean `kind`?",
            ]
        );
    }

    #[test]
    fn invalid_values_keep_their_item_as_a_placeholder() {
        let mut d = Diagnostics::new();
        let s = load(
            &format!(
                "{HEAD}[enums.E]\nvalues = {{ a = -1 }}\n[flags.F]\nfields = {{ x = {{ bit = 64 }}, y = {{ bits = \"60..65\" }}, z = {{ bit = \"1\" }} }}\n[groups.G.variants.v]\nfields = []\n[blocks.B]\nid = \"8\"\n"
            ),
            &mut d,
        );
        let m: Vec<String> = d.list().into_iter().map(|d| d.message).collect();
        assert_eq!(
            m,
            vec![
                "`a` of enum E is -1, out of range (0 to 18446744073709551615)",
                "`bit` of flag x of flags F is 64, out of range (0 to 63)",
                "flag y of flags F covers bits 60..65, outside a 64-bit word",
                "`bit` of flag z of flags F must be an integer, not a string",
                "variant v of group G needs `tag`",
                "`id` of block B must be an integer, not a string",
            ]
        );
        // Each is kept, at its name's span (which validation reads as "placeholder").
        assert_eq!(s.enums[0].values[0].code.span, s.enums[0].values[0].name.span);
        assert_eq!(s.flags[0].fields.len(), 3);
        assert!(s.flags[0].fields.iter().all(|f| f.bits.span == f.name.span));
        assert_eq!((s.flags[0].fields[0].single, s.flags[0].fields[1].single), (true, false));
        assert_eq!(s.groups[0].variants[0].tag.span, s.groups[0].variants[0].name.span);
        assert_eq!(s.blocks[0].id.span, s.blocks[0].name.span);
    }

    #[test]
    fn invalid_rust_names_are_reported_at_their_value() {
        let m = messages(&format!(
            "{HEAD}[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nrust_name = \"self\"\nfields = [{{ name = \"x\", rust_name = \"not ok\", kind = \"u8\" }}, {{ name = \"y\", rust_name = \"type\", kind = \"u8\" }}]\n"
        ));
        assert_eq!(
            m,
            vec![
                "`rust_name` of field x of record R of block B is `not ok`, not a valid Rust identifier | use letters, digits and `_`, not starting with a digit",
                "`rust_name` of record R of block B is `self`, a keyword that cannot be a raw identifier | use letters, digits and `_`, not starting with a digit",
            ]
        );
    }

    #[test]
    fn toml_errors_name_what_is_duplicated_and_do_not_cascade() {
        let mut d = Diagnostics::new();
        load(
            &format!("{HEAD}[blocks.B]\nid = 8\nid = 9\n[blocks.B.records.R]\ncode = 1\nfields = []\n[blocks.B.records.R]\ncode = 2\nfields = []\n"),
            &mut d,
        );
        let m: Vec<String> = d
            .list()
            .iter()
            .map(|d| format!("{} | {}", d.message, d.help.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            m,
            vec![
                "`id` is defined twice in the same table | TOML allows a key once in a table: remove one of them",
                "table [blocks.B.records.R] is defined twice, first on line 7 | records of a block need names of their own: rename one, or merge the two tables",
            ]
        );
        // Only duplicates: the other mistakes still show.
        assert_eq!(d.sorted().len(), 2);
    }

    #[test]
    fn unknown_kinds_and_misplaced_parameters() {
        let m = messages(&format!(
            "{HEAD}[blocks.B]\nid = 1\n[blocks.B.records.R]\ncode = 1\nfields = [{{ name = \"a\", kind = \"u23\" }}, {{ name = \"b\", kind = \"u8\", enum = \"E\" }}, {{ name = \"c\", kind = \"enum\" }}]\n"
        ));
        assert!(
            m.contains(
                &"unknown kind `u23` in field a of record R of block B | did you mean `u32`?".to_string()
            ),
            "{m:?}"
        );
        assert!(
            m.contains(&"`enum` does not apply to the kind of field b of record R of block B".to_string()),
            "{m:?}"
        );
        assert!(
            m.iter().any(|x| x.starts_with("kind `enum` of field c of record R of block B needs `enum`")),
            "{m:?}"
        );
    }

    #[test]
    fn syntax_errors_are_located() {
        let mut d = Diagnostics::new();
        load("[format\nname = 1\n", &mut d);
        assert!(!d.is_empty());
        assert!(d.list()[0].message.starts_with("TOML syntax error"), "{:?}", d.list());
    }

    #[test]
    fn syntax_errors_hide_the_rest_and_come_once_a_line() {
        let mut d = Diagnostics::new();
        // Three broken lines; the parser reports each `id = = 8` twice. `[format]` misses
        // `name`, and the block its `id`, only because of the broken lines.
        load("[format]\nmagic = \"DEMO\"\nname = \"x\nid = = 8\n[blocks.B]\nid = = 8\n", &mut d);
        let shown: Vec<&str> = d.sorted().iter().map(|d| d.message.as_str()).collect();
        assert_eq!(shown.len(), 3, "one for each broken line: {shown:?}");
        assert!(shown.iter().all(|m| m.starts_with("TOML syntax error")), "{shown:?}");
        assert!(d.list().len() > 2, "the other diagnostics are kept but not shown");
    }

    #[test]
    fn ranges() {
        assert_eq!(parse_range("3", true), Some(3..4));
        assert_eq!(parse_range("0..2", true), Some(0..2));
        assert_eq!(parse_range("0..=2", true), Some(0..3));
        assert_eq!(parse_range("2..", true), Some(2..u64::MAX));
        assert_eq!(parse_range("2..", false), None);
        assert_eq!(parse_range("3..3", true), None);
        assert_eq!(parse_range("x", true), None);
    }
}
