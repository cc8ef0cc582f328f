//! Completeness of the LLVM IR schema: `schema/llvm_ir.toml` must declare every record code
//! of LLVM's `llvm/include/llvm/Bitcode/LLVMBitCodes.h`, in the block that holds it, under
//! the name the naming rules give it, and every operand value of the header's value enums
//! (CastOpcodes, AttributeKindCodes, ...) as a value or alias of the schema enum decoding it.
//!
//! Two lists are checked:
//! - LLVM 14's header on this machine (`/usr/lib/llvm-14/...`, package llvm-14-dev),
//!   parsed here with the rules of `schema/extract-llvm-bitcodes.py` (missing: a notice,
//!   or a failure when CI=true);
//! - LLVM 22's list, `schema/llvm-bitcodes-22.tsv` and `schema/llvm-enums-22.tsv`, which
//!   that script made from a newer header (its newer codes included).
//!
//! The schema is read as plain TOML, not through the generated code, so that a missing
//! record is reported by name and code rather than as a compile error. A failure lists every
//! missing code with its header enum, enumerator, number and block, ready to be added.
//! `BITCODE_LLVM_SCHEMA=FILE` checks another file instead (e.g. a part's scratch check
//! file, which then reports the other parts' codes as missing too).

use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::*;

/// LLVM 14's header, as Debian's llvm-14-dev installs it.
const LLVM14_HEADER: &str = "/usr/lib/llvm-14/include/llvm/Bitcode/LLVMBitCodes.h";

/// The blocks of the LLVM IR schema and their ids: LLVM's BlockIDs names without `_ID`.
const BLOCKS: &[(&str, u64)] = &[
    ("MODULE_BLOCK", 8),
    ("PARAMATTR_BLOCK", 9),
    ("PARAMATTR_GROUP_BLOCK", 10),
    ("CONSTANTS_BLOCK", 11),
    ("FUNCTION_BLOCK", 12),
    ("IDENTIFICATION_BLOCK", 13),
    ("VALUE_SYMTAB_BLOCK", 14),
    ("METADATA_BLOCK", 15),
    ("METADATA_ATTACHMENT_BLOCK", 16),
    ("TYPE_BLOCK", 17),
    ("USELIST_BLOCK", 18),
    ("MODULE_STRTAB_BLOCK", 19),
    ("GLOBALVAL_SUMMARY_BLOCK", 20),
    ("OPERAND_BUNDLE_TAGS_BLOCK", 21),
    ("METADATA_KIND_BLOCK", 22),
    ("STRTAB_BLOCK", 23),
    ("FULL_LTO_GLOBALVAL_SUMMARY_BLOCK", 24),
    ("SYMTAB_BLOCK", 25),
    ("SYNC_SCOPE_NAMES_BLOCK", 26),
];

/// BlockIDs enumerators whose block name is not the enumerator without `_ID`.
const BLOCK_ID_EXCEPTIONS: &[(&str, &str)] =
    &[("METADATA_ATTACHMENT_ID", "METADATA_ATTACHMENT_BLOCK"), ("TYPE_BLOCK_ID_NEW", "TYPE_BLOCK")];

/// Header enums of record codes, and the schema block(s) holding their codes.
const CODE_ENUMS: &[(&str, &[&str])] = &[
    ("IdentificationCodes", &["IDENTIFICATION_BLOCK"]),
    ("ModuleCodes", &["MODULE_BLOCK"]),
    ("AttributeCodes", &["PARAMATTR_BLOCK"]),
    ("TypeCodes", &["TYPE_BLOCK"]),
    ("OperandBundleTagCode", &["OPERAND_BUNDLE_TAGS_BLOCK"]),
    ("SyncScopeNameCode", &["SYNC_SCOPE_NAMES_BLOCK"]),
    ("ValueSymtabCodes", &["VALUE_SYMTAB_BLOCK"]),
    ("ModulePathSymtabCodes", &["MODULE_STRTAB_BLOCK"]),
    ("GlobalValueSummarySymtabCodes", &["GLOBALVAL_SUMMARY_BLOCK", "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK"]),
    ("MetadataCodes", &["METADATA_BLOCK"]),
    ("ConstantsCodes", &["CONSTANTS_BLOCK"]),
    ("FunctionCodes", &["FUNCTION_BLOCK"]),
    ("UseListCodes", &["USELIST_BLOCK"]),
    ("StrtabCodes", &["STRTAB_BLOCK"]),
    ("SymtabCodes", &["SYMTAB_BLOCK"]),
];

