//! Validation: what no single table can check on its own — duplicates, references between
//! tables, field order, Rust names, bit ranges, version layouts, defaults. Each mistake is
//! reported and repaired (the offending piece dropped or replaced by a placeholder), so
//! the emitter always gets a model it can turn into valid Rust.

use std::collections::{HashMap, HashSet};

use crate::diag::Diagnostics;
use crate::load::nearest;
use crate::model::*;
use crate::names::is_valid_ident;

/// Names the generated code defines itself at the top level of the expansion.
const RESERVED_TYPES: &[&str] = &["AnyRecord"];
/// Names a block module defines itself.
const RESERVED_RECORDS: &[&str] = &["Record", "Unknown"];

/// Checks `schema`, reporting into `diags` and repairing what is wrong.
pub fn validate(schema: &mut Schema, diags: &mut Diagnostics) {
    check_type_names(schema, diags);
    for e in &mut schema.enums {
        check_enum(e, diags);
    }
    let enums: HashMap<String, Enum> =
        schema.enums.iter().map(|e| (e.name.value.clone(), e.clone())).collect();
    for f in &mut schema.flags {
        check_flags(f, &enums, diags);
    }
    let refs = Refs {
        enums: &enums,
        flags: schema.flags.iter().map(|f| f.name.value.clone()).collect(),
        groups: schema.groups.iter().map(|g| g.name.value.clone()).collect(),
    };
    for g in &mut schema.groups {
        check_group(g, &refs, diags);
    }
    check_blocks(&mut schema.blocks, diags);
    for b in &mut schema.blocks {
        for r in &mut b.records {
            check_record(r, &b.name.value, &refs, diags);
        }
    }
}

/// The names fields may refer to.
struct Refs<'e> {
    enums: &'e HashMap<String, Enum>,
    flags: Vec<String>,
    groups: Vec<String>,
}

/// Reports an invalid Rust name and returns a placeholder for it.
fn check_ident(name: &mut String, span: &Span, what: &str, fallback: &str, diags: &mut Diagnostics) {
    if !is_valid_ident(name) {
        diags.error_with_help(
            span.clone(),
            format!("{what} gives the Rust name `{name}`, which is not a valid identifier"),
            "use letters, digits and `_`, not starting with a digit, or set `rust_name`",
        );
        *name = fallback.to_string();
    }
}

fn check_type_names(schema: &mut Schema, diags: &mut Diagnostics) {
    let mut seen: HashMap<String, (String, Span)> = HashMap::new();
    let mut check = |rust: &mut String,
                     name: &Spanned<String>,
                     what: &str,
                     n: usize,
                     diags: &mut Diagnostics|
     -> bool {
        check_ident(rust, &name.span, &format!("{what} {}", name.value), &format!("Invalid{what}{n}"), diags);
        if RESERVED_TYPES.contains(&rust.as_str()) {
            diags.error_with_help(
                name.span.clone(),
                format!("{what} {} would be named `{rust}`, which the generated code uses", name.value),
                "set `rust_name` to another name",
            );
            return false;
        }
        if let Some((other, _)) = seen.get(rust.as_str()) {
            diags.error_with_help(
                name.span.clone(),
                format!("{what} {} would be named `{rust}`, like {other}", name.value),
                "each enum, flags and group needs its own Rust name; set `rust_name`",
            );
            return false;
        }
        seen.insert(rust.clone(), (format!("{what} {}", name.value), name.span.clone()));
        true
    };
    let mut n = 0;
    schema.enums.retain_mut(|e| {
        n += 1;
        check(&mut e.rust_name, &e.name, "enum", n, diags)
    });
    schema.flags.retain_mut(|f| {
        n += 1;
        check(&mut f.rust_name, &f.name, "flags", n, diags)
    });
    schema.groups.retain_mut(|g| {
        n += 1;
        check(&mut g.rust_name, &g.name, "group", n, diags)
    });
}

