//! SLOG, a made-up log of sensor readings, read and written with the `bitcode-schema` facade.
//!
//! The format is described once, in `schema/sensor_log.toml`; `bitcode_schema::schema!` turns it
//! into typed records at compile time ([`generated`]), so that a field read with the
//! wrong type, a record that no longer exists or a misspelt enum variant is a compile
//! error here, not a wrong number at run time. This crate adds what a user of the format
//! wants: plain Rust values ([`Log`], [`Sensor`], [`Reading`]), [`write_log`] and
//! [`read_log`].
//!
//! ```
//! use sensor_log::{read_log, write_log, Log, Reading, Sensor, SensorKind, Unit};
//!
//! let mut log = Log::new("greenhouse.2", 250_000, Unit::MilliCelsius);
//! let mut sensor = Sensor::new(7, SensorKind::Temperature);
//! sensor.readings = vec![Reading { tick: 0, value: 21_500 }, Reading { tick: 1, value: 21_375 }];
//! log.sensors.push(sensor);
//!
//! let bytes = write_log(&log)?;
//! assert_eq!(&bytes[..4], b"SLOG");
//! assert_eq!(read_log(&bytes)?, log);
//! # Ok::<(), bitcode_schema::Error>(())
//! ```
#![deny(missing_docs)]

mod read;
mod write;

use std::fmt;

pub use read::{read_log, read_log_with_warnings, Decoded};
pub use write::write_log;

/// The types `bitcode_schema::schema!` generates from `schema/sensor_log.toml`: one module per
/// block (`header_block`, `sensor_block`) with a struct per record and a `Record` enum,
/// the schema's enums, flag words and groups, and the format's name tables.
///
/// [`read_log`] and [`write_log`] are written against these; they are public for readers
/// that want the records themselves (a dump tool, say):
///
/// ```
/// use bitcode_schema::runtime::decode::BasicContext;
/// use bitcode_schema::{Bitstream, Entry};
/// use sensor_log::generated::sensor_block;
///
/// let mut log = sensor_log::Log::new("d", 1, sensor_log::Unit::None);
/// log.sensors.push(sensor_log::Sensor::new(42, sensor_log::SensorKind::Pressure));
/// let bytes = sensor_log::write_log(&log)?;
///
/// let stream = Bitstream::new(&bytes)?;
/// let mut cursor = stream.cursor();
/// let mut ctx = BasicContext::new().with_version(2);
/// let mut block = None;
/// while let Some(entry) = cursor.next_entry()? {
///     match entry {
///         Entry::Block(header) => block = Some(header.id),
///         Entry::Record(record) if block == Some(sensor_block::ID) => {
///             if let sensor_block::Record::Sensor(s) = sensor_block::Record::decode(&record, &mut ctx)? {
///                 assert_eq!(s.id, 42); // a u32, checked when the stream is read
///             }
///         }
///         _ => {}
///     }
/// }
/// # Ok::<(), bitcode_schema::Error>(())
/// ```
///
/// What the schema says is checked when this crate compiles: SENSOR's `id` is a `u32`,
/// not a string ...
///
/// ```compile_fail
/// fn id(s: &sensor_log::generated::sensor_block::Sensor) -> &str {
///     s.id
/// }
/// ```
///
/// ... and SENSOR_BLOCK has no TEMPERATURE record.
///
/// ```compile_fail
/// let code = sensor_log::generated::sensor_block::Temperature::CODE;
/// ```
pub mod generated {
    bitcode_schema::schema!("schema/sensor_log.toml");
}

pub use generated::{Calibration, SensorKind, Unit};

/// The format version [`write_log`] writes.
///
/// Version 1 had no VERSION record and wrote SENSOR as `[kind, id]`; version 2 added the
/// VERSION record and the calibration, decimation and dropped-sample operands of SENSOR.
pub const FORMAT_VERSION: u32 = 2;

/// A whole log: what the logging device says about itself, and its sensors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Log {
    /// The logging device's name (char6 on the wire when it is `[a-zA-Z0-9._]*`).
    pub device: String,
    /// The sampling period in microseconds: tick `n` was sampled `n` periods after the
    /// start of the log.
    pub period_us: u64,
    /// The unit of every reading.
    pub unit: Unit,
    /// Free-form attributes, in order.
    pub attributes: Vec<Attribute>,
    /// The sensors, in order.
    pub sensors: Vec<Sensor>,
}