/// Enumerator prefix → block, where one header enum feeds two blocks.
const BLOCK_BY_PREFIX: &[(&str, &str)] = &[("PARAMATTR_GRP_CODE_", "PARAMATTR_GROUP_BLOCK")];

/// Enumerators placed and named outside the general rules: (enumerator, blocks, record).
/// METADATA_KIND has had its own block since LLVM 4; older writers put it in METADATA_BLOCK.
const CODE_EXCEPTIONS: &[(&str, &[&str], &str)] = &[
    ("METADATA_KIND", &["METADATA_KIND_BLOCK", "METADATA_BLOCK"], "KIND"),
    ("METADATA_ATTACHMENT", &["METADATA_ATTACHMENT_BLOCK"], "ATTACHMENT"),
];

/// Prefixes dropped from an enumerator to name its record (the first match wins).
const RECORD_PREFIXES: &[&str] = &[
    "MODULE_CODE_",
    "FUNC_CODE_",
    "CST_CODE_",
    "TYPE_CODE_",
    "METADATA_",
    "VST_CODE_",
    "PARAMATTR_CODE_",
    "PARAMATTR_GRP_CODE_",
    "FS_",
    "MST_CODE_",
    "IDENTIFICATION_CODE_",
    "STRTAB_",
    "SYMTAB_",
    "USELIST_CODE_",
];

/// Header enums of operand values → the schema enum decoding them.
const VALUE_ENUMS: &[(&str, &str)] = &[
    ("CastOpcodes", "CastOpcode"),
    ("UnaryOpcodes", "UnaryOpcode"),
    ("BinaryOpcodes", "BinaryOpcode"),
    ("RMWOperations", "RmwOperation"),
    ("AtomicOrderingCodes", "AtomicOrdering"),
    ("AttributeKindCodes", "AttributeKind"),
    ("ComdatSelectionKindCodes", "ComdatSelection"),
];

/// Header enums left out: the anonymous epoch enum, BlockIDs (checked on their own), and
/// bit positions of flag words and markers, which are no operand values of their own.
const IGNORED_ENUMS: &[&str] = &[
    "",
    "BlockIDs",
    "OverflowingBinaryOperatorOptionalFlags",
    "TruncInstOptionalFlags",
    "FastMathMap",
    "PossiblyNonNegInstOptionalFlags",
    "PossiblyExactOperatorOptionalFlags",
    "PossiblyDisjointInstOptionalFlags",
    "MetadataOperandBundleValueMarker",
    "GetElementPtrOptionalFlags",
    "ICmpOptionalFlags",
    "CallMarkersFlags",
];

/// Names a header's enum values may refer to without defining them (BitCodeEnums.h).
const KNOWN_CONSTANTS: &[(&str, u64)] = &[("FIRST_APPLICATION_BLOCKID", 8)];

/// One `enum` of the header: its name (empty when anonymous) and its enumerators.
#[derive(Debug, PartialEq)]
struct HeaderEnum {
    name: String,
    entries: Vec<(String, u64)>,
}

/// A record code the schema must declare, in every one of `blocks`, named `record`.
#[derive(Debug, Clone, PartialEq)]
struct Code {
    header_enum: String,
    enumerator: String,
    number: u64,
    blocks: Vec<String>,
    record: String,
}

/// An operand value that the schema enum `schema_enum` must decode.
#[derive(Debug, Clone, PartialEq)]
struct Value {
    header_enum: String,
    enumerator: String,
    number: u64,
    schema_enum: String,
}

/// What a header lists, sorted by kind.
#[derive(Default)]
struct Listing {
    codes: Vec<Code>,
    values: Vec<Value>,
    /// BlockIDs as (schema block name, id).
    block_ids: Vec<(String, u64)>,
}