fn check_enum(e: &mut Enum, diags: &mut Diagnostics) {
    let what = format!("enum {}", e.name.value);
    if e.values.is_empty() {
        diags.error(e.name.span.clone(), format!("{what} has no values"));
    }
    let mut codes: HashMap<u64, String> = HashMap::new();
    let mut rust: HashMap<String, String> = HashMap::new();
    let mut n = 0;
    e.values.retain_mut(|v| {
        n += 1;
        check_ident(
            &mut v.rust_name,
            &v.name.span,
            &format!("value {} of {what}", v.name.value),
            &format!("Invalid{n}"),
            diags,
        );
        if matches!(e.unknown, UnknownPolicy::Keep) && v.rust_name == "Unknown" {
            diags.error_with_help(
                v.name.span.clone(),
                format!(
                    "value {} of {what} is named `Unknown`, the variant that keeps unknown codes",
                    v.name.value
                ),
                "rename it, or set its `rust_name`",
            );
            return false;
        }
        if let Some(other) = codes.get(&v.code.value) {
            diags.error_with_help(
                v.code.span.clone(),
                format!("value {} of {what} has code {}, like {other}", v.name.value, v.code.value),
                "each value needs its own code; obsolete codes go in `aliases`",
            );
            return false;
        }
        if let Some(other) = rust.get(&v.rust_name) {
            diags.error(
                v.name.span.clone(),
                format!(
                    "value {} of {what} would be the variant `{}`, like {other}",
                    v.name.value, v.rust_name
                ),
            );
            return false;
        }
        codes.insert(v.code.value, v.name.value.clone());
        rust.insert(v.rust_name.clone(), v.name.value.clone());
        true
    });
    let names: Vec<&str> = e.values.iter().map(|v| v.name.value.as_str()).collect();
    let unknown_variant = |name: &Spanned<String>, role: &str, diags: &mut Diagnostics| {
        let help = match nearest(&name.value, &names) {
            Some(n) => format!("did you mean `{n}`?"),
            None => format!("the values are: {}", names.join(", ")),
        };
        diags.error_with_help(
            name.span.clone(),
            format!("{role} of {what} names `{}`, which is not one of its values", name.value),
            help,
        );
    };
    if let UnknownPolicy::Default(d) = &e.unknown {
        if !names.contains(&d.value.as_str()) {
            unknown_variant(d, "`default`", diags);
            e.unknown = UnknownPolicy::Error;
        }
    }
    let mut alias_codes = HashSet::new();
    e.aliases.retain(|a| {
        if !names.contains(&a.variant.value.as_str()) {
            unknown_variant(&a.variant, &format!("alias {}", a.code.value), diags);
            return false;
        }
        if codes.contains_key(&a.code.value) || !alias_codes.insert(a.code.value) {
            diags.error(
                a.code.span.clone(),
                format!("alias {} of {what} repeats a code the enum already has", a.code.value),
            );
            return false;
        }
        true
    });
}

fn check_flags(f: &mut Flags, enums: &HashMap<String, Enum>, diags: &mut Diagnostics) {
    let what = format!("flags {}", f.name.value);
    let mut taken: Vec<(std::ops::Range<u32>, String)> = Vec::new();
    let mut rust = HashSet::new();
    let mut n = 0;
    f.fields.retain_mut(|field| {
        n += 1;
        let fwhat = format!("flag {} of {what}", field.name.value);
        check_ident(&mut field.rust_name, &field.name.span, &fwhat, &format!("invalid_{n}"), diags);
        let bits = field.bits.value.clone();
        if bits.start >= bits.end || bits.end > 64 {
            diags.error_with_help(
                field.bits.span.clone(),
                format!("{fwhat} covers bits {}..{}, outside a 64-bit word", bits.start, bits.end),
                "flag bits are numbered 0 to 63",
            );
            return false;
        }
        if let Some((_, other)) = taken.iter().find(|(r, _)| r.start < bits.end && bits.start < r.end) {
            diags.error(field.bits.span.clone(), format!("{fwhat} overlaps flag {other}"));
            return false;
        }
        if field.rust_name == "other_bits" || !rust.insert(field.rust_name.clone()) {
            diags.error(
                field.name.span.clone(),
                format!("{fwhat} would be the field `{}` twice", field.rust_name),
            );
            return false;
        }
        if let Some(e) = &field.enumeration {
            if !enums.contains_key(&e.value) {
                undefined(diags, e, "enum", &enums.keys().map(String::as_str).collect::<Vec<_>>());
                field.enumeration = None;
            }
        }
        taken.push((bits, field.name.value.clone()));
        true
    });
}

