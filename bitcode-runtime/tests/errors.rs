//! Every error the reader can produce, one test per [`ErrorKind`] (and per
//! [`AbbrevProblem`]), each on a stream made by [`StreamWriter`]: the valid parts through its
//! structured methods, the malformed field through its raw [`BitWriter`].
//!
//! Each test shows the exact kind, the exact absolute bit offset (taken from the writer's
//! position just before the offending field is written), the block path, and that the
//! message says "at bit N". The offsets follow one convention: an error points at the start
//! of the field that is wrong — the abbreviation id of the entry for structural problems
//! (undefined ids, END_BLOCK, blocks in the wrong place, BLOCKINFO records), the field
//! itself for truncation, VBR, width and count problems, the length word for a block that
//! runs past the input, and the offending DEFINE_ABBREV operand for an invalid abbreviation
//! (its operand count when it has none).

use bitcode_schema_runtime::cursor::abbrev_ids;
use bitcode_schema_runtime::writer::{wrap, BitWriter, StreamWriter};
use bitcode_schema_runtime::AbbrevOp::{Array, Blob, Literal, Scalar};
use bitcode_schema_runtime::ScalarEncoding::{Char6, Fixed, Vbr};
use bitcode_schema_runtime::{
    Abbrev, AbbrevOp, AbbrevProblem, Bitstream, Cursor, Entry, Error, ErrorKind, Input, Magic,
};

const U32_MAX: u64 = u32::MAX as u64;

/// Walks `bytes` as one plain bitstream and returns the first error; fails if there is none.
fn first_error(bytes: &[u8]) -> Error {
    first_error_with(bytes, |_| {})
}

/// Like [`first_error`], after `setup` has adjusted the cursor.
///
/// A stream cut inside a 32-bit word is read by a cursor made over it directly: the
/// container refuses such a stream before reading it (see `plain_length_not_words`), but the
/// cursor reads one to where the cut is, as LLVM's `BitstreamCursor` does, and that is what
/// the truncation tests look at.
fn first_error_with(bytes: &[u8], setup: impl FnOnce(&mut Cursor<'_>)) -> Error {
    if !bytes.len().is_multiple_of(4) {
        return walk(Cursor::new(bytes, 32, 0), setup);
    }
    let stream = match Bitstream::new(bytes) {
        Ok(stream) => stream,
        Err(e) => return e,
    };
    walk(stream.cursor(), setup)
}

/// Walks a cursor to its first error; fails if the walk ends without one.
fn walk(mut cursor: Cursor<'_>, setup: impl FnOnce(&mut Cursor<'_>)) -> Error {
    setup(&mut cursor);
    for _ in 0..100_000 {
        match cursor.next_entry() {
            Ok(Some(_)) => {}
            Ok(None) => panic!("the stream was read to its end without an error"),
            Err(e) => return e,
        }
    }
    panic!("the walk does not end")
}

/// Asserts the whole error: kind, absolute bit offset, block path, and the offset in words.
#[track_caller]
fn check(err: &Error, kind: ErrorKind, bit: u64, path: &[u32]) {
    assert_eq!(err.kind(), &kind, "{err}");
    assert_eq!(err.bit_offset(), bit, "{err}");
    assert_eq!(err.block_path(), path, "{err}");
    let text = err.to_string();
    assert!(text.contains(&format!("(at bit {bit},")), "the message does not say at bit {bit}: {text}");
}

/// The bytes of a stream whose blocks are still open. Their length words keep the writer's
/// placeholder, 0, which the reader checks only at the block's END_BLOCK.
fn unfinished(w: &mut StreamWriter) -> Vec<u8> {
    w.bits().bytes().to_vec()
}

fn abbrev(ops: Vec<AbbrevOp>) -> Abbrev {
    Abbrev::new(ops).expect("a valid abbreviation")
}

/// Enters a block; returns the byte offset of its length word.
fn enter(w: &mut StreamWriter, id: u32, width: u32) -> usize {
    w.enter_block(id, width).expect("a valid block");
    (w.bits().position() / 8) as usize - 4
}

/// Writes the DEFINE_ABBREV abbreviation id and an operand count; returns where the count
/// starts.
fn define_abbrev_header(w: &mut StreamWriter, count: u64) -> u64 {
    let width = w.abbrev_width();
    let b = w.bits();
    b.write(abbrev_ids::DEFINE_ABBREV as u64, width);
    let at = b.position();
    b.write_vbr(count, 5).unwrap();
    at
}

/// Writes an UNABBREV_RECORD field by field, for records the writer refuses (BLOCKINFO
/// records a reader cannot apply).
fn raw_unabbreviated_record(w: &mut StreamWriter, code: u32, ops: &[u64]) {
    let width = w.abbrev_width();
    let b = w.bits();
    b.write(abbrev_ids::UNABBREV_RECORD as u64, width);
    b.write_vbr(code as u64, 6).unwrap();
    b.write_vbr(ops.len() as u64, 6).unwrap();
    for &op in ops {
        b.write_vbr(op, 6).unwrap();
    }
}

/// Writes a literal DEFINE_ABBREV operand; returns where it starts.
fn literal_op(b: &mut BitWriter, value: u64) -> u64 {
    let at = b.position();
    b.write(1, 1);
    b.write_vbr(value, 8).unwrap();
    at
}

/// Writes an encoded DEFINE_ABBREV operand (with a VBR5 width when given); returns where
/// it starts.
fn encoding_op(b: &mut BitWriter, encoding: u64, width: Option<u64>) -> u64 {
    let at = b.position();
    b.write(0, 1);
    b.write(encoding, 3);
    if let Some(width) = width {
        b.write_vbr(width, 5).unwrap();
    }
    at
}

