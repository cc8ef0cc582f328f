//! `--remarks`: LLVM's optimization remarks in the bitstream format (a downstream format: its
//! schema is schemas/remarks.toml beside this file), printed as YAML documents in the layout
//! of clang's `-fsave-optimization-record=yaml`.
//!
//! Remark strings are indices into a string table, and where that table lives depends on the
//! container (see the schema's header): in the remarks file itself (LLVM 22's files, older
//! standalone files), or in the remarks section of the object file compiled beside the
//! remarks file (clang before LLVM 22 on Darwin). Given an object file, the section names the
//! remarks file to read.

use std::io::Write;
use std::path::{Path, PathBuf};

use bitcode_schema::runtime::decode::BasicContext;
use bitcode_schema::runtime::embedded;
use bitcode_schema::{Bitstream, Entry, Magic};

use crate::Failure;

/// The types generated from the schema.
pub mod schema {
    bitcode_schema::schema!("examples/bcdump/schemas/remarks.toml");
}

use schema::{meta, remark, RemarkType};

/// A source location of a remark or of one of its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The source file, as the compiler names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Column (0 where the compiler has none).
    pub column: u32,
}

/// A remark argument: a key and its value as text, with an optional location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argument {
    /// The key (`String` for plain message text).
    pub key: String,
    /// The value.
    pub value: String,
    /// Where the value is defined, when the compiler says.
    pub location: Option<Location>,
}

/// One optimization remark with its strings resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    /// Passed, missed, analysis...
    pub kind: RemarkType,
    /// The pass that emitted it.
    pub pass: String,
    /// The remark's name within the pass.
    pub name: String,
    /// The function it is about.
    pub function: String,
    /// Where in the source.
    pub location: Option<Location>,
    /// The profile count of the code, with profile data.
    pub hotness: Option<u64>,
    /// The message, piece by piece.
    pub args: Vec<Argument>,
}

/// A location whose file is still a string index.
type IndexedLocation = (u32, u32, u32);

/// A remark whose strings are still string-table indices.
#[derive(Debug, Default)]
struct IndexedRemark {
    /// Bit offset of the REMARK block, for errors.
    bit_offset: u64,
    /// Type, name, pass and function from the header.
    header: Option<(RemarkType, u32, u32, u32)>,
    location: Option<IndexedLocation>,
    hotness: Option<u64>,
    args: Vec<(u32, u32, Option<IndexedLocation>)>,
}

/// What a remarks bitstream holds, its strings still indices.
#[derive(Debug, Default)]
pub struct Container<'a> {
    /// The container format's version (0 before LLVM 22, 1 from LLVM 22 on).
    pub version: Option<u64>,
    /// The container type; its meaning depends on the version.
    pub container_type: Option<u32>,
    /// The string table: NUL-terminated strings.
    pub strings: Option<&'a [u8]>,
    /// The remarks file this container points to.
    pub external_file: Option<String>,
    remarks: Vec<IndexedRemark>,
}

