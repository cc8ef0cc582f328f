//! The container around a bitstream: the 4-byte magic and the bitcode wrapper header.

use std::fmt;

use crate::cursor::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;

/// The magic number of the bitcode wrapper header (stored little-endian).
pub const WRAPPER_MAGIC: u32 = 0x0B17_C0DE;

/// The size of the bitcode wrapper header in bytes.
pub const WRAPPER_HEADER_LEN: usize = 20;

/// The first four bytes of a bitstream, which say what format it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Magic {
    /// LLVM IR bitcode: 'B', 'C', 0xC0DE.
    LlvmIr,
    /// Clang serialized diagnostics: "DIAG".
    ClangDiagnostics,
    /// Clang precompiled headers and modules (AST files): "CPCH".
    ClangAst,
    /// LLVM optimization remarks: "RMRK".
    Remarks,
    /// Any other four bytes; the stream is read generically.
    Other([u8; 4]),
}

impl Magic {
    /// The format the four bytes name.
    pub fn from_bytes(bytes: [u8; 4]) -> Magic {
        match &bytes {
            [0x42, 0x43, 0xC0, 0xDE] => Magic::LlvmIr,
            b"DIAG" => Magic::ClangDiagnostics,
            b"CPCH" => Magic::ClangAst,
            b"RMRK" => Magic::Remarks,
            _ => Magic::Other(bytes),
        }
    }

    /// The four bytes as they appear at the start of the stream.
    pub fn bytes(self) -> [u8; 4] {
        match self {
            Magic::LlvmIr => [0x42, 0x43, 0xC0, 0xDE],
            Magic::ClangDiagnostics => *b"DIAG",
            Magic::ClangAst => *b"CPCH",
            Magic::Remarks => *b"RMRK",
            Magic::Other(b) => b,
        }
    }
}

impl fmt::Display for Magic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Magic::LlvmIr => write!(f, "LLVM IR bitcode"),
            Magic::ClangDiagnostics => write!(f, "clang serialized diagnostics"),
            Magic::ClangAst => write!(f, "clang AST file"),
            Magic::Remarks => write!(f, "LLVM remarks"),
            Magic::Other(b) => {
                write!(f, "unknown format (magic {:02x} {:02x} {:02x} {:02x})", b[0], b[1], b[2], b[3])
            }
        }
    }
}

/// The bitcode wrapper header (Darwin's and others'): five little-endian 32-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WrapperHeader {
    /// Header version (0 so far).
    pub version: u32,
    /// Byte offset of the bitstream in the file.
    pub offset: u32,
    /// Byte length of the bitstream.
    pub size: u32,
    /// The target's Mach-O CPU type.
    pub cpu_type: u32,
}

/// One bitstream: its bytes (magic first), its magic, and where it sits in the caller's
/// input, so that every error gives an absolute bit offset.
#[derive(Clone, Copy, Debug)]
pub struct Bitstream<'a> {
    data: &'a [u8],
    file_offset: u64,
    magic: Magic,
    wrapper: Option<WrapperHeader>,
    limits: Limits,
}

fn le32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at + 4)?.first_chunk::<4>().map(|b| u32::from_le_bytes(*b))
}

impl<'a> Bitstream<'a> {
    /// Opens the bitstream in `input`, looking through a bitcode wrapper header.
    pub fn new(input: &'a [u8]) -> Result<Self> {
        Self::at_offset(input, 0)
    }

    /// Like [`Bitstream::new`] for bytes that start at byte `file_offset` of a larger file
    /// (an object-file section, say); error offsets count from the file's start.
    ///
    /// As in LLVM's readers, the input must be whole 32-bit words (behind a wrapper header
    /// the stream itself need not be); an input of fewer than 4 bytes is truncated.
    pub fn at_offset(input: &'a [u8], file_offset: u64) -> Result<Self> {
        let base_bit = file_offset * 8;
        if input.len() >= 4 && !input.len().is_multiple_of(4) {
            let kind = ErrorKind::LengthNotWords { len: input.len() };
            return Err(Error::new(kind, base_bit + input.len() as u64 / 4 * 32));
        }
        if le32(input, 0) == Some(WRAPPER_MAGIC) {
            let field = |i: usize| le32(input, 4 * i);
            let (Some(version), Some(offset), Some(size), Some(cpu_type)) =
                (field(1), field(2), field(3), field(4))
            else {
                return Err(Error::new(ErrorKind::WrapperTooShort { len: input.len() }, base_bit));
            };
            let end = offset as u64 + size as u64;
            let Some(data) = input.get(offset as usize..).and_then(|rest| rest.get(..size as usize)) else {
                let kind = ErrorKind::WrapperOutOfRange { offset, size, len: input.len() };
                return Err(Error::new(kind, base_bit + 64));
            };
            debug_assert!(end <= input.len() as u64);
            let header = WrapperHeader { version, offset, size, cpu_type };
            let mut stream = Self::plain(data, file_offset + offset as u64)?;
            stream.wrapper = Some(header);
            return Ok(stream);
        }
        Self::plain(input, file_offset)
    }

