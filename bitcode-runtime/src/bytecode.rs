//! The container of LLVM 1.x bytecode (2003 to 2007): the magic, the compression, and the
//! format revision with its target flags at the start of the module block.
//!
//! A file starts with `llvm`, or with `llvc` and a byte naming how the rest was compressed
//! by LLVM's compressor (LLVM 1.4 and later): `0` not at all, `1` zlib, `2` bzip2. What a
//! compressed file holds is the module as an uncompressed file holds it after its magic,
//! so offsets into it are given as they would be in the uncompressed file.
//!
//! The module block follows: a 32-bit block id (1) and byte size, little-endian, then a
//! VBR holding the revision and flags: `(revision << 4) | flags` up to revision 6, with
//! bit 0 big-endian, bit 1 64-bit pointers, bit 2 "no endianness", bit 3 "no pointer
//! size"; revision 7 (2.0 development) writes the bare number 7 and no flags (7 read as
//! revision 0 would set big-endian and "no endianness" at once).

use std::borrow::Cow;
use std::io::Read;

use crate::bytes::ByteReader;
use crate::error::{Error, ErrorKind, Result};

/// The magic of an uncompressed file.
pub const MAGIC: [u8; 4] = *b"llvm";
/// The magic of a compressed file, followed by a byte naming the compression.
pub const COMPRESSED_MAGIC: [u8; 4] = *b"llvc";

/// The module block's id.
pub const MODULE_BLOCK_ID: u32 = 1;

/// How a file's module was stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Compression {
    /// `llvm`: uncompressed.
    None,
    /// `llvc0`: behind the compressed magic, but stored as it is.
    Stored,
    /// `llvc1`: a zlib stream.
    Zlib,
    /// `llvc2`: a bzip2 stream.
    Bzip2,
}

impl Compression {
    /// How the file spells it: `llvm`, `llvc0`, `llvc1` or `llvc2`.
    pub fn magic(self) -> &'static str {
        match self {
            Compression::None => "llvm",
            Compression::Stored => "llvc0",
            Compression::Zlib => "llvc1",
            Compression::Bzip2 => "llvc2",
        }
    }
}

/// The format revision and target flags of a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Version {
    /// The format revision: 0 (LLVM 1.0 and 1.1), 1 (1.2), 2 (unreleased), 3 (1.3), 4
    /// (unreleased), 5 (1.4 to 1.8), 6 (1.9), 7 (2.0 development).
    pub revision: u32,
    /// The target is big-endian.
    pub big_endian: bool,
    /// The target's pointers are 64 bits.
    pub long_pointers: bool,
    /// The module does not depend on the target's endianness.
    pub no_endianness: bool,
    /// The module does not depend on the target's pointer size.
    pub no_pointer_size: bool,
}

impl Version {
    /// The version a module's version VBR holds.
    pub fn from_vbr(value: u32) -> Version {
        if value == 7 {
            return Version {
                revision: 7,
                big_endian: false,
                long_pointers: false,
                no_endianness: false,
                no_pointer_size: false,
            };
        }
        Version {
            revision: value >> 4,
            big_endian: value & 1 != 0,
            long_pointers: value & 2 != 0,
            no_endianness: value & 4 != 0,
            no_pointer_size: value & 8 != 0,
        }
    }

    /// Whether block headers are two 32-bit words, id then size (revisions 0 to 2), rather
    /// than one word with the id in its low 5 bits and the size in the high 27.
    pub fn long_block_headers(&self) -> bool {
        self.revision <= 2
    }

    /// Whether the version and every block are padded to a multiple of 4 bytes (revisions
    /// 0 to 3; the writers padded with 0xAB). Revision 4 was never released and no file of
    /// it is known: it is read as revision 3 is.
    pub fn aligned(&self) -> bool {
        self.revision <= 4
    }

    /// The LLVM releases that wrote this revision.
    pub fn releases(&self) -> &'static str {
        match self.revision {
            0 => "LLVM 1.0-1.1",
            1 => "LLVM 1.2",
            3 => "LLVM 1.3",
            5 => "LLVM 1.4-1.8",
            6 => "LLVM 1.9",
            7 => "LLVM 2.0 development",
            _ => "an unreleased LLVM",
        }
    }
}

/// The most a compressed module may expand to unless the caller says otherwise (the
/// largest modules LLVM 1.x's tests hold are a few hundred KiB).
pub const DEFAULT_MAX_EXPANDED: u64 = 256 << 20;

