//! The rules of the two framings: a bitstream schema uses no byte-framed kind; a
//! byte-framed schema (`framing = "bytes"`) has block bodies of `fields`, not records,
//! uses no kind that reads record operands, and its expressions (`present_if`, `until`,
//! `count`, `select`) name earlier fields, declared queries and parts that exist. Each
//! mistake is reported at its span and repaired (the piece dropped, the kind made invalid).

use crate::diag::{nearest, Diagnostics};
use crate::expr::{parse_count, parse_test, Atom};
use crate::model::*;

/// Checks the framing rules of `schema`.
pub fn check(schema: &mut Schema, diags: &mut Diagnostics) {
    match schema.format.framing {
        Framing::Bits => check_bits(schema, diags),
        Framing::Bytes => check_bytes(schema, diags),
    }
}

/// True when a field of a byte-framed body reads to the body's end, so no field may follow.
pub fn takes_rest(f: &Field) -> bool {
    match &f.kind.value {
        Kind::Array(_) | Kind::Group(_) => f.until.is_none() && matches!(f.kind.value, Kind::Array(_)),
        Kind::Blocks => true,
        _ => false,
    }
}

fn all_fields(schema: &mut Schema) -> impl Iterator<Item = (String, &mut Vec<Field>)> {
    let structs = schema.structs.iter_mut().map(|s| (format!("struct {}", s.name.value), &mut s.fields));
    let groups = schema.groups.iter_mut().flat_map(|g| {
        let gname = g.name.value.clone();
        g.variants
            .iter_mut()
            .map(move |v| (format!("variant {} of group {gname}", v.name.value), &mut v.fields))
    });
    let blocks = schema.blocks.iter_mut().flat_map(|b| {
        let bname = b.name.value.clone();
        let body = std::iter::once((format!("block {bname}"), &mut b.fields));
        let records = b.records.iter_mut().flat_map(move |r| {
            let rname = format!("record {} of block {bname}", r.name.value);
            r.layouts.iter_mut().map(move |l| (rname.clone(), &mut l.fields))
        });
        body.chain(records)
    });
    structs.chain(groups).chain(blocks)
}

fn check_bits(schema: &mut Schema, diags: &mut Diagnostics) {
    for (owner, fields) in all_fields(schema) {
        for f in fields.iter_mut() {
            if f.kind.value.bytes_only() {
                diags.error_with_help(
                    f.kind.span.clone(),
                    format!(
                        "field {} of {owner} has kind `{}`, which byte-framed schemas only have",
                        f.name.value,
                        f.kind.value.word()
                    ),
                    "set `framing = \"bytes\"` in [format], or use a bitstream kind",
                );
                f.kind.value = Kind::Invalid;
            }
        }
    }
}

/// What the expressions of one field list may name.
struct Names<'a> {
    queries: &'a [String],
    flags: &'a [Flags],
    /// The list is a group's `other` variant: `tag` is the tag read.
    tag: bool,
}

fn check_bytes(schema: &mut Schema, diags: &mut Diagnostics) {
    for b in &mut schema.blocks {
        let what = format!("block {}", b.name.value);
        if let Some(r) = b.records.first() {
            diags.error_with_help(
                r.name.span.clone(),
                format!("{what} holds records, which a byte-framed schema's blocks do not"),
                "give the block's body as `fields = [...]`",
            );
            b.records.clear();
        }
        if let Some(n) = &b.numbers {
            diags.error(n.span.clone(), format!("`numbers` of {what} applies to bitstream schemas only"));
            b.numbers = None;
        }
    }
    let queries: Vec<String> = schema.format.queries.iter().map(|(q, _)| q.value.clone()).collect();
    for (q, _) in &schema.format.queries {
        if !crate::names::is_rust_ident(&q.value) {
            diags.error(q.span.clone(), format!("query `{}` is not a name", q.value));
        }
    }
    for g in &mut schema.groups {
        if let Select::Query(q) = &g.select.value {
            check_query(q, &g.select.span, &format!("`select` of group {}", g.name.value), &queries, diags);
        }
        check_tags(g, diags);
    }
    let flags = schema.flags.clone();
    // Fields of `other` variants may read `tag`.
    let others: Vec<String> = schema
        .groups
        .iter()
        .flat_map(|g| {
            g.variants
                .iter()
                .filter(|v| v.other)
                .map(|v| format!("variant {} of group {}", v.name.value, g.name.value))
        })
        .collect();
    let structs: Vec<(String, Vec<Field>)> =
        schema.structs.iter().map(|s| (s.name.value.clone(), s.fields.clone())).collect();
    for (owner, fields) in all_fields(schema) {
        let names = Names { queries: &queries, flags: &flags, tag: others.contains(&owner) };
        check_body(fields, &owner, &names, &structs, diags);
    }
}

