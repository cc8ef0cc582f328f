//! The malformed-stream suite: one hand-made stream per way a bitstream can be wrong, read
//! the way users read files (`Input::parse`, its streams, a cursor walked to its first error)
//! or decoded through a schema (`schema!` on tests/schemas/every_kind.toml, and the LLVM IR
//! schema). Every case asserts the exact [`ErrorKind`] (variant and fields), the exact
//! absolute bit offset, the block path, and that the message says "at bit N".
//!
//! The streams are made with the runtime's writer: the valid parts through [`StreamWriter`],
//! the malformed field raw through its [`BitWriter`]. No expected offset is a number written
//! out: each is the writer's `position()` just before the offending field, so every case
//! reads "the error is where this field starts". The reader's convention:
//! - truncation, VBR, value, width and count problems point at the field itself (a VBR's
//!   first chunk; a blob's length field when its bytes do not fit);
//! - undefined abbreviation ids, END_BLOCK or a non-block at the top level, blocks too deep
//!   and BLOCKINFO records point at the entry's abbreviation id;
//! - a block running past the input points at its length word;
//! - an invalid abbreviation points at the DEFINE_ABBREV operand that breaks the rule (its
//!   operand count when it has no operands);
//! - a typed decoder's error points at its record (the record's abbreviation id);
//! - wrapper problems point at the wrapper's offset field, a bad magic at the magic.
//!
//! Kinds without a case, because no input reaches them:
//! - `ErrorKind::Write`: only the writer makes it.
//! - `FieldProblem::NoLayout`: `schema!` refuses a record whose layouts leave out a version,
//!   so only a hand-written `Operands::layout` call with a gap could report it.
//!
//! `bitcode-runtime/tests/errors.rs` checks most kinds on the runtime alone; this suite goes
//! through the facade as users do, cuts the input inside every kind of field, and decodes.

use std::ops::Range;

use bitcode_schema::runtime::container::WRAPPER_MAGIC;
use bitcode_schema::runtime::cursor::abbrev_ids;
use bitcode_schema::runtime::decode::{encode_signed, BasicContext, FieldProblem};
use bitcode_schema::runtime::writer::{wrap, BitWriter, StreamWriter};
use bitcode_schema::AbbrevOp::{self, Array, Blob, Literal, Scalar};
use bitcode_schema::ScalarEncoding::{Char6, Fixed, Vbr};
use bitcode_schema::{
    Abbrev, AbbrevProblem, Bitstream, Cursor, Entry, Error, ErrorKind, Input, Limits, Magic, Record,
};

mod every_kind {
    bitcode_schema::schema!("tests/schemas/every_kind.toml");
}

/// The block most cases write into, and its abbreviation id width.
const BLOCK: u32 = 8;
const WIDTH: u32 = 3;
/// A block nested in [`BLOCK`].
const INNER: u32 = 9;

// ---- reading and checking ----

/// Reads `bytes` as a user would and returns the first error: fails if there is none.
fn first_error(bytes: &[u8]) -> Error {
    first_error_with(bytes, |_| {})
}

/// [`first_error`] with each stream's cursor adjusted by `setup` before the walk.
///
/// A stream that ends inside a 32-bit word (one left unfinished, or cut inside a field) is
/// read by a cursor made over it directly: as a file, the container refuses it before
/// reading anything (`a_stream_of_partial_words`), but its cursor reads it up to where it
/// ends, as LLVM's `BitstreamCursor` does, and the error there is what these cases show.
fn first_error_with(bytes: &[u8], setup: impl Fn(&mut Cursor<'_>)) -> Error {
    if bytes.len() > 4 && !bytes.len().is_multiple_of(4) && !bytes.starts_with(&WRAPPER_MAGIC.to_le_bytes()) {
        return walk_to_error(Cursor::new(bytes, 32, 0), bytes.len(), &setup)
            .expect("the input was read to its end without an error");
    }
    let input = match Input::parse(bytes) {
        Ok(input) => input,
        Err(e) => return e,
    };
    let streams = match input.streams() {
        Ok(streams) => streams,
        Err(e) => return e,
    };
    for stream in streams {
        if let Some(e) = walk_to_error(stream.cursor(), bytes.len(), &setup) {
            return e;
        }
    }
    panic!("the input was read to its end without an error")
}

/// Walks `cursor` (over an input of `len` bytes) to its first error, `None` at the end.
fn walk_to_error(mut cursor: Cursor<'_>, len: usize, setup: &impl Fn(&mut Cursor<'_>)) -> Option<Error> {
    setup(&mut cursor);
    let mut entries = 0;
    loop {
        match cursor.next_entry() {
            Ok(Some(_)) => entries += 1,
            Ok(None) => return None,
            Err(e) => return Some(e),
        }
        // Every entry takes at least one bit: a longer walk would never end.
        assert!(entries <= len * 8, "the walk does not end");
    }
}

/// Asserts the whole error: kind, absolute bit offset, block path, and the message.
#[track_caller]
fn check(err: &Error, kind: ErrorKind, at: u64, path: &[u32]) {
    assert_eq!(err.kind(), &kind, "{err}");
    assert_eq!(err.bit_offset(), at, "{err}");
    assert_eq!(err.block_path(), path, "{err}");
    let text = err.to_string();
    assert!(text.contains(&format!("(at bit {at},")), "the message does not say at bit {at}: {text}");
}

/// [`check`] for an error inside the operands of record `code`, which the error names.
#[track_caller]
fn check_in_record(err: &Error, kind: ErrorKind, at: u64, path: &[u32], code: u32) {
    check(err, kind, at, path);
    assert_eq!(err.record_code(), Some(code), "{err}");
    assert!(err.to_string().contains(&format!(", record {code},")), "{err}");
}

/// The whole error of a typed decoder about record `code`: kind, bit offset, block path,
/// and the message, which starts with the block and record names (not the code) and ends
/// with the path.
#[track_caller]
fn check_in_typed_record(err: &Error, kind: ErrorKind, at: u64, path: &[u32], code: u32) {
    assert_eq!((err.kind(), err.bit_offset(), err.block_path()), (&kind, at, path), "{err}");
    assert_eq!(err.record_code(), Some(code), "{err}");
    let ErrorKind::Field { block, record, field, problem } = kind else {
        panic!("{kind:?} is not a field's")
    };
    let path = path.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
    let expected = format!("{block}/{record} at bit {at}: field {field}: {problem} (block path {path})");
    assert_eq!(err.to_string(), expected);
}

// ---- writing ----

/// A stream with [`BLOCK`] open, its abbreviation ids [`WIDTH`] bits wide.
fn in_block() -> StreamWriter {
    let mut w = StreamWriter::llvm_ir();
    w.enter_block(BLOCK, WIDTH).unwrap();
    w
}

