//! LLVM's optimization remarks in the bitstream format (`clang
//! -fsave-optimization-record=bitstream`, `opt -pass-remarks-format=bitstream`), and the
//! YAML that LLVM writes for the same remarks.
//!
//! Remark strings are indices into a string table, and where that table is depends on the
//! container: in the remarks file itself (LLVM 22's files, standalone files such as
//! `llvm-remarkutil yaml2bitstream` writes), or in the remarks section of the object file
//! compiled with it (clang before LLVM 22, on Darwin), which also names the remarks file.
//!
//! - [`read`]: a remarks file that holds its string table; [`read_with_strings`]: one whose
//!   table is elsewhere;
//! - [`load`]: a remarks file, or an object file whose remarks section names one (read from
//!   disk, as recorded or beside the object);
//! - [`Container`]: the container's metadata and the remarks before their strings are
//!   looked up;
//! - [`write_yaml`]: the remarks as YAML documents in LLVM's layout (equal to the compiler's
//!   `-fsave-optimization-record=yaml` file, byte for byte).
//!
//! ```
//! use std::path::Path;
//! use bitcode_schema::remarks::{self, RemarkType};
//!
//! // examples/data/inline.o: compiled by clang 19 for Darwin with bitstream remarks. Its
//! // __LLVM,__remarks section has the string table and names inline.o.opt.bitstream.
//! let object = Path::new("examples/data/inline.o");
//! let list = remarks::load(Some(object), &std::fs::read(object)?)?;
//! let inlined = &list[0];
//! assert_eq!((inlined.kind, inlined.pass.as_str()), (RemarkType::Passed, "inline"));
//! assert_eq!(inlined.name, "Inlined");
//! assert_eq!(inlined.function, "sum_squares");
//! assert_eq!(inlined.args[1].key, "Callee");
//! assert_eq!(inlined.args[1].value, "square");
//!
//! // The YAML equals what clang wrote with -fsave-optimization-record=yaml.
//! let yaml = std::fs::read_to_string("examples/data/inline.opt.yaml")?;
//! assert_eq!(remarks::to_yaml(&list), yaml);
//!
//! // A standalone file (string table first) holds the same remarks.
//! let standalone = remarks::read(&std::fs::read("examples/data/inline.opt.bitstream")?)?;
//! assert_eq!(standalone.len(), list.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Reading object files needs the `object` feature (on by default); without it [`load`]
//! reads remarks files only.

mod error;
pub mod schema;
mod yaml;

use std::fmt;
use std::path::Path;

use crate::runtime::decode::BasicContext;
use crate::{Bitstream, Entry, Magic};

pub use error::Error;
pub use yaml::{to_yaml, write_yaml};

use schema::{meta, remark};

/// A remark's kind; the YAML tag spells it (`--- !Passed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum RemarkType {
    /// `Unknown`: a remark of no known kind.
    Unknown,
    /// `Passed`: an optimization was applied.
    Passed,
    /// `Missed`: an optimization was not applied.
    Missed,
    /// `Analysis`: what an analysis found.
    Analysis,
    /// `AnalysisFPCommute`: an analysis about floating-point reassociation.
    AnalysisFPCommute,
    /// `AnalysisAliasing`: an analysis about aliasing.
    AnalysisAliasing,
    /// `Failure`: an optimization failed.
    Failure,
    /// A type code this crate does not know.
    Other(u64),
}

impl RemarkType {
    /// The type of a schema code.
    fn from_schema(t: schema::RemarkType) -> RemarkType {
        // By code: the schema's values, 0 to 6.
        match t.code() {
            0 => RemarkType::Unknown,
            1 => RemarkType::Passed,
            2 => RemarkType::Missed,
            3 => RemarkType::Analysis,
            4 => RemarkType::AnalysisFPCommute,
            5 => RemarkType::AnalysisAliasing,
            6 => RemarkType::Failure,
            code => RemarkType::Other(code),
        }
    }
}

impl fmt::Display for RemarkType {
    /// The YAML tag's name (`Passed`); `unknown(N)` for a code LLVM does not write.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            RemarkType::Unknown => "Unknown",
            RemarkType::Passed => "Passed",
            RemarkType::Missed => "Missed",
            RemarkType::Analysis => "Analysis",
            RemarkType::AnalysisFPCommute => "AnalysisFPCommute",
            RemarkType::AnalysisAliasing => "AnalysisAliasing",
            RemarkType::Failure => "Failure",
            RemarkType::Other(code) => return write!(f, "unknown({code})"),
        };
        f.write_str(name)
    }
}