/// C++ source without its `//` and `/* */` comments (comments become a space).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        match (line, block) {
            (Some(l), b) if b.is_none_or(|b| l < b) => {
                out.push_str(&rest[..l]);
                out.push(' ');
                rest = rest[l..].find('\n').map_or("", |n| &rest[l + n..]);
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                rest = rest[b + 2..].find("*/").map_or("", |e| &rest[b + 2 + e + 2..]);
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// An enumerator's value: a decimal or hex literal, `(A << B)`, an earlier enumerator or a
/// known constant.
fn eval(expr: &str, names: &HashMap<String, u64>) -> Result<u64, String> {
    let mut e = expr.trim();
    while e.starts_with('(') && e.ends_with(')') {
        e = e[1..e.len() - 1].trim();
    }
    if let Some((left, right)) = e.split_once("<<") {
        return Ok(eval(left, names)? << eval(right, names)?);
    }
    if let Some(&v) = names.get(e) {
        return Ok(v);
    }
    if let Some(&(_, v)) = KNOWN_CONSTANTS.iter().find(|(n, _)| *n == e) {
        return Ok(v);
    }
    let parsed = match e.strip_prefix("0x").or_else(|| e.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => e.parse(),
    };
    parsed.map_err(|_| format!("cannot evaluate enum value `{expr}`"))
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `enum [Name] { ... };` of a C++ header: entries `NAME = VALUE` or `NAME` (the
/// previous value + 1, the first 0), comments ignored.
fn parse_header(text: &str) -> Result<Vec<HeaderEnum>, String> {
    let text = strip_comments(text);
    let mut enums = Vec::new();
    let mut rest = text.as_str();
    while let Some(pos) = rest.find("enum") {
        let before_ok = rest[..pos].chars().next_back().is_none_or(|c| !is_ident_char(c));
        let after = &rest[pos + 4..];
        rest = after;
        if !before_ok || after.chars().next().is_none_or(is_ident_char) {
            continue; // part of a longer word
        }
        let Some(open) = after.find('{') else { break };
        let head = after[..open].trim();
        let head = head.strip_prefix("class ").unwrap_or(head).trim();
        let name = head.split(':').next().unwrap_or("").trim();
        if !name.chars().all(is_ident_char) {
            continue; // not a definition (a declaration, or `enum` in an expression)
        }
        let close = after[open..].find('}').ok_or("an enum body without its closing brace")? + open;
        let mut entries = Vec::new();
        let mut names = HashMap::new();
        let mut next = 0;
        for item in after[open + 1..close].split(',') {
            let item = item.split_whitespace().collect::<Vec<_>>().join(" ");
            if item.is_empty() {
                continue;
            }
            let (key, value) = match item.split_once('=') {
                Some((key, expr)) => (key.trim().to_string(), eval(expr, &names)?),
                None => (item, next),
            };
            next = value + 1;
            names.insert(key.clone(), value);
            entries.push((key, value));
        }
        enums.push(HeaderEnum { name: name.to_string(), entries });
        rest = &after[close + 1..];
    }
    Ok(enums)
}

/// The record name of an enumerator: without its prefix.
fn record_name(enumerator: &str) -> &str {
    RECORD_PREFIXES.iter().find_map(|p| enumerator.strip_prefix(p)).unwrap_or(enumerator)
}

/// The schema block(s) and record name of a record code of `header_enum`, or `None` when
/// that enum is not one of record codes.
fn schema_place(header_enum: &str, enumerator: &str) -> Option<(Vec<String>, String)> {
    let owned = |blocks: &[&str]| blocks.iter().map(|b| b.to_string()).collect::<Vec<_>>();
    let &(_, blocks) = CODE_ENUMS.iter().find(|(e, _)| *e == header_enum)?;
    if let Some(&(_, blocks, record)) = CODE_EXCEPTIONS.iter().find(|(e, _, _)| *e == enumerator) {
        return Some((owned(blocks), record.to_string()));
    }
    let record = record_name(enumerator).to_string();
    match BLOCK_BY_PREFIX.iter().find(|(p, _)| enumerator.starts_with(p)) {
        Some(&(_, block)) => Some((vec![block.to_string()], record)),
        None => Some((owned(blocks), record)),
    }
}

/// Sorts a header's enums into record codes, operand values and block ids; an enum of no
/// known kind is an error (a newer header's new enum must be classified here and in the
/// script).
fn classify(enums: &[HeaderEnum]) -> Result<Listing, String> {
    let mut listing = Listing::default();
    let mut unknown = Vec::new();
    for e in enums {
        if e.name == "BlockIDs" {
            for (key, id) in &e.entries {
                let name = match BLOCK_ID_EXCEPTIONS.iter().find(|(k, _)| k == key) {
                    Some(&(_, name)) => name.to_string(),
                    None => key.strip_suffix("_ID").unwrap_or(key).to_string(),
                };
                listing.block_ids.push((name, *id));
            }
        } else if let Some(&(_, schema_enum)) = VALUE_ENUMS.iter().find(|(h, _)| *h == e.name) {
            for (key, number) in &e.entries {
                listing.values.push(Value {
                    header_enum: e.name.clone(),
                    enumerator: key.clone(),
                    number: *number,
                    schema_enum: schema_enum.to_string(),
                });
            }
        } else if CODE_ENUMS.iter().any(|(h, _)| *h == e.name) {
            for (key, number) in &e.entries {
                let (blocks, record) = schema_place(&e.name, key).expect("a code enum");
                listing.codes.push(Code {
                    header_enum: e.name.clone(),
                    enumerator: key.clone(),
                    number: *number,
                    blocks,
                    record,
                });
            }
        } else if !IGNORED_ENUMS.contains(&e.name.as_str()) {
            unknown.push(format!("{} ({} enumerators)", e.name, e.entries.len()));
        }
    }
    if unknown.is_empty() {
        Ok(listing)
    } else {
        Err(format!(
            "enums of no known kind (classify them in tests/it/llvm_codes.rs and \
             schema/extract-llvm-bitcodes.py): {}",
            unknown.join(", ")
        ))
    }
}

/// The data rows of a TSV (comment lines start with `#`), split into fields.
fn tsv_rows(path: &Path, columns: usize) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<String> = line.split('\t').map(str::to_string).collect();
        assert_eq!(fields.len(), columns, "{}:{}: expected {columns} columns: {line}", path.display(), i + 1);
        rows.push(fields);
    }
    rows
}

fn number(field: &str, path: &Path) -> u64 {
    field.parse().unwrap_or_else(|_| panic!("{}: `{field}` is not a number", path.display()))
}

/// schema/llvm-bitcodes-22.tsv: header enum, enumerator, number, blocks, record.
fn read_codes_tsv(path: &Path) -> Vec<Code> {
    tsv_rows(path, 5)
        .into_iter()
        .map(|f| Code {
            header_enum: f[0].clone(),
            enumerator: f[1].clone(),
            number: number(&f[2], path),
            blocks: f[3].split(',').map(str::to_string).collect(),
            record: f[4].clone(),
        })
        .collect()
}

/// schema/llvm-enums-22.tsv: header enum, enumerator, number, schema enum.
fn read_values_tsv(path: &Path) -> Vec<Value> {
    tsv_rows(path, 4)
        .into_iter()
        .map(|f| Value {
            header_enum: f[0].clone(),
            enumerator: f[1].clone(),
            number: number(&f[2], path),
            schema_enum: f[3].clone(),
        })
        .collect()
}

fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// A schema block as the check sees it: its id, and the names of its records by code.
type SchemaBlock = (Option<i64>, BTreeMap<u64, Vec<String>>);

/// What the check needs of a schema: block ids, record names by code, enum codes.
#[derive(Default)]
struct Schema {
    /// Block name → its id and records.
    blocks: BTreeMap<String, SchemaBlock>,
    /// Enum name → the codes it decodes (current and obsolete values).
    enums: BTreeMap<String, BTreeSet<u64>>,
}

/// The schema under test: $BITCODE_LLVM_SCHEMA, or schema/llvm_ir.toml.
fn schema_path() -> PathBuf {
    std::env::var_os("BITCODE_LLVM_SCHEMA").map_or_else(|| repo_path("schema/llvm_ir.toml"), PathBuf::from)
}

/// Reads a schema as TOML; every table the check does not need is ignored.
fn load_schema(path: &Path) -> Result<Schema, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read {}: {e} (schema/llvm_ir.toml is a [format] header followed by the parts, \
             schema/parts/*.toml; BITCODE_LLVM_SCHEMA=FILE checks another file)",
            path.display()
        )
    })?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut schema = Schema::default();
    let empty = toml::Table::new();
    let blocks = table.get("blocks").and_then(toml::Value::as_table).unwrap_or(&empty);
    for (name, block) in blocks {
        let id = block.get("id").and_then(toml::Value::as_integer);
        let mut codes: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        let records = block.get("records").and_then(toml::Value::as_table).unwrap_or(&empty);
        for (record, body) in records {
            if let Some(code) = body.get("code").and_then(toml::Value::as_integer) {
                codes.entry(code as u64).or_default().push(record.clone());
            }
        }
        schema.blocks.insert(name.clone(), (id, codes));
    }
    let enums = table.get("enums").and_then(toml::Value::as_table).unwrap_or(&empty);
    for (name, e) in enums {
        let mut codes = BTreeSet::new();
        for value in e.get("values").and_then(toml::Value::as_table).unwrap_or(&empty).values() {
            let code = value.as_integer().or_else(|| value.get("value").and_then(toml::Value::as_integer));
            codes.extend(code.map(|c| c as u64));
        }
        schema.enums.insert(name.clone(), codes);
    }
    Ok(schema)
}

fn block_id(block: &str) -> Option<u64> {
    BLOCKS.iter().find(|(b, _)| *b == block).map(|&(_, id)| id)
}

/// Appends `items` to `out` as indented lines of at most ~100 characters.
fn wrap_list(out: &mut String, items: &[String]) {
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && line.len() + item.len() > 96 {
            let _ = writeln!(out, "     {}", line.trim_end_matches(", "));
            line.clear();
        }
        let _ = write!(line, "{item}, ");
    }
    if !line.is_empty() {
        let _ = writeln!(out, "     {}", line.trim_end_matches(", "));
    }
}

/// Where the lists of a check come from: an LLVM version and the source of each list.
struct Sources<'a> {
    version: &'a str,
    codes: &'a str,
    values: &'a str,
}

/// Checks `codes` and `values` against `schema`; returns the report of everything missing,
/// misnamed or misnumbered, empty when the schema is complete.
fn check_schema(
    schema: &Schema,
    schema_name: &str,
    from: &Sources,
    codes: &[Code],
    values: &[Value],
) -> String {
    let mut missing: BTreeMap<(u64, &str), Vec<String>> = BTreeMap::new();
    let mut misnamed = Vec::new();
    let mut wrong_ids = BTreeSet::new();
    let mut total = 0;
    for code in codes {
        for block in &code.blocks {
            total += 1;
            let id = block_id(block).unwrap_or(u64::MAX);
            let Some((schema_id, records)) = schema.blocks.get(block) else {
                missing.entry((id, block)).or_default().push(missing_line(code, None));
                continue;
            };
            if schema_id.is_none_or(|s| s as u64 != id) && id != u64::MAX {
                let has = schema_id.map_or("no id".to_string(), |s| format!("id {s}"));
                wrong_ids.insert(format!("{block}: {has}, expected {id}"));
            }
            match records.get(&code.number) {
                None => {
                    let elsewhere = records.iter().find(|(_, names)| names.contains(&code.record));
                    let line = missing_line(code, elsewhere.map(|(c, _)| *c));
                    missing.entry((id, block)).or_default().push(line);
                }
                Some(names) if !names.contains(&code.record) => misnamed.push(format!(
                    "  {block} code {}: `{}`, expected `{}` ({}::{})",
                    code.number,
                    names.join("`, `"),
                    code.record,
                    code.header_enum,
                    code.enumerator
                )),
                Some(_) => {}
            }
        }
    }
    let mut missing_values: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for v in values {
        let present = schema.enums.get(&v.schema_enum).is_some_and(|codes| codes.contains(&v.number));
        if !present {
            let key = (v.schema_enum.as_str(), v.header_enum.as_str());
            missing_values.entry(key).or_default().push(format!("{} {}", v.number, v.enumerator));
        }
    }
    let missing_count: usize = missing.values().map(Vec::len).sum();
    let values_count: usize = missing_values.values().map(Vec::len).sum();
    if missing_count + misnamed.len() + wrong_ids.len() + values_count == 0 {
        return String::new();
    }

    let version = from.version;
    let mut report = format!(
        "{schema_name} is incomplete for {version}: {missing_count} record code(s) missing, {} misnamed, \
         {} block id(s) wrong, {values_count} enum value(s) missing.\n",
        misnamed.len(),
        wrong_ids.len()
    );
    if missing_count > 0 {
        let _ = writeln!(
            report,
            "\nMissing: {missing_count} of the {total} (block, record code) pairs of {version} ({}); \
             add each as [blocks.BLOCK.records.NAME] with code = NUMBER:",
            from.codes
        );
        for ((id, block), lines) in &missing {
            let declared = if schema.blocks.contains_key(*block) { "" } else { ", block not declared" };
            let _ = writeln!(report, "  {block} (id {id}{declared}): {} missing", lines.len());
            for line in lines {
                let _ = writeln!(report, "{line}");
            }
        }
    }
    if !misnamed.is_empty() {
        let _ = writeln!(
            report,
            "\nMisnamed: {} record code(s) of {version} ({}) under another name than the naming rule's:",
            misnamed.len(),
            from.codes
        );
        for line in &misnamed {
            let _ = writeln!(report, "{line}");
        }
    }
    if !wrong_ids.is_empty() {
        let _ = writeln!(report, "\nWrong block ids (LLVM's BlockIDs):");
        for line in &wrong_ids {
            let _ = writeln!(report, "  {line}");
        }
    }
    if values_count > 0 {
        let _ = writeln!(
            report,
            "\nMissing enum values: {values_count} operand value(s) of {version} ({}); add each to its \
             enum as a value or an alias:",
            from.values
        );
        for ((schema_enum, header_enum), items) in &missing_values {
            let declared = if schema.enums.contains_key(*schema_enum) { "" } else { ", enum not declared" };
            let _ =
                writeln!(report, "  {schema_enum} (from {header_enum}{declared}): {} missing", items.len());
            wrap_list(&mut report, items);
        }
    }
    report
}

/// One line of the missing-code list: number, expected record name, where it comes from,
/// and the code the schema gives that name, if it has the name under another code.
fn missing_line(code: &Code, named_elsewhere: Option<u64>) -> String {
    let mut line =
        format!("    {:>3}  {:<36} {}::{}", code.number, code.record, code.header_enum, code.enumerator);
    if let Some(other) = named_elsewhere {
        let _ = write!(line, "  (the schema has `{}` as code {other})", code.record);
    }
    line
}

/// The LLVM 14 header's listing, or `None` after reporting the header missing.
fn llvm14_listing(test: &str) -> Option<Listing> {
    let path = Path::new(LLVM14_HEADER);
    if !path.is_file() {
        missing(test, &format!("{LLVM14_HEADER} (Debian package llvm-14-dev)"));
        return None;
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{LLVM14_HEADER}: {e}"));
    let enums = parse_header(&text).unwrap_or_else(|e| panic!("{LLVM14_HEADER}: {e}"));
    Some(classify(&enums).unwrap_or_else(|e| panic!("{LLVM14_HEADER}: {e}")))
}

/// The LLVM 22 lists (record codes, operand values).
fn llvm22_lists() -> (Vec<Code>, Vec<Value>) {
    (
        read_codes_tsv(&repo_path("schema/llvm-bitcodes-22.tsv")),
        read_values_tsv(&repo_path("schema/llvm-enums-22.tsv")),
    )
}

/// The parser reads the forms LLVMBitCodes.h uses: implicit values, a value on the next
/// line, `(1 << n)`, hex, names of earlier enumerators, comments of both kinds, one-line
/// and anonymous enums.
pub fn header_parser_reads_every_enum_form() {
    let header = "
        // enum Commented { NOT_AN_ENUM = 1 };
        enum BlockIDs {
          MODULE_BLOCK_ID = FIRST_APPLICATION_BLOCKID, // 8
          PARAMATTR_BLOCK_ID, /* 9 */
          TYPE_BLOCK_ID_NEW = MODULE_BLOCK_ID + 0 == 0 ? 0 : 17,
        };
        enum { BITCODE_CURRENT_EPOCH = 0 };
        enum FunctionCodes {
          FUNC_CODE_DECLAREBLOCKS = 1, // DECLAREBLOCKS: [n]
          // 14 is unused.
          FUNC_CODE_INST_LANDINGPAD_OLD =
              40,                         // LANDINGPAD: [ty,val,val,num,id0,val0...]
          FUNC_CODE_NEXT
        };
        enum FastMathMap { UnsafeAlgebra = (1 << 0), NoNaNs = (1 << 1) };
        enum MetadataOperandBundleValueMarker { OB_METADATA = 0x80000000 };
    ";
    // An expression the parser does not know is an error, not a wrong number.
    assert!(parse_header(header).is_err());
    let header = header.replace("MODULE_BLOCK_ID + 0 == 0 ? 0 : 17", "17");
    let enums = parse_header(&header).expect("parses");
    let entries = |name: &str| -> Vec<(String, u64)> {
        enums.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("{name} parsed")).entries.clone()
    };
    let owned = |v: &[(&str, u64)]| v.iter().map(|&(n, c)| (n.to_string(), c)).collect::<Vec<_>>();
    assert_eq!(enums.len(), 5, "{enums:?}");
    assert_eq!(
        entries("BlockIDs"),
        owned(&[("MODULE_BLOCK_ID", 8), ("PARAMATTR_BLOCK_ID", 9), ("TYPE_BLOCK_ID_NEW", 17)])
    );
    assert_eq!(entries(""), owned(&[("BITCODE_CURRENT_EPOCH", 0)]));
    assert_eq!(
        entries("FunctionCodes"),
        owned(&[
            ("FUNC_CODE_DECLAREBLOCKS", 1),
            ("FUNC_CODE_INST_LANDINGPAD_OLD", 40),
            ("FUNC_CODE_NEXT", 41)
        ])
    );
    assert_eq!(entries("FastMathMap"), owned(&[("UnsafeAlgebra", 1), ("NoNaNs", 2)]));
    assert_eq!(entries("MetadataOperandBundleValueMarker"), owned(&[("OB_METADATA", 0x8000_0000)]));

    let listing = classify(&enums).expect("every enum known");
    assert_eq!(listing.block_ids[2], ("TYPE_BLOCK".to_string(), 17));
    assert_eq!(listing.codes[1].record, "INST_LANDINGPAD_OLD");
    assert!(classify(&[HeaderEnum { name: "NewCodes".into(), entries: vec![] }]).is_err());
}