const FIXED: u64 = 1;
const VBR: u64 = 2;
const ARRAY: u64 = 3;
const BLOB: u64 = 5;

/// A DEFINE_ABBREV of `count` operands written by `ops` in block 8, after a valid record
/// and a valid abbreviation; `ops` returns where the operand that breaks a rule starts.
fn check_invalid_abbrev(count: u64, ops: impl FnOnce(&mut BitWriter) -> u64, problem: AbbrevProblem) {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.unabbreviated_record(1, &[7, 8]).unwrap();
    w.define_abbrev(abbrev(vec![Literal(1), Scalar(Fixed(4))])).unwrap();
    define_abbrev_header(&mut w, count);
    let at = ops(w.bits());
    let bytes = unfinished(&mut w);
    check(&first_error(&bytes), ErrorKind::InvalidAbbrev(problem), at, &[8]);
}

/// A DEFINE_ABBREV of `count` operands written by `ops` in block 8 as abbreviation 5,
/// which LLVM accepts when it is defined but no record can use: a stream that leaves it
/// unused reads to its end; a record that uses it is an error at the record.
fn check_unusable_abbrev(count: u64, ops: impl Fn(&mut BitWriter), problem: AbbrevProblem) {
    let define = |w: &mut StreamWriter| {
        enter(w, 8, 3);
        w.define_abbrev(abbrev(vec![Literal(1), Scalar(Fixed(4))])).unwrap();
        define_abbrev_header(w, count);
        ops(w.bits());
        w.unabbreviated_record(2, &[7, 8]).unwrap();
    };
    let mut w = StreamWriter::llvm_ir();
    define(&mut w);
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut entries = 0;
    while cursor.next_entry().unwrap_or_else(|e| panic!("{problem:?}: {e}")).is_some() {
        entries += 1;
    }
    assert_eq!(entries, 3, "{problem:?}");

    let mut w = StreamWriter::llvm_ir();
    define(&mut w);
    let record = w.bits().position();
    w.bits().write(5, 3);
    w.bits().write(0, 32);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::UnusableAbbrev { id: 5, problem }, record, &[8]);
}

// ---- Truncated ----

/// The input ends inside a fixed-width operand: the error is at the field's first bit.
#[test]
fn truncated_inside_a_fixed_field() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(1), Scalar(Fixed(40))])).unwrap();
    let record = w.bits().position();
    w.abbreviated_record(id, 1, &[0xAB_CDEF_0123], None).unwrap();
    let field = record + 3; // after the 3-bit abbreviation id; the literal code takes no bits
    let cut = (field + 1).next_multiple_of(8);
    assert!(cut < field + 40);
    let bytes = &unfinished(&mut w)[..(cut / 8) as usize];
    let err = first_error(bytes);
    check(&err, ErrorKind::Truncated { needed: 40, left: cut - field }, field, &[8]);
}

/// The input ends inside the second chunk of a VBR6 operand: the error is at the VBR's first
/// chunk, and says how many bits the failing chunk needed.
#[test]
fn truncated_inside_the_second_chunk_of_a_vbr() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let record = w.bits().position();
    assert_eq!(record % 32, 0);
    w.unabbreviated_record(4, &[40_000]).unwrap(); // 40000 takes four VBR6 chunks
    let operand = record + 3 + 6 + 6; // abbreviation id, code, operand count
    let cut = record + 24; // a byte boundary inside the second chunk
    assert!(operand + 6 < cut && cut < operand + 12);
    let bytes = &unfinished(&mut w)[..(cut / 8) as usize];
    let err = first_error(bytes);
    check(&err, ErrorKind::Truncated { needed: 6, left: cut - (operand + 6) }, operand, &[8]);
}

/// The input ends inside an array of VBR6 elements whose count still fits the bits left:
/// the error is at the element being read.
#[test]
fn truncated_inside_an_array() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(2), Array(Vbr(6))])).unwrap();
    let record = w.bits().position();
    let elements = [100, 200, 300, 400, 500, 600]; // two VBR6 chunks each
    w.abbreviated_record(id, 2, &elements, None).unwrap();
    let first = record + 3 + 6; // abbreviation id, then the one-chunk count
    assert_eq!(w.bits().position(), first + 12 * elements.len() as u64);
    // The count check passes (6 elements of at least 6 bits fit), the fourth element does not.
    let cut = (first + 40).next_multiple_of(8);
    let element = first + 36;
    assert!(element < cut && cut < element + 12);
    let (needed, left) = if cut - element < 6 { (6, cut - element) } else { (6, cut - element - 6) };
    let bytes = &unfinished(&mut w)[..(cut / 8) as usize];
    let err = first_error(bytes);
    check(&err, ErrorKind::Truncated { needed, left }, element, &[8]);
}

/// The input ends inside a blob's bytes, or inside its closing alignment: the reader checks
/// the padded length against the bits left before taking the bytes, so this is a
/// [`ErrorKind::CountTooLarge`] at the blob's length field (never a `Truncated`).
#[test]
fn truncated_inside_a_blob() {
    for (len, kept) in [(40u64, 10u64), (38, 38)] {
        let mut w = StreamWriter::llvm_ir();
        enter(&mut w, 8, 3);
        let id = w.define_abbrev(abbrev(vec![Literal(3), Blob])).unwrap();
        let record = w.bits().position();
        let blob: Vec<u8> = (0..len as u8).collect();
        w.abbreviated_record(id, 3, &[], Some(&blob)).unwrap();
        let length_field = record + 3;
        let data = (length_field + 12).next_multiple_of(32); // two VBR6 chunks, then alignment
        let cut = data + kept * 8;
        let bytes = &unfinished(&mut w)[..(cut / 8) as usize];
        let err = first_error(bytes);
        let kind = ErrorKind::CountTooLarge { what: "blob bytes", count: len, bits_left: kept * 8 };
        check(&err, kind, length_field, &[8]);
    }
}