/// The bytes written so far, blocks left open: an open block's length word keeps the
/// writer's placeholder, 0, which the reader checks only at the block's END_BLOCK, so the
/// malformed field is met first.
fn unfinished(w: &mut StreamWriter) -> Vec<u8> {
    w.bits().bytes().to_vec()
}

/// Where the field written next starts.
fn here(w: &mut StreamWriter) -> u64 {
    w.bits().position()
}

/// Defines `ops` through the writer (which checks them) and writes the new id raw, as a
/// record's first field; the record's fields follow raw.
fn start_abbreviated_record(w: &mut StreamWriter, ops: Vec<AbbrevOp>) {
    let id = w.define_abbrev(Abbrev::new(ops).unwrap()).unwrap();
    let width = w.abbrev_width();
    w.bits().write(id as u64, width);
}

/// Writes the abbreviation id and the code of an unabbreviated record, raw.
fn start_unabbreviated_record(w: &mut StreamWriter, code: u64) {
    let width = w.abbrev_width();
    w.bits().write(abbrev_ids::UNABBREV_RECORD as u64, width);
    w.bits().write_vbr(code, 6).unwrap();
}

/// Where the fields of a block header written raw lie.
struct RawHeader {
    /// The VBR8 block id.
    id: Range<u64>,
    /// The VBR4 abbreviation id width.
    width: Range<u64>,
    /// Where the 32-bit length word starts.
    length: u64,
}

/// Writes a block header raw (the writer refuses bad ids and widths), with a length word
/// of 0.
fn enter_raw(w: &mut StreamWriter, id: u64, width: u64) -> RawHeader {
    let abbrev_width = w.abbrev_width();
    let b = w.bits();
    b.write(abbrev_ids::ENTER_SUBBLOCK as u64, abbrev_width);
    let id_at = b.position();
    b.write_vbr(id, 8).unwrap();
    let width_at = b.position();
    b.write_vbr(width, 4).unwrap();
    let width_end = b.position();
    b.align32();
    let length = b.position();
    b.write(0, 32);
    RawHeader { id: id_at..width_at, width: width_at..width_end, length }
}

/// One DEFINE_ABBREV operand as written on the wire.
#[derive(Clone, Copy, Debug)]
enum WireOp {
    /// A literal value (flag 1, VBR8 value).
    Lit(u64),
    /// An encoding without a width: array, char6, blob, or a number that is no encoding.
    Enc(u64),
    /// Fixed or VBR with its VBR5 width.
    Sized(u64, u64),
}

const FIXED: u64 = 1;
const VBR: u64 = 2;
const ARRAY: u64 = 3;
const CHAR6: u64 = 4;
const BLOB: u64 = 5;

/// Writes a DEFINE_ABBREV raw (the writer only takes valid abbreviations) claiming `count`
/// operands; returns where its count and each operand start.
fn define_abbrev_raw(w: &mut StreamWriter, count: u64, ops: &[WireOp]) -> (u64, Vec<u64>) {
    let width = w.abbrev_width();
    let b = w.bits();
    b.write(abbrev_ids::DEFINE_ABBREV as u64, width);
    let count_at = b.position();
    b.write_vbr(count, 5).unwrap();
    let mut starts = Vec::new();
    for op in ops {
        starts.push(b.position());
        match *op {
            WireOp::Lit(value) => {
                b.write(1, 1);
                b.write_vbr(value, 8).unwrap();
            }
            WireOp::Enc(encoding) => {
                b.write(0, 1);
                b.write(encoding, 3);
            }
            WireOp::Sized(encoding, width) => {
                b.write(0, 1);
                b.write(encoding, 3);
                b.write_vbr(width, 5).unwrap();
            }
        }
    }
    (count_at, starts)
}

// ---- Truncated: the input ends inside each kind of field ----

/// Cuts the input at the last byte boundary inside `field` and checks the truncation: it is
/// reported at the field's first bit, with the bits the failing read wanted and those left
/// for it (a VBR is read `read_bits` at a time, chunk after chunk, so a cut in a later chunk
/// is reported at the first).
#[track_caller]
fn check_cut_inside(w: &mut StreamWriter, field: Range<u64>, read_bits: u64, path: &[u32]) -> Error {
    let cut = (field.end - 1) / 8 * 8;
    assert!(cut > field.start, "no byte boundary inside the field {field:?}");
    let failing_read = field.start + (cut - field.start) / read_bits * read_bits;
    let bytes = &unfinished(w)[..(cut / 8) as usize];
    let err = first_error(bytes);
    check(&err, ErrorKind::Truncated { needed: read_bits, left: cut - failing_read }, field.start, path);
    err
}

/// [`check_cut_inside`] for a field from `start` to what was written last.
#[track_caller]
fn check_cut_inside_last(w: &mut StreamWriter, start: u64, read_bits: u64, path: &[u32]) -> Error {
    let end = here(w);
    check_cut_inside(w, start..end, read_bits, path)
}

pub fn truncated_inside_a_fixed_field() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Scalar(Fixed(40))]);
    let field = here(&mut w);
    w.bits().write(0xAB_CDEF_0123, 40);
    let err = check_cut_inside_last(&mut w, field, 40, &[BLOCK]);
    assert_eq!(err.record_code(), Some(1));
}

pub fn truncated_inside_a_vbr_field() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Scalar(Vbr(6))]);
    let field = here(&mut w);
    w.bits().write_vbr(40_000, 6).unwrap(); // four chunks: the cut falls in the third or fourth
    check_cut_inside_last(&mut w, field, 6, &[BLOCK]);
}

pub fn truncated_inside_an_unabbreviated_operand() {
    let mut w = in_block();
    start_unabbreviated_record(&mut w, 4);
    w.bits().write_vbr(1, 6).unwrap(); // one operand
    let field = here(&mut w);
    w.bits().write_vbr(40_000, 6).unwrap();
    let err = check_cut_inside_last(&mut w, field, 6, &[BLOCK]);
    assert_eq!(err.record_code(), Some(4));
}

pub fn truncated_inside_a_char6_field() {
    let mut w = in_block();
    // The 4-bit field moves the char6 field across a byte boundary.
    start_abbreviated_record(&mut w, vec![Literal(1), Scalar(Fixed(4)), Scalar(Char6)]);
    w.bits().write(9, 4);
    let field = here(&mut w);
    w.bits().write_char6(b'x' as u64).unwrap();
    check_cut_inside_last(&mut w, field, 6, &[BLOCK]);
}

