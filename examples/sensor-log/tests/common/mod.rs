//! Helpers shared by the tests: hand-made streams, as other (older, newer, broken)
//! writers would make them.

#![allow(dead_code)] // each test file uses its own subset

use bitcode_schema::runtime::writer::StreamWriter;
use sensor_log::generated::MAGIC;

/// One entry of a hand-made stream: a block of entries, or an unabbreviated record.
pub enum Item {
    /// A block with this id holding these items.
    Block(u32, Vec<Item>),
    /// A record: code and operands.
    Record(u32, Vec<u64>),
}

pub use Item::{Block, Record};

/// A SLOG stream of `items` (top level: blocks only), written without BLOCKINFO or
/// abbreviations, as a minimal writer would.
pub fn stream(items: &[Item]) -> Vec<u8> {
    fn put(w: &mut StreamWriter, item: &Item) {
        match item {
            Item::Block(id, items) => {
                w.enter_block(*id, 3).unwrap();
                for item in items {
                    put(w, item);
                }
                w.end_block().unwrap();
            }
            Item::Record(code, ops) => w.unabbreviated_record(*code, ops).unwrap(),
        }
    }
    let mut w = StreamWriter::new(MAGIC);
    for item in items {
        put(&mut w, item);
    }
    w.finish().unwrap()
}

/// The operands of a text: its bytes.
pub fn text(s: &str) -> Vec<u64> {
    s.bytes().map(u64::from).collect()
}

/// Signed VBR as LLVM writes it.
pub fn signed(v: i64) -> u64 {
    bitcode_schema::runtime::decode::encode_signed(v)
}

/// Block ids and record codes of the format, spelt out as a foreign writer would.
pub const HEADER: u32 = 8;
pub const SENSOR_BLOCK: u32 = 9;
pub const VERSION: u32 = 1;
pub const DEVICE: u32 = 2;
pub const PERIOD: u32 = 3;
pub const UNIT: u32 = 4;
pub const ATTRIBUTES: u32 = 5;
pub const SENSOR: u32 = 1;
pub const READINGS: u32 = 2;
pub const NOTE: u32 = 3;
