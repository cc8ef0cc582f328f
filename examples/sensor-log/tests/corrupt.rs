//! Broken streams give errors, never panics or garbage, and the errors say where: block,
//! record, field, bit offset.

mod common;

use bitcode_schema::runtime::decode::FieldProblem;
use bitcode_schema::{Bitstream, Entry, ErrorKind};
use common::*;
use sensor_log::{read_log, write_log, Attribute, Log, Reading, Sensor, SensorKind, Unit};

/// The bit offset of the first record with `code` in a block with id `block`.
fn record_offset(bytes: &[u8], block: u32, code: u32) -> u64 {
    let stream = Bitstream::new(bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut current = None;
    while let Some(entry) = cursor.next_entry().unwrap() {
        match entry {
            Entry::Block(h) => current = Some(h.id),
            Entry::EndBlock(_) => current = None,
            Entry::Record(r) if current == Some(block) && r.code == code => return r.bit_offset,
            Entry::Record(_) => {}
        }
    }
    panic!("no record {code} in block {block}");
}

fn sample() -> Log {
    let mut log = Log::new("probe.7", 100, Unit::Millivolt);
    log.attributes.push(Attribute::Text { key: "site".into(), value: "lab".into() });
    for id in 0..3 {
        let mut s = Sensor::new(id, SensorKind::Voltage);
        s.readings = (0..40).map(|t| Reading { tick: t, value: (t as i64 - 20) * 1000 }).collect();
        s.note = vec![b'n'; id as usize * 3];
        log.sensors.push(s);
    }
    log
}

#[test]
fn a_value_that_does_not_fit_its_field() {
    let bytes = stream(&[
        Block(HEADER, vec![Record(VERSION, vec![2])]),
        Block(SENSOR_BLOCK, vec![Record(SENSOR, vec![1 << 32, 1, 0])]),
    ]);
    let err = read_log(&bytes).unwrap_err();
    let at = record_offset(&bytes, SENSOR_BLOCK, SENSOR);
    assert_eq!(err.bit_offset(), at);
    assert_eq!(
        err.to_string(),
        format!("SENSOR_BLOCK/SENSOR at bit {at}: field id: 4294967296 does not fit in u32 (block path 9)")
    );
    match err.kind() {
        ErrorKind::Field { block, record, field, problem } => {
            assert_eq!((*block, *record, *field), ("SENSOR_BLOCK", "SENSOR", "id"));
            assert_eq!(problem, &FieldProblem::TooLarge { value: 1 << 32, ty: "u32" });
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(err.block_path(), &[SENSOR_BLOCK]);
    assert_eq!(err.record_code(), Some(SENSOR));
}

#[test]
fn other_field_errors_name_their_field() {
    let cases: Vec<(Vec<Item>, (&str, &str))> = vec![
        (
            vec![Record(DEVICE, vec![b'a' as u64, 300])],
            ("HEADER_BLOCK/DEVICE", "field name: 300 is not a byte"),
        ),
        (
            vec![Record(PERIOD, vec![])],
            ("HEADER_BLOCK/PERIOD", "field period_us: missing (the record has 0 operands)"),
        ),
        (
            vec![Record(ATTRIBUTES, vec![7, 0])],
            ("HEADER_BLOCK/ATTRIBUTES", "field entries: 7 is not a tag of group Attribute"),
        ),
        (
            vec![Record(ATTRIBUTES, vec![2, b'k' as u64, 0, b'v' as u64])],
            // inside a group the error names the group variant's field, not the record's
            ("HEADER_BLOCK/ATTRIBUTES", "field value: string without its terminating 0"),
        ),
        (
            vec![Record(VERSION, vec![u64::MAX])],
            ("HEADER_BLOCK/VERSION", "field version: 18446744073709551615 does not fit in u32"),
        ),
    ];
    for (records, (record, problem)) in cases {
        let bytes = stream(&[Block(HEADER, records)]);
        let err = read_log(&bytes).unwrap_err();
        let at = err.bit_offset();
        assert_eq!(err.to_string(), format!("{record} at bit {at}: {problem} (block path 8)"));
    }
    let bytes = stream(&[Block(SENSOR_BLOCK, vec![Record(NOTE, vec![])])]);
    let err = read_log(&bytes).unwrap_err();
    assert!(
        err.to_string().starts_with("SENSOR_BLOCK/NOTE at bit ")
            && err.to_string().ends_with(": field text: the record has no blob (block path 9)"),
        "{err}"
    );
    let bytes = stream(&[Block(SENSOR_BLOCK, vec![Record(READINGS, vec![])])]);
    let err = read_log(&bytes).unwrap_err();
    assert!(err.to_string().contains(": field first_tick: missing"), "{err}");
    assert!(err.to_string().starts_with("SENSOR_BLOCK/READINGS at bit "), "{err}");
}

#[test]
fn truncated_streams() {
    let log = sample();
    let bytes = write_log(&log).unwrap();
    // Cut inside the last sensor's block: its last record, a note whose blob is cut short,
    // runs past the end (length words are not checked while walking, as in LLVM's reader).
    // The blob's length is checked against what is left before any byte of it is read.
    let err = read_log(&bytes[..bytes.len() - 8]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::CountTooLarge { what: "blob bytes", .. }), "{err}");
    assert!(err.to_string().contains("blob bytes cannot fit in the"), "{err}");
    assert!(err.to_string().contains("(at bit "), "{err}");
    // A cut that is not at a 32-bit word is refused before anything is read, as LLVM's
    // readers refuse such files; most cuts at a word end the input inside a field.
    let mut inside_a_field = 0;
    for len in 5..bytes.len() {
        let err = read_log(&bytes[..len]).err();
        match err.as_ref().map(|e| e.kind()) {
            Some(ErrorKind::LengthNotWords { len: l }) => assert!(*l == len && len % 4 != 0, "{len}"),
            Some(ErrorKind::Truncated { .. }) => inside_a_field += 1,
            _ => assert_eq!(len % 4, 0, "{len}: {err:?}"),
        }
    }
    assert!(inside_a_field > bytes.len() / 8, "{inside_a_field} of {}", bytes.len() / 4);
    // Every cut gives an error or, cut between two blocks, the log up to there.
    let mut errors = 0;
    for len in 0..bytes.len() {
        match read_log(&bytes[..len]) {
            Err(e) => {
                errors += 1;
                assert!(e.bit_offset() <= len as u64 * 8, "{len}: {e}");
                assert!(e.to_string().contains("at bit "), "{len}: {e}");
            }
            Ok(short) => {
                assert!(short.sensors.len() < log.sensors.len(), "{len}");
                assert_eq!(short.sensors[..], log.sensors[..short.sensors.len()], "{len}");
            }
        }
    }
    assert!(errors > bytes.len() * 9 / 10, "{errors} of {}", bytes.len());
}

#[test]
fn bit_flips_never_panic() {
    let bytes = write_log(&sample()).unwrap();
    for bit in 0..bytes.len() * 8 {
        let mut flipped = bytes.clone();
        flipped[bit / 8] ^= 1 << (bit % 8);
        if let Err(e) = read_log(&flipped) {
            assert!(e.to_string().contains("at bit "), "{e}");
        }
    }
}

#[test]
fn not_a_sensor_log() {
    let err = read_log(b"BC\xC0\xDE\x35\x14\x00\x00").unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::BadMagic { found: *b"BC\xC0\xDE", expected: *b"SLOG" });
    assert!(
        err.to_string().starts_with("stream magic is 42 43 c0 de where 53 4c 4f 47 was expected (at bit 0"),
        "{err}"
    );
    let err = read_log(b"SL").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Truncated { .. }), "{err}");
}
