//! Validation: what no single table can check on its own — duplicates, references between
//! tables, field order, Rust names, bit ranges, version layouts, defaults. Each mistake is
//! reported and repaired (the offending piece dropped or replaced by a placeholder), so
//! the emitter always gets a model it can turn into valid Rust: the resolved model
//! (`resolve.rs`) that [`validate`] returns.

use std::collections::{HashMap, HashSet};

use crate::diag::{nearest, Diagnostics};
use crate::model::*;
use crate::names::is_rust_ident;
use crate::resolve::Resolved;

/// Names the generated code defines itself at the top level of the expansion.
const RESERVED_TYPES: &[&str] = &["AnyRecord"];
/// Names a block module defines itself.
const RESERVED_RECORDS: &[&str] = &["Record", "Unknown"];

/// Checks `schema`, reporting into `diags` and repairing what is wrong.
pub fn validate<'s>(schema: &'s mut Schema, diags: &mut Diagnostics) -> Resolved<'s> {
    check_type_names(schema, diags);
    for e in &mut schema.enums {
        check_enum(e, diags);
    }
    let enums: HashMap<String, Enum> =
        schema.enums.iter().map(|e| (e.name.value.clone(), e.clone())).collect();
    // Names in file order, for suggestions and lists that come out the same every build.
    let enum_names: Vec<String> = schema.enums.iter().map(|e| e.name.value.clone()).collect();
    for f in &mut schema.flags {
        check_flags(f, &enums, &enum_names, diags);
    }
    crate::bytes_rules::check(schema, diags);
    let refs = Refs {
        bytes: schema.format.framing == Framing::Bytes,
        enums: &enums,
        enum_names,
        flags: schema.flags.iter().map(|f| f.name.value.clone()).collect(),
        flag_defs: &schema.flags,
        groups: schema.groups.iter().map(|g| g.name.value.clone()).collect(),
        structs: schema.structs.iter().map(|st| st.name.value.clone()).collect(),
    };
    for g in &mut schema.groups {
        check_group(g, &refs, diags);
    }
    for st in &mut schema.structs {
        check_struct(st, &refs, diags);
    }
    check_blocks(&mut schema.blocks, diags);
    for b in &mut schema.blocks {
        // A byte-framed block's body: its fields, checked as a record's are.
        check_fields(&mut b.fields, &format!("block {}", b.name.value), &refs, diags);
        for r in &mut b.records {
            check_record(r, &b.name.value, &refs, diags);
        }
        check_numbering(b, diags);
    }
    Resolved::new(schema)
}

/// The largest record code a numbered block may hold: its generated table of what each code
/// defines is indexed by code.
pub const MAX_NUMBERED_CODE: u32 = 4095;

/// `numbers` and `defines`: every record of a numbered block says what it defines, in the
/// block's kind of number; no record of another block does; a call result can be read.
/// A mistake is reported and repaired to `nothing`.
fn check_numbering(b: &mut Block, diags: &mut Diagnostics) {
    let block = b.name.value.clone();
    let numbers = b.numbers.as_ref().map(|n| n.value);
    for r in &mut b.records {
        let what = format!("record {} of block {block}", r.name.value);
        let Some(numbers) = numbers else {
            if let Some(d) = r.defines.take() {
                diags.error_with_help(
                    d.span,
                    format!("{what} says what it defines, but block {block} numbers nothing"),
                    "add `numbers = \"values\"` (or \"types\") to the block, or remove `defines`",
                );
            }
            continue;
        };
        let (number, choices) = match numbers {
            Numbers::Values => ("values", "`defines = \"value\"`, \"call_result\" or \"nothing\""),
            Numbers::Types => ("types", "`defines = \"type\"` or \"nothing\""),
        };
        let Some(d) = r.defines.clone() else {
            diags.error_with_help(
                r.name.span.clone(),
                format!("{what} does not say what it defines; block {block} numbers {number}"),
                format!("add {choices}: every record of a numbered block says whether it takes a number"),
            );
            r.defines = Some(Spanned::new(Defines::Nothing, r.name.span.clone()));
            continue;
        };
        let fits = match d.value {
            Defines::Nothing => true,
            Defines::Value | Defines::CallResult => numbers == Numbers::Values,
            Defines::Type => numbers == Numbers::Types,
        };
        let problem = if !fits {
            Some((
                format!("{what} defines {}, but block {block} numbers {number}", defines_word(d.value)),
                format!("use {choices}"),
            ))
        } else if r.code.value > MAX_NUMBERED_CODE {
            Some((
                format!(
                    "{what} has code {}: a numbered block's codes are at most {MAX_NUMBERED_CODE}",
                    r.code.value
                ),
                "what each code defines is a table indexed by code; give the record a smaller code"
                    .to_string(),
            ))
        } else if d.value == Defines::CallResult {
            call_result_problem(r)
                .map(|p| (format!("{what} defines a call result, but {p}"), CALL_RESULT_HELP.to_string()))
        } else {
            None
        };
        if let Some((message, help)) = problem {
            diags.error_with_help(d.span.clone(), message, help);
            r.defines = Some(Spanned::new(Defines::Nothing, d.span));
        }
    }
}

const CALL_RESULT_HELP: &str = "a call result is read from the record's `callee` (a required `value_type`, `relative` or `value` field) and, when it has one, its `function_type` (a `type` field)";

fn defines_word(d: Defines) -> &'static str {
    match d {
        Defines::Nothing => "nothing",
        Defines::Value => "a value",
        Defines::CallResult => "a call result",
        Defines::Type => "a type",
    }
}

