//! `BitReader`: fixed-width, VBR and char6 fields read LSB-first from a byte slice through
//! a 64-bit word cache. This is the hot loop of every decoder.

use crate::error::{Error, ErrorKind, Result};

/// Reads bit fields from a byte slice, least significant bit of each byte first.
///
/// Unread bits are cached in one 64-bit word. While eight bytes remain, the cache is
/// topped up with one unaligned load to at least 56 bits, so every field of up to 56 bits
/// (and most VBR values whole) is read with a mask and a shift, without a loop. Bit
/// positions are relative to the start of the slice; errors report them that way too
/// (the cursor adds the slice's offset in the caller's file).
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Index of the first byte not yet counted in `cached`.
    next_byte: usize,
    /// The cached bits, the next one in bit 0. Bits at and above `cached` are either zero
    /// or the stream's own next bits (a top-up loads whole words but counts whole bytes),
    /// so a later top-up can OR over them.
    word: u64,
    /// How many bits of `word` are valid (0..=64).
    cached: u32,
}

/// The widest field read without the slow path: a top-up guarantees 56 cached bits.
pub(crate) const FAST_WIDTH: u32 = 56;

/// Masks for decoding VBR fields of `W`-bit chunks (2..=56) held in one word.
struct VbrChunks<const W: u32>;

impl<const W: u32> VbrChunks<W> {
    /// How many whole chunks fit in the 56 bits a top-up guarantees.
    const IN_WINDOW: u32 = FAST_WIDTH / W;
    /// One chunk.
    const CHUNK: u64 = (1u64 << W) - 1;
    /// A chunk's continuation bit.
    const CONTINUE: u64 = 1u64 << (W - 1);
    /// The continuation bits of the chunks in the window.
    const CONTINUE_BITS: u64 = {
        let mut mask = 0;
        let mut i = 0;
        while i < Self::IN_WINDOW {
            mask |= Self::CONTINUE << (i * W);
            i += 1;
        }
        mask
    };
    /// The payload bits of the chunks in the window.
    const PAYLOADS: u64 = {
        let mut mask = 0;
        let mut i = 0;
        while i < Self::IN_WINDOW {
            mask |= (Self::CONTINUE - 1) << (i * W);
            i += 1;
        }
        mask
    };
    /// Round `k` of packing the payloads: chunk `i` must move `i` bits down, and round
    /// `k` moves the chunks whose index has bit `k` set by `2^k`. The mask selects those
    /// chunks' payloads where the earlier rounds left them; neighbours never overlap.
    const fn round(k: u32) -> u64 {
        let mut mask = 0;
        let mut i = 0;
        while i < Self::IN_WINDOW {
            if i & (1 << k) != 0 {
                let moved = i & ((1 << k) - 1);
                mask |= (Self::CONTINUE - 1) << (i * W - moved);
            }
            i += 1;
        }
        mask
    }

    /// The value of a whole VBR field of `used` bits (chunks in place, at most `IN_WINDOW`
    /// of them, the bits above the last chunk clear): its payloads packed together. Four
    /// rounds cover the 14 chunks of 4 bits that fit the window, the most of any width; up
    /// to four chunks (most long fields: line numbers, metadata ids) need only two.
    #[inline(always)]
    fn pack_payloads(field: u64, used: u32) -> u64 {
        const { assert!(W >= 2 && Self::IN_WINDOW <= 16) };
        #[inline(always)]
        fn shift_selected(x: u64, mask: u64, by: u32) -> u64 {
            if mask == 0 {
                x
            } else {
                (x & !mask) | ((x & mask) >> by)
            }
        }
        let x = field & Self::PAYLOADS;
        let x = shift_selected(x, const { Self::round(0) }, 1);
        let x = shift_selected(x, const { Self::round(1) }, 2);
        if used <= 4 * W {
            return x;
        }
        let x = shift_selected(x, const { Self::round(2) }, 4);
        shift_selected(x, const { Self::round(3) }, 8)
    }