/// A bytecode file's module: where it came from and its bytes.
#[derive(Clone, Debug)]
pub struct Bytecode<'a> {
    compression: Compression,
    /// The module's bytes: the file's after its magic, or what they expand to.
    module: Cow<'a, [u8]>,
}

impl<'a> Bytecode<'a> {
    /// True when `bytes` start as bytecode does (`llvm`, or `llvc` and a digit).
    pub fn is_bytecode(bytes: &[u8]) -> bool {
        match (bytes.get(..4), bytes.get(4)) {
            (Some(m), _) if m == MAGIC => true,
            (Some(m), Some(c)) if m == COMPRESSED_MAGIC => c.is_ascii_digit(),
            _ => false,
        }
    }

    /// Reads the magic and, for a compressed file, expands the module (at most
    /// [`DEFAULT_MAX_EXPANDED`] bytes).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BadBytecode`] when `bytes` are not bytecode, name an unknown
    /// compression, or do not expand.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        Self::parse_with_limit(bytes, DEFAULT_MAX_EXPANDED)
    }

    /// [`parse`](Self::parse), a compressed module expanding to at most `max_expanded` bytes.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse); a module that expands further is
    /// [`ErrorKind::LimitExceeded`].
    pub fn parse_with_limit(bytes: &'a [u8], max_expanded: u64) -> Result<Self> {
        let bad = |what: String, at: u64| Err(Error::at_byte(ErrorKind::BadBytecode(what), at));
        let magic = bytes.get(..4).unwrap_or(bytes);
        if magic == MAGIC {
            let module = Cow::Borrowed(bytes.get(4..).unwrap_or_default());
            return Ok(Bytecode { compression: Compression::None, module });
        }
        if magic != COMPRESSED_MAGIC {
            return bad(format!("{} is not a bytecode magic (llvm or llvc)", show(magic)), 0);
        }
        let rest = bytes.get(5..).unwrap_or_default();
        let (compression, module) = match bytes.get(4) {
            Some(b'0') => (Compression::Stored, Cow::Borrowed(rest)),
            Some(b'1') => {
                let expanded = expand(flate2::read::ZlibDecoder::new(rest), max_expanded, "zlib")?;
                (Compression::Zlib, Cow::Owned(expanded))
            }
            Some(b'2') => {
                let expanded = expand(bzip2::read::BzDecoder::new(rest), max_expanded, "bzip2")?;
                (Compression::Bzip2, Cow::Owned(expanded))
            }
            Some(&other) => return bad(format!("compression {} is not 0, 1 or 2", show(&[other])), 4),
            None => return bad("the file ends after llvc, before its compression byte".into(), 4),
        };
        Ok(Bytecode { compression, module })
    }

    /// How the module was stored.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The module's bytes, from its block header on, as an uncompressed file has them
    /// after its magic.
    pub fn module(&self) -> &[u8] {
        &self.module
    }

    /// A reader at the module block's header; its offsets are those of the uncompressed
    /// file (the magic counted).
    pub fn reader(&self) -> ByteReader<'_> {
        ByteReader::new(&self.module, MAGIC.len() as u64)
    }

    /// The blocks directly inside the module block, in order: after the version (padded
    /// to 4 bytes in revisions 0 to 3), each block's header and contents (padded likewise),
    /// up to the module block's end, which the last one must reach exactly.
    ///
    /// # Errors
    ///
    /// As [`header`](Self::header); also when a block runs past the module block.
    pub fn module_blocks(&self) -> Result<Vec<ByteBlock>> {
        let header = self.header()?;
        let mut module = self.reader();
        module.skip(8)?;
        let mut r = module.region(u64::from(header.size))?;
        r.vbr32()?;
        let mut blocks = Vec::new();
        loop {
            if header.version.aligned() {
                r.align32();
            }
            if r.is_empty() {
                return Ok(blocks);
            }
            let block = read_block_header(&mut r, &header.version)?;
            r.skip(u64::from(block.size))?;
            blocks.push(block);
        }
    }

    /// The module block's header and the version at its start.
    ///
    /// # Errors
    ///
    /// When the module block is not block 1, claims more bytes than the file has, or
    /// ends before its version.
    pub fn header(&self) -> Result<ModuleHeader> {
        let mut r = self.reader();
        let id = r.u32_le()?;
        if id != MODULE_BLOCK_ID {
            let what = format!("the module block has id {id}, not {MODULE_BLOCK_ID}");
            return Err(Error::at_byte(ErrorKind::BadBytecode(what), r.offset() - 4));
        }
        let size = r.u32_le()?;
        if u64::from(size) > r.remaining() as u64 {
            let what = format!("the module block claims {size} bytes, but {} follow", r.remaining());
            return Err(Error::at_byte(ErrorKind::BadBytecode(what), r.offset() - 4));
        }
        let version = Version::from_vbr(r.vbr32()?);
        Ok(ModuleHeader { size, version })
    }
}