pub fn truncated_inside_an_array_length() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Array(Fixed(8))]);
    let field = here(&mut w);
    w.bits().write_vbr(100, 6).unwrap(); // two chunks
    check_cut_inside_last(&mut w, field, 6, &[BLOCK]);
}

/// The count check passes (two VBR6 elements of at least 6 bits each fit in what is left),
/// then the second element is cut: the error is at that element, not at the array.
pub fn truncated_inside_an_array_element() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Array(Vbr(6))]);
    w.bits().write_vbr(2, 6).unwrap();
    w.bits().write_vbr(1000, 6).unwrap();
    let field = here(&mut w);
    w.bits().write_vbr(1000, 6).unwrap();
    check_cut_inside_last(&mut w, field, 6, &[BLOCK]);
}

pub fn truncated_inside_a_blob_length() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Blob]);
    let field = here(&mut w);
    w.bits().write_vbr(100, 6).unwrap();
    check_cut_inside_last(&mut w, field, 6, &[BLOCK]);
}

/// A blob record of `len` bytes; returns where its length field, the end of that field and
/// its bytes start.
fn blob_record(w: &mut StreamWriter, len: u64) -> (u64, u64, u64) {
    start_abbreviated_record(w, vec![Literal(1), Blob]);
    let length = here(w);
    w.bits().write_vbr(len, 6).unwrap();
    let length_end = here(w);
    w.bits().align32();
    let data = here(w);
    w.bits().write_bytes(&vec![0xA5; len as usize]).unwrap();
    w.bits().align32();
    (length, length_end, data)
}

/// The input ends inside a blob's bytes: the reader checks the length against the bits left
/// before taking any, so this is a count that does not fit, at the length field.
pub fn truncated_inside_blob_bytes() {
    let mut w = in_block();
    let (length, _, data) = blob_record(&mut w, 40);
    let cut = data + 10 * 8;
    let err = first_error(&unfinished(&mut w)[..(cut / 8) as usize]);
    let kind = ErrorKind::CountTooLarge { what: "blob bytes", count: 40, bits_left: cut - data };
    check_in_record(&err, kind, length, &[BLOCK], 1);
}

/// The input ends in the 32-bit alignment before a blob's bytes: none of them fit.
pub fn truncated_inside_the_alignment_before_a_blob() {
    let mut w = in_block();
    let (length, length_end, data) = blob_record(&mut w, 40);
    let cut = (length_end + 1).next_multiple_of(8);
    assert!(cut < data, "the cut falls inside the alignment");
    let err = first_error(&unfinished(&mut w)[..(cut / 8) as usize]);
    let kind = ErrorKind::CountTooLarge { what: "blob bytes", count: 40, bits_left: 0 };
    check_in_record(&err, kind, length, &[BLOCK], 1);
}

pub fn truncated_inside_an_abbreviation_id() {
    let mut w = in_block();
    w.enter_block(INNER, 20).unwrap();
    let field = here(&mut w);
    w.bits().write(abbrev_ids::UNABBREV_RECORD as u64, 20);
    check_cut_inside_last(&mut w, field, 20, &[BLOCK, INNER]);
}

pub fn truncated_inside_a_block_id() {
    let mut w = StreamWriter::llvm_ir();
    let header = enter_raw(&mut w, 300, 3); // 300 takes two VBR8 chunks
    check_cut_inside(&mut w, header.id, 8, &[]);
}

pub fn truncated_inside_a_block_abbreviation_width() {
    let mut w = in_block();
    let header = enter_raw(&mut w, INNER as u64, 20); // 20 takes two VBR4 chunks
    check_cut_inside(&mut w, header.width, 4, &[BLOCK]);
}

pub fn truncated_inside_a_block_length_word() {
    let mut w = in_block();
    let header = enter_raw(&mut w, INNER as u64, 4);
    check_cut_inside_last(&mut w, header.length, 32, &[BLOCK]);
}

pub fn truncated_inside_an_abbreviation_definition() {
    let mut w = in_block();
    // A literal code, then a fixed operand whose VBR5 width is cut.
    define_abbrev_raw(&mut w, 2, &[WireOp::Lit(1), WireOp::Enc(FIXED)]);
    let width = here(&mut w);
    w.bits().write_vbr(40, 5).unwrap(); // two chunks
    check_cut_inside_last(&mut w, width, 5, &[BLOCK]);
}

/// A file that is not whole 32-bit words is refused before anything is read, as
/// llvm-bcanalyzer and LLVM's IR reader refuse it, even when its blocks end before the
/// partial word (a reader going into it would read END_BLOCK's padding past the end).
pub fn a_stream_of_partial_words() {
    let mut w = in_block();
    w.end_block().unwrap();
    let whole = w.finish().unwrap();
    let streams = |bytes: &[u8]| Input::parse(bytes).and_then(|i| i.streams().map(|s| s.len()));
    assert_eq!(streams(&whole).unwrap(), 1);
    for extra in 1..4 {
        let bytes = [&whole[..], &vec![0; extra]].concat();
        let len = bytes.len();
        let err = streams(&bytes).unwrap_err();
        check(&err, ErrorKind::LengthNotWords { len }, len as u64 / 4 * 32, &[]);
    }
    // The last word cut short: the blocks read to their end, but the file is refused.
    let cut = &whole[..whole.len() - 2];
    let err = streams(cut).unwrap_err();
    check(&err, ErrorKind::LengthNotWords { len: cut.len() }, cut.len() as u64 / 4 * 32, &[]);
}

pub fn truncated_inside_the_magic() {
    let bytes = StreamWriter::llvm_ir().finish().unwrap();
    let err = first_error(&bytes[..3]);
    check(&err, ErrorKind::Truncated { needed: 32, left: 24 }, 0, &[]);
}

// ---- VbrOverflow ----

/// A VBR6 operand with a fourteenth chunk, which would start at bit 65 of the value (LLVM's
/// `ReadVBR64` stops before it; bits of the thirteenth beyond bit 63 it drops).
pub fn vbr_overflow_past_64_bits() {
    let mut w = in_block();
    start_unabbreviated_record(&mut w, 4);
    w.bits().write_vbr(1, 6).unwrap();
    let field = here(&mut w);
    for _ in 0..13 {
        w.bits().write(0x3f, 6); // 31 and the continuation bit
    }
    w.bits().write(0, 6);
    let err = first_error(&unfinished(&mut w));
    check_in_record(&err, ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 64 }, field, &[BLOCK], 4);
}

