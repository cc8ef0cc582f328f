//! Streams of other writers: version 1 (the older SENSOR layout), writers of 2.0 (without
//! SENSOR's trailing operands), newer writers (unknown records, blocks, units and kinds).

mod common;

use bitcode_schema::runtime::decode::Warning as DecodeWarning;
use common::*;
use sensor_log::{
    read_log, read_log_with_warnings, uncalibrated, Calibration, Reading, SensorKind, Unit, Warning,
};

fn header(version: Option<u64>) -> Item {
    let mut records = Vec::new();
    if let Some(v) = version {
        records.push(Record(VERSION, vec![v]));
    }
    records.push(Record(DEVICE, text("old_logger")));
    records.push(Record(PERIOD, vec![1000]));
    records.push(Record(UNIT, vec![2]));
    Block(HEADER, records)
}

#[test]
fn version_1_uses_the_older_sensor_layout_and_defaults() {
    // Version 1: no VERSION record, SENSOR is [kind, id].
    for version in [None, Some(1)] {
        let bytes = stream(&[
            header(version),
            Block(
                SENSOR_BLOCK,
                vec![Record(SENSOR, vec![1, 5]), Record(READINGS, vec![10, signed(100), signed(-3)])],
            ),
        ]);
        let d = read_log_with_warnings(&bytes).unwrap();
        assert_eq!((d.version, d.warnings.as_slice()), (1, &[][..]));
        assert_eq!(
            (d.log.device.as_str(), d.log.period_us, d.log.unit),
            ("old_logger", 1000, Unit::MilliCelsius)
        );
        let s = &d.log.sensors[0];
        assert_eq!((s.id, s.kind), (5, SensorKind::Temperature));
        assert_eq!((s.calibration, s.decimation, s.dropped), (uncalibrated(), 1, 0));
        assert_eq!(s.readings, vec![Reading { tick: 10, value: 100 }, Reading { tick: 11, value: 97 }]);
    }
}

#[test]
fn the_version_record_picks_the_layout() {
    // The same operands as a version 2 SENSOR: id 1, kind 5 (voltage), and then the
    // calibration word that version 2 requires is missing.
    let bytes = stream(&[header(Some(2)), Block(SENSOR_BLOCK, vec![Record(SENSOR, vec![1, 5])])]);
    let err = read_log(&bytes).unwrap_err();
    assert!(
        err.to_string().starts_with("SENSOR_BLOCK/SENSOR at bit ")
            && err
                .to_string()
                .ends_with(": field calibration: missing (the record has 2 operands) (block path 9)"),
        "{err}"
    );
}

#[test]
fn writers_of_2_0_leave_out_the_trailing_operands() {
    let calibration = 0b101 | (3 << 8);
    for (ops, decimation, dropped) in [
        (vec![5, 3, calibration], 1, 0),
        (vec![5, 3, calibration, 4], 4, 0),
        (vec![5, 3, calibration, 4, 9], 4, 9),
    ] {
        let bytes = stream(&[header(Some(2)), Block(SENSOR_BLOCK, vec![Record(SENSOR, ops)])]);
        let d = read_log_with_warnings(&bytes).unwrap();
        assert_eq!((d.version, d.warnings.as_slice()), (2, &[][..]));
        let s = &d.log.sensors[0];
        assert_eq!((s.id, s.kind, s.decimation, s.dropped), (5, SensorKind::Pressure, decimation, dropped));
        let expected = Calibration {
            factory: true,
            in_field: false,
            temperature_compensated: true,
            gain_log2: 3,
            other_bits: 0,
        };
        assert_eq!(s.calibration, expected);
    }
}

