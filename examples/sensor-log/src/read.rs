//! Reading a [`Log`]: the cursor walks the stream, the generated decoders type each record.

use bitcode_schema::runtime::decode::{DecodeContext, Warning as DecodeWarning};
use bitcode_schema::{Bitstream, Entry, Error, Magic};

use crate::generated::{self, header_block, sensor_block};
use crate::{uncalibrated, Attribute, Log, Reading, Sensor, SensorKind, Unit, Warning, FORMAT_VERSION};

/// The BLOCKINFO block's id.
const BLOCKINFO: u32 = 0;

/// The version of a log without a VERSION record.
const IMPLICIT_VERSION: u32 = 1;

/// What [`read_log_with_warnings`] found: the log, its format version and what was odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The log.
    pub log: Log,
    /// The format version of the stream (1 when it has no VERSION record).
    pub version: u32,
    /// What the reader noticed and went past, in stream order.
    pub warnings: Vec<Warning>,
}

/// Reads a log written by [`crate::write_log`] or by any writer of format versions 1 to
/// [`FORMAT_VERSION`]; warnings are dropped (see [`read_log_with_warnings`]).
///
/// # Errors
///
/// When the stream is not SLOG, is truncated or malformed, or a record's operand does not
/// fit its field. The error says where: its message names the block, record and field
/// and gives the absolute bit offset and the enclosing block ids.
pub fn read_log(bytes: &[u8]) -> Result<Log, Error> {
    read_log_with_warnings(bytes).map(|decoded| decoded.log)
}

/// The decode context: the version from the header's VERSION record picks the layout of
/// later records; warnings are collected.
struct LogContext {
    version: u32,
    warnings: Vec<DecodeWarning>,
}

impl DecodeContext for LogContext {
    fn version(&self) -> u64 {
        self.version.into()
    }

    fn warn(&mut self, warning: DecodeWarning) {
        self.warnings.push(warning);
    }
}

/// Which block the records being read belong to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    BlockInfo,
    Header,
    /// A SENSOR_BLOCK: the index of its sensor in the log, whether its SENSOR record has
    /// been read, and where the block starts.
    Sensor {
        index: usize,
        seen: bool,
        at: u64,
    },
}

/// Like [`read_log`], and also returns the format version and the warnings: records and
/// blocks the format does not know (skipped), a unit code it does not know (kept as
/// [`Unit::Unknown`]), a SENSOR_BLOCK without its SENSOR record.
///
/// Unknown sensor kinds read as [`SensorKind::Other`], as the schema says, without a
/// warning.
///
/// # Errors
///
/// As [`read_log`].
pub fn read_log_with_warnings(bytes: &[u8]) -> Result<Decoded, Error> {
    let stream = Bitstream::new(bytes)?.expect(Magic::from_bytes(generated::MAGIC))?;
    let mut cursor = stream.cursor();
    let mut ctx = LogContext { version: IMPLICIT_VERSION, warnings: Vec::new() };
    let mut warnings = Vec::new();
    let mut log = Log::new("", 0, Unit::None);
    let mut scopes: Vec<Scope> = Vec::new();

    while let Some(entry) = cursor.next_entry()? {
        match entry {
            Entry::Block(block) => match block.id {
                BLOCKINFO => scopes.push(Scope::BlockInfo),
                header_block::ID => scopes.push(Scope::Header),
                sensor_block::ID => {
                    scopes.push(Scope::Sensor {
                        index: log.sensors.len(),
                        seen: false,
                        at: block.bit_offset,
                    });
                    log.sensors.push(Sensor::new(0, SensorKind::Other));
                }
                id => {
                    warnings.push(Warning::UnknownBlock { id, bit_offset: block.bit_offset });
                    cursor.skip_block()?;
                }
            },
            Entry::EndBlock(_) => {
                if let Some(Scope::Sensor { seen: false, at, .. }) = scopes.pop() {
                    warnings.push(Warning::MissingSensorRecord { bit_offset: at });
                }
            }
            Entry::Record(record) => match scopes.last_mut() {
                Some(Scope::Header) => {
                    let at = record.bit_offset;
                    // A decode error names the record's blocks, field and bit by itself.
                    let r = header_block::Record::decode(&record, &mut ctx)?;
                    header_record(r, at, &mut log, &mut ctx, &mut warnings);
                }
                Some(Scope::Sensor { index, seen, .. }) => {
                    let r = sensor_block::Record::decode(&record, &mut ctx)?;
                    *seen |= matches!(r, sensor_block::Record::Sensor(_));
                    if let Some(sensor) = log.sensors.get_mut(*index) {
                        sensor_record(r, sensor);
                    }
                }
                // BLOCKINFO records: the cursor has applied them already.
                Some(Scope::BlockInfo) | None => {}
            },
        }
        warnings.extend(ctx.warnings.drain(..).map(Warning::Decoder));
    }
    Ok(Decoded { log, version: ctx.version, warnings })
}

fn header_record(
    r: header_block::Record<'_>,
    bit_offset: u64,
    log: &mut Log,
    ctx: &mut LogContext,
    warnings: &mut Vec<Warning>,
) {
    use header_block::Record as R;
    match r {
        R::Version(v) => {
            ctx.version = v.version;
            if v.version > FORMAT_VERSION {
                warnings.push(Warning::NewerVersion { version: v.version });
            }
        }
        R::Device(d) => log.device = d.name.to_str_lossy().into_owned(),
        R::Period(p) => log.period_us = p.period_us,
        R::Unit(u) => {
            if let Unit::Unknown(code) = u.unit {
                warnings.push(Warning::UnknownUnit { code, bit_offset });
            }
            log.unit = u.unit;
        }
        R::Attributes(a) => log.attributes.extend(a.entries.into_iter().map(attribute)),
        R::Unknown(_) => {} // the decoder has warned
    }
}

fn attribute(entry: generated::Attribute<'_>) -> Attribute {
    use generated::Attribute as A;
    match entry {
        A::Flag { key } => Attribute::Flag { key: key.to_string() },
        A::Number { key, value } => Attribute::Number { key: key.to_string(), value },
        A::Text { key, value } => Attribute::Text { key: key.to_string(), value: value.to_string() },
    }
}

fn sensor_record(r: sensor_block::Record<'_>, sensor: &mut Sensor) {
    use sensor_block::Record as R;
    match r {
        R::Sensor(s) => {
            sensor.id = s.id;
            sensor.kind = s.kind;
            // Absent from version 1's layout: the defaults of an unknown calibration.
            sensor.calibration = s.calibration.unwrap_or_else(uncalibrated);
            sensor.decimation = s.decimation.unwrap_or(1);
            sensor.dropped = s.dropped.unwrap_or(0);
        }
        R::Readings(run) => {
            let mut value = 0i64;
            sensor.readings.extend(run.deltas.iter().zip(0u64..).map(|(&delta, i)| {
                value = value.wrapping_add(delta);
                Reading { tick: run.first_tick.wrapping_add(i), value }
            }));
        }
        R::Note(n) => sensor.note = n.text.to_vec(),
        R::Unknown(_) => {} // the decoder has warned
    }
}