/// A record code, a block id and a blob length are 32-bit VBRs in LLVM (`ReadVBR`): a
/// chunk that would start at bit 32 or beyond is an error.
pub fn vbr_overflow_past_32_bits() {
    let overlong = |w: &mut StreamWriter| {
        for _ in 0..4 {
            w.bits().write(0x80, 8); // 0 and the continuation bit: 28 bits of value
        }
        w.bits().write(0x80, 8); // bits 28 to 34: a sixth chunk would start at bit 35
        w.bits().write(0, 8);
    };
    let mut w = in_block();
    w.bits().write(abbrev_ids::ENTER_SUBBLOCK as u64, WIDTH);
    let field = here(&mut w);
    overlong(&mut w);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::VbrOverflow { chunk_width: 8, value_bits: 32 }, field, &[BLOCK]);

    let mut w = in_block();
    w.bits().write(abbrev_ids::UNABBREV_RECORD as u64, WIDTH);
    let field = here(&mut w);
    for _ in 0..7 {
        w.bits().write(0x20, 6);
    }
    w.bits().write(0, 6);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 32 }, field, &[BLOCK]);
    assert_eq!(err.record_code(), None, "the code was never read");

    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Blob]);
    let field = here(&mut w);
    for _ in 0..7 {
        w.bits().write(0x20, 6);
    }
    w.bits().write(0, 6);
    w.bits().write(0, 64);
    let err = first_error(&unfinished(&mut w));
    check_in_record(&err, ErrorKind::VbrOverflow { chunk_width: 6, value_bits: 32 }, field, &[BLOCK], 1);
}

/// A VBR1 field (chunks with no value bits) whose continuation bits run to the end of the
/// input is cut short there; LLVM reads such a field on to its first clear bit.
pub fn one_bit_vbr_chunks_run_to_the_first_clear_bit() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Scalar(Vbr(1))]);
    let field = here(&mut w);
    w.bits().write(0xff, 8);
    let bytes = unfinished(&mut w);
    // Cut after the field's first bit, at a byte boundary: all the bits left are ones.
    let err = first_error(&bytes[..(field as usize + 1).div_ceil(8)]);
    assert!(matches!(err.kind(), ErrorKind::Truncated { .. }), "{err}");
    assert_eq!(err.bit_offset(), field, "{err}");
}

// ---- CountTooLarge: counts checked against the bits left before anything is reserved ----

/// Writes a count of 1000 at `w`'s position and 20 bytes after it; returns the stream,
/// where the count starts and the bits left after it.
fn count_of_1000(mut w: StreamWriter, count_width: u32) -> (Vec<u8>, u64, u64) {
    let count = here(&mut w);
    w.bits().write_vbr(1000, count_width).unwrap();
    let after = here(&mut w);
    for _ in 0..20 {
        w.bits().write(0x5A, 8);
    }
    let bytes = unfinished(&mut w);
    let bits_left = bytes.len() as u64 * 8 - after;
    (bytes, count, bits_left)
}

pub fn count_too_large_record_operands() {
    let mut w = in_block();
    start_unabbreviated_record(&mut w, 4);
    let (bytes, count, bits_left) = count_of_1000(w, 6);
    let kind = ErrorKind::CountTooLarge { what: "record operands", count: 1000, bits_left };
    check_in_record(&first_error(&bytes), kind, count, &[BLOCK], 4);
}

pub fn count_too_large_array_elements() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Array(Fixed(8))]);
    let (bytes, count, bits_left) = count_of_1000(w, 6);
    let kind = ErrorKind::CountTooLarge { what: "array elements", count: 1000, bits_left };
    check_in_record(&first_error(&bytes), kind, count, &[BLOCK], 1);
}

pub fn count_too_large_blob_bytes() {
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Blob]);
    let length = here(&mut w);
    w.bits().write_vbr(1_000_000, 6).unwrap();
    w.bits().align32();
    let data = here(&mut w);
    w.bits().write_bytes(&[0xA5; 64]).unwrap();
    let bytes = unfinished(&mut w);
    let bits_left = bytes.len() as u64 * 8 - data;
    let kind = ErrorKind::CountTooLarge { what: "blob bytes", count: 1_000_000, bits_left };
    check_in_record(&first_error(&bytes), kind, length, &[BLOCK], 1);
}

pub fn count_too_large_abbreviation_operands() {
    let mut w = in_block();
    w.bits().write(abbrev_ids::DEFINE_ABBREV as u64, WIDTH);
    let (bytes, count, bits_left) = count_of_1000(w, 5);
    let kind = ErrorKind::CountTooLarge { what: "abbreviation operands", count: 1000, bits_left };
    check(&first_error(&bytes), kind, count, &[BLOCK]);
}

// ---- UndefinedAbbrev ----

pub fn undefined_abbreviation_in_a_block_without_any() {
    let mut w = in_block();
    let at = here(&mut w);
    w.bits().write(5, WIDTH);
    w.bits().write(0, 16);
    check(&first_error(&unfinished(&mut w)), ErrorKind::UndefinedAbbrev { id: 5, defined: 0 }, at, &[BLOCK]);
}

/// Block 9 inherits abbreviation 4 from BLOCKINFO and defines 5 itself: 6 is undefined.
pub fn undefined_abbreviation_past_inherited_and_own_ones() {
    let mut w = StreamWriter::llvm_ir();
    w.enter_block(0, 2).unwrap();
    w.set_bid(INNER).unwrap();
    w.define_abbrev(Abbrev::new(vec![Literal(1)]).unwrap()).unwrap();
    w.end_block().unwrap();
    w.enter_block(INNER, WIDTH).unwrap();
    let own = w.define_abbrev(Abbrev::new(vec![Literal(2)]).unwrap()).unwrap();
    assert_eq!(own, 5);
    let at = here(&mut w);
    w.bits().write(6, WIDTH);
    w.bits().write(0, 16);
    check(&first_error(&unfinished(&mut w)), ErrorKind::UndefinedAbbrev { id: 6, defined: 2 }, at, &[INNER]);
}

// ---- InvalidAbbrev: DEFINE_ABBREV against LLVM's rules ----

pub fn invalid_abbreviations_point_at_the_operand_that_breaks_a_rule() {
    use AbbrevProblem::*;
    use WireOp::{Enc, Lit, Sized};
    // (operands, the one that breaks the rule, the rule)
    let cases: &[(&[WireOp], usize, AbbrevProblem)] = &[
        (&[Lit(1), Enc(0)], 1, UnknownEncoding(0)),
        (&[Lit(1), Enc(6)], 1, UnknownEncoding(6)),
        (&[Lit(1), Enc(7)], 1, UnknownEncoding(7)),
        (&[Lit(1), Sized(FIXED, 65)], 1, WidthTooLarge(65)),
        (&[Lit(1), Sized(VBR, 65)], 1, WidthTooLarge(65)),
        (&[Lit(1), Enc(ARRAY), Sized(FIXED, 1000)], 2, WidthTooLarge(1000)),
    ];
    for &(ops, bad, problem) in cases {
        let mut w = in_block();
        w.unabbreviated_record(1, &[2, 3]).unwrap();
        let (_, starts) = define_abbrev_raw(&mut w, ops.len() as u64, ops);
        w.bits().write(0, 32);
        let err = first_error(&unfinished(&mut w));
        check(&err, ErrorKind::InvalidAbbrev(problem), starts[bad], &[BLOCK]);
    }
}