/// Why the called function of `r` cannot be read, if it cannot: a layout without a
/// required `callee` of a value kind, or a `function_type` that is not a type.
fn call_result_problem(r: &RecordDef) -> Option<String> {
    for (i, layout) in r.layouts.iter().enumerate() {
        let which = if r.layouts.len() > 1 { format!("its layout {}", i + 1) } else { "it".to_string() };
        match layout.fields.iter().find(|f| f.name.value == "callee") {
            None => return Some(format!("{which} has no `callee` field")),
            Some(f) if !matches!(f.kind.value, Kind::ValueType | Kind::Relative | Kind::Value) => {
                return Some(format!("its `callee` is a `{}` field, not a value", f.kind.value.word()))
            }
            Some(f)
                if !matches!(f.presence, Presence::Required)
                    || f.condition.is_some()
                    || f.versions.is_some() =>
            {
                return Some("its `callee` is not always there".to_string())
            }
            Some(_) => {}
        }
        if let Some(f) = layout.fields.iter().find(|f| f.name.value == "function_type") {
            if !matches!(f.kind.value, Kind::Type) {
                return Some(format!("its `function_type` is a `{}` field, not a type", f.kind.value.word()));
            }
        }
    }
    None
}

/// The names fields may refer to.
struct Refs<'e> {
    /// The schema is byte framed: `bytes_rules` checks conditions, counts and what takes
    /// the rest of a body, instead of the bitstream rules.
    bytes: bool,
    enums: &'e HashMap<String, Enum>,
    enum_names: Vec<String>,
    flags: Vec<String>,
    flag_defs: &'e [Flags],
    groups: Vec<String>,
    structs: Vec<String>,
}

/// A struct's fields: each one required operand or more, none taking the rest, no
/// conditions (a struct is repeated as it is).
fn check_struct(st: &mut StructDef, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let what = format!("struct {}", st.name.value);
    if st.fields.is_empty() {
        diags.error(st.name.span.clone(), format!("{what} has no fields"));
    }
    for f in st.fields.iter_mut().filter(|_| !refs.bytes) {
        let fwhat = format!("field {} of {what}", f.name.value);
        if f.kind.value.takes_rest()
            || f.kind.value.takes_no_operand()
            || matches!(f.kind.value, Kind::Struct(_))
        {
            diags.error_with_help(
                f.kind.span.clone(),
                format!("{fwhat} cannot be of kind `{}` in a struct", f.kind.value.word()),
                "a struct is repeated as an array element: its fields are fixed operands",
            );
            f.kind.value = Kind::Invalid;
        }
        if !matches!(f.presence, Presence::Required) || f.condition.is_some() || f.versions.is_some() {
            diags.error_with_help(
                f.name.span.clone(),
                format!("{fwhat} is optional or conditional, which a struct's fields cannot be"),
                "every element of an array of structs has all its fields",
            );
            f.presence = Presence::Required;
            f.condition = None;
            f.versions = None;
        }
    }
    check_fields(&mut st.fields, &what, refs, diags);
}

/// A `counted_array`'s `count` and a `constant_range`'s `width` name an earlier required
/// unsigned field; a bad reference is reported, and the field is read raw.
fn check_field_refs(f: &mut Field, earlier: &[(String, Kind, bool)], what: &str, diags: &mut Diagnostics) {
    let mut check = |name: &Spanned<String>, key: &str| -> bool {
        let problem = match earlier.iter().find(|(n, _, _)| *n == name.value) {
            None => Some(format!("`{key}` of {what} names `{}`, which is no earlier field", name.value)),
            Some((_, _, false)) => {
                Some(format!("`{key}` of {what} names `{}`, which is optional", name.value))
            }
            Some((_, Kind::Unsigned(_) | Kind::Invalid, true)) => None,
            Some((_, k, true)) => {
                Some(format!("`{key}` of {what} names `{}`, of kind `{}`", name.value, k.word()))
            }
        };
        match problem {
            Some(message) => {
                diags.error_with_help(
                    name.span.clone(),
                    message,
                    format!("`{key}` names an earlier required unsigned field"),
                );
                false
            }
            None => true,
        }
    };
    if let Kind::CountedArray(_, Some(count)) = &f.kind.value {
        if !check(&count.clone(), "count") {
            f.kind.value = Kind::Invalid;
        }
    }
    let width = match &f.kind.value {
        Kind::ConstantRange(w) => Some(w.clone()),
        Kind::Array(inner) | Kind::CountedArray(inner, _) => match &inner.value {
            Kind::ConstantRange(w) => Some(w.clone()),
            _ => None,
        },
        _ => None,
    };
    if let Some(width) = width {
        if !check(&width, "width") {
            f.kind.value = Kind::Invalid;
        }
    }
}

