//! The byte-oriented framing of LLVM 1.x bytecode, read: a cursor over bytes with the
//! format's primitives (byte VBR, unsigned and signed; little-endian words; IEEE floats
//! stored as words; length-prefixed bytes; 32-bit alignment), each checked against the end
//! of the region it reads (the input, or the enclosing block).
//!
//! Errors carry the absolute byte offset of the offending field (as a bit offset that is a
//! multiple of 8, shown in bytes: see [`Error::at_byte`]).

use crate::decode::decode_signed;
use crate::error::{Error, ErrorKind, Result};

/// A cursor over a region of bytes (the whole input, or one block's body).
#[derive(Clone, Debug)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    /// The absolute offset of `data[0]` in the caller's input.
    base: u64,
}

impl<'a> ByteReader<'a> {
    /// A cursor over `data`, whose first byte is at absolute offset `base` of the input.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        ByteReader { data, pos: 0, base }
    }

    /// The absolute offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base.saturating_add(self.pos as u64)
    }

    /// The absolute offset just past the region.
    pub fn end_offset(&self) -> u64 {
        self.base.saturating_add(self.data.len() as u64)
    }

    /// The bytes left in the region.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// True when the region is read to its end.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes left, without reading them.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// An error of `kind` at the next byte.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::at_byte(kind, self.offset())
    }

    #[cold]
    fn truncated(&self, needed: u64) -> Error {
        self.error(ErrorKind::BytesTruncated { needed, left: self.remaining() as u64 })
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: u64) -> Result<&'a [u8]> {
        let taken = usize::try_from(n)
            .ok()
            .and_then(|n| self.data.get(self.pos..self.pos.checked_add(n)?))
            .ok_or_else(|| self.truncated(n))?;
        self.pos += taken.len();
        Ok(taken)
    }

    /// The next `n` bytes as a region of their own (a block's body).
    pub fn region(&mut self, n: u64) -> Result<ByteReader<'a>> {
        let base = self.offset();
        Ok(ByteReader::new(self.bytes(n)?, base))
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: u64) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8> {
        let b = *self.data.get(self.pos).ok_or_else(|| self.truncated(1))?;
        self.pos += 1;
        Ok(b)
    }

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let start = self.pos;
        let taken = self.bytes(N as u64)?;
        <[u8; N]>::try_from(taken).map_err(|_| {
            self.pos = start;
            self.truncated(N as u64)
        })
    }

    /// A 32-bit little-endian word.
    pub fn u32_le(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    /// A 64-bit little-endian word.
    pub fn u64_le(&mut self) -> Result<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// An unsigned byte VBR of at most `value_bits` bits: seven bits a byte, least
    /// significant first, the high bit set on every byte but the last. It may take as many
    /// bytes as the width needs (5 for 32 bits, 10 for 64), and no bit past the width.
    fn vbr(&mut self, value_bits: u32) -> Result<u64> {
        let start = self.pos;
        let mut value = 0u64;
        for shift in (0..value_bits).step_by(7) {
            let Some(&b) = self.data.get(self.pos) else {
                let read = (self.pos - start) as u64;
                self.pos = start;
                return Err(self.truncated(read + 1));
            };
            self.pos += 1;
            let chunk = u64::from(b & 0x7f);
            if shift + 7 > value_bits && chunk >> (value_bits - shift) != 0 {
                break;
            }
            value |= chunk << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.pos = start;
        Err(self.error(ErrorKind::ByteVbrOverflow { value_bits }))
    }

    /// A byte VBR of at most 32 bits (LLVM's `uint32_vbr`, counts, slots, ids).
    pub fn vbr32(&mut self) -> Result<u32> {
        self.vbr(32).map(|v| v as u32)
    }

    /// A byte VBR of at most 64 bits (`uint64_vbr`).
    pub fn vbr64(&mut self) -> Result<u64> {
        self.vbr(64)
    }

    /// A signed byte VBR (`int64_vbr`): the magnitude shifted left by one with the sign in
    /// bit 0; "-0" stands for `i64::MIN`.
    pub fn signed_vbr64(&mut self) -> Result<i64> {
        self.vbr(64).map(decode_signed)
    }

    /// A 32-bit IEEE float stored as a little-endian word.
    pub fn f32_le(&mut self) -> Result<f32> {
        self.u32_le().map(f32::from_bits)
    }

    /// A 64-bit IEEE float stored as a little-endian word.
    pub fn f64_le(&mut self) -> Result<f64> {
        self.u64_le().map(f64::from_bits)
    }

    /// A length-prefixed byte string: a VBR length, then that many bytes.
    pub fn string(&mut self) -> Result<&'a [u8]> {
        let start = self.pos;
        let len = self.vbr32()?;
        self.bytes(len.into()).inspect_err(|_| self.pos = start)
    }

    /// Skips to the next multiple of 4 bytes counted from the input's start, the padding
    /// bytes being any value (writers used 0 or 0xAB); at the end of the region it stops.
    pub fn align32(&mut self) {
        let misaligned = (self.offset() % 4) as usize;
        if misaligned != 0 {
            self.pos = (self.pos + 4 - misaligned).min(self.data.len());
        }
    }

    /// Checks that `count` items of at least `min_bytes` each can fit in what is left, so a
    /// count read from the input never reserves memory the input cannot fill.
    pub fn check_count(&self, what: &'static str, count: u64, min_bytes: u64) -> Result<usize> {
        let needed = count.saturating_mul(min_bytes);
        if needed > self.remaining() as u64 {
            return Err(self.error(ErrorKind::ByteCountTooLarge {
                what,
                count,
                bytes_left: self.remaining() as u64,
            }));
        }
        usize::try_from(count).map_err(|_| {
            self.error(ErrorKind::ByteCountTooLarge { what, count, bytes_left: self.remaining() as u64 })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &[u8]) -> ByteReader<'_> {
        ByteReader::new(bytes, 100)
    }

    #[test]
    fn vbr_reads_seven_bits_a_byte_least_significant_first() {
        let mut r = reader(&[0x05, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(r.vbr32().unwrap(), 5);
        assert_eq!(r.vbr32().unwrap(), 128);
        assert_eq!(r.vbr32().unwrap(), u32::MAX);
        assert!(r.is_empty());
    }

    #[test]
    fn vbr_past_its_width_is_an_error_at_its_first_byte() {
        // 2^32 does not fit a 32-bit VBR; as a 64-bit one it does.
        let bytes = [0x80, 0x80, 0x80, 0x80, 0x10];
        let err = reader(&bytes).vbr32().unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::ByteVbrOverflow { value_bits: 32 });
        assert_eq!(err.byte_offset(), Some(100));
        assert_eq!(reader(&bytes).vbr64().unwrap(), 1 << 32);
        // Eleven bytes never fit 64 bits, whatever they hold.
        let long = [0x80; 10].iter().chain(&[0x00]).copied().collect::<Vec<_>>();
        assert!(reader(&long).vbr64().is_err());
        // Zero chunks past the width are fine (a padded encoding of 1).
        assert_eq!(reader(&[0x81, 0x80, 0x80, 0x80, 0x00]).vbr32().unwrap(), 1);
    }

    #[test]
    fn signed_vbr_keeps_the_sign_in_bit_zero() {
        assert_eq!(reader(&[0x07]).signed_vbr64().unwrap(), -3);
        assert_eq!(reader(&[0x06]).signed_vbr64().unwrap(), 3);
        assert_eq!(reader(&[0x01]).signed_vbr64().unwrap(), i64::MIN);
    }

    #[test]
    fn words_floats_and_strings() {
        let mut bytes = vec![0x78, 0x56, 0x34, 0x12];
        bytes.extend(1.5f32.to_bits().to_le_bytes());
        bytes.extend((-2.25f64).to_bits().to_le_bytes());
        bytes.extend([3, b'a', b'b', b'c']);
        let mut r = reader(&bytes);
        assert_eq!(r.u32_le().unwrap(), 0x1234_5678);
        assert_eq!(r.f32_le().unwrap(), 1.5);
        assert_eq!(r.f64_le().unwrap(), -2.25);
        assert_eq!(r.string().unwrap(), b"abc");
    }

    #[test]
    fn truncation_names_what_was_needed_and_where() {
        let mut r = reader(&[4, b'a']);
        let err = r.string().unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::BytesTruncated { needed: 4, left: 1 });
        assert_eq!(err.byte_offset(), Some(101));
        assert_eq!(r.offset(), 100, "a failed read leaves the cursor where it was");
        assert!(err.to_string().contains("at byte 101"), "{err}");
        assert!(reader(&[0x80]).vbr32().is_err());
        assert!(reader(&[1, 2, 3]).u32_le().is_err());
    }

    #[test]
    fn alignment_counts_from_the_input_start_and_stops_at_the_end() {
        let bytes = [0u8; 8];
        let mut r = ByteReader::new(&bytes, 2);
        r.u8().unwrap();
        r.align32();
        assert_eq!(r.offset(), 4);
        r.align32();
        assert_eq!(r.offset(), 4, "aligned already");
        let mut end = ByteReader::new(&bytes[..1], 2);
        end.align32();
        assert!(end.is_empty());
    }

    #[test]
    fn counts_that_cannot_fit_are_refused_before_any_allocation() {
        let r = reader(&[0; 10]);
        assert_eq!(r.check_count("types", 10, 1).unwrap(), 10);
        let err = r.check_count("types", u64::MAX, 1).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::ByteCountTooLarge { count: u64::MAX, .. }));
        assert!(r.check_count("words", 3, 4).is_err());
    }
}