    /// Takes the field that ends at the first of `stops` (see [`BitReader::window_stops`])
    /// off a cached `word` holding `cached` bits, and shifts `stops` on past it. On the
    /// word and count given, not on a reader: a run of fields keeps them in registers.
    #[inline(always)]
    fn take(word: &mut u64, cached: &mut u32, stops: &mut u64) -> u64 {
        let used = stops.trailing_zeros() + 1; // a multiple of W, at most 56
                                               // The field's bits: those up to the first stop, included.
        let field = *word & (*stops ^ (*stops - 1));
        *word >>= used;
        *cached -= used;
        *stops >>= used;
        Self::pack_payloads(field, used)
    }
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
    #[inline(always)]
    pub fn read(&mut self, width: u32) -> Result<u64> {
        debug_assert!(width <= 64);
        if width >= self.cached && (width > FAST_WIDTH || !self.top_up()) {
            return self.read_slow(width);
        }
        // width < 64 here: either width < cached <= 64, or width <= 56 after a top-up.
        let value = self.word & ((1u64 << width) - 1);
        self.word >>= width;
        self.cached -= width;
        Ok(value)
    }

    /// Tops the cache up to at least 56 bits with one unaligned 8-byte load, when eight
    /// bytes remain; false (and nothing changed) near the end of the input.
    #[inline(always)]
    pub(crate) fn top_up(&mut self) -> bool {
        debug_assert!(self.cached < 64);
        let Some(bytes) = self.data.get(self.next_byte..).and_then(|rest| rest.first_chunk::<8>()) else {
            return false;
        };
        self.word |= u64::from_le_bytes(*bytes) << self.cached;
        let whole_bytes = (63 - self.cached) / 8;
        self.next_byte += whole_bytes as usize;
        self.cached += whole_bytes * 8;
        true
    }

    /// Fills the cache from what is left near the end of the input (fewer than eight
    /// bytes may remain): as many whole bytes as fit.
    fn top_up_from_tail(&mut self) {
        debug_assert!(self.cached < 64);
        let rest = self.data.get(self.next_byte..).unwrap_or(&[]);
        let take = rest.len().min(((63 - self.cached) / 8) as usize);
        let mut bytes = [0u8; 8];
        if let (Some(dst), Some(src)) = (bytes.get_mut(..take), rest.get(..take)) {
            dst.copy_from_slice(src);
        }
        self.word |= u64::from_le_bytes(bytes) << self.cached;
        self.next_byte += take;
        self.cached += take as u32 * 8;
    }

    /// The slow half of `read`: a field wider than 56 bits, or one near the end of the
    /// input. Reads it in two halves of at most 32 bits.
    #[cold]
    #[inline(never)]
    fn read_slow(&mut self, width: u32) -> Result<u64> {
        if width == 0 {
            return Ok(0);
        }
        if width as u64 > self.bits_left() {
            return Err(self.truncated(width as u64));
        }
        let low_width = width.min(32);
        let low = self.take_small(low_width);
        let high = self.take_small(width - low_width);
        Ok(low | (high << low_width))
    }

    /// Takes `width` (at most 32) bits known to be in the input.
    fn take_small(&mut self, width: u32) -> u64 {
        debug_assert!(width <= 32 && width as u64 <= self.bits_left());
        if width > self.cached {
            // At most 31 bits cached, so this adds at least four bytes or all that is left.
            self.top_up_from_tail();
        }
        let value = self.word & ((1u64 << width) - 1);
        self.word = shift_right(self.word, width);
        self.cached -= width;
        value
    }

    /// Reads a VBR field with chunks of `width` bits (1..=64) as LLVM's `ReadVBR64` does:
    /// each chunk holds `width - 1` value bits and a continuation bit on top. A chunk that
    /// would start at bit 64 of the value or beyond is an error; bits of the last chunk that
    /// fall beyond bit 63 are dropped; 1-bit chunks carry no value bits, so such a field is
    /// 0 and ends at the first clear bit.
    #[inline(always)]
    pub fn read_vbr(&mut self, width: u32) -> Result<u64> {
        debug_assert!((1..=64).contains(&width));
        // The widths LLVM's writers use get a loop-free decoder each.
        match width {
            4 => self.read_vbr_of::<4, 64>(),
            5 => self.read_vbr_of::<5, 64>(),
            6 => self.read_vbr_of::<6, 64>(),
            8 => self.read_vbr_of::<8, 64>(),
            _ => self.read_vbr_any(width, 64),
        }
    }