fn undefined(diags: &mut Diagnostics, name: &Spanned<String>, what: &str, known: &[&str]) {
    let help = match nearest(&name.value, known) {
        Some(n) => format!("did you mean `{n}`?"),
        None if known.is_empty() => format!("the schema defines no {what}; add [{what}s.{}]", name.value),
        None => format!("the schema's {what}s are: {}", known.join(", ")),
    };
    diags.error_with_help(name.span.clone(), format!("there is no {what} `{}`", name.value), help);
}

fn check_group(g: &mut Group, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let what = format!("group {}", g.name.value);
    let mut tags: HashMap<u64, String> = HashMap::new();
    let mut rust = HashSet::new();
    let mut n = 0;
    g.variants.retain_mut(|v| {
        n += 1;
        let vwhat = format!("variant {} of {what}", v.name.value);
        check_ident(&mut v.rust_name, &v.name.span, &vwhat, &format!("Invalid{n}"), diags);
        if let Some(other) = tags.get(&v.tag.value) {
            diags.error(v.tag.span.clone(), format!("{vwhat} has tag {}, like {other}", v.tag.value));
            return false;
        }
        if !rust.insert(v.rust_name.clone()) {
            diags.error(v.name.span.clone(), format!("{vwhat} would be the variant `{}` twice", v.rust_name));
            return false;
        }
        tags.insert(v.tag.value, v.name.value.clone());
        for f in &mut v.fields {
            if f.kind.value.takes_rest() {
                diags.error_with_help(
                    f.kind.span.clone(),
                    format!("field {} of {vwhat} would take every remaining operand", f.name.value),
                    "groups repeat until the record ends; use `cstring` or one-operand kinds inside them",
                );
                f.kind.value = Kind::Invalid;
            }
        }
        check_fields(&mut v.fields, &vwhat, refs, diags);
        true
    });
}

fn check_blocks(blocks: &mut Vec<Block>, diags: &mut Diagnostics) {
    let mut ids: HashMap<u32, String> = HashMap::new();
    let mut modules: HashMap<String, String> = HashMap::new();
    let mut n = 0;
    blocks.retain_mut(|b| {
        n += 1;
        let what = format!("block {}", b.name.value);
        check_ident(&mut b.module_name, &b.name.span, &what, &format!("invalid_block_{n}"), diags);
        if b.id.value == 0 {
            diags.error_with_help(
                b.id.span.clone(),
                format!("{what} has id 0, the BLOCKINFO block's"),
                "the reader handles BLOCKINFO itself; give the block another id",
            );
            return false;
        }
        if let Some(other) = ids.get(&b.id.value) {
            diags.error(b.id.span.clone(), format!("{what} has id {}, like block {other}", b.id.value));
            return false;
        }
        if let Some(other) = modules.get(&b.module_name) {
            diags.error_with_help(
                b.name.span.clone(),
                format!("{what} would be the module `{}`, like block {other}", b.module_name),
                "block names must differ in more than case and underscores",
            );
            return false;
        }
        ids.insert(b.id.value, b.name.value.clone());
        modules.insert(b.module_name.clone(), b.name.value.clone());
        let mut codes: HashMap<u32, String> = HashMap::new();
        let mut rust: HashMap<String, String> = HashMap::new();
        let mut m = 0;
        b.records.retain_mut(|r| {
            m += 1;
            let rwhat = format!("record {} of {what}", r.name.value);
            check_ident(&mut r.rust_name, &r.name.span, &rwhat, &format!("InvalidRecord{m}"), diags);
            if RESERVED_RECORDS.contains(&r.rust_name.as_str()) {
                diags.error_with_help(
                    r.name.span.clone(),
                    format!(
                        "{rwhat} would be named `{}`, which the generated block module uses",
                        r.rust_name
                    ),
                    "set `rust_name` to another name",
                );
                return false;
            }
            if let Some(other) = codes.get(&r.code.value) {
                diags.error(
                    r.code.span.clone(),
                    format!("{rwhat} has code {}, like record {other}", r.code.value),
                );
                return false;
            }
            if let Some(other) = rust.get(&r.rust_name) {
                diags.error_with_help(
                    r.name.span.clone(),
                    format!("{rwhat} would be the struct `{}`, like record {other}", r.rust_name),
                    "set `rust_name` on one of them",
                );
                return false;
            }
            codes.insert(r.code.value, r.name.value.clone());
            rust.insert(r.rust_name.clone(), r.name.value.clone());
            true
        });
        true
    });
}