/// The header of a block inside the module block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ByteBlock {
    /// The block id as written: in two-word headers (revisions 0 to 2) the numbering of
    /// that time, in packed ones the later one.
    pub id: u32,
    /// The block's size in bytes, after its header.
    pub size: u32,
    /// Where the header starts, in bytes from the start of the uncompressed file.
    pub offset: u64,
}

/// Reads a block header as `version` writes it, and checks that the block fits in what
/// `r` has left.
///
/// # Errors
///
/// When the header is cut short, or the block claims more bytes than are left.
pub fn read_block_header(r: &mut ByteReader<'_>, version: &Version) -> Result<ByteBlock> {
    let offset = r.offset();
    let (id, size) = if version.long_block_headers() {
        (r.u32_le()?, r.u32_le()?)
    } else {
        let word = r.u32_le()?;
        (word & 0x1f, word >> 5)
    };
    if u64::from(size) > r.remaining() as u64 {
        let what = format!("block {id} claims {size} bytes, but {} follow", r.remaining());
        return Err(Error::at_byte(ErrorKind::BadBytecode(what), offset));
    }
    Ok(ByteBlock { id, size, offset })
}

/// The start of the module block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ModuleHeader {
    /// The block's size in bytes, after its header.
    pub size: u32,
    /// The revision and flags.
    pub version: Version,
}

/// What `decoder` expands to, at most `max` bytes.
fn expand(decoder: impl Read, max: u64, what: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    // One byte past the limit tells a module at the limit from one beyond it.
    let read = decoder.take(max.saturating_add(1)).read_to_end(&mut out);
    if let Err(e) = read {
        let msg = format!("the {what} stream does not expand: {e}");
        return Err(Error::at_byte(ErrorKind::BadBytecode(msg), 5));
    }
    if out.len() as u64 > max {
        let kind = ErrorKind::LimitExceeded {
            what: "bytes of expanded module",
            count: out.len() as u64,
            limit: max,
        };
        return Err(Error::at_byte(kind, 5));
    }
    Ok(out)
}

