//! `BitReader`: fixed-width, VBR and char6 fields read LSB-first from a byte slice through
//! a 64-bit word cache. This is the hot loop of every decoder.

use crate::error::{Error, ErrorKind, Result};

/// Reads bit fields from a byte slice, least significant bit of each byte first.
///
/// Unread bits are cached in one 64-bit word; a read that fits in the cache is a mask and
/// a shift. Bit positions are relative to the start of the slice; errors report them
/// that way too (the cursor adds the slice's offset in the caller's file).
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Index of the first byte not yet loaded into `word`.
    next_byte: usize,
    /// The cached bits, the next one in bit 0. Bits at and above `cached` are zero.
    word: u64,
    /// How many bits of `word` are valid (0..=64).
    cached: u32,
}

/// The character a char6 value stands for: `a-z`, `A-Z`, `0-9`, `.`, `_`.
#[inline]
pub fn decode_char6(v: u64) -> u8 {
    const TABLE: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";
    TABLE.get((v & 63) as usize).copied().unwrap_or(b'_')
}

/// The char6 value of a character, if it has one.
pub fn encode_char6(c: u8) -> Option<u64> {
    Some(match c {
        b'a'..=b'z' => c - b'a',
        b'A'..=b'Z' => c - b'A' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'.' => 62,
        b'_' => 63,
        _ => return None,
    } as u64)
}

