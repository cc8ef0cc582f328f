//! `--diagnostics`: clang's serialized diagnostics (a downstream format: its schema is
//! schemas/diagnostics.toml beside this file) printed the way clang prints them, without
//! colors or carets: `file:line:col: severity: message [-Wflag]`, each note on its own line
//! after its diagnostic, in clang's order.

use std::collections::HashMap;
use std::io::Write;

use bitcode_schema::runtime::decode::BasicContext;
use bitcode_schema::{Bitstream, Entry};

/// The types generated from the schema.
pub mod schema {
    bitcode_schema::schema!("examples/bcdump/schemas/diagnostics.toml");
}

use schema::{diag, Severity};

/// A source location (file id 0: none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The file's FILENAME id.
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A fix-it: replace the range with the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixIt {
    /// Start of the range.
    pub start: Location,
    /// End of the range.
    pub end: Location,
    /// The replacement.
    pub text: String,
}

/// One diagnostic with its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How severe.
    pub severity: Severity,
    /// Where.
    pub location: Location,
    /// The message.
    pub message: String,
    /// The warning option's DIAG_FLAG id (0: none).
    pub flag: u32,
    /// The CATEGORY id (0: none).
    pub category: u32,
    /// Highlighted ranges.
    pub ranges: Vec<(Location, Location)>,
    /// Fix-its.
    pub fixits: Vec<FixIt>,
    /// The notes attached to it.
    pub notes: Vec<Diagnostic>,
}

/// A file's diagnostics, with the tables they refer to.
#[derive(Debug, Default)]
pub struct Diagnostics {
    /// Top-level diagnostics, in order.
    pub list: Vec<Diagnostic>,
    /// File names by id.
    pub files: HashMap<u32, String>,
    /// Warning option names (without -W) by id.
    pub flags: HashMap<u32, String>,
    /// Category names by id.
    pub categories: HashMap<u32, String>,
}

fn location(file: u32, line: u32, column: u32) -> Location {
    Location { file, line, column }
}

/// Reads the diagnostics of a serialized-diagnostics stream.
pub fn read(stream: &Bitstream<'_>) -> bitcode_schema::Result<Diagnostics> {
    let stream = stream.expect(bitcode_schema::Magic::ClangDiagnostics)?;
    let mut out = Diagnostics::default();
    let mut open: Vec<Diagnostic> = Vec::new();
    let mut ctx = BasicContext::default();
    let mut cursor = stream.cursor();
    loop {
        let block = cursor.current_block();
        let Some(entry) = cursor.next_entry()? else { break };
        match entry {
            Entry::Block(h) if h.id == diag::ID => open.push(Diagnostic {
                severity: Severity::Ignored,
                location: Location::default(),
                message: String::new(),
                flag: 0,
                category: 0,
                ranges: Vec::new(),
                fixits: Vec::new(),
                notes: Vec::new(),
            }),
            Entry::EndBlock(id) if id == diag::ID => {
                if let Some(done) = open.pop() {
                    match open.last_mut() {
                        Some(parent) => parent.notes.push(done),
                        None => out.list.push(done),
                    }
                }
            }
            Entry::Record(record) if block == Some(diag::ID) => {
                let Some(current) = open.last_mut() else { continue };
                match diag::Record::decode(&record, &mut ctx)? {
                    diag::Record::Diagnostic(d) => {
                        current.severity = d.severity;
                        current.location = location(d.file, d.line, d.column);
                        current.message = d.message.to_string();
                        current.flag = d.flag;
                        current.category = d.category;
                    }
                    diag::Record::SourceRange(r) => current.ranges.push((
                        location(r.start_file, r.start_line, r.start_column),
                        location(r.end_file, r.end_line, r.end_column),
                    )),
                    diag::Record::Fixit(f) => current.fixits.push(FixIt {
                        start: location(f.start_file, f.start_line, f.start_column),
                        end: location(f.end_file, f.end_line, f.end_column),
                        text: f.text.to_string(),
                    }),
                    diag::Record::Filename(f) => _ = out.files.insert(f.id, f.name.to_string()),
                    diag::Record::DiagFlag(f) => _ = out.flags.insert(f.id, f.name.to_string()),
                    diag::Record::Category(c) => _ = out.categories.insert(c.id, c.name.to_string()),
                    diag::Record::Unknown(_) => {}
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

impl Diagnostics {
    /// The line clang prints for `d` (without colors, carets or source lines).
    pub fn line(&self, d: &Diagnostic) -> String {
        let mut line = String::new();
        if d.location.file != 0 {
            let file = self.files.get(&d.location.file).map_or("<unknown>", String::as_str);
            line += &format!("{file}:{}:{}: ", d.location.line, d.location.column);
        }
        line += &format!("{}: {}", d.severity, d.message);
        if let Some(flag) = self.flags.get(&d.flag).filter(|_| d.flag != 0) {
            let prefix = if d.severity == Severity::Remark { "-R" } else { "-W" };
            line += &format!(" [{prefix}{flag}]");
        }
        line
    }

    /// Every diagnostic's line, each followed by its notes', depth first.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        fn walk(all: &Diagnostics, d: &Diagnostic, out: &mut impl Write) -> std::io::Result<()> {
            writeln!(out, "{}", all.line(d))?;
            d.notes.iter().try_for_each(|n| walk(all, n, out))
        }
        self.list.iter().try_for_each(|d| walk(self, d, out))
    }
}

/// Prints the diagnostics of every stream.
pub fn write(stream: &Bitstream<'_>, out: &mut impl Write) -> Result<(), crate::Failure> {
    read(stream)?.write(out)?;
    Ok(())
}