fn check_record(r: &mut RecordDef, block: &str, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let what = format!("record {} of {block}", r.name.value);
    for layout in &mut r.layouts {
        check_fields(&mut layout.fields, &what, refs, diags);
    }
    check_layouts(r, &what, diags);
}

fn check_layouts(r: &mut RecordDef, what: &str, diags: &mut Diagnostics) {
    if r.layouts.len() <= 1 {
        if let Some(l) = r.layouts.first() {
            if l.versions.value != (0..u64::MAX) {
                diags.error_with_help(
                    l.versions.span.clone(),
                    format!(
                        "the layouts of {what} leave out versions: only {} is covered",
                        show_range(&l.versions.value)
                    ),
                    "give layouts for every version from 0 up, the last one open (\"N..\")",
                );
            }
        }
        return;
    }
    // Overlaps and gaps, in version order.
    let mut order: Vec<usize> = (0..r.layouts.len()).collect();
    order.sort_by_key(|&i| r.layouts.get(i).map_or(0, |l| l.versions.value.start));
    let mut next = 0u64;
    for &i in &order {
        let Some(l) = r.layouts.get(i) else { continue };
        let v = &l.versions.value;
        if v.start > next {
            diags.error_with_help(
                l.versions.span.clone(),
                format!("the layouts of {what} leave out versions {}", show_range(&(next..v.start))),
                "give a layout for every version from 0 up",
            );
        } else if v.start < next {
            diags.error(
                l.versions.span.clone(),
                format!("layout {} of {what} overlaps another layout", show_range(v)),
            );
        }
        next = next.max(v.end);
    }
    if next != u64::MAX {
        if let Some(l) = order.last().and_then(|&i| r.layouts.get(i)) {
            diags.error_with_help(
                l.versions.span.clone(),
                format!("the layouts of {what} leave out versions from {next} on"),
                "end the last layout open (\"N..\")",
            );
        }
    }
    // A name in two layouts must be the same field.
    let mut seen: HashMap<String, Kind> = HashMap::new();
    for layout in &mut r.layouts {
        layout.fields.retain(|f| match seen.get(&f.name.value) {
            Some(k) if !same_kind(k, &f.kind.value) => {
                diags.error_with_help(
                    f.kind.span.clone(),
                    format!("field {} of {what} has another kind in an earlier layout", f.name.value),
                    "a field name means one field in every layout; rename one of them",
                );
                false
            }
            Some(_) => true,
            None => {
                seen.insert(f.name.value.clone(), f.kind.value.clone());
                true
            }
        });
    }
}

/// Kinds compared without their spans.
fn same_kind(a: &Kind, b: &Kind) -> bool {
    a.clone_without_spans() == b.clone_without_spans()
}

fn show_range(r: &std::ops::Range<u64>) -> String {
    if r.end == u64::MAX {
        format!("{}..", r.start)
    } else if r.end == r.start + 1 {
        r.start.to_string()
    } else {
        format!("{}..{}", r.start, r.end)
    }
}

fn check_fields(fields: &mut Vec<Field>, owner: &str, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut rest_taken_by: Option<String> = None;
    let mut optional_from: Option<String> = None;
    let mut n = 0;
    fields.retain_mut(|f| {
        n += 1;
        let fwhat = format!("field {} of {owner}", f.name.value);
        check_ident(&mut f.rust_name, &f.name.span, &fwhat, &format!("invalid_{n}"), diags);
        if f.rust_name == "extra_operands" {
            diags.error_with_help(
                f.name.span.clone(),
                format!("{fwhat} would be named `extra_operands`, which holds a record's left-over operands"),
                "set `rust_name` to another name",
            );
            return false;
        }
        if let Some(other) = names.get(&f.rust_name) {
            diags.error(f.name.span.clone(), format!("{fwhat} would be the field `{}`, like field {other}", f.rust_name));
            return false;
        }
        names.insert(f.rust_name.clone(), f.name.value.clone());
        if let Some(taker) = &rest_taken_by {
            diags.error_with_help(
                f.name.span.clone(),
                format!("{fwhat} comes after field {taker}, which takes every remaining operand"),
                "move it before, or remove it",
            );
            return false;
        }
        check_references(&mut f.kind, refs, diags);
        check_presence(f, &fwhat, refs, diags);
        let takes_operand = !f.kind.value.takes_no_operand();
        match (&f.presence, &optional_from) {
            (Presence::Required, Some(first)) if takes_operand => diags.error_with_help(
                f.name.span.clone(),
                format!("{fwhat} is required, but comes after the optional field {first}"),
                "a record that ends early leaves out its last fields: make it `optional = true` or give a `default`",
            ),
            (Presence::Optional | Presence::Default(_), None) => optional_from = Some(f.name.value.clone()),
            _ => {}
        }
        if f.kind.value.takes_rest() {
            rest_taken_by = Some(f.name.value.clone());
        }
        true
    });
}

