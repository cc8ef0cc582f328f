//! Writing a [`Log`]: each record is a generated struct, which the generated encoder turns
//! into operands (enum codes, flag words, signed differences, strings) and the runtime's
//! `StreamWriter` writes, unabbreviated or through the abbreviation given.

use bitcode_schema::runtime::bits::encode_char6;
use bitcode_schema::runtime::decode::BasicContext;
use bitcode_schema::runtime::writer::StreamWriter;
use bitcode_schema::{Abbrev, AbbrevOp, Error, ErrorKind, ScalarEncoding};

use crate::generated::{self, header_block, sensor_block, MAGIC};
use crate::{Attribute, Log, Sensor, FORMAT_VERSION};

/// Abbreviation ids width inside the log's blocks (ids up to 7).
const ABBREV_WIDTH: u32 = 3;

/// The operands of SENSOR in [`FORMAT_VERSION`]'s layout, which its abbreviation holds.
const SENSOR_OPERANDS: usize = 5;

/// The abbreviation ids BLOCKINFO gives every SENSOR_BLOCK.
struct SensorAbbrevs {
    sensor: u32,
    readings: u32,
    note: u32,
}

/// Writes `log` as a version [`FORMAT_VERSION`] stream.
///
/// The stream starts with a BLOCKINFO block that names the blocks and records (for
/// generic tools such as `bcdump`) and gives every SENSOR_BLOCK its abbreviations; the
/// device name is written as char6 when it can be. Readings are split into runs of
/// consecutive ticks, each run one READINGS record of differences.
///
/// # Errors
///
/// An [`ErrorKind::Field`] error naming HEADER_BLOCK/ATTRIBUTES when an attribute's key or
/// text contains a NUL character, which the format cannot express.
pub fn write_log(log: &Log) -> Result<Vec<u8>, Error> {
    // The encoders ask the context which layout a record has.
    let ctx = BasicContext::new().with_version(FORMAT_VERSION.into());
    let mut w = StreamWriter::new(MAGIC);
    let abbrevs = write_blockinfo(&mut w)?;
    write_header(&mut w, log, &ctx)?;
    for sensor in &log.sensors {
        write_sensor(&mut w, sensor, &abbrevs, &ctx)?;
    }
    w.finish()
}

fn abbrev(ops: Vec<AbbrevOp>) -> Result<Abbrev, Error> {
    // The abbreviations here are constants; a problem would be a bug of this crate.
    Abbrev::new(ops).map_err(|p| Error::new(ErrorKind::InvalidAbbrev(p), 0))
}

fn write_blockinfo(w: &mut StreamWriter) -> Result<SensorAbbrevs, Error> {
    use AbbrevOp::{Array, Blob, Literal, Scalar};
    use ScalarEncoding::Vbr;

    w.enter_block(0, 2)?;
    w.set_bid(header_block::ID)?;
    w.block_name(header_block::NAME.as_bytes())?;
    for code in [
        header_block::Version::CODE,
        header_block::Device::CODE,
        header_block::Period::CODE,
        header_block::Unit::CODE,
        header_block::Attributes::CODE,
    ] {
        if let Some(name) = header_block::record_name(code) {
            w.record_name(code, name.as_bytes())?;
        }
    }
    w.set_bid(sensor_block::ID)?;
    w.block_name(sensor_block::NAME.as_bytes())?;
    for code in [sensor_block::Sensor::CODE, sensor_block::Readings::CODE, sensor_block::Note::CODE] {
        if let Some(name) = sensor_block::record_name(code) {
            w.record_name(code, name.as_bytes())?;
        }
    }
    // SENSOR: id, kind, calibration, decimation, dropped.
    let sensor = w.define_abbrev(abbrev(vec![
        Literal(sensor_block::Sensor::CODE.into()),
        Scalar(Vbr(6)),
        Scalar(Vbr(3)),
        Scalar(Vbr(6)),
        Scalar(Vbr(4)),
        Scalar(Vbr(6)),
    ])?)?;
    // READINGS: first tick, then signed-VBR differences.
    let readings = w.define_abbrev(abbrev(vec![
        Literal(sensor_block::Readings::CODE.into()),
        Scalar(Vbr(8)),
        Array(Vbr(6)),
    ])?)?;
    // NOTE: the text in a blob.
    let note = w.define_abbrev(abbrev(vec![Literal(sensor_block::Note::CODE.into()), Blob])?)?;
    w.end_block()?;
    Ok(SensorAbbrevs { sensor, readings, note })
}