impl Log {
    /// A log without attributes or sensors.
    pub fn new(device: impl Into<String>, period_us: u64, unit: Unit) -> Self {
        Log { device: device.into(), period_us, unit, attributes: Vec::new(), sensors: Vec::new() }
    }
}

/// A free-form attribute of a log. Keys and texts may not contain a NUL character (they
/// are NUL-terminated on the wire); [`write_log`] refuses them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// A key that is present (`battery_low`).
    Flag {
        /// The key.
        key: String,
    },
    /// A key with a number (`firmware_build = 1042`).
    Number {
        /// The key.
        key: String,
        /// The number.
        value: u64,
    },
    /// A key with a text (`site = north shed`).
    Text {
        /// The key.
        key: String,
        /// The text.
        value: String,
    },
}

/// One sensor and its readings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sensor {
    /// The sensor's id.
    pub id: u32,
    /// What it measures. A kind this crate does not know reads as [`SensorKind::Other`].
    pub kind: SensorKind,
    /// How it was calibrated (all clear in version 1 logs, which do not say).
    pub calibration: Calibration,
    /// Only every `decimation`-th sample was logged (1 when the log does not say).
    pub decimation: u32,
    /// Samples lost to buffer overruns (0 when the log does not say).
    pub dropped: u64,
    /// The readings, in the order they were logged.
    pub readings: Vec<Reading>,
    /// A note about the sensor: arbitrary bytes, empty when there is none.
    pub note: Vec<u8>,
}

impl Sensor {
    /// A sensor without readings, calibration or note, every sample logged.
    pub fn new(id: u32, kind: SensorKind) -> Self {
        Sensor {
            id,
            kind,
            calibration: uncalibrated(),
            decimation: 1,
            dropped: 0,
            readings: Vec::new(),
            note: Vec::new(),
        }
    }
}

/// A calibration word with every bit clear.
pub fn uncalibrated() -> Calibration {
    Calibration {
        factory: false,
        in_field: false,
        temperature_compensated: false,
        gain_log2: 0,
        other_bits: 0,
    }
}

/// One reading: a value at a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reading {
    /// When it was sampled, in sampling periods from the start of the log. Ticks count
    /// like a hardware counter: after `u64::MAX` comes 0.
    pub tick: u64,
    /// The value, in the log's [`Unit`].
    pub value: i64,
}

/// Something [`read_log_with_warnings`] noticed that did not stop it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// From the generated decoders: a record code the schema does not know (written by a
    /// newer writer; skipped), or operands after a record's last field (ignored).
    Decoder(bitcode_schema::runtime::decode::Warning),
    /// A unit code this crate does not know; it is kept as [`Unit::Unknown`].
    UnknownUnit {
        /// The code.
        code: u64,
        /// Absolute bit offset of the UNIT record.
        bit_offset: u64,
    },
    /// A block the format does not have; it was skipped by its length.
    UnknownBlock {
        /// The block id.
        id: u32,
        /// Absolute bit offset of the block.
        bit_offset: u64,
    },
    /// A SENSOR_BLOCK without a SENSOR record: the sensor has id 0 and kind `other`.
    MissingSensorRecord {
        /// Absolute bit offset of the block.
        bit_offset: u64,
    },
    /// The log is of a newer format version than [`FORMAT_VERSION`]; it was read with
    /// the newest layouts this crate knows.
    NewerVersion {
        /// The log's version.
        version: u32,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Decoder(w) => write!(f, "{w}"),
            Warning::UnknownUnit { code, bit_offset } => {
                write!(f, "HEADER_BLOCK/UNIT: unknown unit code {code}, kept (at bit {bit_offset})")
            }
            Warning::UnknownBlock { id, bit_offset } => {
                write!(f, "unknown block {id}, skipped (at bit {bit_offset})")
            }
            Warning::MissingSensorRecord { bit_offset } => {
                write!(f, "SENSOR_BLOCK without a SENSOR record: id 0, kind other (at bit {bit_offset})")
            }
            Warning::NewerVersion { version } => {
                write!(f, "format version {version} is newer than {FORMAT_VERSION}; read as {FORMAT_VERSION}")
            }
        }
    }
}