/// A source location of a remark or of one of its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Location {
    /// The source file, as the compiler names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Column (0 where the compiler has none).
    pub column: u32,
}

/// A remark argument: a key and its value as text, with an optional location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Argument {
    /// The key (`String` for plain message text, else what the value is: `Callee`, `Cost`).
    pub key: String,
    /// The value.
    pub value: String,
    /// Where the value is defined, when the compiler says.
    pub location: Option<Location>,
}

/// One optimization remark with its strings resolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Remark {
    /// Passed, missed, analysis...
    pub kind: RemarkType,
    /// The pass that emitted it (`inline`, `loop-vectorize`).
    pub pass: String,
    /// The remark's name within the pass (`Inlined`).
    pub name: String,
    /// The function it is about.
    pub function: String,
    /// Where in the source.
    pub location: Option<Location>,
    /// The profile count of the code, with profile data.
    pub hotness: Option<u64>,
    /// The message, piece by piece: the values joined give the text.
    pub args: Vec<Argument>,
}

impl Remark {
    /// The message: the arguments' values joined (`'square' inlined into 'sum_squares'...`).
    pub fn message(&self) -> String {
        self.args.iter().map(|a| a.value.as_str()).collect()
    }
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

/// What a remarks bitstream holds: its metadata and its remarks, their strings still
/// string-table indices (see [`Container::resolve`]).
#[derive(Debug, Default)]
pub struct Container<'a> {
    /// The container format's version (0 before LLVM 22, 1 from LLVM 22 on).
    pub version: Option<u64>,
    /// The container type; its meaning depends on the version (schema/remarks.toml).
    pub container_type: Option<u32>,
    /// The string table: NUL-terminated strings.
    pub strings: Option<&'a [u8]>,
    /// The remarks file this container names (an object file's remarks section).
    pub external_file: Option<String>,
    remarks: Vec<IndexedRemark>,
}