fn check_references(kind: &mut Spanned<Kind>, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let enums: Vec<&str> = refs.enums.keys().map(String::as_str).collect();
    let ok = match &mut kind.value {
        Kind::Enum(name) => {
            refs.enums.contains_key(&name.value) || {
                undefined(diags, name, "enum", &enums);
                false
            }
        }
        Kind::Flags(name) => {
            refs.flags.contains(&name.value) || {
                undefined(diags, name, "flags", &refs.flags.iter().map(String::as_str).collect::<Vec<_>>());
                false
            }
        }
        Kind::Group(name) => {
            refs.groups.contains(&name.value) || {
                undefined(diags, name, "group", &refs.groups.iter().map(String::as_str).collect::<Vec<_>>());
                false
            }
        }
        Kind::Array(inner) | Kind::CountedArray(inner) => {
            check_references(inner, refs, diags);
            true
        }
        _ => true,
    };
    if !ok {
        kind.value = Kind::Invalid;
    }
}

fn check_presence(f: &mut Field, what: &str, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let Presence::Default(d) = &f.presence else { return };
    let fits = match (&f.kind.value, &d.value) {
        (Kind::Unsigned(bits), DefaultValue::Int(n)) => {
            *n >= 0 && (*bits >= 64 && *n <= u64::MAX as i128 || *n < 1i128 << *bits)
        }
        (Kind::Signed, DefaultValue::Int(n)) => *n >= i64::MIN as i128 && *n <= i64::MAX as i128,
        (Kind::Value | Kind::Relative | Kind::SignedRelative | Kind::Type, DefaultValue::Int(n)) => {
            *n >= 0 && *n <= u32::MAX as i128
        }
        (Kind::Bool, DefaultValue::Bool(_)) => true,
        (Kind::Enum(e), DefaultValue::Variant(v)) => {
            refs.enums.get(&e.value).is_some_and(|e| e.values.iter().any(|x| &x.name.value == v))
        }
        (Kind::Invalid, _) => true,
        _ => false,
    };
    if !fits {
        diags.error_with_help(
            d.span.clone(),
            format!("the `default` of {what} does not fit its kind"),
            "integers for numeric kinds (within range), true/false for bool, a value name for enum",
        );
        f.presence = Presence::Optional;
    }
}