/// The input ends inside a nested block's 32-bit length word. As in LLVM, whose cursor
/// reads the header's word and the 2 bytes after it as one 48-bit last word, the alignment
/// before the length word moves to 32 bits before the input's end: the "length word" is the
/// header's padding and the cut word's 2 bytes, and the error comes at the end of the
/// input, reading the new block's first abbreviation id.
#[test]
fn truncated_inside_a_block_length_word() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.unabbreviated_record(1, &[1]).unwrap();
    let length_at = enter(&mut w, 9, 4);
    let bytes = &unfinished(&mut w)[..length_at + 2];
    let err = first_error(bytes);
    check(&err, ErrorKind::Truncated { needed: 4, left: 0 }, bytes.len() as u64 * 8, &[8, 9]);
}

/// The input ends in the middle of a record's 20-bit abbreviation id: the error is at the id.
#[test]
fn truncated_inside_an_abbreviation_id() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 20);
    w.unabbreviated_record(1, &[1, 2, 3]).unwrap();
    let id = w.bits().position();
    w.unabbreviated_record(2, &[4]).unwrap();
    let cut = (id + 1).next_multiple_of(8);
    let bytes = &unfinished(&mut w)[..(cut / 8) as usize];
    let err = first_error(bytes);
    check(&err, ErrorKind::Truncated { needed: 20, left: cut - id }, id, &[8]);
}

/// An input shorter than the four-byte magic is a truncation at bit 0.
#[test]
fn truncated_inside_the_magic() {
    let bytes = StreamWriter::llvm_ir().finish().unwrap();
    let err = Bitstream::new(&bytes[..3]).unwrap_err();
    check(&err, ErrorKind::Truncated { needed: 32, left: 24 }, 0, &[]);
}

/// Bytes after the last top-level block must start another block, as llvm-bcanalyzer
/// (and clang's readers) require: zero bytes there read as an END_BLOCK at the top level.
#[test]
fn zero_bytes_after_the_last_block_are_an_end_block_at_the_top_level() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.unabbreviated_record(1, &[1]).unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let end = bytes.len() as u64 * 8;
    for extra in [1, 4, 7] {
        let mut padded = bytes.clone();
        padded.extend(std::iter::repeat_n(0, extra));
        check(&first_error(&padded), ErrorKind::EndBlockAtTopLevel, end, &[]);
    }
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut entries = 0;
    while cursor.next_entry().unwrap().is_some() {
        entries += 1;
    }
    assert_eq!(entries, 3);
}

// ---- VbrOverflow ----

/// A VBR6 operand with a fourteenth chunk (it would start at bit 65 of the value), and a
/// record code with an eighth VBR6 chunk (at bit 35, past LLVM's 32-bit reads of codes):
/// both are overflows at the field's first bit.
#[test]
fn vbr_overflow() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.unabbreviated_record(1, &[u64::MAX]).unwrap(); // the largest value is fine
    let b = w.bits();
    b.write(abbrev_ids::UNABBREV_RECORD as u64, 3);
    b.write_vbr(4, 6).unwrap();
    b.write_vbr(1, 6).unwrap();
    let operand = b.position();
    for _ in 0..13 {
        b.write(0x3f, 6); // 31 and the continuation bit
    }
    b.write(0, 6);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 64 }, operand, &[8]);

    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let b = w.bits();
    b.write(abbrev_ids::UNABBREV_RECORD as u64, 3);
    let code = b.position();
    for _ in 0..7 {
        b.write(0x20, 6); // 0 and the continuation bit
    }
    b.write(0, 6);
    b.write_vbr(0, 6).unwrap();
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 32 }, code, &[8]);
}

/// What LLVM's VBR readers accept that a strict reader might not: bits of the last chunk
/// beyond bit 63 (dropped), VBR1 chunks with the continuation bit (the value is 0 and the
/// field ends at the first clear bit), and codes, block ids and blob lengths wider than 32
/// bits (their low 32 bits are kept).
#[test]
fn vbr_fields_read_as_llvm_reads_them() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let b = w.bits();
    // An operand whose thirteenth chunk (at bit 60) carries 5 bits: the top one is dropped.
    b.write(abbrev_ids::UNABBREV_RECORD as u64, 3);
    b.write_vbr(4, 6).unwrap();
    b.write_vbr(1, 6).unwrap();
    for _ in 0..12 {
        b.write(0x3f, 6);
    }
    b.write(0x1f, 6);
    // A code of 2^32 + 7, unabbreviated: code 7.
    b.write(abbrev_ids::UNABBREV_RECORD as u64, 3);
    b.write_vbr((1 << 32) + 7, 6).unwrap();
    b.write_vbr(0, 6).unwrap();
    let id = w.define_abbrev(abbrev(vec![Scalar(Vbr(8)), Scalar(Vbr(1)), Blob])).unwrap();
    let b = w.bits();
    // A code of 2^40 + 9 through a VBR8 field: code 9; a VBR1 operand running over three
    // set bits; a blob whose length 2^32 + 2 keeps its low 32 bits: 2.
    b.write(id as u64, 3);
    b.write_vbr((1 << 40) + 9, 8).unwrap();
    b.write(0b0111, 4);
    b.write_vbr((1 << 32) + 2, 6).unwrap();
    b.align32();
    b.write_bytes(b"ok").unwrap();
    b.align32();
    // A block id of 2^32 + 12: block 12.
    b.write(abbrev_ids::ENTER_SUBBLOCK as u64, 3);
    b.write_vbr((1 << 32) + 12, 8).unwrap();
    b.write_vbr(2, 4).unwrap();
    b.align32();
    b.write(1, 32);
    b.write(abbrev_ids::END_BLOCK as u64, 2);
    b.align32();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut seen = Vec::new();
    while let Some(entry) = cursor.next_entry().unwrap() {
        seen.push(match entry {
            Entry::Block(h) => format!("block {}", h.id),
            Entry::EndBlock(id) => format!("end {id}"),
            Entry::Record(r) => format!("record {} {:?} {:?}", r.code, r.ops, r.blob),
        });
    }
    let top = (1u64 << 60) - 1 + (0xf << 60);
    assert_eq!(
        seen,
        [
            "block 8".to_string(),
            format!("record 4 [{top}] None"),
            "record 7 [] None".to_string(),
            "record 9 [0] Some([111, 107])".to_string(),
            "block 12".to_string(),
            "end 12".to_string(),
            "end 8".to_string(),
        ]
    );
}

