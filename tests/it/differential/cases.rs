//! The streams on which the project and llvm-bcanalyzer once disagreed, or on which LLVM
//! versions differ, each written with the runtime's writer (the malformed field raw) and
//! each with the verdict it must get from LLVM 14's analyzer and from LLVM 15's and later.

use bitcode_schema::runtime::writer::StreamWriter;
use bitcode_schema::{Abbrev, DefinedOp};

use super::Verdict;

/// One regression case.
pub struct Case {
    /// What it is, as a file name.
    pub name: &'static str,
    /// The stream.
    pub bytes: Vec<u8>,
    /// Its verdict against LLVM 14's llvm-bcanalyzer.
    pub llvm_14: Verdict,
    /// Its verdict against LLVM 15's to 19's.
    pub llvm_15: Verdict,
}

fn abbrev(definition: Vec<DefinedOp>) -> Abbrev {
    Abbrev::define(definition).expect("a definition LLVM takes")
}

/// A stream of one block 9 (abbreviation ids `width` bits wide) with what `body` writes.
fn in_block(width: u32, body: impl FnOnce(&mut StreamWriter)) -> Vec<u8> {
    let mut w = StreamWriter::new(*b"DIFF");
    w.enter_block(9, width).unwrap();
    body(&mut w);
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// A stream that stops inside a block 9: `body` writes the rest, raw, and the bytes are cut
/// to whole words.
fn unfinished(body: impl FnOnce(&mut StreamWriter)) -> Vec<u8> {
    let mut w = StreamWriter::new(*b"DIFF");
    w.enter_block(9, 3).unwrap();
    body(&mut w);
    w.bits().align32();
    w.bits().bytes().to_vec()
}

/// Two BLOCKINFO blocks and a block 9: the first declares `setbid` for block 0; the second
/// (first declaring it again when `redeclare`) writes a SETBID through it with `ops` and
/// `blob`, then declares `[2, array of fixed 1]`; block 9 writes a record through that.
fn setbid_through_an_abbreviation(
    setbid: Abbrev,
    redeclare: bool,
    ops: &[u64],
    blob: Option<&[u8]>,
) -> Vec<u8> {
    let mut w = StreamWriter::new(*b"DIFF");
    w.enter_block(0, 3).unwrap();
    w.set_bid(0).unwrap();
    w.define_abbrev(setbid.clone()).unwrap();
    w.end_block().unwrap();
    w.enter_block(0, 3).unwrap();
    if redeclare {
        w.set_bid(0).unwrap();
        w.define_abbrev(setbid).unwrap();
    }
    w.abbreviated_record(4, 1, ops, blob).unwrap();
    w.define_abbrev(abbrev(vec![DefinedOp::Literal(2), DefinedOp::Array, DefinedOp::Fixed(1)])).unwrap();
    w.end_block().unwrap();
    w.enter_block(9, 3).unwrap();
    w.abbreviated_record(4, 2, &[1, 0, 1], None).unwrap();
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// A METADATA_STRINGS record (block 15, code 35) whose blob says 2 strings of 3 and 9
/// bytes but holds 5 characters, in a stream with `magic`.
fn short_metadata_strings(magic: [u8; 4]) -> Vec<u8> {
    let mut w = StreamWriter::new(magic);
    w.enter_block(15, 3).unwrap();
    let id = w
        .define_abbrev(abbrev(vec![
            DefinedOp::Literal(35),
            DefinedOp::Vbr(6),
            DefinedOp::Vbr(6),
            DefinedOp::Blob,
        ]))
        .unwrap();
    let mut lengths = bitcode_schema::runtime::writer::BitWriter::new();
    lengths.write_vbr(3, 6).unwrap();
    lengths.write_vbr(9, 6).unwrap();
    lengths.align32();
    let mut blob = lengths.into_bytes();
    blob.extend_from_slice(b"abcde");
    w.abbreviated_record(id, 35, &[2, 4], Some(&blob)).unwrap();
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// Every case.
pub fn all() -> Vec<Case> {
    use DefinedOp::*;
    vec![
        Case {
            // llvm-bcanalyzer prints the array as text ("record string = ''") before the
            // blob, where the oracle did not look for a blob (the batch script cuts it).
            name: "empty-array-then-blob",
            bytes: in_block(3, |w| {
                let id = w.define_abbrev(abbrev(vec![Literal(4), Blob, Array, Char6])).unwrap();
                w.abbreviated_record(id, 4, &[], Some(b"blob")).unwrap();
                w.abbreviated_record(id, 4, &[u64::from(b'x')], Some(&[0xff, 0])).unwrap();
            }),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::BothRead,
        },
        Case {
            // clang 22's precompiled headers define an abbreviation whose array element is
            // fixed(0), a literal, and never use it: LLVM takes the definition.
            name: "unused-array-of-a-literal",
            bytes: in_block(3, |w| {
                w.define_abbrev(abbrev(vec![Literal(1), Array, Fixed(0)])).unwrap();
                w.unabbreviated_record(1, &[7]).unwrap();
            }),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::BothRead,
        },
        Case {
            // fixed(0) and vbr(0) on the wire are literal zeros, the code included.
            name: "zero-width-fields",
            bytes: in_block(3, |w| {
                let id = w.define_abbrev(abbrev(vec![Fixed(0), Vbr(0), Fixed(3)])).unwrap();
                w.abbreviated_record(id, 0, &[0, 5], None).unwrap();
            }),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::BothRead,
        },
        Case {
            // Fixed fields of 64 bits: LLVM 14 reads them; LLVM 15 refuses the definition.
            name: "fixed-64-bit-fields",
            bytes: in_block(3, |w| {
                let id = w.define_abbrev(abbrev(vec![Fixed(64), Fixed(64), Array, Fixed(33)])).unwrap();
                w.abbreviated_record(id, 3, &[u64::MAX, (1 << 33) - 1, 0], None).unwrap();
            }),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::WiderThan32Bits,
        },
        Case {
            // Abbreviation ids of 40 bits: LLVM 14 reads them; LLVM 15 refuses the block.
            name: "abbreviation-ids-of-40-bits",
            bytes: in_block(40, |w| w.unabbreviated_record(2, &[1, 2]).unwrap()),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::WiderThan32Bits,
        },
        Case {
            // An abbreviation id of 2^32 + 3 in a 40-bit id field: LLVM 14 reads ids as
            // 32-bit values, so this is UNABBREV_RECORD (found by the mutant run, where a
            // flipped high bit made the project report an undefined abbreviation).
            name: "abbreviation-id-past-32-bits",
            bytes: in_block(40, |w| {
                w.bits().write((1 << 32) | 3, 40);
                for v in [2, 1, 7] {
                    w.bits().write_vbr(v, 6).unwrap();
                }
            }),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::WiderThan32Bits,
        },
        Case {
            // A wrapper whose stream is 2 bytes longer than its words: LLVM reads the last
            // 48 bits as one word, and its alignment after the block (17 bits left in that
            // word) drops the rest, which the project once read as another top-level entry
            // (found by the mutant run).
            name: "wrapper-stream-of-partial-words",
            bytes: {
                // Four records of no operands: END_BLOCK ends at bit 159, 31 bits into the
                // stream's last 64-bit word (5 words and 2 bytes: 48 bits).
                let stream = in_block(3, |w| {
                    for _ in 0..4 {
                        w.unabbreviated_record(4, &[]).unwrap();
                    }
                });
                assert_eq!(stream.len(), 20);
                let mut out = Vec::new();
                for word in [0x0B17_C0DE, 0, 20, stream.len() as u32 + 2, 0] {
                    out.extend_from_slice(&u32::to_le_bytes(word));
                }
                out.extend_from_slice(&stream);
                out.extend_from_slice(&[0xff, 0xff, 0, 0]);
                out
            },
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::BothRead,
        },
        Case {
            // A record through VBR chunks of 40 bits: LLVM 14 reads the value with
            // undefined shifts (57 for 2^60 + 12345); LLVM 15 refuses the definition.
            name: "vbr-chunks-of-40-bits",
            bytes: unfinished(|w| {
                w.define_abbrev(abbrev(vec![Literal(5), Vbr(40)])).unwrap();
                w.bits().write(4, 3);
                w.bits().write_vbr((1 << 60) + 12345, 40).unwrap();
                w.bits().write(0, 3);
            }),
            llvm_14: Verdict::WideVbrChunks,
            llvm_15: Verdict::BothRejected,
        },
        Case {
            // A VBR6 operand whose fourteenth chunk starts past bit 64: LLVM 14 reads on
            // with undefined shifts; LLVM 15 says "Unterminated VBR".
            name: "vbr-past-64-bits",
            bytes: unfinished(|w| {
                w.bits().write(3, 3);
                w.bits().write_vbr(1, 6).unwrap();
                w.bits().write_vbr(1, 6).unwrap();
                for _ in 0..14 {
                    w.bits().write(0x3f, 6);
                }
                w.bits().write(0, 6);
                w.bits().write(0, 3);
            }),
            llvm_14: Verdict::UnterminatedVbr,
            llvm_15: Verdict::BothRejected,
        },
        Case {
            // A blob longer than the rest of the stream: LLVM 14 gives the record that many
            // zero operands and reads on from the bits it had cached; LLVM 15 says "Blob ends
            // too soon".
            name: "blob-past-the-end",
            bytes: unfinished(|w| {
                let id = w.define_abbrev(abbrev(vec![Literal(1), Blob])).unwrap();
                w.bits().write(u64::from(id), 3);
                w.bits().write_vbr(400, 6).unwrap();
                w.bits().align32();
                w.bits().write_bytes(&[0; 12]).unwrap();
            }),
            llvm_14: Verdict::BlobPastTheEnd,
            llvm_15: Verdict::BothRejected,
        },
        Case {
            // A file that is not whole words, though its block ends before the last one.
            name: "partial-last-word",
            bytes: {
                let mut bytes = in_block(3, |w| w.unabbreviated_record(1, &[]).unwrap());
                bytes.extend_from_slice(&[0, 0]);
                bytes
            },
            llvm_14: Verdict::BothRejected,
            llvm_15: Verdict::BothRejected,
        },
        Case {
            // LLVM IR metadata strings whose characters end too soon: LLVM's reader (and the
            // analyzer, which prints them) refuses them; so does the project.
            name: "metadata-strings-cut-short",
            bytes: short_metadata_strings(bitcode_schema::Magic::LlvmIr.bytes()),
            llvm_14: Verdict::BothRejected,
            llvm_15: Verdict::BothRejected,
        },
        Case {
            // The same in a stream that is not LLVM IR: the analyzer still splits a block
            // 15's record 35 as metadata strings; to the project it is a record like others.
            name: "metadata-strings-outside-llvm-ir",
            bytes: short_metadata_strings(*b"DIFF"),
            llvm_14: Verdict::MetadataStringsOutsideIr,
            llvm_15: Verdict::MetadataStringsOutsideIr,
        },
        Case {
            // A BLOCKINFO block whose SETBID goes through the abbreviation an earlier
            // BLOCKINFO gave block 0. LLVM's readers read it so; the analyzer's dump reads
            // the block again with what it declares for block 0 (nothing) and its own
            // definitions so far (none yet), so there the abbreviation is undefined.
            name: "blockinfo-record-through-an-inherited-abbreviation",
            bytes: setbid_through_an_abbreviation(abbrev(vec![Literal(1), Fixed(5)]), false, &[9], None),
            llvm_14: Verdict::BlockinfoDumpedWithOtherAbbrevs,
            llvm_15: Verdict::BlockinfoDumpedWithOtherAbbrevs,
        },
        Case {
            // The same, the second BLOCKINFO first declaring for block 0 what it inherited:
            // both passes read the same, and the two agree.
            name: "blockinfo-record-through-a-redeclared-abbreviation",
            bytes: setbid_through_an_abbreviation(abbrev(vec![Literal(1), Fixed(5)]), true, &[9], None),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::BothRead,
        },
        Case {
            // A SETBID through an abbreviation with a blob before its block id: LLVM's
            // BLOCKINFO reader takes the record without a blob, the blob's bytes among the
            // operands, so the block id is the blob's first byte (9), not the operand (3);
            // block 9 then reads through what follows the SETBID. (The generated stream that
            // showed it had been read as SETBID 0 by the project.) The second BLOCKINFO
            // first declares again for block 0 what it inherited, so that the analyzer's
            // second reading of it agrees.
            name: "blockinfo-setbid-with-a-blob",
            bytes: setbid_through_an_abbreviation(
                abbrev(vec![Literal(1), Blob, Fixed(3)]),
                true,
                &[3],
                Some(&[9, 9]),
            ),
            llvm_14: Verdict::BothRead,
            llvm_15: Verdict::BothRead,
        },
        Case {
            // Blocks nested one deeper than the project's limit, which LLVM does not have.
            name: "deeper-than-the-limit",
            bytes: {
                let depth = bitcode_schema::Limits::default().max_depth + 1;
                let mut w = StreamWriter::new(*b"DIFF");
                for _ in 0..depth {
                    w.enter_block(9, 2).unwrap();
                }
                for _ in 0..depth {
                    w.end_block().unwrap();
                }
                w.finish().unwrap()
            },
            llvm_14: Verdict::DeeperThanTheLimit,
            llvm_15: Verdict::DeeperThanTheLimit,
        },
    ]
}
