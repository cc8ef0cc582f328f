//! What a file is, by its magic number and content, and which bcdump mode reads it.

use bitcode_schema::runtime::bytecode::Bytecode;
use bitcode_schema::runtime::embedded;
use bitcode_schema::{Bitstream, Magic};

/// What kind of file an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// LLVM IR bitcode: bare, behind a wrapper header, or embedded in a native object.
    LlvmIr {
        /// Inside a native object file.
        embedded: bool,
        /// Behind the Darwin wrapper header.
        wrapper: bool,
    },
    /// Clang serialized diagnostics (`DIAG`).
    ClangDiagnostics,
    /// A clang AST file: a precompiled header or module (`CPCH`).
    ClangAst,
    /// LLVM optimization remarks in the bitstream format (`RMRK`).
    Remarks,
    /// A native object file without embedded bitcode.
    ObjectWithoutBitcode,
    /// A bitstream of another format, with its magic number.
    OtherBitstream([u8; 4]),
    /// Not a bitstream at all (too short, or not whole 32-bit words).
    NotBitstream,
}

/// The modes that read only some kinds of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--check`
    Check,
    /// `--symbols`
    Symbols,
    /// `--diagnostics`
    Diagnostics,
    /// `--remarks`
    Remarks,
    /// `--dis` (of bitcode; bytecode is told apart before)
    Dis,
}

impl Mode {
    /// The mode's option.
    pub fn option(self) -> &'static str {
        match self {
            Mode::Check => "--check",
            Mode::Symbols => "--symbols",
            Mode::Diagnostics => "--diagnostics",
            Mode::Remarks => "--remarks",
            Mode::Dis => "--dis",
        }
    }
}

/// Tells what `bytes` are.
pub fn identify(bytes: &[u8]) -> Kind {
    if let Ok(stream) = Bitstream::new(bytes) {
        let wrapper = stream.wrapper().is_some();
        match stream.magic() {
            Magic::LlvmIr => return Kind::LlvmIr { embedded: false, wrapper },
            Magic::ClangDiagnostics => return Kind::ClangDiagnostics,
            Magic::ClangAst => return Kind::ClangAst,
            Magic::Remarks => return Kind::Remarks,
            Magic::Other(_) if embedded::is_native_object(bytes) => {}
            Magic::Other(magic) => return Kind::OtherBitstream(magic),
        }
    }
    if embedded::is_native_object(bytes) {
        return match embedded::embedded_bitcode(bytes) {
            Ok(sections) if !sections.is_empty() => Kind::LlvmIr { embedded: true, wrapper: false },
            _ => Kind::ObjectWithoutBitcode,
        };
    }
    // A damaged stream is still told by its magic; the reader then says what is wrong.
    match bytes.get(..4).and_then(|m| <[u8; 4]>::try_from(m).ok()) {
        Some([0xde, 0xc0, 0x17, 0x0b]) => Kind::LlvmIr { embedded: false, wrapper: true },
        Some(magic) => match Magic::from_bytes(magic) {
            Magic::LlvmIr => Kind::LlvmIr { embedded: false, wrapper: false },
            Magic::ClangDiagnostics => Kind::ClangDiagnostics,
            Magic::ClangAst => Kind::ClangAst,
            Magic::Remarks => Kind::Remarks,
            Magic::Other(magic) if bytes.len().is_multiple_of(4) => Kind::OtherBitstream(magic),
            Magic::Other(_) => Kind::NotBitstream,
        },
        None => Kind::NotBitstream,
    }
}

/// True for LLVM 1.x bytecode (plain or compressed).
pub fn is_bytecode(bytes: &[u8]) -> bool {
    Bytecode::is_bytecode(bytes)
}