// ---- CountTooLarge ----

/// An unabbreviated record claiming more operands than the bits left could hold: the error
/// is at the count, before anything is reserved.
#[test]
fn count_too_large_unabbreviated_operands() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let b = w.bits();
    b.write(abbrev_ids::UNABBREV_RECORD as u64, 3);
    b.write_vbr(4, 6).unwrap();
    let count = b.position();
    b.write_vbr(1000, 6).unwrap();
    let after = b.position();
    for v in 0..20 {
        b.write_vbr(v, 6).unwrap();
    }
    let bytes = unfinished(&mut w);
    let bits_left = bytes.len() as u64 * 8 - after;
    let err = first_error(&bytes);
    let kind = ErrorKind::CountTooLarge { what: "record operands", count: 1000, bits_left };
    check(&err, kind, count, &[8]);
}

/// An abbreviated array whose count of 8-bit elements cannot fit in the bits left.
#[test]
fn count_too_large_array() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(1), Scalar(Char6), Array(Fixed(8))])).unwrap();
    w.abbreviated_record(id, 1, &[b'x' as u64, 1, 2, 3], None).unwrap();
    let b = w.bits();
    b.write(id as u64, 3);
    b.write_char6(b'y' as u64).unwrap();
    let count = b.position();
    b.write_vbr(1000, 6).unwrap();
    let after = b.position();
    for v in 0..100 {
        b.write(v, 8);
    }
    let bytes = unfinished(&mut w);
    let bits_left = bytes.len() as u64 * 8 - after;
    assert!((100 * 8..1000 * 8).contains(&bits_left));
    let err = first_error(&bytes);
    let kind = ErrorKind::CountTooLarge { what: "array elements", count: 1000, bits_left };
    check(&err, kind, count, &[8]);
}

/// A blob claiming a million bytes in a short input: the error is at the length field and
/// counts the bits left after the alignment.
#[test]
fn count_too_large_blob() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(3), Blob])).unwrap();
    let b = w.bits();
    b.write(id as u64, 3);
    let length = b.position();
    b.write_vbr(1_000_000, 6).unwrap();
    b.align32();
    let data = b.position();
    b.write_bytes(&[0xA5; 64]).unwrap();
    let bytes = unfinished(&mut w);
    let bits_left = bytes.len() as u64 * 8 - data;
    let err = first_error(&bytes);
    let kind = ErrorKind::CountTooLarge { what: "blob bytes", count: 1_000_000, bits_left };
    check(&err, kind, length, &[8]);
}

/// A DEFINE_ABBREV claiming more operands than 4 bits each could hold in the bits left: the
/// error is at its operand count.
#[test]
fn count_too_large_abbreviation_operands() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let count = define_abbrev_header(&mut w, 1000);
    let after = count + 15; // 1000 takes three VBR5 chunks
    let b = w.bits();
    assert_eq!(b.position(), after);
    for _ in 0..10 {
        literal_op(b, 1);
    }
    let bytes = unfinished(&mut w);
    let bits_left = bytes.len() as u64 * 8 - after;
    let err = first_error(&bytes);
    let kind = ErrorKind::CountTooLarge { what: "abbreviation operands", count: 1000, bits_left };
    check(&err, kind, count, &[8]);
}

// ---- UndefinedAbbrev ----

/// An abbreviation id beyond those defined, in a block with its own abbreviation and in a
/// block that also inherits two from BLOCKINFO: the error is at the id.
#[test]
fn undefined_abbreviation_id() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(1), Scalar(Fixed(3))])).unwrap();
    assert_eq!(id, 4);
    w.abbreviated_record(id, 1, &[5], None).unwrap();
    let at = w.bits().position();
    w.bits().write(6, 3);
    w.bits().write(0, 16);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::UndefinedAbbrev { id: 6, defined: 1 }, at, &[8]);

    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    w.set_bid(9).unwrap();
    w.define_abbrev(abbrev(vec![Literal(1)])).unwrap();
    w.define_abbrev(abbrev(vec![Literal(2), Scalar(Vbr(6))])).unwrap();
    w.end_block().unwrap();
    enter(&mut w, 9, 3);
    let own = w.define_abbrev(abbrev(vec![Literal(3)])).unwrap();
    assert_eq!(own, 6);
    w.abbreviated_record(own, 3, &[], None).unwrap();
    let at = w.bits().position();
    w.bits().write(7, 3);
    w.bits().write(0, 16);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::UndefinedAbbrev { id: 7, defined: 3 }, at, &[9]);
}

// ---- InvalidAbbrev ----

/// A DEFINE_ABBREV with no operands: the error is at its operand count.
#[test]
fn invalid_abbrev_no_operands() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let count = define_abbrev_header(&mut w, 0);
    w.bits().write(0, 16);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::InvalidAbbrev(AbbrevProblem::NoOperands), count, &[8]);
}

