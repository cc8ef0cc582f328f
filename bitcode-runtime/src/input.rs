//! A file as users have it: one bitstream (perhaps behind a wrapper header), with the
//! `object` feature a native object whose sections embed bitcode, or LLVM 1.x bytecode
//! (no bitstream at all: [`Input::bytecode`]).

use crate::bytecode::Bytecode;
use crate::container::{Bitstream, Magic};
#[cfg(feature = "object")]
use crate::embedded::{embedded_bitcode, is_native_object, EmbeddedBitcode};
use crate::error::{Error, ErrorKind, Result};

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
    /// feature is on) is searched for bitcode sections, and having none is an error; LLVM
    /// 1.x bytecode is recognised (its [`streams`](Self::streams) say it has none).
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

    /// True when the input is LLVM 1.x bytecode (`llvm` or `llvc`), which is not a bitstream.
    pub fn is_bytecode(&self) -> bool {
        Bytecode::is_bytecode(self.bytes)
    }

    /// The LLVM 1.x bytecode container, for an input that is bytecode (its module
    /// expanded when it is compressed); `None` for anything else.
    pub fn bytecode(&self) -> Option<Result<Bytecode<'a>>> {
        self.is_bytecode().then(|| Bytecode::parse(self.bytes))
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
    /// offsets count from the start of the file. LLVM 1.x bytecode has none: that is an
    /// error which says so.
    pub fn streams(&self) -> Result<Vec<Bitstream<'_>>> {
        if self.is_bytecode() {
            let what = "this is LLVM 1.x bytecode, not a bitstream: read it with Input::bytecode".to_string();
            return Err(Error::at_byte(ErrorKind::BadBytecode(what), 0));
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytecode_is_recognised_and_has_no_bitstream() {
        // A revision 5 module of no blocks.
        let bytes = b"llvm\x01\0\0\0\x01\0\0\0\x5c";
        let input = Input::parse(bytes).unwrap();
        assert!(input.is_bytecode());
        assert_eq!(input.bytecode().unwrap().unwrap().header().unwrap().version.revision, 5);
        let e = input.streams().unwrap_err();
        assert!(e.to_string().contains("LLVM 1.x bytecode, not a bitstream"), "{e}");
        let bitcode = Input::parse(b"BC\xC0\xDE").unwrap();
        assert!(!bitcode.is_bytecode() && bitcode.bytecode().is_none());
    }
}