/// The LLVM 22 lists are well formed and their schema columns are what the naming rules
/// give (this test and schema/extract-llvm-bitcodes.py apply the same rules).
pub fn llvm22_lists_follow_the_naming_rules() {
    let (codes, values) = llvm22_lists();
    assert!(codes.len() > 200 && values.len() > 100, "{} codes, {} values", codes.len(), values.len());
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for c in &codes {
        match schema_place(&c.header_enum, &c.enumerator) {
            Some((blocks, record)) if blocks == c.blocks && record == c.record => {}
            other => wrong.push(format!("{c:?}: the rules give {other:?}")),
        }
        for block in &c.blocks {
            assert!(block_id(block).is_some(), "{c:?}: unknown block {block}");
            assert!(seen.insert((block.clone(), c.number)), "{c:?}: code listed twice in {block}");
        }
    }
    for v in &values {
        match VALUE_ENUMS.iter().find(|(h, _)| *h == v.header_enum) {
            Some(&(_, schema_enum)) if schema_enum == v.schema_enum => {}
            other => wrong.push(format!("{v:?}: the rules give {other:?}")),
        }
    }
    assert!(wrong.is_empty(), "rows that disagree with the naming rules:\n{}", wrong.join("\n"));
}

/// LLVM's codes are permanent: every LLVM 14 code and value is in the LLVM 22 lists with
/// the same number and block; names differ only where LLVM renamed an obsolete code.
pub fn llvm14_header_is_within_the_llvm22_lists() {
    let Some(llvm14) = llvm14_listing("llvm14_header_is_within_the_llvm22_lists") else { return };
    let (codes, values) = llvm22_lists();
    let mut problems = Vec::new();
    let mut renamed = Vec::new();
    for c in &llvm14.codes {
        match codes.iter().find(|n| n.header_enum == c.header_enum && n.number == c.number) {
            None => problems.push(format!(
                "{}::{} = {} is not in the LLVM 22 list",
                c.header_enum, c.enumerator, c.number
            )),
            Some(n) if n.blocks != c.blocks => problems.push(format!("{c:?} vs LLVM 22 {n:?}")),
            Some(n) if n.enumerator != c.enumerator => {
                renamed.push(format!("{} → {}", c.enumerator, n.enumerator))
            }
            Some(_) => {}
        }
    }
    for v in &llvm14.values {
        if !values.iter().any(|n| n.header_enum == v.header_enum && n.number == v.number) {
            problems.push(format!(
                "{}::{} = {} is not in the LLVM 22 list",
                v.header_enum, v.enumerator, v.number
            ));
        }
    }
    for (block, id) in &llvm14.block_ids {
        if block_id(block) != Some(*id) {
            problems
                .push(format!("BlockIDs: {block} = {id}, but the schema's table says {:?}", block_id(block)));
        }
    }
    assert!(problems.is_empty(), "LLVM 14 vs LLVM 22:\n{}", problems.join("\n"));
    // The two renames of LLVM 19 (a new GEP constant expression took the old names).
    assert_eq!(
        renamed,
        [
            "CST_CODE_CE_GEP → CST_CODE_CE_GEP_OLD",
            "CST_CODE_CE_GEP_WITH_INRANGE_INDEX → CST_CODE_CE_GEP_WITH_INRANGE_INDEX_OLD"
        ]
    );
}