impl<'a> BitReader<'a> {
    /// A reader positioned at the first bit of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        BitReader { data, next_byte: 0, word: 0, cached: 0 }
    }

    /// The bytes being read.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The position of the next bit to read, in bits from the start of the slice.
    #[inline]
    pub fn position(&self) -> u64 {
        self.next_byte as u64 * 8 - self.cached as u64
    }

    /// The length of the input in bits.
    #[inline]
    pub fn len_bits(&self) -> u64 {
        self.data.len() as u64 * 8
    }

    /// Bits not yet read.
    #[inline]
    pub fn bits_left(&self) -> u64 {
        self.len_bits() - self.position()
    }

    /// True when every bit has been read.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.cached == 0 && self.next_byte >= self.data.len()
    }

    /// Reads a `width`-bit unsigned field (`width` at most 64; 0 reads nothing and gives 0).
    #[inline]
    pub fn read(&mut self, width: u32) -> Result<u64> {
        debug_assert!(width <= 64);
        if width < self.cached {
            // width <= 63 here, so the shift and the mask are defined.
            let value = self.word & ((1u64 << width) - 1);
            self.word >>= width;
            self.cached -= width;
            Ok(value)
        } else {
            self.read_refilling(width)
        }
    }

    /// The slow half of `read`: the field reaches past the cached word.
    #[cold]
    #[inline(never)]
    fn read_refilling(&mut self, width: u32) -> Result<u64> {
        if width == 0 {
            return Ok(0);
        }
        if width as u64 > self.bits_left() {
            return Err(self.truncated(width as u64));
        }
        // Take what the cache holds (fewer than 64 bits, or exactly `width`).
        let have = self.cached;
        let low = self.word;
        self.word = 0;
        self.cached = 0;
        if have == width {
            return Ok(low);
        }
        self.refill();
        let need = width - have; // 1..=64, and the refill holds at least that many
        let high = low_bits(self.word, need);
        self.word = shift_right(self.word, need);
        self.cached -= need;
        Ok(low | (high << have))
    }

    /// Loads the next (up to) eight bytes into the empty cache.
    #[inline]
    fn refill(&mut self) {
        debug_assert_eq!(self.cached, 0);
        let rest = self.data.get(self.next_byte..).unwrap_or(&[]);
        if let Some(bytes) = rest.first_chunk::<8>() {
            self.word = u64::from_le_bytes(*bytes);
            self.cached = 64;
            self.next_byte += 8;
        } else {
            let mut bytes = [0u8; 8];
            if let Some(head) = bytes.get_mut(..rest.len()) {
                head.copy_from_slice(rest);
            }
            self.word = u64::from_le_bytes(bytes);
            self.cached = rest.len() as u32 * 8;
            self.next_byte += rest.len();
        }
    }

    /// Reads a VBR field with chunks of `width` bits (1..=64): each chunk holds
    /// `width - 1` value bits and a continuation bit on top. Values that need more than
    /// 64 bits are an error.
    #[inline]
    pub fn read_vbr(&mut self, width: u32) -> Result<u64> {
        debug_assert!((1..=64).contains(&width));
        let piece = self.read(width)?;
        let continue_bit = 1u64 << (width - 1);
        if piece & continue_bit == 0 {
            Ok(piece)
        } else {
            self.read_vbr_rest(piece, width)
        }
    }

    /// The chunks after the first of a VBR field. Multi-chunk values are common (value
    /// ids, type ids, sizes), so this is kept lean: no allocation, errors built out of line.
    #[inline(never)]
    fn read_vbr_rest(&mut self, first: u64, width: u32) -> Result<u64> {
        let payload_bits = width - 1;
        if payload_bits == 0 {
            // A 1-bit chunk carries no value bits: the field could only go on forever.
            return Err(self.vbr_overflow(width, 1));
        }
        let continue_bit = 1u64 << payload_bits;
        let payload_mask = continue_bit - 1;
        let mut value = first & payload_mask;
        let mut shift = payload_bits;
        let mut chunks = 1u64;
        loop {
            let piece = match self.read(width) {
                Ok(p) => p,
                Err(e) => return Err(self.vbr_truncated(e, width, chunks)),
            };
            chunks += 1;
            let chunk = piece & payload_mask;
            // LLVM stops at a chunk that starts at bit 64 or beyond; we also refuse a
            // chunk whose set bits would fall off the top of the 64-bit value.
            if shift >= 64 || (chunk >> (64 - shift)) != 0 {
                return Err(self.vbr_overflow(width, chunks));
            }
            value |= chunk << shift;
            if piece & continue_bit == 0 {
                return Ok(value);
            }
            shift += payload_bits;
        }
    }

    /// A VBR overflow error at the start of the field, `chunks` chunks back.
    #[cold]
    fn vbr_overflow(&self, width: u32, chunks: u64) -> Error {
        let start = self.position() - chunks * width as u64;
        Error::new(ErrorKind::VbrOverflow { chunk_width: width }, start)
    }

    /// A truncation inside a VBR field, reported at the field's start.
    #[cold]
    fn vbr_truncated(&self, err: Error, width: u32, chunks: u64) -> Error {
        let start = self.position() - chunks * width as u64;
        Error::new(err.kind().clone(), start)
    }

    /// Reads a 6-bit char6 field and gives the character it stands for.
    #[inline]
    pub fn read_char6(&mut self) -> Result<u8> {
        Ok(decode_char6(self.read(6)?))
    }

    /// Skips to the next multiple of 32 bits. Past the end of the input it stops at the
    /// end (as LLVM does), so the next read reports the truncation.
    pub fn align32(&mut self) {
        let pos = self.position();
        let aligned = pos.next_multiple_of(32);
        let skip = (aligned - pos) as u32;
        if skip < self.cached {
            self.word >>= skip;
            self.cached -= skip;
        } else {
            let target = aligned.min(self.len_bits());
            // In range by construction, so this cannot fail.
            let _ = self.jump_to(target);
        }
    }

    /// Moves to bit `pos` (at most the input length).
    pub fn jump_to(&mut self, pos: u64) -> Result<()> {
        if pos > self.len_bits() {
            return Err(Error::new(
                ErrorKind::Truncated { needed: pos - self.position(), left: self.bits_left() },
                self.position(),
            ));
        }
        self.next_byte = (pos / 8) as usize;
        self.word = 0;
        self.cached = 0;
        let within_byte = (pos % 8) as u32;
        if within_byte != 0 {
            self.refill();
            self.word >>= within_byte;
            self.cached -= within_byte;
        }
        Ok(())
    }

    /// Takes `len` bytes starting at the current position, which must be byte aligned,
    /// without copying, and moves past them.
    pub fn take_bytes(&mut self, len: u64) -> Result<&'a [u8]> {
        let pos = self.position();
        debug_assert_eq!(pos % 8, 0);
        let bits = len.saturating_mul(8);
        if bits > self.bits_left() {
            return Err(self.truncated(bits));
        }
        let start = (pos / 8) as usize;
        let end = start + len as usize;
        let bytes = self.data.get(start..end).ok_or_else(|| self.truncated(bits))?;
        self.jump_to(end as u64 * 8)?;
        Ok(bytes)
    }

    #[cold]
    fn truncated(&self, needed: u64) -> Error {
        Error::new(ErrorKind::Truncated { needed, left: self.bits_left() }, self.position())
    }
}

#[inline]
fn low_bits(v: u64, n: u32) -> u64 {
    if n >= 64 {
        v
    } else {
        v & ((1u64 << n) - 1)
    }
}

