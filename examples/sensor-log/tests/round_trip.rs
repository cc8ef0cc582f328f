//! write_log then read_log gives the log back, for logs small, large and extreme; and the
//! stream is a realistic one (BLOCKINFO names and abbreviations, char6 names, blobs).

use bitcode_schema::{Bitstream, Entry};
use sensor_log::generated::{header_block, sensor_block};
use sensor_log::{
    read_log, read_log_with_warnings, uncalibrated, write_log, Attribute, Calibration, Log, Reading, Sensor,
    SensorKind, Unit, FORMAT_VERSION,
};

fn round_trip(log: &Log) -> Vec<u8> {
    let bytes = write_log(log).unwrap_or_else(|e| panic!("write_log: {e}"));
    let decoded = read_log_with_warnings(&bytes).unwrap_or_else(|e| panic!("read_log: {e}"));
    assert_eq!(&decoded.log, log);
    assert_eq!(decoded.version, FORMAT_VERSION);
    let unknown_unit = matches!(log.unit, Unit::Unknown(_));
    assert_eq!(decoded.warnings.len(), usize::from(unknown_unit), "{:?}", decoded.warnings);
    bytes
}

fn readings(pairs: &[(u64, i64)]) -> Vec<Reading> {
    pairs.iter().map(|&(tick, value)| Reading { tick, value }).collect()
}

fn typical() -> Log {
    let mut log = Log::new("greenhouse.2", 250_000, Unit::MilliCelsius);
    log.attributes = vec![
        Attribute::Text { key: "site".into(), value: "north shed".into() },
        Attribute::Number { key: "firmware_build".into(), value: 1042 },
        Attribute::Flag { key: "battery_low".into() },
    ];
    let mut air = Sensor::new(1, SensorKind::Temperature);
    air.calibration = Calibration {
        factory: true,
        in_field: false,
        temperature_compensated: true,
        gain_log2: 3,
        other_bits: 0,
    };
    air.readings = readings(&[(0, 21_500), (1, 21_375), (2, 21_250), (10, 20_000), (11, 19_990)]);
    air.note = b"mounted 1.5 m above ground".to_vec();
    let mut soil = Sensor::new(2, SensorKind::Humidity);
    soil.decimation = 4;
    soil.dropped = 17;
    soil.readings = readings(&[(0, 612), (1, 615)]);
    log.sensors = vec![air, soil];
    log
}

#[test]
fn empty_logs() {
    round_trip(&Log::new("", 0, Unit::None));
    let mut log = Log::new("x", 1, Unit::Pascal);
    log.sensors.push(Sensor::new(0, SensorKind::Other));
    round_trip(&log);
}

#[test]
fn a_typical_log() {
    let bytes = round_trip(&typical());
    assert_eq!(&bytes[..4], b"SLOG");
}

#[test]
fn extreme_values() {
    let mut log = Log::new("A_Z.a_z.0_9", u64::MAX, Unit::Unknown(u64::MAX));
    log.attributes = vec![
        Attribute::Number { key: String::new(), value: u64::MAX },
        Attribute::Text { key: String::new(), value: String::new() },
        Attribute::Flag { key: "\u{7f}\u{ff}é✓".into() },
    ];
    let mut s = Sensor::new(u32::MAX, SensorKind::Voltage);
    s.calibration = Calibration {
        factory: true,
        in_field: true,
        temperature_compensated: true,
        gain_log2: 0xFF,
        // every bit no field names
        other_bits: !0xFF07,
    };
    s.decimation = u32::MAX;
    s.dropped = u64::MAX;
    // differences of i64::MIN and i64::MAX both ways, wrapping; ticks wrapping past u64::MAX
    s.readings = readings(&[
        (u64::MAX - 1, i64::MIN),
        (u64::MAX, i64::MAX),
        (0, i64::MIN),
        (1, 0),
        (2, -1),
        (3, i64::MIN + 1),
        (3, i64::MAX),
        (0, 0),
        (u64::MAX, 1),
    ]);
    s.note = vec![0, 0xFF, 0, 1];
    let mut zero = Sensor::new(0, SensorKind::Other);
    zero.readings = readings(&[(0, 0)]);
    zero.decimation = 0;
    log.sensors = vec![s, zero, Sensor::new(7, SensorKind::Accelerometer)];
    round_trip(&log);
}

#[test]
fn device_names_char6_and_bytes() {
    for device in ["plain_name.01", "with space", "Kühlraum 3", "nul\0inside", ""] {
        round_trip(&Log::new(device, 10, Unit::Millivolt));
    }
}