#[test]
fn unknown_records_and_extra_operands_are_skipped_with_warnings() {
    let bytes = stream(&[
        header(Some(2)),
        Block(
            SENSOR_BLOCK,
            vec![
                Record(SENSOR, vec![5, 3, 0, 1, 0, 77]), // one operand more than version 2 has
                Record(99, vec![1, 2, 3]),               // a record of a newer writer
                Record(READINGS, vec![0, signed(8)]),
            ],
        ),
    ]);
    let d = read_log_with_warnings(&bytes).unwrap();
    assert_eq!(d.log.sensors[0].readings, vec![Reading { tick: 0, value: 8 }]);
    assert!(
        matches!(
            &d.warnings[..],
            [
                Warning::Decoder(DecodeWarning::ExtraOperands {
                    block: "SENSOR_BLOCK",
                    record: "SENSOR",
                    count: 1,
                    ..
                }),
                Warning::Decoder(DecodeWarning::UnknownRecord { block: "SENSOR_BLOCK", code: 99, .. }),
            ]
        ),
        "{:?}",
        d.warnings
    );
    let shown: Vec<String> = d.warnings.iter().map(ToString::to_string).collect();
    assert!(shown[0].starts_with("SENSOR_BLOCK/SENSOR: 1 extra operands kept raw (at bit "), "{}", shown[0]);
    assert!(shown[1].starts_with("SENSOR_BLOCK: unknown record code 99, kept raw (at bit "), "{}", shown[1]);
    // read_log reads the same log and drops the warnings
    assert_eq!(read_log(&bytes).unwrap(), d.log);
}

#[test]
fn unknown_units_are_kept_with_a_warning_and_unknown_kinds_read_as_other() {
    let bytes = stream(&[
        Block(HEADER, vec![Record(VERSION, vec![2]), Record(UNIT, vec![42])]),
        Block(SENSOR_BLOCK, vec![Record(SENSOR, vec![1, 99, 0])]),
    ]);
    let d = read_log_with_warnings(&bytes).unwrap();
    assert_eq!(d.log.unit, Unit::Unknown(42));
    assert_eq!(d.log.unit.to_string(), "unknown(42)");
    assert_eq!(d.log.sensors[0].kind, SensorKind::Other);
    assert!(matches!(d.warnings[..], [Warning::UnknownUnit { code: 42, .. }]), "{:?}", d.warnings);
    assert!(d.warnings[0].to_string().starts_with("HEADER_BLOCK/UNIT: unknown unit code 42, kept (at bit "));
}

#[test]
fn unknown_blocks_are_skipped_and_newer_versions_read() {
    let bytes = stream(&[
        Block(HEADER, vec![Record(VERSION, vec![3]), Block(40, vec![Record(1, vec![1])])]),
        Block(41, vec![Record(1, vec![2]), Block(SENSOR_BLOCK, vec![])]),
        Block(SENSOR_BLOCK, vec![]),
    ]);
    let d = read_log_with_warnings(&bytes).unwrap();
    assert_eq!(d.version, 3);
    assert_eq!(d.log.sensors.len(), 1, "the SENSOR_BLOCK inside block 41 was skipped with it");
    let shown: Vec<String> = d.warnings.iter().map(ToString::to_string).collect();
    assert!(matches!(d.warnings[0], Warning::NewerVersion { version: 3 }), "{shown:?}");
    assert!(matches!(d.warnings[1], Warning::UnknownBlock { id: 40, .. }), "{shown:?}");
    assert!(matches!(d.warnings[2], Warning::UnknownBlock { id: 41, .. }), "{shown:?}");
    assert!(matches!(d.warnings[3], Warning::MissingSensorRecord { .. }), "{shown:?}");
    assert_eq!(d.warnings.len(), 4, "{shown:?}");
}

#[test]
fn records_after_a_nested_block_belong_to_the_enclosing_sensor() {
    let bytes = stream(&[Block(
        SENSOR_BLOCK,
        vec![
            Block(SENSOR_BLOCK, vec![Record(SENSOR, vec![2, 2])]),
            Record(SENSOR, vec![1, 1]),
            Record(READINGS, vec![0, signed(5)]),
        ],
    )]);
    let d = read_log_with_warnings(&bytes).unwrap();
    let ids: Vec<(u32, usize)> = d.log.sensors.iter().map(|s| (s.id, s.readings.len())).collect();
    assert_eq!(ids, vec![(1, 1), (2, 0)]);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}