/// Definitions LLVM accepts (it checks these rules only when a record uses them): the
/// block reads on; a record that uses one is an error at the record.
pub fn unusable_abbreviations_fail_only_when_used() {
    use AbbrevProblem::*;
    use WireOp::{Enc, Lit, Sized};
    let cases: &[(&[WireOp], AbbrevProblem)] = &[
        (&[Lit(1), Enc(ARRAY), Sized(FIXED, 8), Enc(CHAR6)], ArrayNotSecondToLast),
        (&[Lit(1), Enc(ARRAY)], ArrayNotSecondToLast),
        (&[Lit(1), Enc(ARRAY), Enc(ARRAY)], BadArrayElement),
        (&[Lit(1), Enc(ARRAY), Enc(BLOB)], BadArrayElement),
        (&[Lit(1), Enc(ARRAY), Lit(5)], BadArrayElement),
        (&[Lit(1), Enc(ARRAY), Sized(FIXED, 0)], BadArrayElement),
        (&[Lit(1), Enc(ARRAY), Sized(VBR, 0)], BadArrayElement),
        (&[Enc(ARRAY), Sized(FIXED, 8)], CodeIsArrayOrBlob),
        (&[Enc(BLOB)], CodeIsArrayOrBlob),
    ];
    for &(ops, problem) in cases {
        let mut w = in_block();
        define_abbrev_raw(&mut w, ops.len() as u64, ops);
        w.unabbreviated_record(1, &[2, 3]).unwrap();
        let record = here(&mut w);
        w.bits().write(4, WIDTH);
        w.bits().write(0, 32);
        let err = first_error(&unfinished(&mut w));
        check(&err, ErrorKind::UnusableAbbrev { id: 4, problem }, record, &[BLOCK]);
        assert!(err.to_string().contains("which no record can use"), "{err}");
    }
}

pub fn invalid_abbreviation_without_operands() {
    let mut w = in_block();
    let (count, _) = define_abbrev_raw(&mut w, 0, &[]);
    w.bits().write(0, 32);
    check(
        &first_error(&unfinished(&mut w)),
        ErrorKind::InvalidAbbrev(AbbrevProblem::NoOperands),
        count,
        &[BLOCK],
    );
}

/// A fixed or VBR width of 0 is in range: as in LLVM, the operand is a literal 0. (As an
/// array element it makes the abbreviation unusable: see the table above.)
pub fn zero_width_fixed_and_vbr_operands_are_literal_zeros() {
    let mut w = in_block();
    let ops = [WireOp::Lit(1), WireOp::Sized(FIXED, 0), WireOp::Sized(VBR, 0), WireOp::Sized(FIXED, 8)];
    define_abbrev_raw(&mut w, ops.len() as u64, &ops);
    w.bits().write(4, WIDTH);
    w.bits().write(0x7f, 8);
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    assert!(matches!(cursor.next_entry().unwrap(), Some(Entry::Block(_))));
    let Some(Entry::Record(record)) = cursor.next_entry().unwrap() else { panic!("no record") };
    assert_eq!((record.code, record.ops), (1, &[0, 0, 0x7f][..]));
}

// ---- AbbrevWidthOutOfRange ----

pub fn block_abbreviation_width_out_of_range() {
    for width in [0, 65] {
        let mut w = in_block();
        let header = enter_raw(&mut w, INNER as u64, width);
        let err = first_error(&unfinished(&mut w));
        check(&err, ErrorKind::AbbrevWidthOutOfRange { width }, header.width.start, &[BLOCK]);
    }
}

// ---- The top level ----

/// An END_BLOCK after the last block, with non-zero bits after it (zero bytes there would
/// be padding).
pub fn end_block_at_top_level() {
    let mut w = in_block();
    w.end_block().unwrap();
    let at = here(&mut w);
    w.bits().write(abbrev_ids::END_BLOCK as u64, 2);
    w.bits().write(0x3f, 6);
    check(&first_error(&w.finish().unwrap()), ErrorKind::EndBlockAtTopLevel, at, &[]);
}

pub fn not_a_block_at_top_level() {
    for abbrev_id in [abbrev_ids::DEFINE_ABBREV, abbrev_ids::UNABBREV_RECORD] {
        let mut w = StreamWriter::llvm_ir();
        let at = here(&mut w);
        w.bits().write(abbrev_id as u64, 2);
        let err = first_error(&w.finish().unwrap());
        check(&err, ErrorKind::NotABlockAtTopLevel { abbrev_id: abbrev_id as u64 }, at, &[]);
    }
}

// ---- Block lengths ----

/// A finished stream of [`BLOCK`] holding [`INNER`] with one record; returns it, where
/// INNER's length word and its END_BLOCK start, and where that END_BLOCK leaves the stream.
fn nested_blocks() -> (Vec<u8>, u64, u64, u64) {
    let mut w = in_block();
    w.enter_block(INNER, WIDTH).unwrap();
    let length = here(&mut w) - 32; // the length word is the header's last field
    w.unabbreviated_record(1, &[1, 2, 3, 4, 5, 6]).unwrap();
    let end_block = here(&mut w);
    w.end_block().unwrap();
    let end = here(&mut w);
    w.end_block().unwrap();
    (w.finish().unwrap(), length, end_block, end)
}

/// Holds block lengths to the blocks (as the LLVM IR walks do).
fn strict(cursor: &mut Cursor<'_>) {
    cursor.check_block_lengths(true);
}

