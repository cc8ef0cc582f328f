//! Bitcode embedded in native objects: ELF and COFF `.llvmbc` / `.llvm.lto` sections,
//! Mach-O `__LLVM,__bitcode`, and universal (fat) Mach-O files whose members are such
//! objects or bitcode files themselves. Read with the `object` crate.

use std::borrow::Cow;

use object::read::macho::{FatArch, MachOFatFile32, MachOFatFile64};
use object::{FileKind, Object, ObjectSection};

use crate::error::{Error, ErrorKind, Result};

/// One section of a native object that holds a bitstream.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EmbeddedBitcode<'a> {
    /// Where the bitstream is: the section's name (`.llvmbc`, `.llvm.lto`,
    /// `__LLVM,__bitcode`; `.remarks`, `__LLVM,__remarks` from [`embedded_remarks`]),
    /// prefixed with `member N: ` inside a universal binary; or `member N` for a universal
    /// member that is a bitcode file itself.
    pub section: String,
    /// The section's bytes (owned only when the section was compressed).
    pub data: Cow<'a, [u8]>,
    /// Byte offset of the section in the input file, when the bytes are stored there as
    /// they are (not for compressed sections).
    pub file_offset: Option<u64>,
}

/// True when `bytes` start like a native object or universal binary this module reads.
pub fn is_native_object(bytes: &[u8]) -> bool {
    matches!(
        FileKind::parse(bytes),
        Ok(FileKind::Elf32
            | FileKind::Elf64
            | FileKind::Coff
            | FileKind::CoffBig
            | FileKind::MachO32
            | FileKind::MachO64
            | FileKind::MachOFat32
            | FileKind::MachOFat64)
    )
}

/// What sections to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wanted {
    /// `.llvmbc`, `.llvm.lto`, `__LLVM,__bitcode`.
    Bitcode,
    /// `.remarks`, `__LLVM,__remarks`: the remarks' metadata (string table, external file).
    Remarks,
}

impl Wanted {
    /// The section's full name when it is one of these.
    fn matches(self, segment: Option<&str>, name: &str) -> Option<String> {
        match (self, segment, name) {
            (Wanted::Bitcode, Some("__LLVM"), "__bitcode") => Some("__LLVM,__bitcode".into()),
            (Wanted::Bitcode, _, ".llvmbc" | ".llvm.lto") => Some(name.into()),
            (Wanted::Remarks, Some("__LLVM"), "__remarks") => Some("__LLVM,__remarks".into()),
            (Wanted::Remarks, _, ".remarks") => Some(name.into()),
            _ => None,
        }
    }
}

/// The remarks sections of the object in `file` (`.remarks`, `__LLVM,__remarks`): bitstreams
/// whose META block holds the string table of a separate remarks file and its path. An
/// object without one is an error.
pub fn embedded_remarks(file: &[u8]) -> Result<Vec<EmbeddedBitcode<'_>>> {
    find(file, Wanted::Remarks)
}

/// Every bitcode section of the object in `file`, in section order (for a universal
/// binary, architecture by architecture). An object without one is an error.
pub fn embedded_bitcode(file: &[u8]) -> Result<Vec<EmbeddedBitcode<'_>>> {
    find(file, Wanted::Bitcode)
}

fn find(file: &[u8], wanted: Wanted) -> Result<Vec<EmbeddedBitcode<'_>>> {
    let mut found = Vec::new();
    match FileKind::parse(file).map_err(object_error)? {
        FileKind::MachOFat32 => {
            let fat = MachOFatFile32::parse(file).map_err(object_error)?;
            for (i, arch) in fat.arches().iter().enumerate() {
                collect_member(file, arch, i, wanted, &mut found)?;
            }
        }
        FileKind::MachOFat64 => {
            let fat = MachOFatFile64::parse(file).map_err(object_error)?;
            for (i, arch) in fat.arches().iter().enumerate() {
                collect_member(file, arch, i, wanted, &mut found)?;
            }
        }
        _ => collect(file, 0, "", wanted, &mut found)?,
    }
    if found.is_empty() {
        let names = match wanted {
            Wanted::Bitcode => "no .llvmbc, .llvm.lto or __LLVM,__bitcode section",
            Wanted::Remarks => "no .remarks or __LLVM,__remarks section",
        };
        return Err(Error::new(ErrorKind::Object(names.into()), 0));
    }
    Ok(found)
}

/// Adds member `index` of a universal binary: a bitcode file as it is, or an object's
/// bitcode sections.
fn collect_member<'a>(
    file: &'a [u8],
    arch: &impl FatArch,
    index: usize,
    wanted: Wanted,
    found: &mut Vec<EmbeddedBitcode<'a>>,
) -> Result<()> {
    let data = arch.data(file).map_err(object_error)?;
    let offset = offset_in(file, data).unwrap_or(0);
    let is_bitcode =
        matches!(data.first_chunk::<4>(), Some([0xDE, 0xC0, 0x17, 0x0B] | [0x42, 0x43, 0xC0, 0xDE]));
    if is_bitcode {
        if wanted != Wanted::Bitcode {
            return Ok(());
        }
        let section = format!("member {index}");
        found.push(EmbeddedBitcode { section, data: Cow::Borrowed(data), file_offset: Some(offset) });
        return Ok(());
    }
    collect(data, offset, &format!("member {index}: "), wanted, found)
}

/// Adds the bitcode sections of the single object `bytes`, which starts at byte `base` of
/// the caller's file; `prefix` goes before each section name.
fn collect<'a>(
    bytes: &'a [u8],
    base: u64,
    prefix: &str,
    wanted: Wanted,
    found: &mut Vec<EmbeddedBitcode<'a>>,
) -> Result<()> {
    let obj = object::File::parse(bytes).map_err(object_error)?;
    for section in obj.sections() {
        let name = section.name().unwrap_or("");
        let segment = section.segment_name().ok().flatten();
        let Some(full_name) = wanted.matches(segment, name) else { continue };
        let full_name = format!("{prefix}{full_name}");
        let data = section.uncompressed_data().map_err(object_error)?;
        // Where the bytes really are: a header's offset can be anything when the section
        // is empty, and error offsets must stay within the file.
        let file_offset = match &data {
            Cow::Borrowed(slice) => offset_in(bytes, slice).map(|offset| base + offset),
            Cow::Owned(_) => None,
        };
        found.push(EmbeddedBitcode { section: full_name, data, file_offset });
    }
    Ok(())
}

/// The byte offset of `inner` in `outer`, when `inner` is a part of it.
fn offset_in(outer: &[u8], inner: &[u8]) -> Option<u64> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    (start.checked_add(inner.len())? <= outer.len()).then_some(start as u64)
}

#[cold]
fn object_error(err: object::Error) -> Error {
    Error::new(ErrorKind::Object(err.to_string()), 0)
}