/// Encodings 0, 6 and 7 do not exist.
#[test]
fn invalid_abbrev_unknown_encoding() {
    for encoding in [0, 6, 7] {
        check_invalid_abbrev(
            3,
            |b| {
                literal_op(b, 1);
                let at = encoding_op(b, encoding, None);
                encoding_op(b, FIXED, Some(8));
                at
            },
            AbbrevProblem::UnknownEncoding(encoding),
        );
    }
}

/// Fixed and VBR widths above 64, as an operand or as an array element.
#[test]
fn invalid_abbrev_width_too_large() {
    for encoding in [FIXED, VBR] {
        for width in [65, 1000] {
            check_invalid_abbrev(
                2,
                |b| {
                    literal_op(b, 1);
                    encoding_op(b, encoding, Some(width))
                },
                AbbrevProblem::WidthTooLarge(width),
            );
        }
        check_invalid_abbrev(
            3,
            |b| {
                literal_op(b, 1);
                encoding_op(b, ARRAY, None);
                encoding_op(b, encoding, Some(65))
            },
            AbbrevProblem::WidthTooLarge(65),
        );
    }
}

/// An array followed by more than its element encoding, or by nothing.
#[test]
fn unusable_abbrev_array_not_second_to_last() {
    check_unusable_abbrev(
        4,
        |b| {
            literal_op(b, 1);
            encoding_op(b, ARRAY, None);
            encoding_op(b, FIXED, Some(8));
            encoding_op(b, FIXED, Some(8));
        },
        AbbrevProblem::ArrayNotSecondToLast,
    );
    check_unusable_abbrev(
        2,
        |b| {
            literal_op(b, 1);
            encoding_op(b, ARRAY, None);
        },
        AbbrevProblem::ArrayNotSecondToLast,
    );
}

/// An array element that is a literal, a zero-width fixed or VBR field (clang 22 writes
/// one), an array or a blob.
#[test]
fn unusable_abbrev_bad_array_element() {
    type Element = fn(&mut BitWriter) -> u64;
    let elements: [Element; 5] = [
        |b| literal_op(b, 5),
        |b| encoding_op(b, FIXED, Some(0)),
        |b| encoding_op(b, VBR, Some(0)),
        |b| encoding_op(b, ARRAY, None),
        |b| encoding_op(b, BLOB, None),
    ];
    for element in elements {
        check_unusable_abbrev(
            3,
            |b| {
                literal_op(b, 1);
                encoding_op(b, ARRAY, None);
                element(b);
            },
            AbbrevProblem::BadArrayElement,
        );
    }
}

/// A blob that is not the last operand is read where it stands, as LLVM reads it.
#[test]
fn blob_before_other_operands_is_read_in_place() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(1), Blob, Scalar(Char6), Blob, Scalar(Fixed(3))])).unwrap();
    w.abbreviated_record(id, 1, &[u64::from(b'x'), 5], Some(b"abc")).unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    cursor.next_entry().unwrap();
    match cursor.next_entry().unwrap() {
        Some(Entry::Record(r)) => {
            assert_eq!((r.code, r.ops, r.blob), (1, &[u64::from(b'x'), 5][..], Some(&b"abc"[..])));
        }
        other => panic!("expected the record, got {other:?}"),
    }
}

/// An array or a blob in the record code's place.
#[test]
fn unusable_abbrev_code_is_array_or_blob() {
    check_unusable_abbrev(
        2,
        |b| {
            encoding_op(b, ARRAY, None);
            encoding_op(b, FIXED, Some(8));
        },
        AbbrevProblem::CodeIsArrayOrBlob,
    );
    check_unusable_abbrev(
        1,
        |b| {
            encoding_op(b, BLOB, None);
        },
        AbbrevProblem::CodeIsArrayOrBlob,
    );
}

// ---- AbbrevWidthOutOfRange ----

/// Blocks whose abbreviation ids would be 0 or 65 bits wide: the error is at the width.
#[test]
fn abbrev_width_out_of_range() {
    for width in [0, 65] {
        let mut w = StreamWriter::llvm_ir();
        enter(&mut w, 8, 3);
        let b = w.bits();
        b.write(abbrev_ids::ENTER_SUBBLOCK as u64, 3);
        b.write_vbr(9, 8).unwrap();
        let at = b.position();
        b.write_vbr(width, 4).unwrap();
        b.align32();
        b.write(0, 32);
        let err = first_error(&unfinished(&mut w));
        check(&err, ErrorKind::AbbrevWidthOutOfRange { width }, at, &[8]);
    }
    // at the top level too
    let mut w = StreamWriter::llvm_ir();
    let b = w.bits();
    b.write(abbrev_ids::ENTER_SUBBLOCK as u64, 2);
    b.write_vbr(8, 8).unwrap();
    let at = b.position();
    b.write_vbr(0, 4).unwrap();
    b.align32();
    b.write(0, 32);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::AbbrevWidthOutOfRange { width: 0 }, at, &[]);
}

// ---- Top level ----

/// An END_BLOCK after the last top-level block, followed by non-zero bits (all-zero bytes
/// would be padding): the error is at the END_BLOCK id.
#[test]
fn end_block_at_top_level() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.unabbreviated_record(1, &[1]).unwrap();
    w.end_block().unwrap();
    let at = w.bits().position();
    w.bits().write(abbrev_ids::END_BLOCK as u64, 2);
    w.bits().write(0x3f, 6);
    let bytes = w.finish().unwrap();
    let err = first_error(&bytes);
    check(&err, ErrorKind::EndBlockAtTopLevel, at, &[]);
}

