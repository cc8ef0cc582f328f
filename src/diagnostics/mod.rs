//! Clang's serialized diagnostics (`clang --serialize-diagnostics FILE.dia`): the
//! diagnostics of a compilation with their notes, source ranges and fix-its, and the text
//! clang prints for them.
//!
//! [`read`] gives the top-level diagnostics of a `.dia` file in clang's order, each with its
//! notes; file names, warning flags and categories (numbered tables in the file) are
//! resolved. A [`Diagnostic`] displays as clang prints it without colors, carets and source
//! lines: `file:line:col: severity: message [-Wflag]`; [`write_text`] writes every
//! diagnostic and, after each, its notes.
//!
//! ```
//! use bitcode_schema::diagnostics::{self, Severity};
//!
//! // examples/data/warnings.dia: clang 19's diagnostics of examples/data/warnings.c.
//! let dia = std::fs::read("examples/data/warnings.dia")?;
//! let list = diagnostics::read(&dia)?;
//! let first = &list[0];
//! assert_eq!(first.severity, Severity::Warning);
//! assert_eq!(first.flag.as_deref(), Some("parentheses"));
//! assert_eq!(
//!     first.to_string(),
//!     "warnings.c:7:9: warning: using the result of an assignment as a condition \
//!      without parentheses [-Wparentheses]"
//! );
//! // Its notes suggest fix-its: parentheses around the assignment, or `==`.
//! assert_eq!(first.notes.len(), 2);
//! assert_eq!(first.notes[1].fixits[0].text, "==");
//!
//! // The whole text equals the lines clang printed (examples/data/warnings.stderr) that
//! // have a location: the source lines, carets and the summary are not in the file.
//! let clang = std::fs::read_to_string("examples/data/warnings.stderr")?;
//! let located: String =
//!     clang.lines().filter(|l| l.starts_with("warnings.c:")).map(|l| format!("{l}\n")).collect();
//! assert_eq!(diagnostics::text(&list), located);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Two things clang prints are not in the file: `-Werror,` in the flag of a warning made an
//! error (clang prints `[-Werror,-Wunused-variable]`, this module `[-Wunused-variable]`),
//! and the pass name after a backend remark's flag (clang prints `[-Rpass=inline]`, the
//! file holds `pass`, printed `[-Rpass]`).

pub mod schema;

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};

use crate::runtime::decode::BasicContext;
use crate::{Bitstream, Entry, Error, ErrorKind, Magic, Result};

use schema::diag;

/// How severe a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Severity {
    /// A diagnostic that is turned off (clang does not serialize these).
    Ignored,
    /// A note attached to another diagnostic.
    Note,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A fatal error: the compilation stopped there.
    Fatal,
    /// A remark (`-R` options).
    Remark,
    /// A severity code this crate does not know.
    Unknown(u64),
}

impl Severity {
    /// The severity of a schema code.
    fn from_schema(s: schema::Severity) -> Severity {
        match s {
            schema::Severity::Ignored => Severity::Ignored,
            schema::Severity::Note => Severity::Note,
            schema::Severity::Warning => Severity::Warning,
            schema::Severity::Error => Severity::Error,
            schema::Severity::Fatal => Severity::Fatal,
            schema::Severity::Remark => Severity::Remark,
            other => Severity::Unknown(other.code()),
        }
    }
}

impl fmt::Display for Severity {
    /// As clang prints it: `note`, `warning`, `error`, `fatal error`, `remark` (`ignored`,
    /// and `unknown(N)` for a code clang does not write).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Severity::Ignored => f.write_str("ignored"),
            Severity::Note => f.write_str("note"),
            Severity::Warning => f.write_str("warning"),
            Severity::Error => f.write_str("error"),
            Severity::Fatal => f.write_str("fatal error"),
            Severity::Remark => f.write_str("remark"),
            Severity::Unknown(code) => write!(f, "unknown({code})"),
        }
    }
}

/// A source location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Location {
    /// The file's name, as clang was given it (relative paths stay relative).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// Byte offset of the location in its file.
    pub offset: u32,
}

impl fmt::Display for Location {
    /// `file:line:col`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A source range, from its first character to its end (both as clang wrote them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Range {
    /// Where the range starts.
    pub start: Location,
    /// Where it ends.
    pub end: Location,
}

/// A fix-it: replace the range with the text (an empty range inserts it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FixIt {
    /// What to replace.
    pub range: Range,
    /// The replacement.
    pub text: String,
}

/// One diagnostic with its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostic {
    /// How severe it is.
    pub severity: Severity,
    /// Where it is (`None` for a diagnostic without a location, e.g. about the command line).
    pub location: Option<Location>,
    /// The message.
    pub message: String,
    /// The option that controls it, without its `-W` or `-R` (`unused-variable`).
    pub flag: Option<String>,
    /// Its category (`Semantic Issue`, `Parse Issue`...).
    pub category: Option<String>,
    /// The source ranges it highlights.
    pub ranges: Vec<Range>,
    /// The fix-its it suggests.
    pub fixits: Vec<FixIt>,
    /// The notes attached to it, in order.
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// An empty diagnostic, filled in by its records.
    fn new() -> Diagnostic {
        Diagnostic {
            severity: Severity::Ignored,
            location: None,
            message: String::new(),
            flag: None,
            category: None,
            ranges: Vec::new(),
            fixits: Vec::new(),
            notes: Vec::new(),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// The line clang prints (without colors, carets or source lines):
    /// `file:line:col: severity: message [-Wflag]` (`[-Rflag]` for a remark); the location
    /// and the flag are left out where there are none. The notes are not part of it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = &self.location {
            write!(f, "{location}: ")?;
        }
        write!(f, "{}: {}", self.severity, self.message)?;
        if let Some(flag) = &self.flag {
            let prefix = if self.severity == Severity::Remark { "-R" } else { "-W" };
            write!(f, " [{prefix}{flag}]")?;
        }
        Ok(())
    }
}

