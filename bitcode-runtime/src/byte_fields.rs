//! What decoders generated from a byte-framed schema (`framing = "bytes"`, LLVM 1.x
//! bytecode) run on: [`ByteFields`], a [`ByteReader`] over one block's body that reads each
//! field kind in its byte encoding and names the block and field in its errors, and
//! [`ByteContext`], what the caller tells the decoder (the format revision, and the answers
//! to the schema's declared queries, such as the kind of the type a constant plane holds).

use crate::bytecode::{read_block_header, Version};
use crate::bytes::ByteReader;
use crate::decode::{Array, Bytes, SchemaEnum, SchemaFlags, TypeId};
use crate::error::{Error, ErrorKind, Result};

/// What a byte-framed decoder asks of its caller while it reads.
pub trait ByteContext {
    /// The format revision the stream declares: it chooses fields (`versions`), group
    /// variants and block ids.
    fn version(&self) -> u64;

    /// The answer to the schema's query `name` (declared under `[format.queries]`), or
    /// `None` when the caller cannot answer it here (the decoder then fails with an error
    /// at the field that asked).
    fn query(&mut self, name: &'static str) -> Option<u64>;

    /// A field declared with `tell = true` was read: `name` is its schema name, `value` its
    /// value as a number. Decoders call this as they read, so a later query can depend on
    /// an earlier field (the type of a constant plane decides how its entries read).
    fn tell(&mut self, name: &'static str, value: u64) {
        let _ = (name, value);
    }

    /// A struct or group field declared with `tell = true` was read (for an array, each
    /// element): `item` is the generated value, to downcast to its type (a type
    /// definition, so that the types a block defines answer queries later in that block).
    fn tell_item(&mut self, name: &'static str, item: &dyn std::any::Any) {
        let _ = (name, item);
    }
}

/// A [`ByteContext`] that knows the revision only: it answers no query and ignores what it
/// is told. Enough for blocks whose layout no query decides.
#[derive(Clone, Copy, Debug, Default)]
pub struct RevisionOnly(pub u64);

impl ByteContext for RevisionOnly {
    fn version(&self) -> u64 {
        self.0
    }

    fn query(&mut self, _name: &'static str) -> Option<u64> {
        None
    }
}

/// A block inside a byte-framed block, as a `blocks` field gives it: its id as written,
/// where its header starts, and its body, still to be decoded by its own schema block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubBlock<'a> {
    /// The id as written (the numbering of the revision's header layout).
    pub id: u32,
    /// The offset of the block's header in the uncompressed input.
    pub offset: u64,
    /// The offset of the body's first byte.
    pub body_offset: u64,
    /// The body.
    pub body: &'a [u8],
}

impl<'a> SubBlock<'a> {
    /// A reader over the body, with the body's offsets.
    pub fn reader(&self) -> ByteReader<'a> {
        ByteReader::new(self.body, self.body_offset)
    }
}

/// The fields of one block body, read in order in their byte encodings.
#[derive(Clone, Debug)]
pub struct ByteFields<'a, 'p> {
    r: ByteReader<'a>,
    /// The schema name of the block being read, for errors.
    block: &'static str,
    /// The ids of the enclosing blocks, outermost first, this one last.
    path: &'p [u32],
}

impl<'a, 'p> ByteFields<'a, 'p> {
    /// Fields read from `r` (a block's body), for the block named `block` at `path`.
    pub fn new(r: ByteReader<'a>, block: &'static str, path: &'p [u32]) -> Self {
        ByteFields { r, block, path }
    }