/// A record or DEFINE_ABBREV id at the top level, first or after a block: the error is at
/// the id.
#[test]
fn not_a_block_at_top_level() {
    for abbrev_id in [abbrev_ids::DEFINE_ABBREV, abbrev_ids::UNABBREV_RECORD] {
        let mut w = StreamWriter::llvm_ir();
        enter(&mut w, 8, 3);
        w.end_block().unwrap();
        let at = w.bits().position();
        w.bits().write(abbrev_id as u64, 2);
        let bytes = w.finish().unwrap();
        let err = first_error(&bytes);
        check(&err, ErrorKind::NotABlockAtTopLevel { abbrev_id: abbrev_id as u64 }, at, &[]);

        let mut w = StreamWriter::llvm_ir();
        w.bits().write(abbrev_id as u64, 2);
        let bytes = w.finish().unwrap();
        let err = first_error(&bytes);
        check(&err, ErrorKind::NotABlockAtTopLevel { abbrev_id: abbrev_id as u64 }, 32, &[]);
    }
}

// ---- Block lengths ----

/// Walks `bytes` to the end with block lengths unchecked, as LLVM walks; gives the entries.
fn lenient_entries(bytes: &[u8]) -> usize {
    let stream = Bitstream::new(bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut entries = 0;
    while cursor.next_entry().unwrap_or_else(|e| panic!("LLVM reads this stream: {e}")).is_some() {
        entries += 1;
    }
    entries
}

/// A nested block whose length word claims 1000 words in a short input: with lengths
/// checked, the error is at the length word; unchecked (LLVM's walk) the stream reads on,
/// and skipping the block is that error.
#[test]
fn block_beyond_input() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let length_at = enter(&mut w, 9, 3);
    w.unabbreviated_record(1, &[1, 2]).unwrap();
    w.end_block().unwrap();
    w.end_block().unwrap();
    w.bits().patch_u32(length_at, 1000).unwrap();
    let bytes = w.finish().unwrap();
    let length_word = length_at as u64 * 8;
    let err = first_error_with(&bytes, |c| c.check_block_lengths(true));
    let kind = ErrorKind::BlockBeyondInput {
        words: 1000,
        end_bit: length_word + 32 + 1000 * 32,
        input_bits: bytes.len() as u64 * 8,
    };
    check(&err, kind.clone(), length_word, &[8]);
    assert_eq!(lenient_entries(&bytes), 5);

    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    cursor.next_entry().unwrap();
    cursor.next_entry().unwrap();
    let err = cursor.skip_block().unwrap_err();
    check(&err, kind, length_word, &[8, 9]);
}

/// A block whose length word says one word less, or one more, than where its END_BLOCK
/// leaves it: with lengths checked, the error is at the END_BLOCK id, naming both ends;
/// unchecked (LLVM's walk), the stream reads to its end.
#[test]
fn block_length_mismatch() {
    for delta in [-1i64, 1] {
        let mut w = StreamWriter::llvm_ir();
        enter(&mut w, 8, 3);
        let length_at = enter(&mut w, 9, 3);
        w.unabbreviated_record(1, &[1, 2, 3, 4, 5, 6]).unwrap();
        let at = w.bits().position();
        w.end_block().unwrap();
        let actual_end = w.bits().position();
        let body = length_at as u64 * 8 + 32;
        let words = (actual_end - body) / 32;
        let claimed = (words as i64 + delta) as u32;
        w.end_block().unwrap();
        w.bits().patch_u32(length_at, claimed).unwrap();
        let bytes = w.finish().unwrap();
        let err = first_error_with(&bytes, |c| c.check_block_lengths(true));
        let declared_end = body + claimed as u64 * 32;
        check(&err, ErrorKind::BlockLengthMismatch { declared_end, actual_end }, at, &[8, 9]);
        assert_eq!(lenient_entries(&bytes), 5);
    }
}

// ---- BLOCKINFO ----

/// DEFINE_ABBREV inside BLOCKINFO before any SETBID (the writer refuses it, so it is
/// written raw): the error is at its abbreviation id.
#[test]
fn blockinfo_define_abbrev_without_setbid() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    let at = w.bits().position();
    define_abbrev_header(&mut w, 1);
    literal_op(w.bits(), 1);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::BlockInfoWithoutSetBid { code: None }, at, &[0]);
    assert!(err.to_string().contains("DEFINE_ABBREV in BLOCKINFO before any SETBID"), "{err}");
}

/// BLOCKNAME (record code 2, the abbreviation id of DEFINE_ABBREV) before any SETBID (the
/// writer refuses it, so it is written raw): the error is at the record's id and names the
/// record, not DEFINE_ABBREV.
#[test]
fn blockinfo_blockname_without_setbid() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    let at = w.bits().position();
    assert!(w.block_name(b"NAME").is_err());
    raw_unabbreviated_record(&mut w, 2, &b"NAME".map(u64::from));
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::BlockInfoWithoutSetBid { code: Some(2) }, at, &[0]);
    assert!(err.to_string().contains("BLOCKINFO record 2 (BLOCKNAME) before any SETBID"), "{err}");
    assert!(!err.to_string().contains("DEFINE_ABBREV"), "{err}");
}

/// SETRECORDNAME (record code 3) before any SETBID (written raw, as the writer refuses it):
/// the error is at the record's id.
#[test]
fn blockinfo_setrecordname_without_setbid() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    let at = w.bits().position();
    assert!(w.record_name(5, b"REC").is_err());
    raw_unabbreviated_record(&mut w, 3, &[5, b'R'.into(), b'E'.into(), b'C'.into()]);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::BlockInfoWithoutSetBid { code: Some(3) }, at, &[0]);
    assert!(err.to_string().contains("BLOCKINFO record 3 (SETRECORDNAME) before any SETBID"), "{err}");
}