fn write_header(w: &mut StreamWriter, log: &Log, ctx: &BasicContext) -> Result<(), Error> {
    use AbbrevOp::{Array, Literal};
    use ScalarEncoding::{Char6, Fixed};

    w.enter_block(header_block::ID, ABBREV_WIDTH)?;
    w.record(
        &header_block::Version { version: FORMAT_VERSION, extra_operands: Vec::new() }.encode(ctx)?,
        None,
    )?;

    let char6 = log.device.bytes().all(|b| encode_char6(b).is_some());
    let encoding = if char6 { Char6 } else { Fixed(8) };
    let device =
        w.define_abbrev(abbrev(vec![Literal(header_block::Device::CODE.into()), Array(encoding)])?)?;
    let name = header_block::Device { name: log.device.as_bytes().into() };
    w.record(&name.encode(ctx)?, Some(device))?;

    w.record(
        &header_block::Period { period_us: log.period_us, extra_operands: Vec::new() }.encode(ctx)?,
        None,
    )?;
    w.record(&header_block::Unit { unit: log.unit, extra_operands: Vec::new() }.encode(ctx)?, None)?;
    if !log.attributes.is_empty() {
        let entries = log.attributes.iter().map(attribute).collect();
        w.record(&header_block::Attributes { entries }.encode(ctx)?, None)?;
    }
    w.end_block()
}

/// The schema's form of an attribute (the encoder refuses a NUL inside a key or text).
fn attribute(attribute: &Attribute) -> generated::Attribute<'_> {
    use generated::Attribute as A;
    match attribute {
        Attribute::Flag { key } => A::Flag { key: key.as_bytes().into() },
        Attribute::Number { key, value } => A::Number { key: key.as_bytes().into(), value: *value },
        Attribute::Text { key, value } => {
            A::Text { key: key.as_bytes().into(), value: value.as_bytes().into() }
        }
    }
}

fn write_sensor(
    w: &mut StreamWriter,
    sensor: &Sensor,
    abbrevs: &SensorAbbrevs,
    ctx: &BasicContext,
) -> Result<(), Error> {
    w.enter_block(sensor_block::ID, ABBREV_WIDTH)?;
    let record = sensor_block::Sensor {
        id: sensor.id,
        kind: sensor.kind,
        calibration: Some(sensor.calibration),
        decimation: Some(sensor.decimation),
        dropped: Some(sensor.dropped),
        extra_operands: Vec::new(),
    };
    // The abbreviation has a slot for each of the five operands, defaults included.
    w.record(&record.encode_with_len(ctx, SENSOR_OPERANDS)?, Some(abbrevs.sensor))?;

    let mut rest = sensor.readings.as_slice();
    while let Some(first) = rest.first() {
        // A run: readings at ticks first.tick, first.tick + 1, ... (wrapping).
        let len = 1 + rest.windows(2).take_while(|pair| pair[1].tick == pair[0].tick.wrapping_add(1)).count();
        let (run, tail) = rest.split_at(len);
        let mut previous = 0i64;
        let deltas = run
            .iter()
            .map(|reading| {
                let delta = reading.value.wrapping_sub(previous);
                previous = reading.value;
                delta
            })
            .collect();
        let readings = sensor_block::Readings { first_tick: first.tick, deltas };
        w.record(&readings.encode(ctx)?, Some(abbrevs.readings))?;
        rest = tail;
    }

    if !sensor.note.is_empty() {
        let note = sensor_block::Note { text: &sensor.note, extra_operands: Vec::new() };
        w.record(&note.encode(ctx)?, Some(abbrevs.note))?;
    }
    w.end_block()
}