/// The schema declares every record code and operand value of LLVM 14's header. Codes that
/// LLVM renamed since are expected under their LLVM 22 names (the schema follows LLVM 22).
pub fn schema_declares_every_llvm14_code() {
    let Some(mut llvm14) = llvm14_listing("schema_declares_every_llvm14_code") else { return };
    let (codes22, _) = llvm22_lists();
    for c in &mut llvm14.codes {
        if let Some(n) = codes22.iter().find(|n| n.header_enum == c.header_enum && n.number == c.number) {
            c.record.clone_from(&n.record);
        }
    }
    let path = schema_path();
    let schema = load_schema(&path).unwrap_or_else(|e| panic!("{e}"));
    let name = path.display().to_string();
    let from = Sources { version: "LLVM 14", codes: LLVM14_HEADER, values: LLVM14_HEADER };
    let report = check_schema(&schema, &name, &from, &llvm14.codes, &llvm14.values);
    assert!(report.is_empty(), "\n{report}");
}

/// The schema declares every record code and operand value of LLVM 22 (and the newer ones
/// the list keeps): schema/llvm-bitcodes-22.tsv and schema/llvm-enums-22.tsv.
pub fn schema_declares_every_llvm22_code() {
    let (codes, values) = llvm22_lists();
    let path = schema_path();
    let schema = load_schema(&path).unwrap_or_else(|e| panic!("{e}"));
    let name = path.display().to_string();
    let from = Sources {
        version: "LLVM 22",
        codes: "schema/llvm-bitcodes-22.tsv",
        values: "schema/llvm-enums-22.tsv",
    };
    let report = check_schema(&schema, &name, &from, &codes, &values);
    assert!(report.is_empty(), "\n{report}");
}