/// Sets the 32-bit word at bit `at` (a multiple of 8) of `bytes`.
fn patch_word(bytes: &mut [u8], at: u64, value: u32) {
    let at = (at / 8) as usize;
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// A length word of 1000 words in a short stream, plain and behind a wrapper header, read
/// with block lengths checked: the error is at the length word, and where the block would
/// end and where the stream ends are absolute offsets too. (LLVM's walk, the default, does
/// not look at length words: bitcode-runtime/tests/errors.rs.)
pub fn block_length_beyond_the_input() {
    let (mut stream, length, _, _) = nested_blocks();
    patch_word(&mut stream, length, 1000);
    let header_bits = wrapped(&[], 0, 0).0.len() as u64 * 8;
    for (file, stream_at) in [(stream.clone(), 0), (wrap(&stream, 7).unwrap(), header_bits)] {
        let end_bit = stream_at + length + 32 + 1000 * 32;
        let input_bits = stream_at + stream.len() as u64 * 8;
        let kind = ErrorKind::BlockBeyondInput { words: 1000, end_bit, input_bits };
        check(&first_error_with(&file, strict), kind, stream_at + length, &[BLOCK]);
    }
}

/// A length word one word short of, or one past, where the END_BLOCK leaves the block,
/// read with block lengths checked.
pub fn block_length_mismatch() {
    for delta in [-1i64, 1] {
        let (mut bytes, length, end_block, actual_end) = nested_blocks();
        let body = length + 32;
        let claimed = ((actual_end - body) / 32) as i64 + delta;
        patch_word(&mut bytes, length, claimed as u32);
        let declared_end = body + claimed as u64 * 32;
        let err = first_error_with(&bytes, strict);
        check(&err, ErrorKind::BlockLengthMismatch { declared_end, actual_end }, end_block, &[BLOCK, INNER]);
    }
}

// ---- Nesting ----

pub fn blocks_deeper_than_the_cursor_allows() {
    let mut w = in_block();
    w.enter_block(INNER, WIDTH).unwrap();
    let at = here(&mut w);
    w.enter_block(INNER + 1, WIDTH).unwrap();
    let bytes = unfinished(&mut w);
    let err = first_error_with(&bytes, |cursor| cursor.set_max_depth(2));
    check(&err, ErrorKind::TooDeep { limit: 2 }, at, &[BLOCK, INNER]);
}

// ---- Limits ----

/// [`first_error`] with `limits` set on every stream (as a user sets them).
fn first_error_within(bytes: &[u8], limits: Limits) -> Error {
    first_error_with(bytes, |cursor| cursor.set_limits(limits))
}

fn limit(what: &'static str, count: u64, limit: u64) -> ErrorKind {
    ErrorKind::LimitExceeded { what, count, limit }
}

pub fn more_records_than_the_limit() {
    let mut w = in_block();
    w.unabbreviated_record(1, &[]).unwrap();
    w.unabbreviated_record(1, &[]).unwrap();
    let at = here(&mut w);
    w.unabbreviated_record(1, &[]).unwrap();
    let bytes = unfinished(&mut w);
    let err = first_error_within(&bytes, Limits::new().with_max_records(2));
    check(&err, limit("records", 3, 2), at, &[BLOCK]);
}

pub fn more_record_operands_than_the_limit() {
    let limits = Limits::new().with_max_record_operands(3);
    // Unabbreviated: the operand count is refused before any operand is read.
    let mut w = in_block();
    start_unabbreviated_record(&mut w, 1);
    let at = here(&mut w);
    for value in [4, 0, 0, 0, 0] {
        w.bits().write_vbr(value, 6).unwrap();
    }
    let bytes = unfinished(&mut w);
    check_in_record(&first_error_within(&bytes, limits), limit("record operands", 4, 3), at, &[BLOCK], 1);
    // Abbreviated: two scalars, then an array of two elements makes four.
    let mut w = in_block();
    start_abbreviated_record(&mut w, vec![Literal(1), Scalar(Fixed(8)), Scalar(Fixed(8)), Array(Fixed(8))]);
    w.bits().write(0, 8);
    w.bits().write(0, 8);
    let at = here(&mut w);
    w.bits().write_vbr(2, 6).unwrap();
    w.bits().write(0, 16);
    let bytes = unfinished(&mut w);
    check_in_record(&first_error_within(&bytes, limits), limit("record operands", 4, 3), at, &[BLOCK], 1);
}

pub fn a_blob_larger_than_the_limit() {
    let mut w = in_block();
    let id = w.define_abbrev(Abbrev::new(vec![Literal(1), Blob]).unwrap()).unwrap();
    let at = here(&mut w) + u64::from(WIDTH);
    w.abbreviated_record(id, 1, &[], Some(b"seventeen bytes!!")).unwrap();
    let bytes = unfinished(&mut w);
    let err = first_error_within(&bytes, Limits::new().with_max_blob_bytes(16));
    check_in_record(&err, limit("blob bytes", 17, 16), at, &[BLOCK], 1);
}

/// The count includes the abbreviations BLOCKINFO gives the block.
pub fn more_abbreviations_in_a_block_than_the_limit() {
    let mut w = in_blockinfo();
    w.set_bid(BLOCK).unwrap();
    w.define_abbrev(Abbrev::new(vec![Literal(1)]).unwrap()).unwrap();
    w.end_block().unwrap();
    w.enter_block(BLOCK, WIDTH).unwrap();
    w.define_abbrev(Abbrev::new(vec![Literal(2)]).unwrap()).unwrap();
    let at = here(&mut w);
    w.define_abbrev(Abbrev::new(vec![Literal(3)]).unwrap()).unwrap();
    let bytes = unfinished(&mut w);
    let err = first_error_within(&bytes, Limits::new().with_max_abbrevs_per_block(2));
    check(&err, limit("abbreviations in one block", 3, 2), at, &[BLOCK]);
    // Inside BLOCKINFO, per block id.
    let mut w = in_blockinfo();
    w.set_bid(BLOCK).unwrap();
    w.define_abbrev(Abbrev::new(vec![Literal(1)]).unwrap()).unwrap();
    let at = here(&mut w);
    w.define_abbrev(Abbrev::new(vec![Literal(2)]).unwrap()).unwrap();
    let bytes = unfinished(&mut w);
    let err = first_error_within(&bytes, Limits::new().with_max_abbrevs_per_block(1));
    check(&err, limit("abbreviations in one block", 2, 1), at, &[0]);
}

/// Limits set on a stream reach every reader of it: here the LLVM walk of `check_stream`.
pub fn stream_limits_reach_the_llvm_walk() {
    let (bytes, _, _) = invalid_constants_module(0);
    let stream = Bitstream::new(&bytes).unwrap();
    assert!(bitcode_schema::llvm::check_stream(&stream).is_ok());
    let limited = stream.with_limits(Limits::new().with_max_depth(1));
    let err = bitcode_schema::llvm::check_stream(&limited).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TooDeep { limit: 1 }, "{err}");
    assert_eq!(err.block_path(), [bitcode_schema::llvm::ir::module_block::ID], "{err}");
    // The default limits let every corpus file through (tests/it/llvm_corpus.rs); they are
    // far above what LLVM's writers make.
    let defaults = Limits::default();
    assert!(defaults.max_depth >= 16 && defaults.max_abbrevs_per_block >= 1024, "{defaults:?}");
}