/// A field's `present_if`: an earlier required `bool` field, or a one-bit flag of an earlier
/// required `flags` field. A bad condition is reported and dropped.
fn check_condition(
    f: &mut Field,
    earlier: &[(String, Kind, bool)],
    what: &str,
    refs: &Refs<'_>,
    diags: &mut Diagnostics,
) {
    let Some(c) = &f.condition else { return };
    let span = c.span.clone();
    let problem = match earlier.iter().find(|(name, _, _)| *name == c.value.field) {
        None => Some((
            format!("`present_if` of {what} names `{}`, which is no earlier field", c.value.field),
            "a condition refers to a field read before this one".to_string(),
        )),
        Some((_, _, false)) => Some((
            format!("`present_if` of {what} names `{}`, which is optional", c.value.field),
            "the field a condition reads must be required".to_string(),
        )),
        Some((_, Kind::Bool, _)) if c.value.flag.is_none() => None,
        Some((_, Kind::Flags(name), _)) => match &c.value.flag {
            None => Some((
                format!("`present_if` of {what} names the flags field `{}` without a flag", c.value.field),
                format!("write \"{}.FLAG\"", c.value.field),
            )),
            Some(flag) => {
                let def = refs.flag_defs.iter().find(|d| d.name.value == name.value);
                let single =
                    def.and_then(|d| d.fields.iter().find(|x| &x.name.value == flag)).map(|x| x.single);
                match single {
                    Some(true) => None,
                    Some(false) => Some((
                        format!("`present_if` of {what} names flag `{flag}`, which is a bit range"),
                        "a condition needs a one-bit flag".to_string(),
                    )),
                    None => Some((
                        format!(
                            "`present_if` of {what} names flag `{flag}`, which flags {} does not have",
                            name.value
                        ),
                        match def {
                            Some(d) => format!(
                                "its flags are: {}",
                                d.fields.iter().map(|x| x.name.value.as_str()).collect::<Vec<_>>().join(", ")
                            ),
                            None => "define the flags first".to_string(),
                        },
                    )),
                }
            }
        },
        Some((_, Kind::Invalid, _)) => None,
        Some((_, k, _)) => Some((
            format!("`present_if` of {what} names `{}`, of kind `{}`", c.value.field, k.word()),
            "a condition reads a `bool` field or a one-bit flag of a `flags` field".to_string(),
        )),
    };
    if let Some((message, help)) = problem {
        diags.error_with_help(span, message, help);
        f.condition = None;
    } else if !matches!(f.presence, Presence::Required) {
        diags.error_with_help(
            span,
            format!("{what} has `present_if` and `optional` or `default`"),
            "a conditional field is already optional: drop `optional`/`default`",
        );
        f.presence = Presence::Required;
    }
}

/// A code for an item whose own code is missing, invalid or taken (reported already): the
/// highest one not in `used`, so that the item is still generated without a clash.
fn free_code(used: &mut HashSet<u64>, max: u64) -> u64 {
    let mut code = max;
    while used.contains(&code) {
        code -= 1;
    }
    used.insert(code);
    code
}

/// [`free_code`] for a `u32` (block ids, record codes).
fn free_u32(used: &mut HashSet<u64>) -> u32 {
    free_code(used, u32::MAX.into()) as u32
}