#[inline]
fn shift_right(v: u64, n: u32) -> u64 {
    if n >= 64 {
        0
    } else {
        v >> n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs (value, width) fields LSB-first, independently of the writer.
    fn pack(fields: &[(u64, u32)]) -> Vec<u8> {
        let mut bits = Vec::new();
        for &(v, w) in fields {
            for i in 0..w {
                bits.push((v >> i) & 1 == 1);
            }
        }
        let mut out = vec![0u8; bits.len().div_ceil(8)];
        for (i, b) in bits.iter().enumerate() {
            if *b {
                out[i / 8] |= 1 << (i % 8);
            }
        }
        out
    }

    #[test]
    fn fixed_fields_of_every_width_cross_word_boundaries() {
        let mut fields = Vec::new();
        for w in 0..=64u32 {
            let v = if w == 0 { 0 } else { 0xA5A5_5A5A_F0F0_0F0Fu64 & (u64::MAX >> (64 - w)) };
            fields.push((v, w));
        }
        let data = pack(&fields);
        let mut r = BitReader::new(&data);
        for &(v, w) in &fields {
            assert_eq!(r.read(w).unwrap(), v, "width {w}");
        }
        assert_eq!(r.position(), fields.iter().map(|f| f.1 as u64).sum::<u64>());
    }

    #[test]
    fn vbr_reads_multi_chunk_values_and_rejects_overflow() {
        // 1000 in VBR6: 1000 = 0b1111101000 -> chunks 01000|1 (with continue), 11111 -> 31
        let data = pack(&[(0b101000, 6), (0b011111, 6)]);
        assert_eq!(BitReader::new(&data).read_vbr(6).unwrap(), 1000);
        // u64::MAX in VBR8 needs 10 chunks of 7 bits; all fit.
        let mut f = Vec::new();
        let mut v = u64::MAX;
        while v >= 0x80 {
            f.push(((v & 0x7f) | 0x80, 8));
            v >>= 7;
        }
        f.push((v, 8));
        assert_eq!(BitReader::new(&pack(&f)).read_vbr(8).unwrap(), u64::MAX);
        // One more bit set in the last chunk falls off the top: an error at bit 0.
        let last = f.len() - 1;
        f[last].0 = 0x3;
        let err = BitReader::new(&pack(&f)).read_vbr(8).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::VbrOverflow { chunk_width: 8 });
        assert_eq!(err.bit_offset(), 0);
        // A chunk starting at bit 64 or later is an error even when it is zero.
        let mut long = vec![(0x3f, 6); 13];
        long.push((0, 6));
        let long = pack(&long);
        let mut r = BitReader::new(&long);
        assert_eq!(r.read_vbr(6).unwrap_err().kind(), &ErrorKind::VbrOverflow { chunk_width: 6 });
        // 1-bit chunks with the continuation bit set never end.
        assert!(BitReader::new(&[0xff]).read_vbr(1).is_err());
        assert_eq!(BitReader::new(&[0x00]).read_vbr(1).unwrap(), 0);
    }

    #[test]
    fn truncation_is_reported_at_the_field_start() {
        let data = [0xffu8; 3];
        let mut r = BitReader::new(&data);
        r.read(20).unwrap();
        let err = r.read(5).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::Truncated { needed: 5, left: 4 });
        assert_eq!(err.bit_offset(), 20);
        // a VBR cut inside its second chunk reports the VBR's first bit
        let mut r = BitReader::new(&[0b1110_0000, 0b1000_0011]);
        r.read(4).unwrap();
        let err = r.read_vbr(6).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Truncated { .. }));
        assert_eq!(err.bit_offset(), 4);
    }

    #[test]
    fn align_jump_and_bytes() {
        let data: Vec<u8> = (0..16).collect();
        let mut r = BitReader::new(&data);
        r.read(3).unwrap();
        r.align32();
        assert_eq!(r.position(), 32);
        assert_eq!(r.take_bytes(3).unwrap(), &[4, 5, 6]);
        assert_eq!(r.position(), 56);
        r.jump_to(100).unwrap();
        assert_eq!(r.read(4).unwrap(), 0, "bit 100 is the high nibble of byte 12 (0x0c)");
        r.jump_to(128).unwrap();
        assert!(r.at_end());
        assert!(r.jump_to(129).is_err());
        // aligning past the end stops at the end
        let mut r = BitReader::new(&data[..6]);
        r.read(33).unwrap();
        r.align32();
        assert_eq!(r.position(), 48);
        assert!(r.at_end());
    }

    #[test]
    fn char6_round_trips() {
        for v in 0..64 {
            assert_eq!(encode_char6(decode_char6(v)), Some(v));
        }
        assert_eq!(encode_char6(b'-'), None);
    }
}