/// SETBID and SETRECORDNAME without operands (written raw, as the writer refuses them):
/// the error is at the record's id. A SETBID above `u32::MAX` keeps its low 32 bits, as in
/// LLVM.
#[test]
fn malformed_blockinfo_record() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    let at = w.bits().position();
    assert!(w.unabbreviated_record(1, &[]).is_err());
    raw_unabbreviated_record(&mut w, 1, &[]);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::MalformedBlockInfoRecord { code: 1 }, at, &[0]);

    let mut w = StreamWriter::llvm_ir();
    let length_at = enter(&mut w, 0, 2);
    assert!(w.unabbreviated_record(1, &[U32_MAX + 9]).is_err());
    raw_unabbreviated_record(&mut w, 1, &[U32_MAX + 9]);
    raw_unabbreviated_record(&mut w, 2, &[u64::from(b'E')]);
    w.bits().write(abbrev_ids::END_BLOCK as u64, 2);
    w.bits().align32();
    let mut bytes = w.bits().bytes().to_vec();
    let words = (bytes.len() - length_at - 4) / 4;
    bytes[length_at..length_at + 4].copy_from_slice(&(words as u32).to_le_bytes());
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    while cursor.next_entry().unwrap().is_some() {}
    assert_eq!(cursor.block_info().get(8).and_then(|b| b.name.as_deref()), Some("E"));

    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    w.set_bid(8).unwrap();
    w.block_name(b"EIGHT").unwrap();
    let at = w.bits().position();
    assert!(w.unabbreviated_record(3, &[]).is_err());
    raw_unabbreviated_record(&mut w, 3, &[]);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::MalformedBlockInfoRecord { code: 3 }, at, &[0]);
}

/// A block nested inside BLOCKINFO (the writer refuses it, so it is written raw) is read
/// as LLVM reads it: an ordinary block, under what the whole BLOCKINFO block declares (LLVM
/// reads BLOCKINFO's declarations first, skipping such blocks, then its entries), so it
/// may use an abbreviation declared after it.
#[test]
fn block_inside_blockinfo_reads_under_what_blockinfo_declares() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 0, 2);
    w.set_bid(8).unwrap();
    let b = w.bits();
    b.write(abbrev_ids::ENTER_SUBBLOCK as u64, 2);
    b.write_vbr(8, 8).unwrap();
    b.write_vbr(3, 4).unwrap();
    b.align32();
    let length_at = (b.position() / 8) as usize;
    b.write(0, 32);
    b.write(4, 3); // abbreviation 4 of block 8, declared further down
    b.write(42, 8);
    b.write(abbrev_ids::END_BLOCK as u64, 3);
    b.align32();
    let words = ((b.position() / 8) as usize - length_at - 4) / 4;
    b.patch_u32(length_at, words as u32).unwrap();
    w.define_abbrev(abbrev(vec![Literal(5), Scalar(Fixed(8))])).unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut seen = Vec::new();
    while let Some(entry) = cursor.next_entry().unwrap() {
        seen.push(match entry {
            Entry::Block(h) => format!("block {}", h.id),
            Entry::EndBlock(id) => format!("end {id}"),
            Entry::Record(r) => format!("record {} {:?} {:?}", r.code, r.abbreviation(), r.ops),
        });
    }
    let expected = ["block 0", "record 1 None [8]", "block 8", "record 5 Some(4) [42]", "end 8", "end 0"];
    assert_eq!(seen, expected);
    assert_eq!(cursor.block_info().get(8).map(|info| info.abbrevs.len()), Some(1));
}

// ---- TooDeep ----

/// A third nested block when the cursor allows two, and a 129th under the default limit:
/// the error is at the ENTER_SUBBLOCK id of the block too many.
#[test]
fn too_deep() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    enter(&mut w, 9, 3);
    let at = w.bits().position();
    enter(&mut w, 10, 3);
    let bytes = unfinished(&mut w);
    let err = first_error_with(&bytes, |c| c.set_max_depth(2));
    check(&err, ErrorKind::TooDeep { limit: 2 }, at, &[8, 9]);

    let limit = bitcode_schema_runtime::cursor::DEFAULT_MAX_DEPTH;
    let mut w = StreamWriter::llvm_ir();
    let ids: Vec<u32> = (0..limit as u32).map(|i| 8 + i).collect();
    for &id in &ids {
        enter(&mut w, id, 3);
    }
    let at = w.bits().position();
    enter(&mut w, 7, 3);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::TooDeep { limit }, at, &ids);
}

// ---- Container ----

/// A stream whose magic is not the one asked for: the error is at the magic, counted from
/// the start of the file (past a wrapper header when there is one).
#[test]
fn bad_magic() {
    let mut w = StreamWriter::new(*b"DIAG");
    enter(&mut w, 8, 3);
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let kind = ErrorKind::BadMagic { found: *b"DIAG", expected: Magic::LlvmIr.bytes() };
    let err = Bitstream::new(&bytes).unwrap().expect(Magic::LlvmIr).unwrap_err();
    check(&err, kind.clone(), 0, &[]);
    assert!(err.to_string().contains("44 49 41 47"), "{err}");

    let wrapped = wrap(&bytes, 7).unwrap();
    let err = Bitstream::new(&wrapped).unwrap().expect(Magic::LlvmIr).unwrap_err();
    check(&err, kind, 20 * 8, &[]);
}

/// An input that starts with the wrapper magic but has fewer than 20 bytes.
#[test]
fn wrapper_too_short() {
    let wrapped = wrap(&StreamWriter::llvm_ir().finish().unwrap(), 7).unwrap();
    for len in [4, 12, 16] {
        let err = Bitstream::new(&wrapped[..len]).unwrap_err();
        check(&err, ErrorKind::WrapperTooShort { len }, 0, &[]);
    }
}