/// Reports an invalid Rust name and returns a placeholder for it.
fn check_ident(name: &mut String, span: &Span, what: &str, fallback: &str, diags: &mut Diagnostics) {
    if !is_rust_ident(name) {
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
    schema.structs.retain_mut(|st| {
        n += 1;
        check(&mut st.rust_name, &st.name, "struct", n, diags)
    });
}

fn check_enum(e: &mut Enum, diags: &mut Diagnostics) {
    let what = format!("enum {}", e.name.value);
    if e.values.is_empty() {
        diags.error(e.name.span.clone(), format!("{what} has no values"));
    }
    let mut codes: HashMap<u64, String> = HashMap::new();
    let mut rust: HashMap<String, String> = HashMap::new();
    // The loader gives a value without a valid code a placeholder at its name's span.
    let mut used: HashSet<u64> =
        e.values.iter().filter(|v| v.code.span != v.name.span).map(|v| v.code.value).collect();
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
        if let Some(other) = rust.get(&v.rust_name) {
            diags.error_with_help(
                v.name.span.clone(),
                format!(
                    "value {} of {what} would be the variant `{}`, like {other}",
                    v.name.value, v.rust_name
                ),
                "set `rust_name` on one of them: { value = N, rust_name = \"OtherName\" }",
            );
            return false;
        }
        if v.code.span == v.name.span {
            v.code.value = free_code(&mut used, u64::MAX);
        } else if let Some(other) = codes.get(&v.code.value) {
            diags.error_with_help(
                v.code.span.clone(),
                format!("value {} of {what} has code {}, like {other}", v.name.value, v.code.value),
                "each value needs its own code; an obsolete value gets its own code and `folds_to`",
            );
            v.code.value = free_code(&mut used, u64::MAX);
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
    // An obsolete value folds to a current one: a value that does not fold itself.
    let current: Vec<&str> =
        e.values.iter().filter(|v| v.folds_to.is_none()).map(|v| v.name.value.as_str()).collect();
    let mut bad = Vec::new();
    for (i, v) in e.values.iter().enumerate() {
        let Some(target) = &v.folds_to else { continue };
        if current.contains(&target.value.as_str()) {
            continue;
        }
        let role = format!("`folds_to` of value {}", v.name.value);
        if names.contains(&target.value.as_str()) {
            diags.error_with_help(
                target.span.clone(),
                format!("{role} of {what} names `{}`, which folds itself", target.value),
                "fold to a current value: one without `folds_to`",
            );
        } else {
            unknown_variant(target, &role, diags);
        }
        bad.push(i);
    }
    for i in bad {
        e.values[i].folds_to = None;
    }
}

fn check_flags(f: &mut Flags, enums: &HashMap<String, Enum>, enum_names: &[String], diags: &mut Diagnostics) {
    let what = format!("flags {}", f.name.value);
    let mut taken: Vec<(std::ops::Range<u32>, String)> = Vec::new();
    let mut rust = HashSet::new();
    let mut n = 0;
    f.fields.retain_mut(|field| {
        n += 1;
        let fwhat = format!("flag {} of {what}", field.name.value);
        check_ident(&mut field.rust_name, &field.name.span, &fwhat, &format!("invalid_{n}"), diags);
        if field.rust_name == "other_bits" {
            diags.error_with_help(
                field.name.span.clone(),
                format!("{fwhat} would be named `other_bits`, which holds the set bits no flag names"),
                "set `rust_name` to another name",
            );
            return false;
        }
        if !rust.insert(field.rust_name.clone()) {
            diags.error_with_help(
                field.name.span.clone(),
                format!("{fwhat} would be the field `{}` twice", field.rust_name),
                "set `rust_name` on one of them",
            );
            return false;
        }
        // The loader gives a flag without valid bits a placeholder at its name's span.
        let placeholder = field.bits.span == field.name.span;
        let bits = field.bits.value.clone();
        if bits.start >= bits.end || bits.end > 64 {
            diags.error_with_help(
                field.bits.span.clone(),
                format!("{fwhat} covers bits {}..{}, outside a 64-bit word", bits.start, bits.end),
                "flag bits are numbered 0 to 63",
            );
            field.bits.value = 0..1;
        } else if !placeholder {
            let overlap = taken.iter().find(|(r, _)| r.start < bits.end && bits.start < r.end);
            if let Some((r, other)) = overlap {
                // Overlapping flags still decode (each reads its own bits): kept.
                diags.error_with_help(
                    field.bits.span.clone(),
                    format!("{fwhat} ({}) overlaps flag {other} ({})", show_bits(&bits), show_bits(r)),
                    "each bit belongs to one flag at most: make the ranges disjoint",
                );
            }
            taken.push((bits, field.name.value.clone()));
        }
        if let Some(e) = &field.enumeration {
            if !enums.contains_key(&e.value) {
                undefined(diags, e, "enum", &enum_names.iter().map(String::as_str).collect::<Vec<_>>());
                field.enumeration = None;
            }
        }
        true
    });
}

/// `bit 3` or `bits 2..8`.
fn show_bits(r: &std::ops::Range<u32>) -> String {
    if r.end == r.start + 1 {
        format!("bit {}", r.start)
    } else {
        format!("bits {}..{}", r.start, r.end)
    }
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
    // The loader gives a variant without a valid tag a placeholder at its name's span.
    let mut used: HashSet<u64> =
        g.variants.iter().filter(|v| v.tag.span != v.name.span).map(|v| v.tag.value).collect();
    let mut n = 0;
    g.variants.retain_mut(|v| {
        n += 1;
        let vwhat = format!("variant {} of {what}", v.name.value);
        check_ident(&mut v.rust_name, &v.name.span, &vwhat, &format!("Invalid{n}"), diags);
        if !rust.insert(v.rust_name.clone()) {
            diags.error_with_help(
                v.name.span.clone(),
                format!("{vwhat} would be the variant `{}` twice", v.rust_name),
                "set `rust_name` on one of them",
            );
            return false;
        }
        if refs.bytes && (v.other || !v.tag_by_version.is_empty() || v.versions.is_some()) {
            // Byte framing: tags by version, `other` and versioned variants may share a tag
            // with variants of other versions (bytes_rules checks they do not overlap).
        } else if v.tag.span == v.name.span {
            v.tag.value = free_code(&mut used, u64::MAX);
        } else if let Some(other) = tags.get(&v.tag.value) {
            diags.error_with_help(
                v.tag.span.clone(),
                format!("{vwhat} has tag {}, like {other}", v.tag.value),
                "the tag selects the variant: each variant needs its own",
            );
            v.tag.value = free_code(&mut used, u64::MAX);
        }
        tags.insert(v.tag.value, v.name.value.clone());
        for f in v.fields.iter_mut().filter(|_| !refs.bytes) {
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
    // The loader gives a block without a valid id a placeholder at its name's span. A block
    // whose id is a placeholder, BLOCKINFO's or taken gets a free id: its module is still
    // generated, so code that uses it sees no follow-on errors.
    let mut used: HashSet<u64> =
        blocks.iter().filter(|b| b.id.span != b.name.span).map(|b| u64::from(b.id.value)).collect();
    used.insert(0);
    let mut n = 0;
    blocks.retain_mut(|b| {
        n += 1;
        let what = format!("block {}", b.name.value);
        check_ident(&mut b.module_name, &b.name.span, &what, &format!("invalid_block_{n}"), diags);
        if let Some(other) = modules.get(&b.module_name) {
            diags.error_with_help(
                b.name.span.clone(),
                format!("{what} would be the module `{}`, like block {other}", b.module_name),
                "rename one of them: block names must differ in more than case and `_`",
            );
            return false;
        }
        if b.id.span == b.name.span {
            b.id.value = free_u32(&mut used);
        } else if b.id.value == 0 {
            diags.error_with_help(
                b.id.span.clone(),
                format!("{what} has id 0, the BLOCKINFO block's"),
                "the reader handles BLOCKINFO itself; give the block another id",
            );
            b.id.value = free_u32(&mut used);
        } else if let Some(other) = ids.get(&b.id.value) {
            diags.error_with_help(
                b.id.span.clone(),
                format!("{what} has id {}, like block {other}", b.id.value),
                "each block needs its own id",
            );
            b.id.value = free_u32(&mut used);
        }
        ids.insert(b.id.value, b.name.value.clone());
        modules.insert(b.module_name.clone(), b.name.value.clone());
        check_records(&mut b.records, &what, diags);
        true
    });
}

/// The records of one block: Rust names, reserved names and codes, like blocks.
fn check_records(records: &mut Vec<RecordDef>, block: &str, diags: &mut Diagnostics) {
    let mut codes: HashMap<u32, String> = HashMap::new();
    let mut rust: HashMap<String, String> = HashMap::new();
    let mut used: HashSet<u64> =
        records.iter().filter(|r| r.code.span != r.name.span).map(|r| u64::from(r.code.value)).collect();
    let mut m = 0;
    records.retain_mut(|r| {
        m += 1;
        let rwhat = format!("record {} of {block}", r.name.value);
        check_ident(&mut r.rust_name, &r.name.span, &rwhat, &format!("InvalidRecord{m}"), diags);
        if RESERVED_RECORDS.contains(&r.rust_name.as_str()) {
            diags.error_with_help(
                r.name.span.clone(),
                format!("{rwhat} would be named `{}`, which the generated block module uses", r.rust_name),
                "set `rust_name` to another name",
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
        if r.code.span == r.name.span {
            r.code.value = free_u32(&mut used);
        } else if let Some(other) = codes.get(&r.code.value) {
            diags.error_with_help(
                r.code.span.clone(),
                format!("{rwhat} has code {}, like record {other}", r.code.value),
                "each record of a block needs its own code",
            );
            r.code.value = free_u32(&mut used);
        }
        codes.insert(r.code.value, r.name.value.clone());
        rust.insert(r.rust_name.clone(), r.name.value.clone());
        true
    });
}

fn check_record(r: &mut RecordDef, block: &str, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let what = format!("record {} of block {block}", r.name.value);
    for layout in &mut r.layouts {
        check_fields(&mut layout.fields, &what, refs, diags);
    }
    check_layouts(r, &what, diags);
}

/// The layouts that name no operand count cover every version once.
fn check_coverage(plain: &[&Layout], what: &str, diags: &mut Diagnostics) {
    if plain.len() <= 1 {
        if let Some(l) = plain.first() {
            let v = &l.versions.value;
            let mut left_out = Vec::new();
            if v.start > 0 {
                left_out.push(show_versions(&(0..v.start)));
            }
            if v.end != u64::MAX {
                left_out.push(show_versions(&(v.end..u64::MAX)));
            }
            if !left_out.is_empty() {
                diags.error_with_help(
                    l.versions.span.clone(),
                    format!(
                        "the only layout of {what} covers {}, leaving out {}",
                        show_versions(v),
                        left_out.join(" and ")
                    ),
                    "give layouts for every version from 0 up, the last one open (\"N..\"), or use `fields`",
                );
            }
        }
        return;
    }
    // Overlaps and gaps, in version order.
    let mut order: Vec<usize> = (0..plain.len()).collect();
    order.sort_by_key(|&i| plain.get(i).map_or(0, |l| l.versions.value.start));
    let mut next = 0u64;
    // The layout that reaches furthest so far (the one a later layout overlaps).
    let mut furthest: Option<&std::ops::Range<u64>> = None;
    for &i in &order {
        let Some(l) = plain.get(i) else { continue };
        let v = &l.versions.value;
        if v.start > next {
            diags.error_with_help(
                l.versions.span.clone(),
                format!("the layouts of {what} leave out {}", show_versions(&(next..v.start))),
                "give a layout for every version from 0 up: let each range begin where the one before ends",
            );
        } else if let Some(other) = furthest.filter(|_| v.start < next) {
            diags.error_with_help(
                l.versions.span.clone(),
                format!(
                    "layout {} of {what} overlaps layout {}: both cover {}",
                    show_range(v),
                    show_range(other),
                    show_versions(&(v.start..next.min(v.end)))
                ),
                "each version has one layout: let each range begin where the one before ends",
            );
        }
        if v.end > next || furthest.is_none() {
            furthest = Some(v);
        }
        next = next.max(v.end);
    }
    if next != u64::MAX {
        if let Some(l) = order.last().and_then(|&i| plain.get(i)) {
            diags.error_with_help(
                l.versions.span.clone(),
                format!("the layouts of {what} leave out versions {next}.."),
                "end the last layout open (\"N..\")",
            );
        }
    }
}

fn check_layouts(r: &mut RecordDef, what: &str, diags: &mut Diagnostics) {
    let plain: Vec<&Layout> = r.layouts.iter().filter(|l| l.operands.is_none()).collect();
    check_coverage(&plain, what, diags);
    if let (true, Some(first)) = (plain.is_empty(), r.layouts.first()) {
        diags.error_with_help(
            first.versions.span.clone(),
            format!("every layout of {what} names an operand count"),
            "add a layout without `operands`, for the records of other counts",
        );
    }
    // Layouts of an operand count: no two for the same version and count.
    let counted: Vec<(&Layout, &Spanned<std::ops::Range<u64>>)> =
        r.layouts.iter().filter_map(|l| Some((l, l.operands.as_ref()?))).collect();
    for (i, (l, n)) in counted.iter().enumerate() {
        let meets = |a: &std::ops::Range<u64>, b: &std::ops::Range<u64>| a.start < b.end && b.start < a.end;
        if let Some((other, m)) = counted[..i]
            .iter()
            .find(|(o, m)| meets(&o.versions.value, &l.versions.value) && meets(&m.value, &n.value))
        {
            diags.error_with_help(
                n.span.clone(),
                format!(
                    "layout {} of {what} with operands {} overlaps layout {} with operands {}",
                    show_range(&l.versions.value),
                    show_range(&n.value),
                    show_range(&other.versions.value),
                    show_range(&m.value)
                ),
                "one layout for each version and operand count: make the counts disjoint",
            );
        }
    }
    // A field whose kind was already reported (now `Invalid`) is a raw operand in every
    // layout, so that the struct keeps one type and no second error follows.
    let invalid: HashSet<String> = r
        .layouts
        .iter()
        .flat_map(|l| &l.fields)
        .filter(|f| f.kind.value == Kind::Invalid)
        .map(|f| f.name.value.clone())
        .collect();
    for f in r.layouts.iter_mut().flat_map(|l| &mut l.fields) {
        if invalid.contains(&f.name.value) {
            f.kind.value = Kind::Invalid;
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

/// `version 2`, `versions 2..5` or `versions 2..`.
fn show_versions(r: &std::ops::Range<u64>) -> String {
    if r.end == r.start + 1 {
        format!("version {}", r.start)
    } else {
        format!("versions {}", show_range(r))
    }
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
    let mut earlier: Vec<(String, Kind, bool)> = Vec::new();
    let mut n = 0;
    fields.retain_mut(|f| {
        n += 1;
        let fwhat = format!("field {} of {owner}", f.name.value);
        if !refs.bytes {
            check_condition(f, &earlier, &fwhat, refs, diags);
            check_field_refs(f, &earlier, &fwhat, diags);
        }
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
            diags.error_with_help(
                f.name.span.clone(),
                format!("{fwhat} would be the field `{}`, like field {other}", f.rust_name),
                "set `rust_name` on one of them",
            );
            return false;
        }
        names.insert(f.rust_name.clone(), f.name.value.clone());
        if let Some(taker) = &rest_taken_by {
            diags.error_with_help(
                f.name.span.clone(),
                if refs.bytes {
                    format!("{fwhat} comes after field {taker}, which reads to the end of the block")
                } else {
                    format!("{fwhat} comes after field {taker}, which takes every remaining operand")
                },
                "move it before, or remove it",
            );
            return false;
        }
        check_references(&mut f.kind, refs, diags);
        check_presence(f, &fwhat, refs, diags);
        let takes_operand = !f.kind.value.takes_no_operand();
        match (&f.presence, &optional_from) {
            (Presence::Required, Some(first)) if takes_operand && f.condition.is_none() && f.versions.is_none() => {
                diags.error_with_help(
                    f.name.span.clone(),
                    format!("{fwhat} is required, but comes after the optional field {first}"),
                    "a record that ends early leaves out its last fields: make it `optional = true` or give a `default`",
                )
            }
            (Presence::Optional | Presence::Default(_), None) => optional_from = Some(f.name.value.clone()),
            _ => {}
        }
        let takes_rest = if refs.bytes {
            crate::bytes_rules::takes_rest(f)
        } else {
            f.kind.value.takes_rest()
        };
        if takes_rest {
            rest_taken_by = Some(f.name.value.clone());
        }
        let required = matches!(f.presence, Presence::Required) && f.condition.is_none();
        earlier.push((f.name.value.clone(), f.kind.value.clone(), required));
        true
    });
}

fn check_references(kind: &mut Spanned<Kind>, refs: &Refs<'_>, diags: &mut Diagnostics) {
    let enums: Vec<&str> = refs.enum_names.iter().map(String::as_str).collect();
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
        Kind::Struct(name) => {
            refs.structs.contains(&name.value) || {
                undefined(
                    diags,
                    name,
                    "struct",
                    &refs.structs.iter().map(String::as_str).collect::<Vec<_>>(),
                );
                false
            }
        }
        Kind::Array(inner) | Kind::CountedArray(inner, _) => {
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
    let kind = &f.kind.value;
    let shown = match &d.value {
        DefaultValue::Int(n) => n.to_string(),
        DefaultValue::Bool(b) => b.to_string(),
        DefaultValue::Variant(v) => format!("\"{v}\""),
    };
    let int = |lo: i128, hi: i128| match &d.value {
        DefaultValue::Int(n) if (lo..=hi).contains(n) => Ok(()),
        DefaultValue::Int(n) => Err((
            format!("`default` of {what} is {n}, out of range for kind `{}` ({lo} to {hi})", kind.word()),
            format!("give an integer from {lo} to {hi}"),
        )),
        _ => Err((
            format!("`default` of {what} is {shown}, but the field is of kind `{}`", kind.word()),
            format!("give an integer from {lo} to {hi}"),
        )),
    };
    // What the emitter can write as a literal: the operand value the record would have had,
    // or for `bool` and `enum` also `true`/`false` and a value name.
    let checked = match kind {
        Kind::Unsigned(bits) => int(0, (1i128 << bits) - 1),
        Kind::Signed => int(i64::MIN.into(), i64::MAX.into()),
        Kind::Value | Kind::Relative | Kind::SignedRelative | Kind::Type => int(0, u32::MAX.into()),
        Kind::OptionalIndex => int(0, i128::from(u32::MAX) + 1),
        Kind::Align => int(0, 64),
        Kind::Bool => match &d.value {
            DefaultValue::Bool(_) | DefaultValue::Int(0 | 1) => Ok(()),
            _ => Err((
                format!("`default` of {what} is {shown}, but the field is of kind `bool`"),
                "give true or false".to_string(),
            )),
        },
        Kind::Enum(e) => match refs.enums.get(&e.value) {
            Some(e) => enum_default(e, &d.value, what),
            None => Ok(()),
        },
        Kind::Flags(name) => match refs.flag_defs.iter().find(|f| f.name.value == name.value) {
            Some(flags) => flags_default(flags, refs, &d.value, &shown, what),
            None => Ok(()),
        },
        Kind::Invalid => Ok(()),
        Kind::ValueType
        | Kind::String
        | Kind::CString
        | Kind::Blob
        | Kind::Array(_)
        | Kind::CountedArray(..)
        | Kind::Group(_)
        | Kind::Struct(_)
        | Kind::ConstantRange(_)
        | Kind::Float32
        | Kind::Float64
        | Kind::ByteString(_)
        | Kind::Align32
        | Kind::Blocks
        | Kind::CallArgs => Err((
            format!("{what} has a `default`, which kind `{}` cannot have", kind.word()),
            "make it `optional = true` instead".to_string(),
        )),
    };
    if let Err((message, help)) = checked {
        diags.error_with_help(d.span.clone(), message, help);
        f.presence = Presence::Optional;
    }
}

/// A `default` of an enum field: a value name, or a code the enum decodes.
fn enum_default(e: &Enum, v: &DefaultValue, what: &str) -> Result<(), (String, String)> {
    let names: Vec<&str> = e.values.iter().map(|x| x.name.value.as_str()).collect();
    let values_help = |word: &str| match nearest(word, &names) {
        Some(n) => format!("did you mean `{n}`?"),
        None => format!("the values of enum {} are: {}", e.name.value, names.join(", ")),
    };
    match v {
        DefaultValue::Variant(name) if names.contains(&name.as_str()) => Ok(()),
        DefaultValue::Variant(name) => Err((
            format!("`default` of {what} names `{name}`, which is not a value of enum {}", e.name.value),
            values_help(name),
        )),
        DefaultValue::Int(n) => {
            let decodes = u64::try_from(*n).is_ok_and(|code| {
                !matches!(e.unknown, UnknownPolicy::Error) || e.values.iter().any(|x| x.code.value == code)
            });
            if decodes {
                Ok(())
            } else {
                Err((
                    format!("`default` of {what} is {n}, which is no code of enum {}", e.name.value),
                    format!("give a value name or code: {}", values_list(e)),
                ))
            }
        }
        DefaultValue::Bool(b) => Err((
            format!("`default` of {what} is {b}, but the field is of enum {}", e.name.value),
            format!("give a value name or code: {}", values_list(e)),
        )),
    }
}

/// `a = 0, b = 1`: an enum's values and codes.
fn values_list(e: &Enum) -> String {
    e.values.iter().map(|v| format!("{} = {}", v.name.value, v.code.value)).collect::<Vec<_>>().join(", ")
}

/// A `default` of a flags field: the flag word, whose enum parts must decode.
fn flags_default(
    flags: &Flags,
    refs: &Refs<'_>,
    v: &DefaultValue,
    shown: &str,
    what: &str,
) -> Result<(), (String, String)> {
    let DefaultValue::Int(n) = v else {
        return Err((
            format!("`default` of {what} is {shown}, but the field is of flags {}", flags.name.value),
            "give the flag word as an integer".to_string(),
        ));
    };
    let Ok(word) = u64::try_from(*n) else {
        return Err((
            format!("`default` of {what} is {n}, out of range for a flag word (0 to {})", u64::MAX),
            "give the flag word as an integer".to_string(),
        ));
    };
    for field in &flags.fields {
        let Some(e) = field.enumeration.as_ref().and_then(|e| refs.enums.get(&e.value)) else { continue };
        let r = &field.bits.value;
        let code = (word >> r.start) & (u64::MAX >> (64 - (r.end - r.start)));
        if enum_default(e, &DefaultValue::Int(code.into()), what).is_err() {
            return Err((
                format!(
                    "`default` of {what} is {n}, whose flag {} ({}) is {code}, no code of enum {}",
                    field.name.value,
                    show_bits(r),
                    e.name.value
                ),
                format!("the codes of enum {}: {}", e.name.value, values_list(e)),
            ));
        }
    }
    Ok(())
}

impl Kind {
    /// The kind with every span cleared, for comparing kinds written in two places.
    fn clone_without_spans(&self) -> Kind {
        let strip = |s: &Spanned<String>| Spanned::new(s.value.clone(), 0..0);
        match self {
            Kind::Enum(s) => Kind::Enum(strip(s)),
            Kind::Flags(s) => Kind::Flags(strip(s)),
            Kind::Group(s) => Kind::Group(strip(s)),
            Kind::Struct(s) => Kind::Struct(strip(s)),
            Kind::ConstantRange(s) => Kind::ConstantRange(strip(s)),
            Kind::ByteString(s) => Kind::ByteString(strip(s)),
            Kind::Array(k) => Kind::Array(Box::new(Spanned::new(k.value.clone_without_spans(), 0..0))),
            Kind::CountedArray(k, count) => Kind::CountedArray(
                Box::new(Spanned::new(k.value.clone_without_spans(), 0..0)),
                count.as_ref().map(strip),
            ),
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
        assert!(
            m.contains(&"block B has id 8, like block A | each block needs its own id".to_string()),
            "{m:?}"
        );
        assert!(
            m.contains(
                &"record Y of block C has code 1, like record X | each record of a block needs its own code"
                    .to_string()
            ),
            "{m:?}"
        );
        assert!(m.iter().any(|x| x.starts_with("value b of enum E has code 0, like a")), "{m:?}");
        // Kept, with free codes, so that their types are still generated.
        assert_eq!(s.blocks.len(), 3);
        assert_eq!(s.blocks[1].id.value, u32::MAX);
        assert_eq!(s.blocks[2].records[1].code.value, u32::MAX);
        assert_eq!(s.enums[0].values[1].code.value, u64::MAX);
    }

    #[test]
    fn duplicate_names_are_dropped() {
        let (s, m) = check(
            "[blocks.MODULE_BLOCK]\nid = 8\n[blocks.module_block]\nid = 9\n[blocks.MODULE_BLOCK.records.GLOBAL_VAR]\ncode = 1\nfields = []\n[blocks.MODULE_BLOCK.records.global_var]\ncode = 2\nfields = []\n",
        );
        assert_eq!(
            m,
            vec![
                "record global_var of block MODULE_BLOCK would be the struct `GlobalVar`, like record GLOBAL_VAR | set `rust_name` on one of them",
                "block module_block would be the module `module_block`, like block MODULE_BLOCK | rename one of them: block names must differ in more than case and `_`",
            ]
        );
        assert_eq!(s.blocks.len(), 1);
        assert_eq!(s.blocks[0].records.len(), 1);
    }

    #[test]
    fn placeholders_get_free_codes_without_messages() {
        let mut d = Diagnostics::new();
        let mut s = load(
            &format!("{HEAD}[blocks.A]\nid = 4294967295\n[blocks.B]\n[blocks.C]\n[blocks.C.records.X]\nfields = []\n[blocks.C.records.Y]\nfields = []\n"),
            &mut d,
        );
        let loaded = d.list().len();
        validate(&mut s, &mut d);
        assert_eq!(d.list().len(), loaded, "no message beyond the loader's: {:?}", d.list());
        let ids: Vec<u32> = s.blocks.iter().map(|b| b.id.value).collect();
        assert_eq!(ids, [u32::MAX, u32::MAX - 1, u32::MAX - 2]);
        let codes: Vec<u32> = s.blocks[2].records.iter().map(|r| r.code.value).collect();
        assert_eq!(codes, [u32::MAX, u32::MAX - 1]);
    }

    #[test]
    fn defaults_are_checked_against_their_kind() {
        let (s, m) = check(
            "[enums.E]\nvalues = { a = 0, b = 1 }\n[flags.F]\nfields = { e = { bits = \"0..2\", enum = \"E\" } }\n[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\nfields = [\n{ name = \"a\", kind = \"u8\", default = 255 },\n{ name = \"b\", kind = \"u8\", default = 256 },\n{ name = \"c\", kind = \"bool\", default = 1 },\n{ name = \"d\", kind = \"bool\", default = \"yes\" },\n{ name = \"e\", kind = \"enum\", enum = \"E\", default = \"bb\" },\n{ name = \"f\", kind = \"enum\", enum = \"E\", default = 1 },\n{ name = \"g\", kind = \"enum\", enum = \"E\", default = 2 },\n{ name = \"h\", kind = \"flags\", flags = \"F\", default = 1 },\n{ name = \"i\", kind = \"flags\", flags = \"F\", default = 3 },\n{ name = \"j\", kind = \"align\", default = 4 },\n{ name = \"k\", kind = \"string\", default = 0 },\n]\n",
        );
        assert_eq!(
            m,
            vec![
                "`default` of field b of record R of block B is 256, out of range for kind `u8` (0 to 255) | give an integer from 0 to 255",
                "`default` of field d of record R of block B is \"yes\", but the field is of kind `bool` | give true or false",
                "`default` of field e of record R of block B names `bb`, which is not a value of enum E | did you mean `b`?",
                "`default` of field g of record R of block B is 2, which is no code of enum E | give a value name or code: a = 0, b = 1",
                "`default` of field i of record R of block B is 3, whose flag e (bits 0..2) is 3, no code of enum E | the codes of enum E: a = 0, b = 1",
                "field k of record R of block B has a `default`, which kind `string` cannot have | make it `optional = true` instead",
            ]
        );
        let presence: Vec<bool> = s.blocks[0].records[0].layouts[0]
            .fields
            .iter()
            .map(|f| matches!(f.presence, Presence::Default(_)))
            .collect();
        assert_eq!(presence, [true, false, true, false, false, true, false, true, false, true, false]);
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
            m.iter().any(|x| x.starts_with(
                "field b of record R of block B is required, but comes after the optional field a"
            )),
            "{m:?}"
        );
        assert!(
            m.iter().any(|x| x.starts_with(
                "field c of record R of block B comes after field s, which takes every remaining operand"
            )),
            "{m:?}"
        );
    }

    #[test]
    fn bit_fields_and_layouts() {
        let (s, m) = check(
            "[flags.F]\nfields = { a = { bits = \"0..4\" }, b = { bit = 3 }, c = { bits = \"2..8\" }, d = { bit = 8 } }\n[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\n[[blocks.B.records.R.layouts]]\nversions = \"0..2\"\nfields = []\n[[blocks.B.records.R.layouts]]\nversions = \"3..\"\nfields = []\n[blocks.B.records.S]\ncode = 2\n[[blocks.B.records.S.layouts]]\nversions = \"0..3\"\nfields = []\n[[blocks.B.records.S.layouts]]\nversions = \"1..\"\nfields = []\n",
        );
        let overlap = " | each bit belongs to one flag at most: make the ranges disjoint";
        assert!(
            m.contains(&format!("flag b of flags F (bit 3) overlaps flag a (bits 0..4){overlap}")),
            "{m:?}"
        );
        assert!(
            m.contains(&format!("flag c of flags F (bits 2..8) overlaps flag a (bits 0..4){overlap}")),
            "{m:?}"
        );
        assert_eq!(m.iter().filter(|x| x.starts_with("flag")).count(), 2, "{m:?}");
        // Overlapping flags still decode: kept.
        assert_eq!(s.flags[0].fields.len(), 4);
        assert!(
            m.iter().any(|x| x.starts_with("the layouts of record R of block B leave out version 2 |")),
            "{m:?}"
        );
        assert!(
            m.iter().any(|x| x.starts_with(
                "layout 1.. of record S of block B overlaps layout 0..3: both cover versions 1..3 |"
            )),
            "{m:?}"
        );
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
            "field 9lives of record R of block B gives the Rust name `9lives`, which is not a valid identifier"
        ));
        assert_eq!(fields[1].rust_name, "invalid_2");
    }

    #[test]
    fn an_undefined_enum_in_one_layout_is_reported_once() {
        let (s, m) = check(
            "[enums.Kind]\nvalues = { a = 0 }\n[blocks.B]\nid = 8\n[blocks.B.records.R]\ncode = 1\n[[blocks.B.records.R.layouts]]\nversions = \"1..\"\nfields = [{ name = \"k\", kind = \"enum\", enum = \"Kinds\" }]\n[[blocks.B.records.R.layouts]]\nversions = \"0\"\nfields = [{ name = \"k\", kind = \"enum\", enum = \"Kind\" }]\n",
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(m[0].starts_with("there is no enum `Kinds`"), "{m:?}");
        let layouts = &s.blocks[0].records[0].layouts;
        assert!(layouts.iter().all(|l| l.fields[0].kind.value == Kind::Invalid), "one type in every layout");
    }
}