    /// Reads a VBR field of at most 32 bits of value, as LLVM's `ReadVBR` reads record
    /// codes, counts, block ids and abbreviation widths: like [`BitReader::read_vbr`] with
    /// bit 32 in place of bit 64 (a chunk starting there is an error, bits beyond it of the
    /// last chunk are dropped).
    #[inline(always)]
    pub fn read_vbr32(&mut self, width: u32) -> Result<u64> {
        debug_assert!((1..=32).contains(&width));
        match width {
            4 => self.read_vbr_of::<4, 32>(),
            5 => self.read_vbr_of::<5, 32>(),
            6 => self.read_vbr_of::<6, 32>(),
            8 => self.read_vbr_of::<8, 32>(),
            _ => self.read_vbr_any(width, 32),
        }
    }

    /// `read_vbr` (`LIMIT` 64) or `read_vbr32` (`LIMIT` 32) for a chunk width known at
    /// compile time: a one-chunk value is a mask and a shift; a longer one is decoded from
    /// the cached word without a loop.
    #[inline(always)]
    fn read_vbr_of<const W: u32, const LIMIT: u32>(&mut self) -> Result<u64> {
        // With two chunks cached (a top-up gives 56 bits), one- and two-chunk values (most
        // fields; two chunks hold type ids, absolute value ids, sizes) are masks and shifts.
        // Two chunks of at most 8 bits stay below bit 32, so neither limit is reached.
        if 2 * W <= self.cached || self.top_up() {
            let piece = self.word & VbrChunks::<W>::CHUNK;
            if piece & VbrChunks::<W>::CONTINUE == 0 {
                self.word >>= W;
                self.cached -= W;
                return Ok(piece);
            }
            let second = (self.word >> W) & VbrChunks::<W>::CHUNK;
            if second & VbrChunks::<W>::CONTINUE == 0 {
                self.word >>= 2 * W;
                self.cached -= 2 * W;
                return Ok((piece & (VbrChunks::<W>::CONTINUE - 1)) | (second << (W - 1)));
            }
        }
        if LIMIT == 64 {
            self.read_vbr_multi::<W>()
        } else {
            self.read_vbr_any(W, LIMIT)
        }
    }

    /// Appends `count` VBR fields of `W`-bit chunks to `out` (an unabbreviated record's
    /// operands, an array's elements), a cached word at a time: the continuation bits of
    /// the chunks in the word say where each field in it ends, one trailing-zeros count a
    /// field with no test of its length, and the word is topped up when the next field does
    /// not end in it. Near the end of the input, and for a field longer than the word, the
    /// fields are read one by one.
    // One test per word of fields instead of two or three per field: on clang14 sqlite3
    // O2, whose operands are a mix of one-, two- and three-chunk values, the raw walk took
    // 12% less time.
    #[inline(always)]
    pub(crate) fn read_vbr_run<const W: u32>(&mut self, count: u64, out: &mut Vec<u64>) -> Result<()> {
        let start = out.len();
        out.resize(start + count as usize, 0);
        // The fields are taken from copies of the cached word and its bit count, written
        // back only around a top-up and at the end, and stored through a slice. The
        // reader's own fields stay in memory (its address goes to the slow paths), and a
        // store to `out` might alias them: a reload after every operand was the loop's
        // critical path.
        let (mut word, mut cached, mut stops) = (self.word, self.cached, 0);
        for slot in out.get_mut(start..).unwrap_or_default() {
            if stops == 0 {
                (self.word, self.cached) = (word, cached);
                stops = self.window_stops::<W>();
                if stops == 0 {
                    // Near the end of the input, or longer than the cached word.
                    *slot = self.read_vbr_any(W, 64)?;
                    (word, cached) = (self.word, self.cached);
                    continue;
                }
                (word, cached) = (self.word, self.cached);
            }
            *slot = VbrChunks::<W>::take(&mut word, &mut cached, &mut stops);
        }
        (self.word, self.cached) = (word, cached);
        Ok(())
    }

