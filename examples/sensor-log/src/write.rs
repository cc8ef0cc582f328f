//! Writing a [`Log`] with the runtime's `StreamWriter`.

use bitcode_schema::runtime::bits::encode_char6;
use bitcode_schema::runtime::decode::encode_signed;
use bitcode_schema::runtime::writer::StreamWriter;
use bitcode_schema::{Abbrev, AbbrevOp, Error, ErrorKind, ScalarEncoding};

use crate::generated::{header_block, sensor_block, MAGIC};
use crate::{Attribute, Log, Sensor, FORMAT_VERSION};

/// Abbreviation ids width inside the log's blocks (ids up to 7).
const ABBREV_WIDTH: u32 = 3;

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
/// An [`ErrorKind::Write`] error when an attribute's key or text contains a NUL
/// character, which the format cannot express.
pub fn write_log(log: &Log) -> Result<Vec<u8>, Error> {
    let mut w = StreamWriter::new(MAGIC);
    let abbrevs = write_blockinfo(&mut w)?;
    write_header(&mut w, log)?;
    for sensor in &log.sensors {
        write_sensor(&mut w, sensor, &abbrevs)?;
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

fn write_header(w: &mut StreamWriter, log: &Log) -> Result<(), Error> {
    use AbbrevOp::{Array, Literal};
    use ScalarEncoding::{Char6, Fixed};

    w.enter_block(header_block::ID, ABBREV_WIDTH)?;
    w.unabbreviated_record(header_block::Version::CODE, &[FORMAT_VERSION.into()])?;

    let name: Vec<u64> = log.device.bytes().map(u64::from).collect();
    let char6 = log.device.bytes().all(|b| encode_char6(b).is_some());
    let encoding = if char6 { Char6 } else { Fixed(8) };
    let device =
        w.define_abbrev(abbrev(vec![Literal(header_block::Device::CODE.into()), Array(encoding)])?)?;
    w.abbreviated_record(device, header_block::Device::CODE, &name, None)?;

    w.unabbreviated_record(header_block::Period::CODE, &[log.period_us])?;
    w.unabbreviated_record(header_block::Unit::CODE, &[log.unit.code()])?;
    if !log.attributes.is_empty() {
        let mut ops = Vec::new();
        for attribute in &log.attributes {
            attribute_ops(attribute, &mut ops, w.bits().position())?;
        }
        w.unabbreviated_record(header_block::Attributes::CODE, &ops)?;
    }
    w.end_block()
}

/// Appends one attribute's operands: its tag, then its fields.
fn attribute_ops(attribute: &Attribute, ops: &mut Vec<u64>, at: u64) -> Result<(), Error> {
    let text = |s: &str, ops: &mut Vec<u64>| {
        if s.contains('\0') {
            let msg = format!("attribute text {s:?} contains a NUL character");
            return Err(Error::new(ErrorKind::Write(msg), at));
        }
        ops.extend(s.bytes().map(u64::from));
        ops.push(0);
        Ok(())
    };
    match attribute {
        Attribute::Flag { key } => {
            ops.push(0);
            text(key, ops)
        }
        Attribute::Number { key, value } => {
            ops.push(1);
            text(key, ops)?;
            ops.push(*value);
            Ok(())
        }
        Attribute::Text { key, value } => {
            ops.push(2);
            text(key, ops)?;
            text(value, ops)
        }
    }
}

fn write_sensor(w: &mut StreamWriter, sensor: &Sensor, abbrevs: &SensorAbbrevs) -> Result<(), Error> {
    w.enter_block(sensor_block::ID, ABBREV_WIDTH)?;
    let ops = [
        sensor.id.into(),
        sensor.kind.code(),
        sensor.calibration.bits(),
        sensor.decimation.into(),
        sensor.dropped,
    ];
    w.abbreviated_record(abbrevs.sensor, sensor_block::Sensor::CODE, &ops, None)?;

    let mut rest = sensor.readings.as_slice();
    while let Some(first) = rest.first() {
        // A run: readings at ticks first.tick, first.tick + 1, ... (wrapping).
        let len = 1 + rest.windows(2).take_while(|pair| pair[1].tick == pair[0].tick.wrapping_add(1)).count();
        let (run, tail) = rest.split_at(len);
        let mut ops = Vec::with_capacity(run.len() + 1);
        ops.push(first.tick);
        let mut previous = 0i64;
        for reading in run {
            ops.push(encode_signed(reading.value.wrapping_sub(previous)));
            previous = reading.value;
        }
        w.abbreviated_record(abbrevs.readings, sensor_block::Readings::CODE, &ops, None)?;
        rest = tail;
    }

    if !sensor.note.is_empty() {
        w.abbreviated_record(abbrevs.note, sensor_block::Note::CODE, &[], Some(&sensor.note))?;
    }
    w.end_block()
}
