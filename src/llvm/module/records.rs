//! The records of blocks a module keeps unread (metadata, summary), decoded as they are
//! taken rather than held: a module with debug info has hundreds of thousands.

use bitcode_schema_runtime::{Error, ErrorKind, Record, Result};

use crate::llvm::ir;
use crate::llvm::{LlvmContext, Walker, WalkerEvent};

/// The decoder of a block's records.
pub(crate) type Decode<'a, R> = fn(&Record<'_, 'a>, &mut LlvmContext) -> Result<R>;

/// The records of one kind of block, in order, from walkers just inside each block (see
/// [`Module::metadata_records`](super::Module::metadata_records)).
pub struct BlockRecords<'m, 'a, R> {
    blocks: std::slice::Iter<'m, Walker<'a>>,
    /// The ids of the blocks of that kind.
    ids: &'static [u32],
    /// Their records' decoder: the block's own, not `ir::decode_record`, whose 256-byte
    /// `AnyRecord` was copied out again for each of a module's hundreds of thousands of
    /// metadata records.
    decode: Decode<'a, R>,
    /// The block being read: its walker and how deep inside it the walk is.
    walker: Option<(Walker<'a>, usize)>,
    failed: bool,
}

/// Where a record of a block directly inside the module block is: what an error found in
/// it later, once the walk has moved on, is located by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordPlace {
    /// The absolute bit offset of the record.
    pub bit_offset: u64,
    /// Its block's id.
    pub block: u32,
    /// Its code.
    pub code: u32,
}

impl RecordPlace {
    /// An error about the record: `problem`, at its offset and block path.
    pub fn invalid(&self, problem: String) -> Error {
        self.error(ErrorKind::Invalid(problem))
    }

    /// `e` at the record, unless it already says where it is.
    pub fn locate(&self, e: Error) -> Error {
        if e.bit_offset() != 0 || !e.block_path().is_empty() {
            return e;
        }
        self.error(e.kind().clone())
    }

    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.bit_offset)
            .with_block_path([ir::module_block::ID, self.block])
            .with_record_code(self.code)
    }
}

impl<'m, 'a, R> BlockRecords<'m, 'a, R> {
    /// The records of the blocks `blocks` are at whose block id is one of `ids`, decoded by
    /// `decode` (the records of blocks nested in them are decoded, for their errors, and
    /// passed over).
    pub(crate) fn new(blocks: &'m [Walker<'a>], ids: &'static [u32], decode: Decode<'a, R>) -> Self {
        BlockRecords { blocks: blocks.iter(), ids, decode, walker: None, failed: false }
    }

    /// The records with where each is, for errors found in them once the walk has moved
    /// on.
    pub fn located(mut self) -> impl Iterator<Item = Result<(R, RecordPlace)>> + use<'m, 'a, R> {
        std::iter::from_fn(move || self.next_located())
    }
}

impl<'a, R> Iterator for BlockRecords<'_, 'a, R> {
    type Item = Result<R>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_located().map(|r| r.map(|(r, _)| r))
    }
}

impl<R> BlockRecords<'_, '_, R> {
    /// The next record and where it is.
    fn next_located(&mut self) -> Option<Result<(R, RecordPlace)>> {
        if self.failed {
            return None;
        }
        loop {
            let (walker, depth) = match &mut self.walker {
                Some(w) => w,
                None => self.walker.insert((self.blocks.next()?.clone(), 0)),
            };
            let event = match walker.next_event() {
                Ok(Some(event)) => event,
                Ok(None) => {
                    self.walker = None;
                    continue;
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            };
            match event {
                WalkerEvent::Block(_) => *depth += 1,
                WalkerEvent::EndBlock(_) | WalkerEvent::Deferred { .. } => {
                    if *depth == 0 {
                        self.walker = None;
                    } else {
                        *depth -= 1;
                    }
                }
                WalkerEvent::Record { block, record, ctx } => {
                    let decoded = if self.ids.contains(&block) {
                        (self.decode)(&record, ctx).map(Some)
                    } else {
                        ir::decode_record(block, &record, ctx).map(|_| None)
                    };
                    match decoded {
                        Ok(Some(r)) => {
                            let place =
                                RecordPlace { bit_offset: record.bit_offset, block, code: record.code };
                            return Some(Ok((r, place)));
                        }
                        Ok(None) => {}
                        Err(e) => {
                            self.failed = true;
                            return Some(Err(e.with_block_path(record.path.ids())));
                        }
                    }
                }
            }
        }
    }
}