/// Reads the META and REMARK blocks of a remarks stream.
pub fn read<'a>(stream: Bitstream<'a>) -> bitcode_schema::Result<Container<'a>> {
    let stream = stream.expect(Magic::Remarks)?;
    let mut out = Container::default();
    let mut ctx = BasicContext::default();
    let mut cursor = stream.cursor();
    loop {
        let block = cursor.current_block();
        let bit_offset = cursor.position();
        let Some(entry) = cursor.next_entry()? else { break };
        match entry {
            Entry::Block(h) if h.id == remark::ID => {
                out.remarks.push(IndexedRemark { bit_offset, ..IndexedRemark::default() })
            }
            Entry::Record(record) if block == Some(meta::ID) => {
                match meta::Record::decode(&record, &mut ctx)? {
                    meta::Record::ContainerInfo(info) => {
                        out.version = Some(info.version);
                        out.container_type = Some(info.container_type);
                    }
                    meta::Record::Strtab(table) => out.strings = Some(table.strings),
                    meta::Record::ExternalFile(file) => {
                        out.external_file = Some(file.path.to_str_lossy().into())
                    }
                    meta::Record::RemarkVersion(_) | meta::Record::Unknown(_) => {}
                }
            }
            Entry::Record(record) if block == Some(remark::ID) => {
                let Some(current) = out.remarks.last_mut() else { continue };
                match remark::Record::decode(&record, &mut ctx)? {
                    remark::Record::RemarkHeader(h) => {
                        current.header = Some((h.r#type, h.remark_name, h.pass_name, h.function_name))
                    }
                    remark::Record::RemarkDebugLoc(l) => current.location = Some((l.file, l.line, l.column)),
                    remark::Record::RemarkHotness(h) => current.hotness = Some(h.hotness),
                    remark::Record::ArgWithDebugloc(a) => {
                        current.args.push((a.key, a.value, Some((a.file, a.line, a.column))))
                    }
                    remark::Record::ArgWithoutDebugloc(a) => current.args.push((a.key, a.value, None)),
                    remark::Record::Unknown(_) => {}
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The strings of a string table, by index.
fn string_table(blob: &[u8]) -> Vec<String> {
    let body = blob.strip_suffix(&[0]).unwrap_or(blob);
    if body.is_empty() && blob.len() <= 1 {
        return Vec::new();
    }
    body.split(|&b| b == 0).map(|s| String::from_utf8_lossy(s).into_owned()).collect()
}

impl Container<'_> {
    /// The remarks with their strings looked up in `strings` (a string-table blob).
    pub fn resolve(&self, strings: &[u8]) -> Result<Vec<Remark>, Failure> {
        let table = string_table(strings);
        let mut out = Vec::with_capacity(self.remarks.len());
        for r in &self.remarks {
            let text = |index: u32| {
                table.get(index as usize).cloned().ok_or_else(|| {
                    Failure::Unusable(format!(
                        "the remark at bit {} refers to string {index}, but the string table has {} strings",
                        r.bit_offset,
                        table.len()
                    ))
                })
            };
            let location = |l: Option<IndexedLocation>| -> Result<Option<Location>, Failure> {
                l.map(|(file, line, column)| Ok(Location { file: text(file)?, line, column })).transpose()
            };
            let Some((kind, name, pass, function)) = r.header else {
                return Err(Failure::Unusable(format!(
                    "the remark at bit {} has no header record",
                    r.bit_offset
                )));
            };
            let mut args = Vec::with_capacity(r.args.len());
            for &(key, value, loc) in &r.args {
                args.push(Argument { key: text(key)?, value: text(value)?, location: location(loc)? });
            }
            out.push(Remark {
                kind,
                pass: text(pass)?,
                name: text(name)?,
                function: text(function)?,
                location: location(r.location)?,
                hotness: r.hotness,
                args,
            });
        }
        Ok(out)
    }
}

/// Why a remarks file without its string table cannot be printed on its own.
fn no_string_table(container: &Container<'_>) -> Failure {
    let what = match (container.version, container.container_type) {
        (Some(0), Some(1)) => {
            "this remarks file leaves its string table to the remarks section of the object \
             file compiled with it: pass that object file (e.g. the .o) instead"
                .to_string()
        }
        (_, _) if container.remarks.is_empty() && container.external_file.is_some() => format!(
            "this remarks container only names the remarks file {}: pass that file, or the \
             object file it came from",
            container.external_file.as_deref().unwrap_or_default()
        ),
        _ => "this remarks stream has no string table".to_string(),
    };
    Failure::Unusable(what)
}

/// The remarks file a remarks section names: the path as recorded, else relative to the
/// object file, else the same file name beside the object file (for objects that moved).
fn locate(recorded: &str, object: Option<&Path>) -> Result<PathBuf, Failure> {
    let recorded = Path::new(recorded);
    let dir = object.and_then(Path::parent).unwrap_or(Path::new("."));
    let mut tried = vec![recorded.to_path_buf()];
    if recorded.is_relative() {
        tried.push(dir.join(recorded));
    }
    if let Some(name) = recorded.file_name() {
        tried.push(dir.join(name));
    }
    if let Some(found) = tried.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let tried: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(Failure::Unusable(format!(
        "the remarks file {} named by the object file is missing (tried {})",
        recorded.display(),
        tried.join(", ")
    )))
}

/// The remarks of the files that the remarks sections of an object file name.
fn from_object(path: Option<&Path>, bytes: &[u8]) -> Result<Vec<Remark>, Failure> {
    let mut all = Vec::new();
    for section in embedded::embedded_remarks(bytes)? {
        let stream = Bitstream::at_offset(&section.data, section.file_offset.unwrap_or(0))?;
        let meta = read(stream)?;
        let Some(recorded) = meta.external_file.as_deref() else {
            return Err(Failure::Unusable(format!("the {} section names no remarks file", section.section)));
        };
        let file = locate(recorded, path)?;
        let contents = std::fs::read(&file).map_err(|e| {
            Failure::Unusable(format!("cannot read the remarks file {}: {e}", file.display()))
        })?;
        // What goes wrong from here on is in the remarks file, and its messages name it.
        let in_file = |failure: Failure| Failure::InFile { file: file.clone(), failure: Box::new(failure) };
        let container = Bitstream::new(&contents).and_then(read).map_err(|e| in_file(e.into()))?;
        // LLVM 22's remarks files hold their own table; older ones use the section's.
        let strings =
            container.strings.or(meta.strings).ok_or_else(|| in_file(no_string_table(&container)))?;
        all.extend(container.resolve(strings).map_err(in_file)?);
    }
    Ok(all)
}

/// The remarks of a remarks file (its own string table), or of the remarks files an object
/// file's remarks sections name.
pub fn load(path: Option<&Path>, bytes: &[u8]) -> Result<Vec<Remark>, Failure> {
    if embedded::is_native_object(bytes) {
        return from_object(path, bytes);
    }
    let container = read(Bitstream::new(bytes)?)?;
    let strings = container.strings.ok_or_else(|| no_string_table(&container))?;
    container.resolve(strings)
}

/// `bcdump --remarks FILE`: the remarks of FILE as YAML.
pub fn write_file(path: Option<&Path>, bytes: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    if path.is_none() {
        return Err(Failure::Unusable("--remarks needs a FILE".into()));
    }
    let remarks = load(path, bytes)?;
    write_yaml(&remarks, out)?;
    Ok(())
}

/// Writes the remarks as YAML documents, the way LLVM's YAML remark serializer lays them out:
/// keys padded to 16 columns, locations as flow mappings, empty argument lists left out.
pub fn write_yaml(remarks: &[Remark], out: &mut impl Write) -> std::io::Result<()> {
    for r in remarks {
        writeln!(out, "--- !{}", r.kind)?;
        writeln!(out, "{}{}", key("Pass"), scalar(&r.pass))?;
        writeln!(out, "{}{}", key("Name"), scalar(&r.name))?;
        if let Some(loc) = &r.location {
            writeln!(out, "{}{}", key("DebugLoc"), flow(loc, VALUE_COLUMN))?;
        }
        writeln!(out, "{}{}", key("Function"), scalar(&r.function))?;
        if let Some(hotness) = r.hotness {
            writeln!(out, "{}{hotness}", key("Hotness"))?;
        }
        if !r.args.is_empty() {
            writeln!(out, "Args:")?;
            for a in &r.args {
                writeln!(out, "  - {}{}", key(&a.key), scalar(&a.value))?;
                if let Some(loc) = &a.location {
                    writeln!(out, "    {}{}", key("DebugLoc"), flow(loc, 4 + VALUE_COLUMN))?;
                }
            }
        }
        writeln!(out, "...")?;
    }
    Ok(())
}

/// The column (from 0) where a value after a short key starts.
const VALUE_COLUMN: usize = 17;
/// A flow mapping breaks its line before a key that would start past this column.
const WRAP_COLUMN: usize = 70;

/// `key:` and the padding that starts its value at [`VALUE_COLUMN`] (one space for long
/// keys).
fn key(name: &str) -> String {
    let pad = (VALUE_COLUMN - 1).saturating_sub(name.len()).max(1);
    format!("{name}:{:pad$}", "")
}

/// A location as a flow mapping whose `{` is at column `start`: when the line has run past
/// [`WRAP_COLUMN`], the next key goes on a new line, indented two past the brace (the
/// separator's space stays at the end of the broken line).
fn flow(loc: &Location, start: usize) -> String {
    let entries =
        [("File", scalar(&loc.file)), ("Line", loc.line.to_string()), ("Column", loc.column.to_string())];
    let mut text = String::from("{ ");
    let mut column = start + 2;
    for (i, (name, value)) in entries.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
            column += 2;
        }
        if column > WRAP_COLUMN {
            text.push('\n');
            text.push_str(&" ".repeat(start + 2));
            column = start + 2;
        }
        let entry = format!("{name}: {value}");
        column += entry.len();
        text.push_str(&entry);
    }
    text.push_str(" }");
    text
}

/// How a scalar must be quoted to read back as the same string.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quoting {
    Plain,
    Single,
    Double,
}

/// A string as a YAML scalar, quoted as LLVM's YAML writer quotes it: plain when that reads
/// back as the same string, single-quoted when it would read as something else (empty,
/// padded with spaces, a number, bool or null, starting with an indicator, holding characters
/// outside the safe set), double-quoted when it holds control characters (line breaks
/// included), DEL or non-ASCII text.
fn scalar(s: &str) -> String {
    match quoting(s) {
        Quoting::Plain => s.to_string(),
        Quoting::Single => format!("'{}'", s.replace('\'', "''")),
        Quoting::Double => double_quoted(s),
    }
}

fn quoting(s: &str) -> Quoting {
    let (Some(&first), Some(&last)) = (s.as_bytes().first(), s.as_bytes().last()) else {
        return Quoting::Single;
    };
    let mut needed = Quoting::Plain;
    let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    if is_space(first) || is_space(last) || is_null(s) || is_bool(s) || is_numeric(s) {
        needed = Quoting::Single;
    }
    if br#"-?:\,[]{}#&*!|>'"%@`"#.contains(&first) {
        needed = Quoting::Single;
    }
    for &b in s.as_bytes() {
        match b {
            b if b.is_ascii_alphanumeric() => {}
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => {}
            // Other control characters, DEL and non-ASCII text (LLVM's writer escapes
            // line breaks too).
            b if !(0x20..0x7f).contains(&b) => return Quoting::Double,
            _ => needed = needed.max(Quoting::Single),
        }
    }
    needed
}

/// YAML's null spellings.
fn is_null(s: &str) -> bool {
    matches!(s, "null" | "Null" | "NULL" | "~")
}

/// YAML 1.2's bool spellings.
fn is_bool(s: &str) -> bool {
    matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
}

/// True when YAML 1.2's core schema reads `s` as a number: `.nan`, an optionally signed
/// `.inf`, `0o` octal, `0x` hex, or an optionally signed decimal with an optional fraction
/// and exponent (`12`, `-3.`, `.5`, `1e9`).
fn is_numeric(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // Octal and hex take no sign.
    if let Some(digits) = s.strip_prefix("0o") {
        return !digits.is_empty() && digits.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    if let Some(digits) = s.strip_prefix("0x") {
        return !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let digits = |t: &str| t.bytes().take_while(u8::is_ascii_digit).count();
    let integer = digits(unsigned);
    let mut rest = &unsigned[integer..];
    let mut fraction = 0;
    if let Some(after_dot) = rest.strip_prefix('.') {
        fraction = digits(after_dot);
        rest = &after_dot[fraction..];
    } else if integer == 0 {
        return false;
    }
    if integer == 0 && fraction == 0 {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let Some(exponent) = rest.strip_prefix(['e', 'E']) else { return false };
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    !exponent.is_empty() && digits(exponent) == exponent.len()
}

/// A double-quoted scalar with YAML's escapes.
fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\0' => out.push_str("\\0"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            // DEL stays as it is, as in LLVM's output.
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