    fn plain(data: &'a [u8], file_offset: u64) -> Result<Self> {
        let Some(magic) = data.first_chunk::<4>() else {
            let kind = ErrorKind::Truncated { needed: 32, left: data.len() as u64 * 8 };
            return Err(Error::new(kind, file_offset * 8));
        };
        Ok(Bitstream {
            data,
            file_offset,
            magic: Magic::from_bytes(*magic),
            wrapper: None,
            limits: Limits::default(),
        })
    }

    /// Fails with [`ErrorKind::BadMagic`] unless the stream carries `expected`.
    pub fn expect(self, expected: Magic) -> Result<Self> {
        // Compare bytes: `Magic::Other(*b"RMRK")` and `Magic::Remarks` are the same magic.
        if self.magic.bytes() == expected.bytes() {
            Ok(self)
        } else {
            let kind = ErrorKind::BadMagic { found: self.magic.bytes(), expected: expected.bytes() };
            Err(Error::new(kind, self.file_offset * 8))
        }
    }

    /// The format the magic names.
    pub fn magic(&self) -> Magic {
        self.magic
    }

    /// The wrapper header, when the stream had one.
    pub fn wrapper(&self) -> Option<&WrapperHeader> {
        self.wrapper.as_ref()
    }

    /// The stream's bytes, magic included.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Byte offset of the stream (its magic) in the caller's input.
    pub fn file_offset(&self) -> u64 {
        self.file_offset
    }

    /// The stream with `limits` for every cursor made from it (and so for every reader
    /// built on those, typed decoders and LLVM walks included).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits its cursors get ([`Limits::default`] unless set).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A cursor at the first entry after the magic, with the stream's limits.
    pub fn cursor(&self) -> Cursor<'a> {
        let mut cursor = Cursor::new(self.data, 32, self.file_offset * 8);
        cursor.set_limits(self.limits);
        cursor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_names() {
        assert_eq!(Magic::from_bytes([0x42, 0x43, 0xC0, 0xDE]), Magic::LlvmIr);
        assert_eq!(Magic::from_bytes(*b"DIAG"), Magic::ClangDiagnostics);
        assert_eq!(Magic::from_bytes(*b"CPCH"), Magic::ClangAst);
        assert_eq!(Magic::from_bytes(*b"RMRK"), Magic::Remarks);
        assert_eq!(Magic::from_bytes(*b"ABCD"), Magic::Other(*b"ABCD"));
        for m in [Magic::LlvmIr, Magic::Remarks, Magic::Other(*b"xyzw")] {
            assert_eq!(Magic::from_bytes(m.bytes()), m);
        }
    }

    fn wrapper(offset: u32, size: u32, body: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        for w in [WRAPPER_MAGIC, 0, offset, size, 7] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn wrapper_header_is_looked_through() {
        let file = wrapper(20, 4, b"BC\xC0\xDE\0\0\0\0");
        let s = Bitstream::new(&file).unwrap();
        assert_eq!(s.magic(), Magic::LlvmIr);
        assert_eq!(s.data().len(), 4);
        assert_eq!(s.file_offset(), 20);
        assert_eq!(s.wrapper().unwrap().cpu_type, 7);
    }

    #[test]
    fn wrapper_out_of_range_and_short_are_errors() {
        let file = wrapper(20, 100, b"BC\xC0\xDE");
        let e = Bitstream::new(&file).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::WrapperOutOfRange { offset: 20, size: 100, len: 24 });
        assert_eq!(e.bit_offset(), 64);
        let file = wrapper(u32::MAX, 8, b"BC\xC0\xDE");
        assert!(matches!(Bitstream::new(&file).unwrap_err().kind(), ErrorKind::WrapperOutOfRange { .. }));
        let short = &wrapper(20, 4, b"")[..12];
        assert_eq!(Bitstream::new(short).unwrap_err().kind(), &ErrorKind::WrapperTooShort { len: 12 });
    }

    #[test]
    fn short_input_and_expected_magic() {
        let e = Bitstream::new(b"BC").unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::Truncated { needed: 32, left: 16 });
        let s = Bitstream::new(b"DIAG").unwrap();
        let e = s.expect(Magic::LlvmIr).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadMagic { found, .. } if found == b"DIAG"));
        assert!(s.expect(Magic::ClangDiagnostics).is_ok());
        assert!(s.expect(Magic::Other(*b"DIAG")).is_ok(), "the same four bytes, however named");
    }
}
