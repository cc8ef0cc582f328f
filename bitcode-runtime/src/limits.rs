//! `Limits`: how much one stream may make a reader hold or do.
//!
//! The input's size already bounds every count (a count is checked against the bits left
//! before anything is allocated for it), but a large file can still ask for a lot: an array
//! of 1-bit elements is 64 bits of operand buffer per bit of input. These limits cap what a
//! caller is willing to spend; the defaults let through every file LLVM's writers make.

/// Caps on what one stream may make a [`Cursor`](crate::Cursor) hold or do. Going past one
/// is an [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) (or
/// [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep) for nesting) at the entry that does.
///
/// ```
/// # fn demo(bytes: &[u8]) -> bitcode_schema_runtime::Result<()> {
/// use bitcode_schema_runtime::{Bitstream, Limits};
/// let limits = Limits::new().with_max_records(1_000_000);
/// let stream = Bitstream::new(bytes)?.with_limits(limits);
/// let mut cursor = stream.cursor(); // and every other reader of `stream`
/// while cursor.next_entry()?.is_some() {}
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// How deep blocks may nest (LLVM IR nests four deep at most). Default 128.
    pub max_depth: usize,
    /// Abbreviations one block may have, those BLOCKINFO gives it included (LLVM's writers
    /// define a few dozen). Default 65,536.
    pub max_abbrevs_per_block: usize,
    /// Operands of one record, array elements included: the record buffer holds 8 bytes
    /// per operand. Default 2^27 (a 1 GiB buffer; a 128 MiB constant array fits).
    pub max_record_operands: u64,
    /// Bytes of one blob (blobs are borrowed from the input, never copied). Default
    /// `u32::MAX`, the format's own bound.
    pub max_blob_bytes: u64,
    /// Records a cursor reads (BLOCKINFO's included): the whole stream for one walk; a
    /// cursor cloned to read one block apart (LLVM's parallel check) goes on counting from
    /// the clone. Default unlimited.
    pub max_records: u64,
}

/// How deep blocks may nest unless the caller says otherwise.
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: DEFAULT_MAX_DEPTH,
            max_abbrevs_per_block: 1 << 16,
            max_record_operands: 1 << 27,
            max_blob_bytes: u32::MAX as u64,
            max_records: u64::MAX,
        }
    }
}

impl Limits {
    /// The default limits (every file LLVM's writers make passes them).
    pub fn new() -> Self {
        Self::default()
    }

    /// With [`max_depth`](Self::max_depth) set to `max`.
    pub fn with_max_depth(self, max: usize) -> Self {
        Limits { max_depth: max, ..self }
    }

    /// With [`max_abbrevs_per_block`](Self::max_abbrevs_per_block) set to `max`.
    pub fn with_max_abbrevs_per_block(self, max: usize) -> Self {
        Limits { max_abbrevs_per_block: max, ..self }
    }

    /// With [`max_record_operands`](Self::max_record_operands) set to `max`.
    pub fn with_max_record_operands(self, max: u64) -> Self {
        Limits { max_record_operands: max, ..self }
    }

    /// With [`max_blob_bytes`](Self::max_blob_bytes) set to `max`.
    pub fn with_max_blob_bytes(self, max: u64) -> Self {
        Limits { max_blob_bytes: max, ..self }
    }

    /// With [`max_records`](Self::max_records) set to `max`.
    pub fn with_max_records(self, max: u64) -> Self {
        Limits { max_records: max, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_builder_sets_its_limit_and_only_it() {
        let d = Limits::new();
        assert_eq!(d, Limits::default());
        assert_eq!(d.with_max_depth(3), Limits { max_depth: 3, ..d });
        assert_eq!(d.with_max_abbrevs_per_block(4), Limits { max_abbrevs_per_block: 4, ..d });
        assert_eq!(d.with_max_record_operands(5), Limits { max_record_operands: 5, ..d });
        assert_eq!(d.with_max_blob_bytes(6), Limits { max_blob_bytes: 6, ..d });
        assert_eq!(d.with_max_records(7), Limits { max_records: 7, ..d });
    }
}