impl Kind {
    /// The kind with every span cleared, for comparing kinds written in two places.
    fn clone_without_spans(&self) -> Kind {
        let strip = |s: &Spanned<String>| Spanned::new(s.value.clone(), 0..0);
        match self {
            Kind::Enum(s) => Kind::Enum(strip(s)),
            Kind::Flags(s) => Kind::Flags(strip(s)),
            Kind::Group(s) => Kind::Group(strip(s)),
            Kind::Array(k) => Kind::Array(Box::new(Spanned::new(k.value.clone_without_spans(), 0..0))),
            Kind::CountedArray(k) => {
                Kind::CountedArray(Box::new(Spanned::new(k.value.clone_without_spans(), 0..0)))
            }
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load;

    const HEAD: &str = "[format]\nname = \"demo\"\nmagic = \"DEMO\"\n";

    fn check(body: &str) -> (Schema, Vec<String>) {
        let mut d = Diagnostics::new();
        let mut s = load(&format!("{HEAD}{body}"), &mut d);
        assert!(d.is_empty(), "load: {:?}", d.list());
        validate(&mut s, &mut d);
        (
            s,
            d.list()
                .iter()
                .map(|d| d.message.clone() + &d.help.clone().map(|h| format!(" | {h}")).unwrap_or_default())
                .collect(),
        )
    }

    #[test]
    fn a_valid_schema_passes_untouched() {
        let body = "[enums.E]\nvalues = { a = 0, b = 1 }\n[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfields = [{ name = \"e\", kind = \"enum\", enum = \"E\" }, { name = \"s\", kind = \"string\", optional = true }]\n";
        let (s, m) = check(body);
        assert!(m.is_empty(), "{m:?}");
        assert_eq!(s.blocks[0].records[0].layouts[0].fields.len(), 2);
    }

    #[test]
    fn duplicates_are_reported_and_dropped() {
        let (s, m) = check(
            "[blocks.A]\nid = 8\n[blocks.B]\nid = 8\n[blocks.C]\nid = 9\n[blocks.C.records.X]\ncode = 1\nfields = []\n[blocks.C.records.Y]\ncode = 1\nfields = []\n[enums.E]\nvalues = { a = 0, b = 0 }\n",
        );
        assert!(m.contains(&"block B has id 8, like block A".to_string()), "{m:?}");
        assert!(m.contains(&"record Y of block C has code 1, like record X".to_string()), "{m:?}");
        assert!(m.iter().any(|x| x.starts_with("value b of enum E has code 0, like a")), "{m:?}");
        assert_eq!(s.blocks.len(), 2);
        assert_eq!(s.blocks[1].records.len(), 1);
        assert_eq!(s.enums[0].values.len(), 1);
    }

    #[test]
    fn undefined_references_suggest_and_become_placeholders() {
        let (s, m) = check(
            "[enums.Linkage]\nvalues = { a = 0 }\n[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfields = [{ name = \"l\", kind = \"enum\", enum = \"Linkag\" }]\n",
        );
        assert_eq!(m, vec!["there is no enum `Linkag` | did you mean `Linkage`?"]);
        assert_eq!(s.blocks[0].records[0].layouts[0].fields[0].kind.value, Kind::Invalid);
    }

    #[test]
    fn field_order_rules() {
        let (_, m) = check(
            "[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfields = [{ name = \"a\", kind = \"u8\", optional = true }, { name = \"b\", kind = \"u8\" }, { name = \"s\", kind = \"array\", of = \"u8\", optional = true }, { name = \"c\", kind = \"u8\", optional = true }]\n",
        );
        assert!(
            m.iter().any(|x| x
                .starts_with("field b of record R of B is required, but comes after the optional field a")),
            "{m:?}"
        );
        assert!(
            m.iter().any(|x| x.starts_with(
                "field c of record R of B comes after field s, which takes every remaining operand"
            )),
            "{m:?}"
        );
    }

    #[test]
    fn bit_fields_and_layouts() {
        let (_, m) = check(
            "[flags.F]\nfields = { a = { bits = \"0..4\" }, b = { bit = 3 }, c = { bits = \"60..65\" } }\n[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\n[[blocks.B.records.R.layouts]]\nversions = \"0..2\"\nfields = []\n[[blocks.B.records.R.layouts]]\nversions = \"3..\"\nfields = []\n[blocks.B.records.S]\ncode = 2\n[[blocks.B.records.S.layouts]]\nversions = \"0..2\"\nfields = []\n[[blocks.B.records.S.layouts]]\nversions = \"1..\"\nfields = []\n",
        );
        assert!(m.contains(&"flag b of flags F overlaps flag a".to_string()), "{m:?}");
        assert!(
            m.iter().any(|x| x.starts_with("flag c of flags F covers bits 60..65, outside a 64-bit word")),
            "{m:?}"
        );
        assert!(
            m.iter().any(|x| x.starts_with("the layouts of record R of B leave out versions 2 |")),
            "{m:?}"
        );
        assert!(m.contains(&"layout 1.. of record S of B overlaps another layout".to_string()), "{m:?}");
    }

    #[test]
    fn rust_names_keywords_and_invalid_identifiers() {
        let (s, m) = check(
            "[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfields = [{ name = \"type\", kind = \"type\" }, { name = \"9lives\", kind = \"u8\" }]\n",
        );
        let fields = &s.blocks[0].records[0].layouts[0].fields;
        assert_eq!(fields[0].rust_name, "r#type");
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(m[0].starts_with(
            "field 9lives of record R of B gives the Rust name `9lives`, which is not a valid identifier"
        ));
        assert_eq!(fields[1].rust_name, "invalid_2");
    }
}