/// What LLVM's reader adds to its value or type list for a record, by the record's header
/// enum and enumerator: `None` for the enums of blocks the numbering does not count in.
///
/// The reader's rules (BitcodeReader.cpp): a module's global variables, functions, aliases
/// and ifuncs are values; every constants record but SETTYPE is one; every type record but
/// NUMENTRY and STRUCT_NAME is a type; in a function body, an instruction is a value unless
/// its type is void (returns and other terminators but invoke and callbr, stores, fences;
/// a call, invoke or callbr has its callee's return type), and the records that are not
/// instructions (DECLAREBLOCKS, debug locations and records, operand bundles, block address
/// users) are nothing.
fn reader_defines(header_enum: &str, enumerator: &str) -> Option<&'static str> {
    let name = enumerator.split_once("CODE_").map_or(enumerator, |(_, name)| name);
    Some(match header_enum {
        "ModuleCodes" => match name {
            "GLOBALVAR" | "FUNCTION" | "ALIAS" | "ALIAS_OLD" | "IFUNC" => "value",
            _ => "nothing",
        },
        "TypeCodes" => match name {
            "NUMENTRY" | "STRUCT_NAME" => "nothing",
            _ => "type",
        },
        "ConstantsCodes" => match name {
            "SETTYPE" => "nothing",
            _ => "value",
        },
        "FunctionCodes" => {
            let Some(instruction) = name.strip_prefix("INST_") else { return Some("nothing") };
            let kind = instruction.trim_end_matches("_OLD");
            match kind {
                "CALL" | "INVOKE" | "CALLBR" => "call_result",
                "RET" | "BR" | "SWITCH" | "INDIRECTBR" | "UNREACHABLE" | "RESUME" | "CLEANUPRET"
                | "CATCHRET" | "FENCE" => "nothing",
                store if store.starts_with("STORE") => "nothing",
                _ => "value",
            }
        }
        _ => return None,
    })
}