// ---- BLOCKINFO ----

/// A stream with a BLOCKINFO block open.
fn in_blockinfo() -> StreamWriter {
    let mut w = StreamWriter::llvm_ir();
    w.enter_block(0, 2).unwrap();
    w
}

/// An unabbreviated record: its code and operands.
type RawRecord<'a> = (u32, &'a [u64]);

pub fn blockinfo_records_before_setbid_or_without_their_operands() {
    use ErrorKind::{BlockInfoWithoutSetBid as WithoutSetBid, MalformedBlockInfoRecord as Malformed};
    let name = b"NAME".map(u64::from);
    // (records before, the record at fault, the error)
    let cases: &[(&[RawRecord], RawRecord, ErrorKind)] = &[
        (&[], (2, &name), WithoutSetBid { code: Some(2) }), // BLOCKNAME
        (&[], (3, &[5, name[0]]), WithoutSetBid { code: Some(3) }), // SETRECORDNAME
        (&[], (1, &[]), Malformed { code: 1 }),             // SETBID without its id
        (&[(1, &[8])], (3, &[]), Malformed { code: 3 }),    // SETRECORDNAME without a code
    ];
    for (before, (code, ops), kind) in cases {
        let mut w = in_blockinfo();
        for (code, ops) in *before {
            w.unabbreviated_record(*code, ops).unwrap();
        }
        let at = here(&mut w);
        // Raw: the writer refuses BLOCKINFO records a reader cannot apply.
        start_unabbreviated_record(&mut w, u64::from(*code));
        w.bits().write_vbr(ops.len() as u64, 6).unwrap();
        for &op in *ops {
            w.bits().write_vbr(op, 6).unwrap();
        }
        check(&first_error(&unfinished(&mut w)), kind.clone(), at, &[0]);
    }
}

pub fn blockinfo_abbreviation_before_setbid() {
    let mut w = in_blockinfo();
    let at = here(&mut w);
    define_abbrev_raw(&mut w, 1, &[WireOp::Lit(1)]);
    let err = first_error(&unfinished(&mut w));
    check(&err, ErrorKind::BlockInfoWithoutSetBid { code: None }, at, &[0]);
}

// ---- The container ----