/// Reads the diagnostics of a serialized-diagnostics file (its bytes, starting with `DIAG`).
///
/// The top-level diagnostics come in the file's order, which is clang's, each with its
/// notes. Errors: a stream that is not serialized diagnostics, a malformed bitstream, a
/// record that does not decode, or a file, flag or category id that no record names (each
/// with its bit offset and block path).
pub fn read(bytes: &[u8]) -> Result<Vec<Diagnostic>> {
    read_stream(&Bitstream::new(bytes)?)
}

/// Reads the diagnostics of a serialized-diagnostics stream found otherwise (e.g. by
/// [`Input::streams`](crate::Input::streams)); as [`read`].
pub fn read_stream(stream: &Bitstream<'_>) -> Result<Vec<Diagnostic>> {
    let stream = (*stream).expect(Magic::ClangDiagnostics)?;
    let mut out = Vec::new();
    let mut open: Vec<Diagnostic> = Vec::new();
    let mut tables = Tables::default();
    let mut ctx = BasicContext::default();
    let mut cursor = stream.cursor();
    loop {
        let block = cursor.current_block();
        let Some(entry) = cursor.next_entry()? else { break };
        match entry {
            Entry::Block(h) if h.id == diag::ID => open.push(Diagnostic::new()),
            Entry::EndBlock(id) if id == diag::ID => {
                if let Some(done) = open.pop() {
                    match open.last_mut() {
                        Some(parent) => parent.notes.push(done),
                        None => out.push(done),
                    }
                }
            }
            Entry::Record(record) if block == Some(diag::ID) => {
                let at = record.bit_offset;
                let decoded = diag::Record::decode(&record, &mut ctx)?;
                if let Err(what) = tables.apply(decoded, open.last_mut()) {
                    return Err(cursor.with_block_path(Error::new(ErrorKind::Invalid(what), at)));
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The numbered tables of a file, filled as their records come (before their first use).
#[derive(Default)]
struct Tables {
    files: HashMap<u32, String>,
    flags: HashMap<u32, String>,
    categories: HashMap<u32, String>,
}

impl Tables {
    /// Adds a table record, or a diagnostic's record to `current`; the message of an id
    /// that no record has named.
    fn apply(&mut self, record: diag::Record<'_>, current: Option<&mut Diagnostic>) -> Result<(), String> {
        match record {
            diag::Record::Filename(f) => _ = self.files.insert(f.id, f.name.to_string()),
            diag::Record::DiagFlag(f) => _ = self.flags.insert(f.id, f.name.to_string()),
            diag::Record::Category(c) => _ = self.categories.insert(c.id, c.name.to_string()),
            diag::Record::Diagnostic(d) => {
                let Some(current) = current else { return Ok(()) };
                current.severity = Severity::from_schema(d.severity);
                current.location = match d.file {
                    0 => None,
                    file => Some(self.location(file, d.line, d.column, d.offset)?),
                };
                current.message = d.message.to_string();
                current.flag = name(&self.flags, d.flag, "warning flag")?;
                current.category = name(&self.categories, d.category, "category")?;
            }
            diag::Record::SourceRange(r) => {
                let Some(current) = current else { return Ok(()) };
                current.ranges.push(Range {
                    start: self.location(r.start_file, r.start_line, r.start_column, r.start_offset)?,
                    end: self.location(r.end_file, r.end_line, r.end_column, r.end_offset)?,
                });
            }
            diag::Record::Fixit(f) => {
                let Some(current) = current else { return Ok(()) };
                let range = Range {
                    start: self.location(f.start_file, f.start_line, f.start_column, f.start_offset)?,
                    end: self.location(f.end_file, f.end_line, f.end_column, f.end_offset)?,
                };
                current.fixits.push(FixIt { range, text: f.text.to_string() });
            }
            diag::Record::Unknown(_) => {}
        }
        Ok(())
    }

    fn location(&self, file: u32, line: u32, column: u32, offset: u32) -> Result<Location, String> {
        let file = name(&self.files, file, "file")?.unwrap_or_default();
        Ok(Location { file, line, column, offset })
    }
}

/// The name of table id `id` (0: none).
fn name(table: &HashMap<u32, String>, id: u32, what: &str) -> Result<Option<String>, String> {
    match id {
        0 => Ok(None),
        id => {
            table.get(&id).cloned().map(Some).ok_or_else(|| format!("{what} id {id} is named by no record"))
        }
    }
}

/// Writes every diagnostic's line ([`Diagnostic`]'s `Display`), each followed by its notes'
/// lines, depth first: what `clang` prints, without colors, carets, source lines and the
/// closing count (`2 warnings generated.`).
pub fn write_text(diagnostics: &[Diagnostic], out: &mut impl Write) -> io::Result<()> {
    for d in diagnostics {
        writeln!(out, "{d}")?;
        write_text(&d.notes, out)?;
    }
    Ok(())
}

/// The text [`write_text`] writes, as a string.
pub fn text(diagnostics: &[Diagnostic]) -> String {
    let mut out = Vec::new();
    // Writing to a Vec does not fail, and the lines are UTF-8.
    let _ = write_text(diagnostics, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