/// Where the reader's rules and the schema's `defines` (as generated in `ir::NUMBERING`)
/// differ, for `codes`: one line each.
fn defines_mismatches(codes: &[Code]) -> (usize, Vec<String>) {
    use bitcode_schema::llvm::ir;
    let mut compared = 0;
    let mut wrong = Vec::new();
    for c in codes {
        let Some(expected) = reader_defines(&c.header_enum, &c.enumerator) else { continue };
        for block in &c.blocks {
            let id = block_id(block).unwrap_or_else(|| panic!("no id for {block}")) as u32;
            let Some(numbered) = ir::NUMBERING.block(id) else {
                wrong.push(format!("{block} (holding {}) is not numbered in the schema", c.enumerator));
                continue;
            };
            compared += 1;
            let got = numbered.defines(c.number as u32).name();
            if got != expected {
                wrong.push(format!(
                    "{block}/{} (code {}, {}): the schema says defines = \"{got}\", the reader's rules \"{expected}\"",
                    c.record, c.number, c.enumerator
                ));
            }
        }
    }
    (compared, wrong)
}

/// The schema's `defines` of every module, type, constants and function record code of LLVM
/// 14's header agree with what LLVM's reader counts: the value-defining set derived from
/// the header's names by the reader's rules equals the schema's.
pub fn value_defining_records_agree_with_the_llvm14_header() {
    let Some(llvm14) = llvm14_listing("value_defining_records_agree_with_the_llvm14_header") else { return };
    let (compared, wrong) = defines_mismatches(&llvm14.codes);
    assert!(compared > 100, "only {compared} codes compared");
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// The same for LLVM 22's list (schema/llvm-bitcodes-22.tsv), whose newer codes (debug
/// records, the newer constants) the numbering counts too.
pub fn value_defining_records_agree_with_the_llvm22_list() {
    let (codes, _) = llvm22_lists();
    let (compared, wrong) = defines_mismatches(&codes);
    assert!(compared > 120, "only {compared} codes compared");
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