/// Bytes as text when they are printable, else in hex.
fn show(bytes: &[u8]) -> String {
    if bytes.iter().all(|b| b.is_ascii_graphic()) {
        format!("{:?}", String::from_utf8_lossy(bytes))
    } else {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A module block as LLVM 1.x writes one: id 1, size, version VBR, then `body`.
    fn module(version: u8, body: &[u8]) -> Vec<u8> {
        let mut m = Vec::new();
        m.extend(MODULE_BLOCK_ID.to_le_bytes());
        m.extend((1 + body.len() as u32).to_le_bytes());
        m.push(version);
        m.extend(body);
        m
    }

    fn file(magic: &[u8], rest: &[u8]) -> Vec<u8> {
        [magic, rest].concat()
    }

    #[test]
    fn every_compression_gives_the_module_an_uncompressed_file_holds() {
        let m = module(0x5c, &[7; 300]);
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(&m).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(&m).unwrap();
        let files = [
            (file(b"llvm", &m), Compression::None),
            (file(b"llvc0", &m), Compression::Stored),
            (file(b"llvc1", &zlib.finish().unwrap()), Compression::Zlib),
            (file(b"llvc2", &bz.finish().unwrap()), Compression::Bzip2),
        ];
        for (bytes, compression) in files {
            assert!(Bytecode::is_bytecode(&bytes));
            let b = Bytecode::parse(&bytes).unwrap();
            assert_eq!(b.compression(), compression);
            assert_eq!(b.module(), m.as_slice(), "{}", compression.magic());
            let header = b.header().unwrap();
            assert_eq!(header.size, 301);
            let v = header.version;
            assert_eq!((v.revision, v.big_endian, v.long_pointers), (5, false, false));
            assert!(v.no_endianness && v.no_pointer_size);
            // Offsets are the uncompressed file's: the version VBR is at byte 12.
            assert_eq!(b.reader().offset(), 4);
        }
    }

    #[test]
    fn module_blocks_follow_the_revision_headers_and_padding() {
        // Revision 1: two-word headers, the version and each block padded with 0xAB.
        let mut old = vec![0x1c, 0xab, 0xab, 0xab];
        old.extend(0x15u32.to_le_bytes());
        old.extend(2u32.to_le_bytes());
        old.extend([9, 9, 0xab, 0xab]);
        old.extend(0x14u32.to_le_bytes());
        old.extend(0u32.to_le_bytes());
        // Revision 5: packed headers (id in the low 5 bits), no padding.
        let mut new = vec![0x5c];
        new.extend((6u32 | 3 << 5).to_le_bytes());
        new.extend([1, 2, 3]);
        new.extend((5u32 | 1 << 5).to_le_bytes());
        new.push(4);
        for (body, expected) in [(old, [(0x15, 2, 16), (0x14, 0, 28)]), (new, [(6, 3, 13), (5, 1, 20)])] {
            let mut m = MODULE_BLOCK_ID.to_le_bytes().to_vec();
            m.extend((body.len() as u32).to_le_bytes());
            m.extend(&body);
            let bytes = file(b"llvm", &m);
            let b = Bytecode::parse(&bytes).unwrap();
            let blocks: Vec<_> =
                b.module_blocks().unwrap().iter().map(|b| (b.id, b.size, b.offset)).collect();
            assert_eq!(blocks, expected);
            // The last block claims more bytes than the module block has left: the low
            // byte of its size word (two-word headers) or of its packed word.
            let mut long = m.clone();
            let at = 8 + body.len() - if b.header().unwrap().version.revision == 1 { 4 } else { 5 };
            long[at] = 0x7f;
            let e = Bytecode::parse(&file(b"llvm", &long)).unwrap().module_blocks().unwrap_err();
            assert!(e.to_string().contains("claims"), "{e}");
        }
    }

    #[test]
    fn the_version_vbr_holds_revision_and_flags_but_seven_is_revision_seven() {
        let v = Version::from_vbr(0x03);
        assert_eq!((v.revision, v.big_endian, v.long_pointers, v.no_endianness), (0, true, true, false));
        assert_eq!(Version::from_vbr(0x1c).revision, 1);
        assert_eq!(Version::from_vbr(0x6c).releases(), "LLVM 1.9");
        let seven = Version::from_vbr(7);
        assert_eq!(seven.revision, 7);
        assert!(!(seven.big_endian || seven.long_pointers || seven.no_endianness || seven.no_pointer_size));
    }

    #[test]
    fn broken_containers_are_clear_errors_at_their_byte() {
        let m = module(0x5c, &[1, 2, 3]);
        let at = |bytes: &[u8]| Bytecode::parse(bytes).map(|_| ()).unwrap_err();
        let e = at(b"BC\xc0\xde....");
        assert!(matches!(e.kind(), ErrorKind::BadBytecode(_)));
        assert_eq!(e.bit_offset(), 0);
        assert_eq!(at(b"llvc").bit_offset(), 32, "no compression byte");
        let e = at(&file(b"llvc9", &m));
        assert_eq!(e.to_string(), "bytecode: compression \"9\" is not 0, 1 or 2 (at byte 4, top level)");
        let e = at(&file(b"llvc2", &m));
        assert!(e.to_string().contains("bzip2 stream does not expand"), "{e}");
        let e = at(&file(b"llvc1", &m));
        assert!(e.to_string().contains("zlib stream does not expand"), "{e}");

        // A module that expands past the limit.
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        bz.write_all(&vec![0; 100_000]).unwrap();
        let bomb = file(b"llvc2", &bz.finish().unwrap());
        let e = Bytecode::parse_with_limit(&bomb, 1000).map(|_| ()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LimitExceeded { limit: 1000, .. }), "{e}");
        assert!(Bytecode::parse_with_limit(&bomb, 100_000).is_ok());

        // Module block headers that do not hold.
        let header = |bytes: &[u8]| Bytecode::parse(bytes).unwrap().header().unwrap_err();
        let mut wrong_id = file(b"llvm", &m);
        wrong_id[4] = 2;
        assert_eq!(
            header(&wrong_id).to_string(),
            "bytecode: the module block has id 2, not 1 (at byte 4, top level)"
        );
        let mut too_long = file(b"llvm", &m);
        too_long[8] = 200;
        assert_eq!(
            header(&too_long).to_string(),
            "bytecode: the module block claims 200 bytes, but 4 follow (at byte 8, top level)"
        );
        assert!(matches!(header(b"llvm\x01\0\0").kind(), ErrorKind::BytesTruncated { .. }));
    }
}
