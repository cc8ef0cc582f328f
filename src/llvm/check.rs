//! Typed decoding of every record of a stream, counted: what `bcdump --check` reports.

use bitcode_runtime::{Bitstream, Result};

use super::ir::decode_record;
use super::{Walker, WalkerEvent};

/// How many records there were and how they decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Records in the stream (BLOCKINFO's included, DEFINE_ABBREV not: as in the trace).
    pub records: u64,
    /// Records decoded into their schema type (BLOCKINFO records are typed by the runtime).
    pub typed: u64,
    /// Records of a code or a block the schema does not know.
    pub unknown: u64,
    /// Records whose operands do not fit their schema type.
    pub errors: u64,
    /// Warnings of the decoders (extra operands, unknown codes).
    pub warnings: u64,
    /// The first few error messages, for showing.
    pub first_errors: Vec<String>,
}

/// How many error messages a report keeps.
const KEPT_ERRORS: usize = 20;

impl CheckReport {
    /// The one-line summary: `records=N typed=T unknown=U errors=E warnings=W`.
    pub fn summary(&self) -> String {
        format!(
            "records={} typed={} unknown={} errors={} warnings={}",
            self.records, self.typed, self.unknown, self.errors, self.warnings
        )
    }

    /// Adds another stream's counts.
    pub fn add(&mut self, other: CheckReport) {
        self.records += other.records;
        self.typed += other.typed;
        self.unknown += other.unknown;
        self.errors += other.errors;
        self.warnings += other.warnings;
        let room = KEPT_ERRORS.saturating_sub(self.first_errors.len());
        self.first_errors.extend(other.first_errors.into_iter().take(room));
    }
}

/// Decodes every record of `stream` with the LLVM IR schema, function bodies included.
/// A malformed bitstream is an error; a record that does not fit its type is counted.
pub fn check_stream(stream: &Bitstream<'_>) -> Result<CheckReport> {
    let mut report = CheckReport::default();
    let mut walker = Walker::new(stream);
    while let Some(event) = walker.next_event()? {
        let WalkerEvent::Record { block, record, ctx } = event else { continue };
        report.records += 1;
        if block == bitcode_runtime::cursor::BLOCKINFO_BLOCK_ID {
            report.typed += 1;
            continue;
        }
        match decode_record(block, &record, ctx) {
            Ok(any) if any.is_unknown() => report.unknown += 1,
            Ok(_) => report.typed += 1,
            Err(e) => {
                report.errors += 1;
                if report.first_errors.len() < KEPT_ERRORS {
                    report.first_errors.push(walker.locate(e).to_string());
                }
            }
        }
    }
    report.warnings = walker.context().warnings.len() as u64;
    Ok(report)
}
