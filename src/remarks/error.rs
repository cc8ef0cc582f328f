//! Why remarks could not be read.

use std::fmt;
use std::path::PathBuf;

/// Why remarks could not be read: a malformed bitstream, or a well-formed one that cannot
/// give remarks (no string table, a string index past it, a remarks file that is missing).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The bitstream is malformed, or a record does not decode (with its bit offset and
    /// block path).
    Bitstream(crate::Error),
    /// The remarks stream has no string table; the message says where it is instead (the
    /// object file compiled with it, or the remarks file it names).
    NoStringTable(String),
    /// A remark refers to a string that the string table does not have.
    StringIndex {
        /// The bit offset of the remark's `REMARK` block.
        bit_offset: u64,
        /// The index it uses.
        index: u32,
        /// How many strings the table has.
        strings: usize,
    },
    /// A `REMARK` block without its `REMARK_HEADER` record.
    NoHeader {
        /// The bit offset of the block.
        bit_offset: u64,
    },
    /// An object file's remarks section names no remarks file.
    NoExternalFile {
        /// The section (`__LLVM,__remarks`, `.remarks`).
        section: String,
    },
    /// The remarks file that an object file's remarks section names is not there.
    MissingFile {
        /// The path the section holds.
        recorded: PathBuf,
        /// Every path looked at.
        tried: Vec<PathBuf>,
    },
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// An error in another file read for the input: the remarks file an object file names.
    InFile {
        /// The file the error is in.
        file: PathBuf,
        /// The error.
        error: Box<Error>,
    },
}

impl Error {
    /// The error itself, inside any [`Error::InFile`].
    pub fn innermost(&self) -> &Error {
        match self {
            Error::InFile { error, .. } => error.innermost(),
            other => other,
        }
    }

    /// `self` as an error in `file`.
    #[cfg(feature = "object")]
    pub(super) fn in_file(self, file: &std::path::Path) -> Error {
        Error::InFile { file: file.to_path_buf(), error: Box::new(self) }
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Self {
        Error::Bitstream(e)
    }
}

impl fmt::Display for Error {
    /// The message; an [`Error::InFile`] starts with the file's name (`FILE: message`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bitstream(e) => write!(f, "{e}"),
            Error::NoStringTable(why) => f.write_str(why),
            Error::StringIndex { bit_offset, index, strings } => write!(
                f,
                "the remark at bit {bit_offset} refers to string {index}, but the string table has \
                 {strings} strings"
            ),
            Error::NoHeader { bit_offset } => {
                write!(f, "the remark at bit {bit_offset} has no header record")
            }
            Error::NoExternalFile { section } => write!(f, "the {section} section names no remarks file"),
            Error::MissingFile { recorded, tried } => {
                let tried: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "the remarks file {} named by the object file is missing (tried {})",
                    recorded.display(),
                    tried.join(", ")
                )
            }
            Error::Io { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            Error::InFile { file, error } => write!(f, "{}: {error}", file.display()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Bitstream(e) => Some(e),
            Error::Io { error, .. } => Some(error),
            Error::InFile { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}
