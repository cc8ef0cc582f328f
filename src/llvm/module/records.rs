//! The records of blocks a module keeps unread (metadata, summary), decoded as they are
//! taken rather than held: a module with debug info has hundreds of thousands.

use bitcode_schema_runtime::Result;

use crate::llvm::ir::{self, AnyRecord};
use crate::llvm::{Walker, WalkerEvent};

/// The records of one kind of block, in order, from walkers just inside each block (see
/// [`Module::metadata_records`](super::Module::metadata_records)).
pub struct BlockRecords<'m, 'a, R> {
    blocks: std::slice::Iter<'m, Walker<'a>>,
    /// The record of the block's kind in a decoded record.
    pick: fn(AnyRecord<'a>) -> Option<R>,
    /// The block being read: its walker and how deep inside it the walk is.
    walker: Option<(Walker<'a>, usize)>,
    failed: bool,
}

impl<'m, 'a, R> BlockRecords<'m, 'a, R> {
    /// The records `pick` takes of the blocks `blocks` are at.
    pub(crate) fn new(blocks: &'m [Walker<'a>], pick: fn(AnyRecord<'a>) -> Option<R>) -> Self {
        BlockRecords { blocks: blocks.iter(), pick, walker: None, failed: false }
    }
}

impl<'a, R> Iterator for BlockRecords<'_, 'a, R> {
    type Item = Result<R>;

    fn next(&mut self) -> Option<Self::Item> {
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
                    // A full-LTO module's summary holds the same records as a ThinLTO one,
                    // read by the same code in LLVM.
                    let block = match block {
                        ir::full_lto_globalval_summary_block::ID => ir::globalval_summary_block::ID,
                        other => other,
                    };
                    match ir::decode_record(block, &record, ctx) {
                        Ok(decoded) => {
                            if let Some(r) = (self.pick)(decoded) {
                                return Some(Ok(r));
                            }
                        }
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