/// A complete stream with one empty block.
fn small_stream(magic: [u8; 4]) -> Vec<u8> {
    let mut w = StreamWriter::new(magic);
    w.enter_block(BLOCK, WIDTH).unwrap();
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// A wrapper header saying `offset` and `size`, then `stream`; returns the file and where
/// the header's offset field starts.
fn wrapped(stream: &[u8], offset: u32, size: u32) -> (Vec<u8>, u64) {
    let mut b = BitWriter::new();
    b.write(WRAPPER_MAGIC as u64, 32);
    b.write(0, 32); // version
    let offset_field = b.position();
    b.write(offset as u64, 32);
    b.write(size as u64, 32);
    b.write(7, 32); // CPU type
    b.write_bytes(stream).unwrap();
    (b.into_bytes(), offset_field)
}

/// The magic asked for is not the stream's: the error is at the magic, past the wrapper
/// header when there is one.
pub fn bad_magic() {
    let stream = small_stream(*b"DIAG");
    let kind = ErrorKind::BadMagic { found: *b"DIAG", expected: Magic::LlvmIr.bytes() };
    let header_len = wrapped(&[], 0, 0).0.len();
    for (file, magic_at) in [(stream.clone(), 0), (wrap(&stream, 7).unwrap(), header_len as u64 * 8)] {
        let input = Input::parse(&file).unwrap();
        let err = input.streams().unwrap()[0].expect(Magic::LlvmIr).unwrap_err();
        check(&err, kind.clone(), magic_at, &[]);
    }
}

pub fn wrapper_too_short() {
    let (file, _) = wrapped(&small_stream(Magic::LlvmIr.bytes()), 20, 12);
    for len in [4, 12, 16] {
        check(&first_error(&file[..len]), ErrorKind::WrapperTooShort { len }, 0, &[]);
    }
    // Not whole words: refused before the header is looked at, as LLVM's readers do.
    check(&first_error(&file[..19]), ErrorKind::LengthNotWords { len: 19 }, 128, &[]);
}

/// A wrapper whose offset, or size, reaches past the end of the file.
pub fn wrapper_offset_or_size_out_of_range() {
    let stream = small_stream(Magic::LlvmIr.bytes());
    let header_len = wrapped(&[], 0, 0).0.len() as u32;
    let len = header_len as usize + stream.len();
    let stream_len = stream.len() as u32;
    for (offset, size) in [(header_len, stream_len + 1), (header_len + 1, stream_len), (u32::MAX, 4)] {
        let (file, offset_field) = wrapped(&stream, offset, size);
        check(&first_error(&file), ErrorKind::WrapperOutOfRange { offset, size, len }, offset_field, &[]);
    }
}

/// A native object (this test's own executable) without a bitcode section.
#[cfg(feature = "object")]
pub fn native_object_without_bitcode() {
    let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    let kind = ErrorKind::Object("no .llvmbc, .llvm.lto or __LLVM,__bitcode section".into());
    check(&first_error(&exe), kind, 0, &[]);
}

// ---- Typed decoding: ErrorKind::Field ----

/// Walks `bytes` and decodes each record with `decode` (given the record's block id);
/// returns the first error as the decoder gave it (no path added: it has its record's).
fn first_decode_error(
    bytes: &[u8],
    mut decode: impl FnMut(u32, &Record<'_, '_>) -> bitcode_schema::Result<()>,
) -> Error {
    let stream = Bitstream::new(bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut blocks = Vec::new();
    while let Some(entry) = cursor.next_entry().unwrap() {
        match entry {
            Entry::Block(header) => blocks.push(header.id),
            Entry::EndBlock(_) => _ = blocks.pop(),
            Entry::Record(record) => {
                if let Err(e) = decode(*blocks.last().unwrap(), &record) {
                    return e;
                }
            }
        }
    }
    panic!("every record decoded")
}

/// A stream with `magic` holding one block with one unabbreviated record, and where the
/// record starts.
fn one_record(magic: [u8; 4], block: u32, code: u32, ops: &[u64]) -> (Vec<u8>, u64) {
    let mut w = StreamWriter::new(magic);
    w.enter_block(block, 4).unwrap();
    let at = here(&mut w);
    w.unabbreviated_record(code, ops).unwrap();
    w.end_block().unwrap();
    (w.finish().unwrap(), at)
}

/// A record a schema refuses: its block id, code and operands, then the record and field
/// the error names and what is wrong with the field.
type BadRecord<'a> = (u32, u32, &'a [u64], &'static str, &'static str, FieldProblem);

/// Records of tests/schemas/every_kind.toml that its decoders refuse, one per field problem
/// a schema field can have; the first two are a record with too few operands and an
/// impossible enum value.
pub fn typed_decode_errors_name_block_record_field_and_value() {
    use every_kind::{body_block, header_block};
    use FieldProblem::*;
    let byte = |c: u8| c as u64;
    #[rustfmt::skip]
    let cases: &[BadRecord] = &[
        (body_block::ID, 1, &[1, 2], "NUMBERS", "large", Missing { operands: 2 }),
        (body_block::ID, 2, &[3, 0, 0, 0], "CHOICES", "color", NotInEnum { value: 3, name: "Color" }),
        (body_block::ID, 1, &[256, 0, 0, 0, 0], "NUMBERS", "small", TooLarge { value: 256, ty: "u8" }),
        (body_block::ID, 2, &[0, 0, 0, 3 << 4], "CHOICES", "style", BadFlag { flag: "color", value: 3 }),
        (body_block::ID, 3, &[1, 1, 0, 5, 9, 0, 65], "VALUES", "align", BadAlignment { value: 65 }),
        (body_block::ID, 3, &[1, 1, encode_signed(101), 5, 9, 0, 0], "VALUES", "phi",
            BadValueId { value: encode_signed(101), current: 100 }),
        (body_block::ID, 5, &[1, 2, 5], "ATTRS", "attrs", UnknownTag { tag: 2, group: "Attr" }),
        (body_block::ID, 5, &[1, 3, byte(b'a')], "ATTRS", "key", Unterminated),
        (header_block::ID, 2, &[byte(b'a'), 300], "NAME", "name", NotAByte { value: 300 }),
        (header_block::ID, 4, &[1], "RAW_BLOB", "data", NoBlob),
    ];
    for (block, code, ops, record, field, problem) in cases {
        let (bytes, at) = one_record(every_kind::MAGIC, *block, *code, ops);
        let block_name = every_kind::block_name(*block).unwrap();
        let mut ctx = BasicContext::new().with_value_number(100);
        let err = first_decode_error(&bytes, |block, record| {
            every_kind::decode_record(block, record, &mut ctx).map(drop)
        });
        let kind = ErrorKind::Field { block: block_name, record, field, problem: problem.clone() };
        check_in_typed_record(&err, kind, at, &[*block], *code);
    }
}

/// The LLVM IR schema: a GLOBALVAR (format version 2) that stops after its type.
pub fn llvm_record_with_too_few_operands() {
    use bitcode_schema::llvm::ir;
    let (bytes, at) = one_record(Magic::LlvmIr.bytes(), ir::module_block::ID, 7, &[0, 4, 3]);
    let mut ctx = BasicContext::new().with_version(2);
    let err =
        first_decode_error(&bytes, |block, record| ir::decode_record(block, record, &mut ctx).map(drop));
    let kind = ErrorKind::Field {
        block: "MODULE_BLOCK",
        record: "GLOBALVAR",
        field: "flags",
        problem: FieldProblem::Missing { operands: 3 },
    };
    check_in_typed_record(&err, kind, at, &[ir::module_block::ID], 7);
    assert!(
        err.to_string().starts_with(&format!("MODULE_BLOCK/GLOBALVAR at bit {at}: field flags: missing")),
        "{err}"
    );
}

/// A module whose bitstream and records are fine but which LLVM's reader rejects: a null
/// constant whose type (set by SETTYPE) is `kind` (TYPE block code 2 void, 5 label, 21
/// function), or a SETTYPE naming a type beyond the table. The walk (`check_stream`) stops
/// with [`ErrorKind::Invalid`] at the offending record.
fn invalid_constants_module(settype: u64) -> (Vec<u8>, u64, u32) {
    use bitcode_schema::llvm::ir::{
        constants_block::ID as CONSTANTS, module_block::ID as MODULE, type_block::ID as TYPE,
    };
    let mut w = StreamWriter::llvm_ir();
    w.enter_block(MODULE, 3).unwrap();
    w.unabbreviated_record(1, &[2]).unwrap(); // VERSION 2
    w.enter_block(TYPE, 4).unwrap();
    w.unabbreviated_record(1, &[4]).unwrap(); // NUMENTRY
    w.unabbreviated_record(7, &[32]).unwrap(); // 0: i32
    w.unabbreviated_record(2, &[]).unwrap(); // 1: void
    w.unabbreviated_record(5, &[]).unwrap(); // 2: label
    w.unabbreviated_record(21, &[0, 1]).unwrap(); // 3: void ()
    w.end_block().unwrap();
    w.enter_block(CONSTANTS, 4).unwrap();
    w.unabbreviated_record(2, &[]).unwrap(); // null i32 (the type before any SETTYPE)
    let settype_at = here(&mut w);
    w.unabbreviated_record(1, &[settype]).unwrap();
    let null_at = here(&mut w);
    w.unabbreviated_record(2, &[]).unwrap();
    w.end_block().unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    if settype > 3 {
        (bytes, settype_at, 1)
    } else {
        (bytes, null_at, 2)
    }
}

pub fn llvm_null_constant_of_a_type_without_null_values() {
    use bitcode_schema::llvm::ir::{constants_block::ID as CONSTANTS, module_block::ID as MODULE};
    for (settype, what) in [(1, "void"), (2, "label"), (3, "a function type")] {
        let (bytes, at, code) = invalid_constants_module(settype);
        let stream = Bitstream::new(&bytes).unwrap();
        let err = bitcode_schema::llvm::check_stream(&stream).unwrap_err();
        let message = format!("invalid type for a constant null value: type {settype} is {what}");
        check_in_record(&err, ErrorKind::Invalid(message), at, &[MODULE, CONSTANTS], code);
    }
    // A null of a type that has one is fine.
    let (bytes, _, _) = invalid_constants_module(0);
    let report = bitcode_schema::llvm::check_stream(&Bitstream::new(&bytes).unwrap()).unwrap();
    assert_eq!((report.records, report.errors, report.unknown), (9, 0, 0), "{report:?}");
}

pub fn llvm_settype_beyond_the_type_table() {
    use bitcode_schema::llvm::ir::{constants_block::ID as CONSTANTS, module_block::ID as MODULE};
    let (bytes, at, code) = invalid_constants_module(4);
    let err = bitcode_schema::llvm::check_stream(&Bitstream::new(&bytes).unwrap()).unwrap_err();
    let message = "SETTYPE names type 4, the type table has 4 types".to_string();
    check_in_record(&err, ErrorKind::Invalid(message), at, &[MODULE, CONSTANTS], code);
}