fn check_query(q: &str, span: &Span, what: &str, queries: &[String], diags: &mut Diagnostics) -> bool {
    if queries.iter().any(|d| d == q) {
        return true;
    }
    let known: Vec<&str> = queries.iter().map(String::as_str).collect();
    let help = match nearest(q, &known) {
        Some(n) => format!("did you mean `@{n}`?"),
        None => "declare it under [format.queries]".to_string(),
    };
    diags.error_with_help(
        span.clone(),
        format!("{what} asks `@{q}`, which [format.queries] does not declare"),
        help,
    );
    false
}

fn check_body(
    fields: &mut [Field],
    owner: &str,
    names: &Names<'_>,
    structs: &[(String, Vec<Field>)],
    diags: &mut Diagnostics,
) {
    let mut earlier: Vec<Field> = Vec::new();
    for f in fields.iter_mut() {
        let what = format!("field {} of {owner}", f.name.value);
        if f.kind.value.bits_only() {
            diags.error_with_help(
                f.kind.span.clone(),
                format!("{what} has kind `{}`, which reads record operands: a byte-framed schema cannot use it", f.kind.value.word()),
                "byte-framed kinds: u8..u64 (VBR, or `wire = \"u32le\"`), bool, signed, enum, flags, type, f32, f64, string, bytes, align32, array, counted_array, struct, group, blocks",
            );
            f.kind.value = Kind::Invalid;
        }
        if f.fixed && !matches!(f.kind.value, Kind::Unsigned(32) | Kind::Flags(_) | Kind::Invalid) {
            diags.error(
                f.kind.span.clone(),
                format!("{what} has `wire = \"u32le\"`, which only `u32` and `flags` fields take"),
            );
            f.fixed = false;
        }
        if let Some(c) = &f.condition {
            let ok = match parse_test(&c.value.text) {
                Ok(t) => t
                    .atoms()
                    .into_iter()
                    .all(|a| check_atom(a, &c.span, &what, "present_if", &earlier, names, diags)),
                Err(e) => {
                    diags.error(c.span.clone(), format!("`present_if` of {what}: {e}"));
                    false
                }
            };
            if !ok {
                f.condition = None;
            }
        }
        let count = match &f.kind.value {
            Kind::CountedArray(_, Some(c)) | Kind::ByteString(c) => Some(c.clone()),
            _ => None,
        };
        if let Some(c) = count {
            let ok = match parse_count(&c.value) {
                Ok(n) => check_atom(&n.atom, &c.span, &what, "count", &earlier, names, diags),
                Err(e) => {
                    diags.error(c.span.clone(), format!("`count` of {what}: {e}"));
                    false
                }
            };
            if !ok {
                f.kind.value = Kind::Invalid;
            }
        }
        if let Some(u) = &f.until {
            let ok = match &f.kind.value {
                Kind::Array(e) | Kind::CountedArray(e, _) => match &e.value {
                    Kind::Struct(st) => {
                        let inner = structs
                            .iter()
                            .find(|(n, _)| *n == st.value)
                            .map(|(_, f)| f.clone())
                            .unwrap_or_default();
                        let inner_names = Names { tag: false, ..*names };
                        match parse_test(&u.value) {
                            Ok(t) => t
                                .atoms()
                                .into_iter()
                                .all(|a| check_atom(a, &u.span, &what, "until", &inner, &inner_names, diags)),
                            Err(e) => {
                                diags.error(u.span.clone(), format!("`until` of {what}: {e}"));
                                false
                            }
                        }
                    }
                    _ => {
                        let number = u.value.trim().parse::<u64>().is_ok();
                        if !number {
                            diags.error(
                                u.span.clone(),
                                format!("`until` of {what} must be the number that ends the array"),
                            );
                        }
                        number
                    }
                },
                _ => {
                    diags.error(u.span.clone(), format!("`until` of {what} applies to arrays only"));
                    false
                }
            };
            if !ok {
                // Read raw rather than to the body's end, which would report every later
                // field again.
                f.until = None;
                f.kind.value = Kind::Invalid;
            }
        }
        let tellable = |k: &Kind| {
            matches!(
                k,
                Kind::Unsigned(_)
                    | Kind::Bool
                    | Kind::Enum(_)
                    | Kind::Type
                    | Kind::Group(_)
                    | Kind::Struct(_)
                    | Kind::Invalid
            )
        };
        let tells = match &f.kind.value {
            Kind::Array(e) | Kind::CountedArray(e, _) => matches!(e.value, Kind::Group(_) | Kind::Struct(_)),
            k => tellable(k),
        };
        if f.tell && !tells {
            diags.error(f.name.span.clone(), format!("{what} has `tell`, which only number, bool, enum, type, struct and group fields (and arrays of structs and groups) take"));
            f.tell = false;
        }
        earlier.push(f.clone());
    }
}