    /// Reads `count` fixed fields of `width` bits (1 to [`FAST_WIDTH`]) into `out`, each
    /// mapped by `map`: as many from each cached word as it holds, one by one near the end
    /// of the input (`count` is checked against the bits left by the caller).
    // An array of names (char6 or 8-bit) is most of a function's symbol table: a field at a
    // time through `read`, each tested for the cache, cost twice as much.
    #[inline(always)]
    pub(crate) fn read_fixed_run(
        &mut self,
        width: u32,
        count: u64,
        map: impl Fn(u64) -> u64,
        out: &mut Vec<u64>,
    ) -> Result<()> {
        debug_assert!((1..=FAST_WIDTH).contains(&width));
        let start = out.len();
        out.resize(start + count as usize, 0);
        let mask = (1u64 << width) - 1;
        let (mut word, mut cached) = (self.word, self.cached);
        for slot in out.get_mut(start..).unwrap_or_default() {
            if cached < width {
                (self.word, self.cached) = (word, cached);
                if !self.top_up() {
                    *slot = map(self.read(width)?);
                    (word, cached) = (self.word, self.cached);
                    continue;
                }
                (word, cached) = (self.word, self.cached);
            }
            *slot = map(word & mask);
            word >>= width;
            cached -= width;
        }
        (self.word, self.cached) = (word, cached);
        Ok(())
    }

    /// Tops the cached word up to a full window and gives the continuation bits of the
    /// `W`-bit chunks in it that are clear: where the fields in the window end. 0 when no
    /// field ends in it, or near the end of the input.
    #[inline(always)]
    fn window_stops<const W: u32>(&mut self) -> u64 {
        if self.cached >= FAST_WIDTH || self.top_up() {
            !self.word & VbrChunks::<W>::CONTINUE_BITS
        } else {
            0
        }
    }

    /// A VBR field of `W`-bit chunks that is longer than one chunk or crosses the cached
    /// word. With 56 bits cached, the first chunk whose continuation bit is clear is found
    /// with one trailing-zeros count, and the payloads are packed together in a few shifts.
    #[inline(never)]
    fn read_vbr_multi<const W: u32>(&mut self) -> Result<u64> {
        let mut stops = self.window_stops::<W>();
        if stops == 0 {
            return self.read_vbr_any(W, 64);
        }
        Ok(VbrChunks::<W>::take(&mut self.word, &mut self.cached, &mut stops))
    }

    /// `read_vbr` for any chunk width, with `limit` bits of value (64 or 32): chunk by
    /// chunk.
    #[inline(never)]
    fn read_vbr_any(&mut self, width: u32, limit: u32) -> Result<u64> {
        let piece = self.read(width)?;
        let continue_bit = 1u64 << (width - 1);
        if piece & continue_bit == 0 {
            Ok(piece)
        } else {
            self.read_vbr_rest(piece, width, limit)
        }
    }

    /// The chunks after the first of a VBR field, one at a time, with LLVM's rules: no chunk
    /// may start at bit `limit` of the value or beyond; value bits past `limit` are dropped.
    #[cold]
    fn read_vbr_rest(&mut self, first: u64, width: u32, limit: u32) -> Result<u64> {
        let payload_bits = width - 1;
        let continue_bit = 1u64 << payload_bits;
        let payload_mask = continue_bit - 1;
        let mut value = first & payload_mask;
        let mut shift = payload_bits;
        let mut chunks = 1u64;
        loop {
            // With 1-bit chunks the shift stays 0: the field runs to the first clear bit,
            // which the input's end bounds.
            if shift >= limit {
                return Err(self.vbr_overflow(width, limit, chunks));
            }
            let piece = match self.read(width) {
                Ok(p) => p,
                Err(e) => return Err(self.vbr_truncated(e, width, chunks)),
            };
            chunks += 1;
            value |= (piece & payload_mask) << shift;
            if piece & continue_bit == 0 {
                return Ok(if limit < 64 { value & ((1u64 << limit) - 1) } else { value });
            }
            shift += payload_bits;
        }
    }

