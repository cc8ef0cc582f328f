//! Finds the bitstreams in a file: the file itself (through a wrapper header), or the
//! bitcode sections of a native object.

use bitcode::runtime::embedded::{embedded_bitcode, is_native_object, EmbeddedBitcode};
use bitcode::{Bitstream, Magic, Result};

/// The bitcode sections of `bytes` when it is a native object (and not a bitstream).
pub fn embedded_sections(bytes: &[u8]) -> Result<Option<Vec<EmbeddedBitcode<'_>>>> {
    let looks_like_bitstream = match Bitstream::new(bytes) {
        Ok(stream) => stream.wrapper().is_some() || !matches!(stream.magic(), Magic::Other(_)),
        Err(_) => true, // let the bitstream reader report what is wrong
    };
    if looks_like_bitstream || !is_native_object(bytes) {
        return Ok(None);
    }
    embedded_bitcode(bytes).map(Some)
}

/// The streams to read: one per embedded section, or the file itself.
pub fn streams<'a>(
    bytes: &'a [u8],
    sections: Option<&'a [EmbeddedBitcode<'a>]>,
) -> Result<Vec<Bitstream<'a>>> {
    match sections {
        Some(sections) => {
            sections.iter().map(|s| Bitstream::at_offset(&s.data, s.file_offset.unwrap_or(0))).collect()
        }
        None => Ok(vec![Bitstream::new(bytes)?]),
    }
}
