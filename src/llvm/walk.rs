//! Walking an LLVM IR stream with the value numbering kept up to date, so that every record
//! comes with a decode context right for it.

use bitcode_runtime::{Bitstream, BlockHeader, Cursor, Entry, Error, Record, Result};

use super::{LlvmContext, ValueNumbering};

/// What [`Walker::next_event`] found.
#[derive(Debug)]
pub enum WalkerEvent<'w, 'a> {
    /// A block starts.
    Block(BlockHeader),
    /// The block with this id ends.
    EndBlock(u32),
    /// A record, with the id of its block and the context to decode it with.
    Record {
        /// The id of the block the record is in.
        block: u32,
        /// The record.
        record: Record<'w, 'a>,
        /// Its context: format version and the value number of the value it defines.
        ctx: &'w mut LlvmContext,
    },
}

/// A cursor over an LLVM IR stream that keeps the module's value numbering.
#[derive(Debug)]
pub struct Walker<'a> {
    cursor: Cursor<'a>,
    numbering: ValueNumbering,
    context: LlvmContext,
    /// The VERSION record of the summary block being read, if inside one.
    summary_version: Option<u64>,
}

/// The global value summary blocks (per module and combined), whose records change shape
/// with the summary's own VERSION record rather than the module's.
fn is_summary_block(id: u32) -> bool {
    id == super::block_ids::GLOBALVAL_SUMMARY || id == super::block_ids::FULL_LTO_GLOBALVAL_SUMMARY
}

/// FS_VERSION: the first record of a summary block.
const FS_VERSION: u32 = 10;

impl<'a> Walker<'a> {
    /// A walker at the start of `stream`.
    pub fn new(stream: &Bitstream<'a>) -> Self {
        Walker {
            cursor: stream.cursor(),
            numbering: ValueNumbering::new(),
            context: LlvmContext::default(),
            summary_version: None,
        }
    }

    /// The next block start, block end or record.
    pub fn next_event(&mut self) -> Result<Option<WalkerEvent<'_, 'a>>> {
        let block = self.cursor.current_block().unwrap_or(u32::MAX);
        let Some(entry) = self.cursor.next_entry()? else { return Ok(None) };
        Ok(Some(match entry {
            Entry::Block(header) => {
                self.numbering.enter_block(header.id);
                if is_summary_block(header.id) {
                    self.summary_version = Some(0);
                }
                WalkerEvent::Block(header)
            }
            Entry::EndBlock(id) => {
                self.numbering.end_block(id);
                if is_summary_block(id) {
                    self.summary_version = None;
                }
                WalkerEvent::EndBlock(id)
            }
            Entry::Record(record) => {
                // Inside a summary block the layouts follow the summary's VERSION record.
                if is_summary_block(block) && record.code == FS_VERSION {
                    self.summary_version = record.ops.first().copied();
                }
                // The context holds the numbers before this record; then count what it defines.
                self.context.version = match self.summary_version {
                    Some(v) if is_summary_block(block) => v,
                    _ => self.numbering.version(),
                };
                self.context.relative_ids = self.numbering.version() >= 1;
                self.context.value_number = self.numbering.next_value();
                self.numbering.record(block, &record);
                self.context.call_params = self.numbering.last_call_params();
                WalkerEvent::Record { block, record, ctx: &mut self.context }
            }
        }))
    }

    /// Skips the rest of the innermost block (e.g. a function body) by its length.
    pub fn skip_block(&mut self) -> Result<()> {
        let block = self.cursor.current_block();
        self.cursor.skip_block()?;
        if let Some(id) = block {
            self.numbering.end_block(id);
        }
        Ok(())
    }

    /// The cursor underneath (position, block path, BLOCKINFO names).
    pub fn cursor(&self) -> &Cursor<'a> {
        &self.cursor
    }

    /// The value numbering so far.
    pub fn numbering(&self) -> &ValueNumbering {
        &self.numbering
    }

    /// The decode context (its warnings collect every decoder's).
    pub fn context(&self) -> &LlvmContext {
        &self.context
    }

    /// Adds the walker's block path to an error that has none (a decoder's).
    pub fn locate(&self, err: Error) -> Error {
        self.cursor.with_block_path(err)
    }
}

/// Calls `visit` for every record of `stream`, function bodies included, with the id of
/// its block and a decode context whose version and value number are right for it. An
/// error from `visit` stops the walk and is returned with the block path added.
pub fn for_each_record<'a>(
    stream: &Bitstream<'a>,
    mut visit: impl FnMut(u32, &Record<'_, 'a>, &mut LlvmContext) -> Result<()>,
) -> Result<()> {
    let mut walker = Walker::new(stream);
    while let Some(event) = walker.next_event()? {
        if let WalkerEvent::Record { block, record, ctx } = event {
            if let Err(e) = visit(block, &record, ctx) {
                return Err(walker.locate(e));
            }
        }
    }
    Ok(())
}