#[test]
fn nul_in_an_attribute_is_refused() {
    let mut log = Log::new("d", 1, Unit::None);
    log.attributes.push(Attribute::Text { key: "k".into(), value: "a\0b".into() });
    let err = write_log(&log).unwrap_err();
    // The generated encoder refuses it and names the record and field.
    match err.kind() {
        bitcode_schema::ErrorKind::Field { record, field, .. } => {
            assert_eq!((*record, *field), ("ATTRIBUTES", "value"), "{err}")
        }
        other => panic!("not a field error: {other:?}"),
    }
    assert!(err.to_string().contains("NUL"), "{err}");
}

/// A small xorshift generator: random logs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Mostly small values, sometimes extreme ones.
    fn value(&mut self) -> u64 {
        match self.below(4) {
            0 => self.below(16),
            1 => u64::MAX - self.below(4),
            2 => 1 << self.below(64),
            _ => self.next(),
        }
    }

    fn text(&mut self) -> String {
        let alphabet = ['a', 'Z', '0', '.', '_', ' ', 'é', '\u{1F600}'];
        (0..self.below(6)).map(|_| alphabet[self.below(alphabet.len() as u64) as usize]).collect()
    }
}

#[test]
fn random_logs() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for _ in 0..300 {
        let unit = match rng.below(7) {
            6 => Unit::Unknown(6 + rng.value() % (u64::MAX - 6)),
            code => Unit::try_from(code).unwrap(),
        };
        let mut log = Log::new(rng.text(), rng.value(), unit);
        for _ in 0..rng.below(4) {
            log.attributes.push(match rng.below(3) {
                0 => Attribute::Flag { key: rng.text() },
                1 => Attribute::Number { key: rng.text(), value: rng.value() },
                _ => Attribute::Text { key: rng.text(), value: rng.text() },
            });
        }
        for _ in 0..rng.below(4) {
            let mut s = Sensor::new(rng.value() as u32, SensorKind::try_from(rng.below(6)).unwrap());
            let bits = rng.value();
            s.calibration =
                <Calibration as bitcode_schema::runtime::decode::SchemaFlags>::from_bits(bits).unwrap();
            s.decimation = rng.value() as u32;
            s.dropped = rng.value();
            let mut tick = rng.value();
            for _ in 0..rng.below(20) {
                tick = if rng.below(4) == 0 { rng.value() } else { tick.wrapping_add(1) };
                s.readings.push(Reading { tick, value: rng.value() as i64 });
            }
            s.note = (0..rng.below(9)).map(|_| rng.next() as u8).collect();
            log.sensors.push(s);
        }
        round_trip(&log);
    }
}

#[test]
fn the_stream_names_its_blocks_and_abbreviates_its_records() {
    let bytes = write_log(&typical()).unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut block = None;
    let mut sensor_records = Vec::new();
    let mut device_abbrev = None;
    while let Some(entry) = cursor.next_entry().unwrap() {
        match entry {
            Entry::Block(h) => block = Some(h.id),
            Entry::EndBlock(_) => block = None,
            Entry::Record(r) if block == Some(sensor_block::ID) => {
                sensor_records.push((r.code, r.abbreviation()))
            }
            Entry::Record(r) if block == Some(header_block::ID) && r.code == header_block::Device::CODE => {
                device_abbrev = r.abbreviation()
            }
            Entry::Record(_) => {}
        }
    }
    let info = cursor.block_info();
    assert_eq!(info.block_name(header_block::ID), Some(header_block::NAME));
    assert_eq!(info.block_name(sensor_block::ID), Some("SENSOR_BLOCK"));
    assert_eq!(info.record_name(sensor_block::ID, 2), Some("READINGS"));
    assert_eq!(info.record_name(header_block::ID, 5), Some("ATTRIBUTES"));
    assert_eq!(info.get(sensor_block::ID).unwrap().abbrevs.len(), 3);
    // Every SENSOR_BLOCK record goes through a BLOCKINFO abbreviation (ids 4 to 6).
    assert_eq!(
        sensor_records,
        vec![(1, Some(4)), (2, Some(5)), (2, Some(5)), (3, Some(6)), (1, Some(4)), (2, Some(5))]
    );
    // The device name through the header's own char6 abbreviation.
    assert_eq!(device_abbrev, Some(4));
}

#[test]
fn sensor_defaults() {
    let s = Sensor::new(3, SensorKind::Pressure);
    assert_eq!((s.calibration, s.decimation, s.dropped), (uncalibrated(), 1, 0));
    assert_eq!(uncalibrated().bits(), 0);
    assert_eq!(read_log(&write_log(&Log::new("a", 2, Unit::MicroG)).unwrap()).unwrap().unit, Unit::MicroG);
}