/// An atom of an expression: an earlier field (and a part of it that exists), a declared
/// query, `tag` in an `other` variant, or a number.
fn check_atom(
    atom: &Atom,
    span: &Span,
    what: &str,
    key: &str,
    earlier: &[Field],
    names: &Names<'_>,
    diags: &mut Diagnostics,
) -> bool {
    match atom {
        Atom::Number(_) => true,
        Atom::Query(q) => check_query(q, span, &format!("`{key}` of {what}"), names.queries, diags),
        Atom::Field(name, None) if name == "tag" && names.tag => true,
        Atom::Field(name, part) => {
            let Some(f) = earlier.iter().rev().find(|f| f.name.value == *name) else {
                let known: Vec<&str> = earlier.iter().map(|f| f.name.value.as_str()).collect();
                let help = match nearest(name, &known) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => "an expression reads fields read before this one".to_string(),
                };
                diags.error_with_help(
                    span.clone(),
                    format!("`{key}` of {what} names `{name}`, which is no earlier field"),
                    help,
                );
                return false;
            };
            match (&f.kind.value, part) {
                (
                    Kind::Unsigned(_)
                    | Kind::Bool
                    | Kind::Enum(_)
                    | Kind::Type
                    | Kind::Signed
                    | Kind::Invalid,
                    None,
                ) => true,
                (Kind::Flags(_), None) => true,
                (Kind::Flags(flags), Some(part)) => {
                    let def = names.flags.iter().find(|d| d.name.value == flags.value);
                    let found = def.is_none_or(|d| d.fields.iter().any(|x| x.name.value == *part));
                    if !found {
                        diags.error(
                            span.clone(),
                            format!(
                                "`{key}` of {what} names `{name}.{part}`, which flags {} does not have",
                                flags.value
                            ),
                        );
                    }
                    found
                }
                (k, _) => {
                    diags.error(
                        span.clone(),
                        format!(
                            "`{key}` of {what} reads `{name}`, of kind `{}`, which has no such value",
                            k.word()
                        ),
                    );
                    false
                }
            }
        }
    }
}

/// Two variants of a group that one tag selects in one version would make the second
/// unreachable: each (tag, version) pair, and each version's `other`, belongs to one variant.
fn check_tags(g: &Group, diags: &mut Diagnostics) {
    let all = 0..u64::MAX;
    let mut seen: Vec<(Option<u64>, std::ops::Range<u64>, &str)> = Vec::new();
    for v in &g.variants {
        let range = v.versions.as_ref().map_or(all.clone(), |r| r.value.clone());
        let mut keys: Vec<(Option<u64>, std::ops::Range<u64>)> = Vec::new();
        if v.other {
            keys.push((None, range));
        } else if v.tag_by_version.is_empty() {
            keys.extend(
                std::iter::once(v.tag.value)
                    .chain(v.more_tags.iter().copied())
                    .map(|t| (Some(t), range.clone())),
            );
        } else {
            keys.extend(v.tag_by_version.iter().map(|(r, t)| (Some(*t), r.clone())));
        }
        keys.dedup();
        keys.sort_by_key(|(t, r)| (*t, r.start));
        keys.dedup();
        for (tag, r) in keys {
            if let Some((_, _, other)) =
                seen.iter().find(|(t, sr, _)| *t == tag && sr.start < r.end && r.start < sr.end)
            {
                let what = match tag {
                    Some(t) => format!("tag {t}"),
                    None => "`other`".to_string(),
                };
                diags.error_with_help(
                    v.name.span.clone(),
                    format!(
                        "variant {} of group {} has {what}, like {other}, in the same versions",
                        v.name.value, g.name.value
                    ),
                    "give the variants different tags or disjoint `versions`",
                );
            }
            seen.push((tag, r, &v.name.value));
        }
    }
}
