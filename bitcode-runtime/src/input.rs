//! A file as users have it: one bitstream (perhaps behind a wrapper header), or, with the
//! `object` feature, a native object whose sections embed bitcode.

use crate::container::{Bitstream, Magic};
#[cfg(feature = "object")]
use crate::embedded::{embedded_bitcode, is_native_object, EmbeddedBitcode};
use crate::error::Result;

/// The bitstreams of one input file.
///
/// ```no_run
/// # fn demo(bytes: &[u8]) -> bitcode_schema_runtime::Result<()> {
/// let input = bitcode_schema_runtime::Input::parse(bytes)?;
/// for stream in input.streams()? {
///     println!("{} at byte {}", stream.magic(), stream.file_offset());
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Input<'a> {
    bytes: &'a [u8],
    #[cfg(feature = "object")]
    sections: Option<Vec<EmbeddedBitcode<'a>>>,
}

impl<'a> Input<'a> {
    /// Looks at `bytes`: a bitstream is taken as it is; a native object (when the `object`
    /// feature is on) is searched for bitcode sections, and having none is an error.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        #[cfg(feature = "object")]
        {
            let looks_like_bitstream = match Bitstream::new(bytes) {
                Ok(stream) => stream.wrapper().is_some() || !matches!(stream.magic(), Magic::Other(_)),
                Err(_) => true, // the bitstream reader will say what is wrong
            };
            if !looks_like_bitstream && is_native_object(bytes) {
                return Ok(Input { bytes, sections: Some(embedded_bitcode(bytes)?) });
            }
            Ok(Input { bytes, sections: None })
        }
        #[cfg(not(feature = "object"))]
        {
            let _ = Magic::LlvmIr;
            Ok(Input { bytes })
        }
    }

    /// True when the input is a native object with embedded bitcode.
    pub fn is_native_object(&self) -> bool {
        #[cfg(feature = "object")]
        {
            self.sections.is_some()
        }
        #[cfg(not(feature = "object"))]
        {
            false
        }
    }

    /// The bitstreams: one per embedded section of an object, or the file itself. Error
    /// offsets count from the start of the file.
    pub fn streams(&self) -> Result<Vec<Bitstream<'_>>> {
        #[cfg(feature = "object")]
        if let Some(sections) = &self.sections {
            return sections
                .iter()
                .map(|s| Bitstream::at_offset(&s.data, s.file_offset.unwrap_or(0)))
                .collect();
        }
        Ok(vec![Bitstream::new(self.bytes)?])
    }
}