    /// The reader, at the next field.
    pub fn reader(&self) -> &ByteReader<'a> {
        &self.r
    }

    /// True when the body is read to its end.
    pub fn is_empty(&self) -> bool {
        self.r.is_empty()
    }

    /// The position, to come back to with [`restore`](Self::restore).
    pub fn save(&self) -> ByteReader<'a> {
        self.r.clone()
    }

    /// Goes back to a saved position.
    pub fn restore(&mut self, saved: ByteReader<'a>) {
        self.r = saved;
    }

    /// An error about `field`, at the next byte, with the block's name and path.
    #[cold]
    pub fn error(&self, field: &'static str, what: impl std::fmt::Display) -> Error {
        self.locate(self.r.error(ErrorKind::BadBytecode(format!("{}: field {field}: {what}", self.block))))
    }

    fn locate(&self, e: Error) -> Error {
        if e.block_path().is_empty() {
            e.with_block_path(self.path.iter().copied())
        } else {
            e
        }
    }

    /// Runs a primitive read and gives its error the block path.
    fn at<T>(&mut self, read: impl FnOnce(&mut ByteReader<'a>) -> Result<T>) -> Result<T> {
        read(&mut self.r).map_err(|e| self.locate(e))
    }

    /// An unsigned VBR: of 32 bits for a type of up to 32 bits (LLVM's `uint32_vbr`), else
    /// of 64; a value the type cannot hold is an error.
    pub fn uint<T: TryFrom<u64>>(&mut self, field: &'static str) -> Result<T> {
        let v = if std::mem::size_of::<T>() <= 4 {
            u64::from(self.at(ByteReader::vbr32)?)
        } else {
            self.at(ByteReader::vbr64)?
        };
        T::try_from(v).map_err(|_| {
            self.error(field, format_args!("{v} does not fit {} bytes", std::mem::size_of::<T>()))
        })
    }

    /// A 32-bit little-endian word.
    pub fn fixed32(&mut self) -> Result<u32> {
        self.at(ByteReader::u32_le)
    }

    /// A VBR that is 0 or 1... or any other value: non-zero is true.
    pub fn boolean(&mut self, _field: &'static str) -> Result<bool> {
        self.at(ByteReader::vbr32).map(|v| v != 0)
    }

    /// A signed 64-bit VBR.
    pub fn signed(&mut self, _field: &'static str) -> Result<i64> {
        self.at(ByteReader::signed_vbr64)
    }

    /// An enum's code, as a 32-bit VBR.
    pub fn enumeration<E: SchemaEnum>(&mut self, field: &'static str) -> Result<E> {
        let code = u64::from(self.at(ByteReader::vbr32)?);
        E::from_code(code).ok_or_else(|| self.error(field, format_args!("{code} is not a {}", E::NAME)))
    }

    /// A flag word: a 32-bit VBR, or with `fixed` a 32-bit little-endian word.
    pub fn flags<F: SchemaFlags>(&mut self, field: &'static str, fixed: bool) -> Result<F> {
        let bits = if fixed { self.fixed32()? } else { self.at(ByteReader::vbr32)? };
        F::from_bits(bits.into()).map_err(|(part, v)| {
            self.error(field, format_args!("{part}: {v} is not a valid value of {}", F::NAME))
        })
    }

    /// A type id: a 32-bit VBR; with `escape`, the value 0x00FFFFFF says the real id
    /// follows as a second VBR (revisions that keep type ids to 24 bits).
    pub fn type_id(&mut self, _field: &'static str, escape: bool) -> Result<TypeId> {
        let id = self.at(ByteReader::vbr32)?;
        if escape && id == 0x00FF_FFFF {
            return self.at(ByteReader::vbr32).map(TypeId);
        }
        Ok(TypeId(id))
    }

    /// A 32-bit IEEE float.
    pub fn float32(&mut self) -> Result<f32> {
        self.at(ByteReader::f32_le)
    }

    /// A 64-bit IEEE float.
    pub fn float64(&mut self) -> Result<f64> {
        self.at(ByteReader::f64_le)
    }

    /// A length-prefixed string.
    pub fn string(&mut self, _field: &'static str) -> Result<Bytes<'a>> {
        self.at(ByteReader::string).map(Bytes::borrowed)
    }

    /// `n` bytes.
    pub fn bytes(&mut self, _field: &'static str, n: u64) -> Result<Bytes<'a>> {
        self.at(|r| r.bytes(n)).map(Bytes::borrowed)
    }

    /// Skips to the next multiple of 4 bytes of the input.
    pub fn align32(&mut self) {
        self.r.align32();
    }

    /// A count read as a 32-bit VBR, checked against the bytes left (every element takes
    /// at least one), so no count reserves memory the input cannot fill.
    pub fn count(&mut self, field: &'static str) -> Result<u64> {
        let n = u64::from(self.at(ByteReader::vbr32)?);
        self.check(field, n)
    }

    /// Checks a count from elsewhere (an earlier field, a query) the same way.
    pub fn check(&self, field: &'static str, n: u64) -> Result<u64> {
        let left = self.r.remaining();
        if n > left as u64 {
            return Err(self.error(field, format_args!("{n} entries cannot fit in the {left} bytes left")));
        }
        Ok(n)
    }

    /// `n` elements (a count already checked).
    pub fn counted<T>(&mut self, n: u64, mut read: impl FnMut(&mut Self) -> Result<T>) -> Result<Array<T>> {
        let mut out = Vec::with_capacity(usize::try_from(n).unwrap_or(0).min(self.r.remaining()));
        for _ in 0..n {
            out.push(read(self)?);
        }
        Ok(out)
    }

    /// Elements until the body ends.
    pub fn until_end<T>(&mut self, mut read: impl FnMut(&mut Self) -> Result<T>) -> Result<Array<T>> {
        let mut out = Vec::new();
        while !self.r.is_empty() {
            let before = self.r.remaining();
            out.push(read(self)?);
            if self.r.remaining() == before {
                // An element of no bytes would repeat forever.
                return Err(self.error("(array)", "an element took no bytes"));
            }
        }
        Ok(out)
    }

    /// The next 32-bit little-endian word, not read.
    pub fn peek_fixed32(&self) -> Result<u32> {
        self.r.clone().u32_le().map_err(|e| self.locate(e))
    }

    /// The next 32-bit VBR, not read.
    pub fn peek_vbr32(&self) -> Result<u32> {
        self.r.clone().vbr32().map_err(|e| self.locate(e))
    }

    /// The blocks that fill the rest of the body, each header laid out as `version` writes
    /// it, each block followed by padding to 4 bytes where the revision aligns (the first
    /// one is not: a function's starts right after its linkage).
    pub fn blocks(&mut self, _field: &'static str, version: u64) -> Result<Array<SubBlock<'a>>> {
        let v = Version::from_vbr(u32::try_from(version.min(0xfff)).unwrap_or(0) << 4);
        let mut out = Vec::new();
        while !self.r.is_empty() {
            let header = self.at(|r| read_block_header(r, &v))?;
            let body_offset = self.r.offset();
            let body = self.at(|r| r.bytes(u64::from(header.size)))?;
            out.push(SubBlock { id: header.id, offset: header.offset, body_offset, body });
            if v.aligned() {
                self.r.align32();
            }
        }
        Ok(out)
    }

    /// The error for a group tag no variant has.
    #[cold]
    pub fn unknown_tag(&self, field: &'static str, tag: u64, group: &'static str) -> Error {
        self.error(field, format_args!("{tag} is not a tag of {group}"))
    }

    /// The error for a query the context could not answer.
    #[cold]
    pub fn unanswered(&self, field: &'static str, query: &'static str) -> Error {
        self.error(field, format_args!("the reader cannot answer `@{query}` here"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_block_and_field_at_their_offset() {
        let path = [1, 6];
        let mut f = ByteFields::new(ByteReader::new(&[0x80], 40), "TYPE_POOL", &path);
        let e = f.count("types").unwrap_err();
        assert_eq!(e.byte_offset(), Some(40));
        assert_eq!(e.block_path(), &[1, 6]);
        let mut f = ByteFields::new(ByteReader::new(&[100], 40), "TYPE_POOL", &path);
        let e = f.count("types").unwrap_err();
        assert!(
            e.to_string().contains("TYPE_POOL: field types: 100 entries cannot fit in the 0 bytes left"),
            "{e}"
        );
    }

    #[test]
    fn type_ids_escape_to_a_second_vbr_only_when_asked() {
        let bytes = [0xff, 0xff, 0xff, 0x07, 0x05];
        let mut f = ByteFields::new(ByteReader::new(&bytes, 0), "B", &[]);
        assert_eq!(f.type_id("t", true).unwrap(), TypeId(5));
        let mut f = ByteFields::new(ByteReader::new(&bytes, 0), "B", &[]);
        assert_eq!(f.type_id("t", false).unwrap(), TypeId(0x00FF_FFFF));
    }

    #[test]
    fn until_end_refuses_elements_of_no_bytes() {
        let mut f = ByteFields::new(ByteReader::new(&[1], 0), "B", &[]);
        assert!(f.until_end(|_| Ok(())).is_err());
    }

    #[test]
    fn blocks_split_the_rest_by_their_headers() {
        // Packed headers (revision 5): id 3, 2 bytes; id 4, 0 bytes.
        let mut bytes = ((2u32 << 5) | 3).to_le_bytes().to_vec();
        bytes.extend([9, 9]);
        bytes.extend(4u32.to_le_bytes());
        let mut f = ByteFields::new(ByteReader::new(&bytes, 8), "M", &[]);
        let blocks = f.blocks("blocks", 5).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!((blocks[0].id, blocks[0].offset, blocks[0].body), (3, 8, &[9u8, 9][..]));
        assert_eq!((blocks[1].id, blocks[1].body_offset), (4, 18));
    }
}