    /// A VBR overflow error at the start of the field, `chunks` chunks back.
    #[cold]
    fn vbr_overflow(&self, width: u32, limit: u32, chunks: u64) -> Error {
        let start = self.position() - chunks * width as u64;
        Error::new(ErrorKind::VbrOverflow { chunk_width: width, value_bits: limit }, start)
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
    ///
    /// In an input that is not whole 32-bit words (only a wrapper's stream can be), the
    /// last 64-bit word is aligned as LLVM aligns it: its `SkipToFourByteBoundary` keeps
    /// the word's last 32 bits when at least 32 are left, else drops the word.
    pub fn align32(&mut self) {
        let pos = self.position();
        if !self.len_bits().is_multiple_of(32) {
            return self.align32_in_a_partial_stream(pos);
        }
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

    /// `align32` as LLVM's cursor does it, which reads 64-bit words from the stream's
    /// start and the rest of the stream as its last word.
    #[cold]
    fn align32_in_a_partial_stream(&mut self, pos: u64) {
        if pos.is_multiple_of(64) {
            return;
        }
        let word_end = (pos / 64 * 64 + 64).min(self.len_bits());
        let target = if word_end - pos >= 32 { word_end - 32 } else { word_end };
        // In range by construction, so this cannot fail.
        let _ = self.jump_to(target);
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
            self.top_up_from_tail();
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
    fn fixed_runs_read_what_fields_read_one_by_one() {
        // Runs of every small width, long enough to cross several cached words and short
        // enough to end inside the last eight bytes (where the cache cannot be topped up),
        // after a lead-in that leaves the cache at each offset.
        for width in 1..=FAST_WIDTH {
            for lead in [0u32, 3, 13] {
                for count in [0u64, 1, 5, 40] {
                    let mut fields = vec![(5u64 & ((1 << lead) - 1), lead)];
                    fields.extend((0..count).map(|i| ((i * 0x9E37_79B9) & ((1u64 << width) - 1), width)));
                    let data = pack(&fields);
                    let mut run = BitReader::new(&data);
                    run.read(lead).unwrap();
                    let mut got = vec![7];
                    run.read_fixed_run(width, count, |v| v + 1, &mut got).unwrap();
                    let mut one = BitReader::new(&data);
                    one.read(lead).unwrap();
                    let mut want = vec![7];
                    for _ in 0..count {
                        want.push(one.read(width).unwrap() + 1);
                    }
                    assert_eq!(got, want, "width {width}, lead {lead}, count {count}");
                    assert_eq!(run.position(), one.position());
                }
            }
        }
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
        // One more bit set in the last chunk falls off the top: LLVM drops it.
        let last = f.len() - 1;
        f[last].0 = 0x3;
        assert_eq!(BitReader::new(&pack(&f)).read_vbr(8).unwrap(), u64::MAX);
        // A chunk starting at bit 64 or later is an error even when it is zero.
        let mut long = vec![(0x3f, 6); 13];
        long.push((0, 6));
        let long = pack(&long);
        let mut r = BitReader::new(&long);
        let err = r.read_vbr(6).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 64 });
        assert_eq!(err.bit_offset(), 0);
        // 1-bit chunks carry no value: the field is 0 and ends at the first clear bit, or
        // runs into the end of the input.
        assert!(BitReader::new(&[0xff]).read_vbr(1).is_err());
        let mut r = BitReader::new(&[0b0111_1111]);
        assert_eq!(r.read_vbr(1).unwrap(), 0);
        assert_eq!(r.position(), 8);
        assert_eq!(BitReader::new(&[0x00]).read_vbr(1).unwrap(), 0);
    }

    #[test]
    fn vbr32_truncates_and_stops_at_bit_32_like_llvm_read_vbr() {
        // Seven VBR6 chunks reach bit 35: bits 32 and up of the last chunk are dropped.
        let seven = pack(&[(0x3f, 6), (0x3f, 6), (0x3f, 6), (0x3f, 6), (0x3f, 6), (0x3f, 6), (0x1f, 6)]);
        assert_eq!(BitReader::new(&seven).read_vbr32(6).unwrap(), u64::from(u32::MAX));
        assert_eq!(BitReader::new(&seven).read_vbr(6).unwrap(), (1 << 35) - 1);
        // An eighth chunk would start at bit 35: an error, even when it is zero.
        let mut eight = vec![(0x3f, 6); 7];
        eight.push((0, 6));
        let err = BitReader::new(&pack(&eight)).read_vbr32(6).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 32 });
        assert_eq!(BitReader::new(&pack(&eight)).read_vbr(6).unwrap(), (1 << 35) - 1);
        // Short values read the same either way, at every width.
        for width in [4u32, 5, 6, 8, 3, 32] {
            let data = pack(&vbr_chunks(1234, width));
            assert_eq!(BitReader::new(&data).read_vbr32(width).unwrap(), 1234, "width {width}");
        }
    }

    /// VBR chunks of `value` (as LLVM's writer emits them).
    fn vbr_chunks(mut value: u64, width: u32) -> Vec<(u64, u32)> {
        let payload = width - 1;
        let mut out = Vec::new();
        while value >> payload != 0 {
            out.push(((value & ((1 << payload) - 1)) | (1 << payload), width));
            value >>= payload;
        }
        out.push((value, width));
        out
    }

    #[test]
    fn vbr_of_every_width_and_length_at_every_alignment() {
        // Values of every bit length, at every offset within the word, followed by a
        // marker: the fast paths (one chunk, packed in the window) and the chunk-by-chunk
        // path (longer than the window, near the end) must agree.
        for width in 2..=20u32 {
            for bits in 0..=64u32 {
                let value = if bits == 0 {
                    0
                } else {
                    u64::MAX >> (64 - bits) & 0xB5C3_96E1_7A4D_2F08 | 1 << (bits - 1)
                };
                for lead in [0u32, 1, 7, 13, 31, 50, 63] {
                    let mut fields = vec![(0, lead)];
                    fields.extend(vbr_chunks(value, width));
                    fields.push((0x2d, 6));
                    let data = pack(&fields);
                    let mut r = BitReader::new(&data);
                    r.read(lead).unwrap();
                    assert_eq!(r.read_vbr(width).unwrap(), value, "width {width}, {bits} bits, lead {lead}");
                    assert_eq!(r.read(6).unwrap(), 0x2d, "width {width}, {bits} bits, lead {lead}");
                }
            }
        }
    }

    #[test]
    fn vbr_runs_read_what_field_by_field_reads() {
        // Runs of VBR6 values of every length from 0 to 64 bits (longer than the cached
        // word too), after every lead-in, then a marker; and the same cut short.
        let mut values = Vec::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..400u32 {
            x = x.rotate_left(13) ^ (x >> 7) ^ u64::from(i);
            let bits = i % 65;
            values.push(if bits == 0 { 0 } else { x >> (64 - bits) });
        }
        for lead in [0u32, 1, 5, 29, 63] {
            let mut fields = vec![(0, lead)];
            for &v in &values {
                fields.extend(vbr_chunks(v, 6));
            }
            fields.push((0x2d, 6));
            let data = pack(&fields);
            let mut r = BitReader::new(&data);
            r.read(lead).unwrap();
            let mut out = Vec::new();
            r.read_vbr_run::<6>(values.len() as u64, &mut out).unwrap();
            assert_eq!(out, values, "lead {lead}");
            assert_eq!(r.read(6).unwrap(), 0x2d, "lead {lead}");
            // Cut inside the last value: the same error as reading field by field.
            let cut = &data[..data.len() - 2];
            let (mut a, mut b) = (BitReader::new(cut), BitReader::new(cut));
            a.read(lead).unwrap();
            b.read(lead).unwrap();
            let run = a.read_vbr_run::<6>(values.len() as u64, &mut Vec::new()).unwrap_err();
            let one_by_one = (0..values.len()).find_map(|_| b.read_vbr(6).err()).unwrap();
            assert_eq!(
                (run.kind(), run.bit_offset()),
                (one_by_one.kind(), one_by_one.bit_offset()),
                "lead {lead}"
            );
        }
        // An overflowing value stops the run with the same error.
        let data = pack(&[(0x3f, 6); 14]);
        let run = BitReader::new(&data).read_vbr_run::<6>(1, &mut Vec::new()).unwrap_err();
        let one = BitReader::new(&data).read_vbr(6).unwrap_err();
        assert_eq!((run.kind(), run.bit_offset()), (one.kind(), one.bit_offset()));
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
    fn align_in_a_stream_of_partial_words_is_llvms() {
        // 14 bytes: one 64-bit word, then a last word of 48 bits.
        let data: Vec<u8> = (0..14).collect();
        for (from, to, why) in [
            (3, 32, "a whole word aligns as usual"),
            (67, 64 + 16, "45 bits left in the last word: its last 32 kept"),
            (64 + 20, 112, "28 bits left in the last word: the word dropped"),
            (64, 64, "at a word's start nothing moves"),
        ] {
            let mut r = BitReader::new(&data);
            r.jump_to(from).unwrap();
            r.align32();
            assert_eq!(r.position(), to, "{why}");
        }
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