/// For LLVM 1.x bytecode given to a mode (`mode`, named as on the command line) that reads
/// bitstreams only: what the file is (its compression, revision and module size, or what
/// is wrong with its container) and what reads it. `None` when the mode reads bytecode.
pub fn bytecode_mismatch(bytes: &[u8], mode: Option<&str>) -> Option<String> {
    let mode = mode?;
    let what = match Bytecode::parse(bytes).and_then(|b| Ok((b.compression(), b.header()?))) {
        Ok((compression, header)) => format!(
            "this is LLVM 1.x bytecode ({}, revision {}: {}, a module of {} bytes)",
            compression.magic(),
            header.version.revision,
            header.version.releases(),
            header.size
        ),
        Err(e) => format!("this is LLVM 1.x bytecode, but {e}"),
    };
    Some(format!("{what}; {mode} reads bitstream files: bytecode has the dump and --check"))
}

/// A magic number as text where it is printable (`'DIAG'`), else in hex (`0x7f454c46`).
pub fn magic_text(magic: [u8; 4]) -> String {
    if magic.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("'{}'", String::from_utf8_lossy(&magic))
    } else {
        format!("0x{}", magic.iter().map(|b| format!("{b:02x}")).collect::<String>())
    }
}

impl Kind {
    /// The kind in words: "LLVM IR bitcode", "a clang serialized diagnostics file"...
    pub fn describe(self) -> String {
        match self {
            Kind::LlvmIr { embedded: true, .. } => {
                "a native object file with embedded LLVM IR bitcode".into()
            }
            Kind::LlvmIr { wrapper: true, .. } => "LLVM IR bitcode (behind a wrapper header)".into(),
            Kind::LlvmIr { .. } => "LLVM IR bitcode".into(),
            Kind::ClangDiagnostics => "a clang serialized diagnostics file".into(),
            Kind::ClangAst => "a clang AST file (precompiled header or module)".into(),
            Kind::Remarks => "an LLVM remarks file".into(),
            Kind::ObjectWithoutBitcode => "a native object file without embedded bitcode".into(),
            Kind::OtherBitstream(magic) => format!("a bitstream of magic {}", magic_text(magic)),
            Kind::NotBitstream => "not an LLVM bitstream".into(),
        }
    }

    /// The mode that reads this kind, if any beside the generic ones.
    pub fn reading_mode(self) -> Option<Mode> {
        match self {
            Kind::LlvmIr { .. } => Some(Mode::Check),
            Kind::ClangDiagnostics => Some(Mode::Diagnostics),
            Kind::Remarks => Some(Mode::Remarks),
            _ => None,
        }
    }

    /// Whether `mode` can read this kind (remarks also come from an object's remarks section).
    pub fn fits(self, mode: Mode) -> bool {
        match mode {
            Mode::Check | Mode::Symbols | Mode::Dis => matches!(self, Kind::LlvmIr { .. }),
            Mode::Diagnostics => self == Kind::ClangDiagnostics,
            Mode::Remarks => {
                matches!(
                    self,
                    Kind::Remarks | Kind::ObjectWithoutBitcode | Kind::LlvmIr { embedded: true, .. }
                )
            }
        }
    }

    /// The message when `mode` does not fit: what the file is, what `mode` wants, and which
    /// mode would read it.
    pub fn mismatch(self, mode: Mode) -> String {
        let wanted = match mode {
            Mode::Check | Mode::Symbols => "LLVM IR bitcode",
            Mode::Dis => "LLVM IR bitcode or LLVM 1.x bytecode",
            Mode::Diagnostics => "a clang serialized diagnostics file",
            Mode::Remarks => "an LLVM remarks file or an object file with a remarks section",
        };
        if self == Kind::NotBitstream {
            return format!("this is not an LLVM bitstream, not {wanted}");
        }
        let mut message = format!("this is {}, not {wanted}", self.describe());
        match self.reading_mode() {
            Some(m) => message += &format!("; read it with {}", m.option()),
            // No bitstream of its own: only its remarks section, if it has one, is readable.
            None if self == Kind::ObjectWithoutBitcode => {
                message += "; --remarks reads the remarks its remarks section names, if it has one"
            }
            None => message += "; the dump, --trace and --stats read any bitstream",
        }
        message
    }
}
