//! Mutations of a stream: bits flipped, bytes and words overwritten, words deleted,
//! inserted or repeated, the stream cut short.

use std::fmt;

use rand::{Rng, RngExt};

/// One change to a stream.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// These bits flipped.
    FlipBits(Vec<u64>),
    /// The byte at `at` set to `value`.
    SetByte { at: usize, value: u8 },
    /// The little-endian 32-bit word at byte `at` (a multiple of 4) set to `value`.
    SetWord { at: usize, value: u32 },
    /// The 32-bit word at byte `at` taken out.
    DeleteWord { at: usize },
    /// A 32-bit word inserted at byte `at`.
    InsertWord { at: usize, value: u32 },
    /// The 32-bit word at byte `at` written twice.
    RepeatWord { at: usize },
    /// Only the first `len` bytes kept.
    Truncate { len: usize },
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mutation::FlipBits(bits) => write!(f, "bits {bits:?} flipped"),
            Mutation::SetByte { at, value } => write!(f, "byte {at} set to {value:#04x}"),
            Mutation::SetWord { at, value } => write!(f, "word at byte {at} set to {value:#010x}"),
            Mutation::DeleteWord { at } => write!(f, "word at byte {at} deleted"),
            Mutation::InsertWord { at, value } => write!(f, "word {value:#010x} inserted at byte {at}"),
            Mutation::RepeatWord { at } => write!(f, "word at byte {at} repeated"),
            Mutation::Truncate { len } => write!(f, "cut to {len} bytes"),
        }
    }
}

/// A 32-bit value of the kind that matters in a bitstream: small counts and lengths,
/// all ones, or any.
fn interesting_word(rng: &mut impl Rng) -> u32 {
    match rng.random_range(0..4) {
        0 => rng.random_range(0..16),
        1 => u32::MAX,
        _ => rng.random::<u32>(),
    }
}

impl Mutation {
    /// A random mutation of a stream of `len` bytes (at least 8), never of its first four
    /// bytes (the magic, which would make it another format or none).
    pub fn random(rng: &mut impl Rng, len: usize) -> Mutation {
        let at_word = 4 * rng.random_range(1..(len / 4).max(2));
        match rng.random_range(0..12) {
            0..=3 => {
                let n = if rng.random_range(0..3) == 0 { rng.random_range(2..=8) } else { 1 };
                Mutation::FlipBits((0..n).map(|_| rng.random_range(32..len as u64 * 8)).collect())
            }
            4 | 5 => {
                let value = match rng.random_range(0..3) {
                    0 => 0,
                    1 => 0xff,
                    _ => rng.random::<u8>(),
                };
                Mutation::SetByte { at: rng.random_range(4..len), value }
            }
            6 => Mutation::SetWord { at: at_word, value: interesting_word(rng) },
            7 => Mutation::DeleteWord { at: at_word },
            8 => Mutation::InsertWord { at: at_word, value: interesting_word(rng) },
            9 => Mutation::RepeatWord { at: at_word },
            _ => {
                let cut = rng.random_range(4..len);
                // Mostly a whole number of words, the only lengths a reader goes into.
                let len = if rng.random_range(0..8) == 0 { cut } else { cut / 4 * 4 };
                Mutation::Truncate { len }
            }
        }
    }

    /// The mutant of `bytes`.
    pub fn apply(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        let word_range = |at: usize| at..(at + 4).min(bytes.len());
        match *self {
            Mutation::FlipBits(ref bits) => {
                for &bit in bits {
                    if let Some(byte) = out.get_mut((bit / 8) as usize) {
                        *byte ^= 1 << (bit % 8);
                    }
                }
            }
            Mutation::SetByte { at, value } => {
                if let Some(byte) = out.get_mut(at) {
                    *byte = value;
                }
            }
            Mutation::SetWord { at, value } => {
                let range = word_range(at);
                let n = range.len();
                out[range].copy_from_slice(&value.to_le_bytes()[..n]);
            }
            Mutation::DeleteWord { at } => {
                out.drain(word_range(at));
            }
            Mutation::InsertWord { at, value } => {
                let at = at.min(out.len());
                out.splice(at..at, value.to_le_bytes());
            }
            Mutation::RepeatWord { at } => {
                let word = bytes[word_range(at)].to_vec();
                let at = at.min(out.len());
                out.splice(at..at, word);
            }
            Mutation::Truncate { len } => out.truncate(len),
        }
        out
    }
}