/// A wrapper-headed input that is not whole 32-bit words, even with a stream inside that
/// reads cleanly: LLVM's readers refuse it before looking inside.
#[test]
fn wrapper_length_not_words() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.end_block().unwrap();
    let mut wrapped = wrap(&w.finish().unwrap(), 7).unwrap();
    assert!(Bitstream::new(&wrapped).is_ok());
    wrapped.push(0);
    let len = wrapped.len();
    let err = Bitstream::new(&wrapped).unwrap_err();
    check(&err, ErrorKind::LengthNotWords { len }, (len as u64 / 4) * 32, &[]);
}

/// A plain stream that is not whole 32-bit words, even one whose blocks end before its
/// last partial word: llvm-bcanalyzer and LLVM's IR reader refuse it before reading.
#[test]
fn plain_length_not_words() {
    let mut w = StreamWriter::new(*b"TEST");
    enter(&mut w, 9, 3);
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    for extra in [&[0u8][..], &[0, 0], &[1, 2, 3]] {
        let padded = [&bytes[..], extra].concat();
        let len = padded.len();
        let err = Bitstream::new(&padded).unwrap_err();
        check(&err, ErrorKind::LengthNotWords { len }, (len as u64 / 4) * 32, &[]);
        assert_eq!(
            err.to_string(),
            format!("a bitstream must be whole 32-bit words, as LLVM reads it; this one has {len} bytes (at bit {}, top level)", len / 4 * 32)
        );
    }
    // Shorter than a magic number: truncated.
    let err = Bitstream::new(b"BC").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Truncated { .. }), "{err}");
}

/// A wrapper header whose size, or offset, points past the end of the input: the error is
/// at the offset field (bit 64).
#[test]
fn wrapper_out_of_range() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.end_block().unwrap();
    let wrapped = wrap(&w.finish().unwrap(), 7).unwrap();
    let len = wrapped.len();
    let beyond = (len - 20 + 1) as u32;
    for (offset, size) in [(20, beyond), (u32::MAX, 4), (len as u32, 1)] {
        let mut b = BitWriter::new();
        b.write_bytes(&wrapped).unwrap();
        b.patch_u32(8, offset).unwrap();
        b.patch_u32(12, size).unwrap();
        let bytes = b.into_bytes();
        let err = Bitstream::new(&bytes).unwrap_err();
        check(&err, ErrorKind::WrapperOutOfRange { offset, size, len }, 64, &[]);
    }
}

/// An error inside a wrapped stream is reported at its offset in the file: the stream's
/// own offset plus the 20-byte header.
#[test]
fn errors_inside_a_wrapper_count_the_header() {
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    enter(&mut w, 9, 4);
    w.unabbreviated_record(1, &[2]).unwrap();
    let at = w.bits().position();
    w.bits().write(9, 4); // no abbreviation 9
    w.bits().write(0, 12);
    let stream = unfinished(&mut w);
    let kind = ErrorKind::UndefinedAbbrev { id: 9, defined: 0 };
    check(&first_error(&stream), kind.clone(), at, &[8, 9]);

    let wrapped = wrap(&stream, 7).unwrap();
    let input = Input::parse(&wrapped).unwrap();
    let streams = input.streams().unwrap();
    assert_eq!(streams.len(), 1);
    assert_eq!(streams[0].file_offset(), 20);
    let err = walk(streams[0].cursor(), |_| {});
    check(&err, kind, at + 20 * 8, &[8, 9]);
}

// ---- Object ----

/// A bitstream is not a native object, and a native object without a bitcode section (this
/// test's own executable) holds no embedded bitcode: both are `Object` errors at bit 0.
#[cfg(feature = "object")]
#[test]
fn object_without_bitcode() {
    use bitcode_schema_runtime::embedded::embedded_bitcode;

    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let err = embedded_bitcode(&bytes).unwrap_err();
    check(&err, ErrorKind::Object("Unknown file magic".into()), 0, &[]);

    let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    let none = ErrorKind::Object("no .llvmbc, .llvm.lto or __LLVM,__bitcode section".into());
    check(&embedded_bitcode(&exe).unwrap_err(), none.clone(), 0, &[]);
    check(&Input::parse(&exe).unwrap_err(), none, 0, &[]);
}

// ---- context ----

/// Errors inside a record's operands name the record's code (read before the failure);
/// errors before the code is known do not.
#[test]
fn errors_inside_records_carry_the_record_code() {
    // an abbreviated record cut inside its array
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let id = w.define_abbrev(abbrev(vec![Literal(21), Array(Fixed(8))])).unwrap();
    w.abbreviated_record(id, 21, &[1, 2, 3, 4], None).unwrap();
    let bytes = unfinished(&mut w);
    let err = first_error(&bytes[..bytes.len() - 2]);
    assert!(matches!(err.kind(), ErrorKind::CountTooLarge { what: "array elements", count: 4, .. }), "{err}");
    assert_eq!(err.record_code(), Some(21));
    assert!(err
        .to_string()
        .starts_with("4 array elements cannot fit in the 17 bits left (at bit 129, record 21,"));
    // an unabbreviated record claiming more operands than there are bits
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    let b = w.bits();
    b.write(abbrev_ids::UNABBREV_RECORD as u64, 3);
    b.write_vbr(7, 6).unwrap();
    b.write_vbr(1000, 6).unwrap();
    let err = first_error(&unfinished(&mut w));
    assert!(matches!(err.kind(), ErrorKind::CountTooLarge { .. }), "{err}");
    assert_eq!(err.record_code(), Some(7));
    // an undefined abbreviation: no code known
    let mut w = StreamWriter::llvm_ir();
    enter(&mut w, 8, 3);
    w.bits().write(6, 3);
    let err = first_error(&unfinished(&mut w));
    assert!(matches!(err.kind(), ErrorKind::UndefinedAbbrev { .. }), "{err}");
    assert_eq!(err.record_code(), None);
}