impl<'a> Container<'a> {
    /// Reads the `META` and `REMARK` blocks of a remarks file's bytes (or a remarks
    /// section's).
    pub fn parse(bytes: &'a [u8]) -> crate::Result<Container<'a>> {
        Container::read(Bitstream::new(bytes)?)
    }

    /// Reads the `META` and `REMARK` blocks of a remarks stream.
    pub fn read(stream: Bitstream<'a>) -> crate::Result<Container<'a>> {
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
                            let kind = RemarkType::from_schema(h.r#type);
                            current.header = Some((kind, h.remark_name, h.pass_name, h.function_name))
                        }
                        remark::Record::RemarkDebugLoc(l) => {
                            current.location = Some((l.file, l.line, l.column))
                        }
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

    /// How many remarks the container holds.
    pub fn len(&self) -> usize {
        self.remarks.len()
    }

    /// True when the container holds no remarks (e.g. an object file's remarks section).
    pub fn is_empty(&self) -> bool {
        self.remarks.is_empty()
    }

    /// The remarks with their strings looked up in the container's own string table; an
    /// [`Error::NoStringTable`] that says where to look when it has none.
    pub fn remarks(&self) -> Result<Vec<Remark>, Error> {
        let strings = self.strings.ok_or_else(|| self.no_string_table())?;
        self.resolve(strings)
    }

    /// The remarks with their strings looked up in `strings` (a string-table blob, e.g. the
    /// [`strings`](Container::strings) of another container).
    pub fn resolve(&self, strings: &[u8]) -> Result<Vec<Remark>, Error> {
        let table = string_table(strings);
        let mut out = Vec::with_capacity(self.remarks.len());
        for r in &self.remarks {
            let text = |index: u32| {
                table.get(index as usize).cloned().ok_or(Error::StringIndex {
                    bit_offset: r.bit_offset,
                    index,
                    strings: table.len(),
                })
            };
            let location = |l: Option<IndexedLocation>| -> Result<Option<Location>, Error> {
                l.map(|(file, line, column)| Ok(Location { file: text(file)?, line, column })).transpose()
            };
            let Some((kind, name, pass, function)) = r.header else {
                return Err(Error::NoHeader { bit_offset: r.bit_offset });
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

    /// Why this container's remarks cannot be read on their own.
    fn no_string_table(&self) -> Error {
        let what = match (self.version, self.container_type) {
            (Some(0), Some(1)) => "this remarks file leaves its string table to the remarks section of the \
                                   object file compiled with it: pass that object file (e.g. the .o) instead"
                .to_string(),
            _ if self.remarks.is_empty() && self.external_file.is_some() => format!(
                "this remarks container only names the remarks file {}: pass that file, or the object file \
                 it came from",
                self.external_file.as_deref().unwrap_or_default()
            ),
            _ => "this remarks stream has no string table".to_string(),
        };
        Error::NoStringTable(what)
    }
}

/// The strings of a string table, by index.
fn string_table(blob: &[u8]) -> Vec<String> {
    let body = blob.strip_suffix(&[0]).unwrap_or(blob);
    if body.is_empty() && blob.len() <= 1 {
        return Vec::new();
    }
    body.split(|&b| b == 0).map(|s| String::from_utf8_lossy(s).into_owned()).collect()
}

/// Reads the remarks of a remarks file that holds its string table (a standalone file, an
/// LLVM 22 remarks file). A file whose table is in an object file gives an
/// [`Error::NoStringTable`] that says so: read it with [`load`] given the object, or with
/// [`read_with_strings`].
pub fn read(bytes: &[u8]) -> Result<Vec<Remark>, Error> {
    Container::parse(bytes)?.remarks()
}

/// Reads the remarks of a remarks file whose strings are in `strings`, a string table found
/// elsewhere (e.g. [`Container::strings`] of an object file's remarks section).
pub fn read_with_strings(bytes: &[u8], strings: &[u8]) -> Result<Vec<Remark>, Error> {
    Container::parse(bytes)?.resolve(strings)
}

/// The remarks of a remarks file with its own string table, or (with the `object` feature)
/// of the remarks files that the remarks sections of an object file name. `path` is where
/// `bytes` were read from: a remarks file named by an object is looked for as recorded,
/// else relative to the object's directory, else under the same file name beside the object
/// (for objects moved with their remarks files). Errors in such a remarks file come as
/// [`Error::InFile`].
pub fn load(path: Option<&Path>, bytes: &[u8]) -> Result<Vec<Remark>, Error> {
    #[cfg(feature = "object")]
    if crate::runtime::embedded::is_native_object(bytes) {
        return from_object(path, bytes);
    }
    let _ = path;
    read(bytes)
}

/// Reads the file at `path` with [`load`].
pub fn load_file(path: &Path) -> Result<Vec<Remark>, Error> {
    let bytes = std::fs::read(path).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
    load(Some(path), &bytes)
}

/// The remarks of the files that the remarks sections of an object file name.
#[cfg(feature = "object")]
fn from_object(path: Option<&Path>, bytes: &[u8]) -> Result<Vec<Remark>, Error> {
    let mut all = Vec::new();
    for section in crate::runtime::embedded::embedded_remarks(bytes)? {
        let stream = Bitstream::at_offset(&section.data, section.file_offset.unwrap_or(0))?;
        let meta = Container::read(stream)?;
        let Some(recorded) = meta.external_file.as_deref() else {
            return Err(Error::NoExternalFile { section: section.section });
        };
        let file = locate(recorded, path)?;
        let contents = std::fs::read(&file).map_err(|error| Error::Io { path: file.clone(), error })?;
        // What goes wrong from here on is in the remarks file.
        let container = Container::parse(&contents).map_err(|e| Error::from(e).in_file(&file))?;
        // LLVM 22's remarks files hold their own table; older ones use the section's.
        let strings =
            container.strings.or(meta.strings).ok_or_else(|| container.no_string_table().in_file(&file))?;
        all.extend(container.resolve(strings).map_err(|e| e.in_file(&file))?);
    }
    Ok(all)
}

/// The remarks file a remarks section names: the path as recorded, else relative to the
/// object file, else the same file name beside the object file.
#[cfg(feature = "object")]
fn locate(recorded: &str, object: Option<&Path>) -> Result<std::path::PathBuf, Error> {
    let recorded = Path::new(recorded);
    let dir = object.and_then(Path::parent).unwrap_or(Path::new("."));
    let mut tried = vec![recorded.to_path_buf()];
    if recorded.is_relative() {
        tried.push(dir.join(recorded));
    }
    if let Some(name) = recorded.file_name() {
        tried.push(dir.join(name));
    }
    match tried.iter().find(|p| p.is_file()) {
        Some(found) => Ok(found.clone()),
        None => Err(Error::MissingFile { recorded: recorded.to_path_buf(), tried }),
    }
}

#[cfg(test)]
mod tests;
