//! METADATA_STRINGS: every MDString of a metadata block in one record. The schema types it
//! as a count, an offset and a blob; splitting the blob into strings, and refusing a blob
//! that does not split, is LLVM's metadata reader's work, done here the same way.

use bitcode_schema_runtime::{BitReader, Error, ErrorKind, Record, Result};

use super::ir::metadata_block;
use super::LlvmContext;

/// For a METADATA_STRINGS record, that it has its two operands and that its blob splits
/// into its strings, as LLVM's reader requires (the typed decode checks the fields only);
/// any other record passes. `bcdump --check` counts a failure as a record in error, and the
/// typed dump shows it in the record's place.
pub fn check_metadata_strings(block: u32, record: &Record<'_, '_>, ctx: &mut LlvmContext) -> Result<()> {
    if block != metadata_block::ID || record.code != metadata_block::Strings::CODE {
        return Ok(());
    }
    let invalid = |problem: &str| {
        let kind = ErrorKind::Invalid(format!("METADATA_BLOCK/STRINGS: {problem}"));
        Err(Error::new(kind, record.bit_offset).with_block_path(record.path.ids()))
    };
    // Too few operands is the decoder's error; more, a warning there, LLVM rejects.
    let strings = metadata_block::Strings::decode(record, ctx)?;
    if !strings.extra_operands.is_empty() {
        return invalid("metadata strings with more than two operands");
    }
    match metadata_strings(strings.count, strings.offset, strings.data) {
        Ok(_) => Ok(()),
        Err(problem) => invalid(problem),
    }
}

/// The strings of a METADATA_STRINGS record: `blob` holds `count` lengths (VBR6 in a
/// bitstream of their own, padded) in its first `offset` bytes, then the characters of all
/// strings back to back. Fails as LLVM's reader fails: on no strings, an offset past the
/// blob, lengths that end before `count` of them are read, or a string that runs past the
/// characters.
///
/// ```
/// // Two strings, "ab" and "c": lengths 2 and 1 as VBR6 (12 bits, padded to 4 bytes).
/// let blob = [0x42, 0x00, 0x00, 0x00, b'a', b'b', b'c'];
/// let strings = bitcode_schema::llvm::metadata_strings(2, 4, &blob).unwrap();
/// assert_eq!(strings, [&b"ab"[..], &b"c"[..]]);
/// // The characters cut short.
/// assert!(bitcode_schema::llvm::metadata_strings(2, 4, &blob[..6]).is_err());
/// ```
pub fn metadata_strings(
    count: u32,
    offset: u32,
    blob: &[u8],
) -> std::result::Result<Vec<&[u8]>, &'static str> {
    if count == 0 {
        return Err("metadata strings with no strings");
    }
    let offset = usize::try_from(offset).unwrap_or(usize::MAX);
    let (Some(lengths), Some(mut chars)) = (blob.get(..offset), blob.get(offset..)) else {
        return Err("metadata strings whose offset lies past the blob");
    };
    let mut reader = BitReader::new(lengths);
    // Every length takes at least 6 bits: the capacity is bounded by the blob.
    let mut strings = Vec::with_capacity((count as usize).min(lengths.len() * 8 / 6));
    for _ in 0..count {
        if reader.at_end() {
            return Err("metadata strings whose lengths end too soon");
        }
        let len = reader.read_vbr32(6).map_err(|_| "metadata strings with a length cut short")?;
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        if len > chars.len() {
            return Err("metadata strings whose characters end too soon");
        }
        let (string, rest) = chars.split_at(len);
        strings.push(string);
        chars = rest;
    }
    Ok(strings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitcode_schema_runtime::writer::BitWriter;

    /// A blob as LLVM writes one: the lengths as VBR6, padded to 32 bits, then the bytes.
    fn blob(strings: &[&[u8]]) -> (u32, u32, Vec<u8>) {
        let mut lengths = BitWriter::new();
        for s in strings {
            lengths.write_vbr(s.len() as u64, 6).unwrap();
        }
        lengths.align32();
        let mut bytes = lengths.into_bytes();
        let offset = bytes.len() as u32;
        bytes.extend(strings.concat());
        (strings.len() as u32, offset, bytes)
    }

    #[test]
    fn splits_what_llvm_writes() {
        let strings: [&[u8]; 4] = [b"", b"x", b"a longer string of forty or so bytes......", b"\0\xff"];
        let (count, offset, bytes) = blob(&strings);
        assert_eq!(metadata_strings(count, offset, &bytes).unwrap(), strings);
        // Fewer strings than the blob has are fine, as in LLVM.
        assert_eq!(metadata_strings(2, offset, &bytes).unwrap(), strings[..2]);
    }

    #[test]
    fn refuses_what_llvm_refuses() {
        let (count, offset, bytes) = blob(&[b"ab", b"cd"]);
        assert_eq!(metadata_strings(0, offset, &bytes), Err("metadata strings with no strings"));
        assert_eq!(
            metadata_strings(count, bytes.len() as u32 + 1, &bytes),
            Err("metadata strings whose offset lies past the blob")
        );
        // The padding reads as three lengths of 0, then two bits are left.
        assert_eq!(metadata_strings(5, offset, &bytes).unwrap(), [&b"ab"[..], b"cd", b"", b"", b""]);
        assert_eq!(metadata_strings(6, offset, &bytes), Err("metadata strings with a length cut short"));
        assert_eq!(
            metadata_strings(count, offset, &bytes[..bytes.len() - 1]),
            Err("metadata strings whose characters end too soon")
        );
        assert_eq!(metadata_strings(u32::MAX, 0, &bytes), Err("metadata strings whose lengths end too soon"));
    }
}
