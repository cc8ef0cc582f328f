//! Walking an LLVM IR stream with the value numbering kept up to date, so that every record
//! comes with a decode context right for it.
//!
//! A walk can also be split for reading on several threads: the blocks whose records do
//! not feed the numbering (function bodies, metadata, symbol tables...) are handed out as
//! walkers of their own, each reading one block with a copy of the numbering as it was
//! when the block started ([`Walker::next_event_deferring`]).

use std::sync::Arc;

use bitcode_schema_runtime::{
    Bitstream, BlockHeader, BlockInfoStore, Cursor, Entry, Error, ErrorKind, Record, Result,
};

use super::{ir, LlvmContext, ValueNumbering};

/// What [`Walker::next_event`] found.
#[derive(Debug)]
pub enum WalkerEvent<'w, 'a> {
    /// A block starts.
    Block(BlockHeader),
    /// The block with this id ends.
    EndBlock(u32),
    /// A block the walker handed out instead of reading it (see
    /// [`Walker::deferring`]): `part` indexes the walkers handed out so far.
    Deferred {
        /// The block's header.
        header: BlockHeader,
        /// Where its walker went in the caller's list.
        part: usize,
    },
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
#[derive(Clone, Debug)]
pub struct Walker<'a> {
    cursor: Cursor<'a>,
    numbering: ValueNumbering,
    context: LlvmContext,
    /// The VERSION record of the summary block being read, if inside one.
    summary_version: Option<u64>,
    /// For a walker of handed-out blocks: the walk ends when the cursor's depth drops
    /// below this (unless the run goes on, see `run_words`).
    stop_depth: Option<usize>,
    /// Whether blocks that can be read apart are handed out (see [`Walker::deferring`]).
    deferring: bool,
    /// For a walker that hands out blocks, and the walkers of its parts: how many words of
    /// blocks one part may gather (0: one block a part; see [`Walker::deferring_runs`]).
    run_words: u64,
    /// Words of the blocks in the run being gathered: the last part's, or this part's own.
    run_so_far: u64,
    /// Where the last block handed out ends: a block that starts there joins its run.
    run_end: Option<u64>,
    /// The walkers of the blocks handed out and not yet taken.
    parts: Vec<Walker<'a>>,
    /// How many parts were handed out.
    handed_out: usize,
    /// The block just entered is to be handed out, as what.
    pending: Option<HandOut>,
    /// Why LLVM's reader rejects the file at the record just given (a null constant of
    /// function type...), with the record's bit offset and code: the walk ends with this
    /// error at the next call.
    invalid: Option<(String, u64, u32)>,
    /// For a walker of handed-out blocks: the numbering and the BLOCKINFO that the walk
    /// that handed the block being read out read on with, having skipped it.
    skipped_state: Option<(ValueNumbering, Arc<BlockInfoStore>)>,
    /// For a walker of handed-out blocks: a block it read left a state other than
    /// `skipped_state` (see [`Walker::changed_later_blocks`]).
    changed: bool,
    /// For a walker of handed-out blocks: one of them started or ended with the event
    /// given last, to be noted at the next call (the event borrows the cursor).
    run_event: Option<RunEvent>,
    /// For a walker of handed-out blocks: its run is over, the walk has ended.
    ended: bool,
    /// Something of the above is to be done before the next entry is read (a hand-out,
    /// an invalid record's error, a run's block that started or ended, the walk's end):
    /// one test on the way of every event instead of one for each.
    attention: bool,
    /// How many blocks enclose the cursor (the cursor's depth, kept here as the event
    /// being built borrows the cursor).
    depth: usize,
}

/// A block of a part's run starting or ending (see `Walker::run_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunEvent {
    /// The block with this id started.
    Started(u32),
    /// The block ended.
    Ended,
}

/// What a block to be handed out becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HandOut {
    /// The first block of a new part.
    NewPart,
    /// One more block of the last part's run: the part reads it, this walker skips it.
    JoinLast,
}

/// The global value summary blocks (per module and combined), whose records change shape
/// with the summary's own VERSION record rather than the module's.
fn is_summary_block(id: u32) -> bool {
    id == ir::globalval_summary_block::ID || id == ir::full_lto_globalval_summary_block::ID
}

/// The version a summary block's VERSION record sets, read by its generated decoder.
fn summary_version(block: u32, record: &Record<'_, '_>) -> Option<u64> {
    use ir::{full_lto_globalval_summary_block as full_lto, globalval_summary_block as summary};
    let mut ctx = LlvmContext::default();
    match (block, record.code) {
        (summary::ID, summary::Version::CODE) => {
            summary::Version::decode(record, &mut ctx).ok().map(|v| v.version)
        }
        (full_lto::ID, full_lto::Version::CODE) => {
            full_lto::Version::decode(record, &mut ctx).ok().map(|v| v.version)
        }
        _ => None,
    }
}

impl<'a> Walker<'a> {
    /// A walker at the start of `stream`. Block lengths are checked: the walk reads blocks
    /// apart and skips them by their lengths, as LLVM's IR reader does.
    pub fn new(stream: &Bitstream<'a>) -> Self {
        Walker::with_numbering(stream, ValueNumbering::new())
    }

    /// As [`Walker::new`], counting values with `numbering` (e.g.
    /// [`ValueNumbering::for_schema`] of an extended copy of the LLVM IR schema).
    pub fn with_numbering(stream: &Bitstream<'a>, numbering: ValueNumbering) -> Self {
        let mut cursor = stream.cursor();
        cursor.check_block_lengths(true);
        Walker::reading(cursor, numbering)
    }

    /// A walker that reads on from `cursor` with `numbering`, handing nothing out. (Every
    /// record sets the context's fields before it is decoded, so it starts fresh.)
    fn reading(cursor: Cursor<'a>, numbering: ValueNumbering) -> Self {
        Walker {
            cursor,
            numbering,
            context: LlvmContext::default(),
            summary_version: None,
            stop_depth: None,
            deferring: false,
            run_words: 0,
            run_so_far: 0,
            run_end: None,
            parts: Vec::new(),
            handed_out: 0,
            pending: None,
            invalid: None,
            skipped_state: None,
            changed: false,
            run_event: None,
            ended: false,
            attention: false,
            depth: 0,
        }
    }

    /// A walker at the start of `stream` that reads only what the value numbering needs
    /// and hands out the other blocks (function bodies, metadata, symbol tables...): at such
    /// a block [`Walker::next_event`] gives [`WalkerEvent::Deferred`], keeps a walker for the
    /// block (see [`Walker::take_parts`]) and goes on after it. Each part's walker gives its
    /// block's events, up to and including the block's [`WalkerEvent::EndBlock`], with the
    /// contexts a whole walk would give; so decoding the parts in any order, on any thread,
    /// gives the same results as one walk.
    pub fn deferring(stream: &Bitstream<'a>) -> Self {
        Walker { deferring: true, ..Walker::new(stream) }
    }

    /// [`Walker::deferring`], with parts that hold runs of blocks: a block that can be read
    /// apart and starts right where the last block handed out ends (a function body after
    /// a function body) joins that block's part while the part holds fewer than
    /// `run_words` 32-bit words. [`WalkerEvent::Deferred`] gives the same part for every
    /// block of a run, and the part's walker gives the events of all of them. Fewer, larger
    /// parts cost less to hand out and to read on another thread.
    pub fn deferring_runs(stream: &Bitstream<'a>, run_words: u64) -> Self {
        Walker { deferring: true, run_words, ..Walker::new(stream) }
    }

    /// The walkers of the blocks handed out so far, in stream order (a part's index in
    /// [`WalkerEvent::Deferred`] counts from the first part ever handed out).
    pub fn take_parts(&mut self) -> Result<Vec<Walker<'a>>> {
        self.hand_out_pending()?;
        Ok(std::mem::take(&mut self.parts))
    }

    /// Hands out the block whose [`WalkerEvent::Deferred`] was given last: a copy of this
    /// walker reads it, this one skips it. (Done on the next call, as the event borrows
    /// the walker.)
    #[inline]
    fn hand_out_pending(&mut self) -> Result<()> {
        match self.pending.take() {
            Some(what) => self.hand_out(what),
            None => Ok(()),
        }
    }

    /// The work of [`Walker::hand_out_pending`] when a block is pending.
    #[cold]
    fn hand_out(&mut self, what: HandOut) -> Result<()> {
        if what == HandOut::JoinLast {
            // The last part reads this block itself, as it reaches it (`run_goes_on`).
            let skipped = self.skip_block();
            self.run_end = Some(self.cursor.position());
            return skipped;
        }
        // Nothing here allocates (the cursor's scopes are inline, its abbreviations and
        // the numbering's tables shared): a part is made on this thread and dropped on the
        // one that reads it, and memory freed on another thread than the one that
        // allocated it costs the allocator a lock.
        let mut part = Walker {
            summary_version: self.summary_version,
            stop_depth: Some(self.depth),
            run_words: self.run_words,
            run_so_far: self.run_so_far,
            depth: self.depth,
            ..Walker::reading(self.cursor.clone(), self.numbering.clone())
        };
        part.context.low_byte_strings = self.context.low_byte_strings;
        if let Some(id) = part.cursor.current_block() {
            part.skipped_state = Some(part.state_after_skipping(id));
        }
        let skipped = self.skip_block();
        self.run_end = Some(self.cursor.position());
        self.parts.push(part);
        skipped
    }

    /// For a walker of handed-out blocks, back where its blocks are: whether the next entry
    /// is a block that joins the run, as the walker that handed the run out decided (a
    /// block that can be read apart, starting here, while the run holds fewer than
    /// `run_words`).
    #[cold]
    fn run_goes_on(&mut self) -> bool {
        if self.run_so_far >= self.run_words {
            return false;
        }
        match self.cursor.peek_block_header() {
            Some(header) if ir::deferrable(header.id) => {
                self.run_so_far += u64::from(header.words);
                true
            }
            _ => false,
        }
    }

    /// The state the walker that handed out the block just entered reads on with, having
    /// skipped it.
    fn state_after_skipping(&self, block_id: u32) -> (ValueNumbering, Arc<BlockInfoStore>) {
        let mut numbering = self.numbering.clone();
        numbering.end_block(block_id);
        (numbering, self.cursor.shared_block_info())
    }

    /// For a walker of handed-out blocks, once its walk has ended: true when reading a
    /// block changed how later blocks read — a BLOCKINFO block, or records the value
    /// numbering counts beyond the block (a module-level block, say), nested in it. The
    /// walk that handed it out skipped it and read on without those changes, so its later
    /// blocks are not read as one walk reads them. Never so in files LLVM writes; a caller
    /// that needs one walk's results then reads the stream again in one walk.
    pub fn changed_later_blocks(&self) -> bool {
        self.changed || (self.run_event == Some(RunEvent::Ended) && self.left_another_state())
    }

    /// Whether the state is not the one skipping the block just read leaves.
    fn left_another_state(&self) -> bool {
        self.skipped_state.as_ref().is_some_and(|(numbering, block_info)| {
            // The stored BLOCKINFO is kept alive: a new one is elsewhere.
            !self.numbering.numbers_alike(numbering)
                || !std::ptr::eq(self.cursor.block_info(), Arc::as_ptr(block_info))
        })
    }

    /// Notes that a block of a part's run started or ended.
    #[cold]
    fn note_run_event(&mut self, event: RunEvent) {
        match event {
            RunEvent::Started(id) => self.skipped_state = Some(self.state_after_skipping(id)),
            RunEvent::Ended => self.changed |= self.left_another_state(),
        }
    }

    /// The next block start, block end or record.
    ///
    /// A record that makes the module invalid where the bitstream is fine (see
    /// [`ErrorKind::Invalid`]) is given as usual; the next call gives the error.
    // Inlined into each caller's loop, the event is taken apart where it is built instead of
    // being copied out and back (a record is about 50 bytes): 6% of a typed check.
    #[inline(always)]
    pub fn next_event(&mut self) -> Result<Option<WalkerEvent<'_, 'a>>> {
        if self.attention && self.attend()? {
            return Ok(None);
        }
        let block = self.cursor.current_block().unwrap_or(u32::MAX);
        let Some(entry) = self.cursor.next_entry()? else { return Ok(None) };
        Ok(Some(match entry {
            Entry::Block(header) => {
                self.depth += 1;
                self.numbering.enter_block(header.id);
                if is_summary_block(header.id) {
                    self.summary_version = Some(0);
                }
                if self.deferring && ir::deferrable(header.id) {
                    let joins = self.run_so_far < self.run_words && self.run_end == Some(header.bit_offset);
                    if joins {
                        self.run_so_far += u64::from(header.words);
                        self.pending = Some(HandOut::JoinLast);
                    } else {
                        self.run_so_far = u64::from(header.words);
                        self.handed_out += 1;
                        self.pending = Some(HandOut::NewPart);
                    }
                    self.attention = true;
                    WalkerEvent::Deferred { header, part: self.handed_out - 1 }
                } else {
                    if self.stop_depth == Some(self.depth) {
                        self.run_event = Some(RunEvent::Started(header.id));
                        self.attention = true;
                    }
                    WalkerEvent::Block(header)
                }
            }
            Entry::EndBlock(id) => {
                self.depth = self.depth.saturating_sub(1);
                self.numbering.end_block(id);
                if is_summary_block(id) {
                    self.summary_version = None;
                }
                if self.stop_depth.is_some_and(|stop| self.depth < stop) {
                    self.run_event = Some(RunEvent::Ended);
                    self.attention = true;
                }
                WalkerEvent::EndBlock(id)
            }
            Entry::Record(record) => {
                // Inside a summary block the layouts follow the summary's VERSION record.
                if is_summary_block(block) {
                    if let Some(version) = summary_version(block, &record) {
                        self.summary_version = Some(version);
                    }
                }
                // The context holds the numbers before this record; then count what it defines.
                self.context.version = match self.summary_version {
                    Some(v) if is_summary_block(block) => v,
                    _ => self.numbering.version(),
                };
                self.context.absolute_ids = self.numbering.version() < 1;
                self.context.value_number = self.numbering.next_value();
                self.numbering.record(block, &record);
                if block == ir::constants_block::ID {
                    if let Some(problem) = self.numbering.constant_problem(record.code) {
                        self.invalid = Some((problem, record.bit_offset, record.code));
                        self.attention = true;
                    }
                }
                self.context.call_params = self.numbering.last_call_params();
                WalkerEvent::Record { block, record, ctx: &mut self.context }
            }
        }))
    }

    /// What the last event left to do before the next entry is read (see `attention`);
    /// true when the walk has ended.
    #[cold]
    fn attend(&mut self) -> Result<bool> {
        self.attention = false;
        if self.invalid.is_some() {
            return Err(self.invalid_error());
        }
        self.hand_out_pending()?;
        if let Some(event) = self.run_event.take() {
            self.note_run_event(event);
            self.ended = event == RunEvent::Ended && !self.run_goes_on();
        }
        // An ended walk stays ended.
        self.attention = self.ended;
        Ok(self.ended)
    }

    /// The error for the invalid record given last (see [`Walker::next_event`]).
    #[cold]
    fn invalid_error(&mut self) -> Error {
        let (problem, bit_offset, code) = self.invalid.take().unwrap_or_default();
        let err = Error::new(ErrorKind::Invalid(problem), bit_offset).with_record_code(code);
        self.cursor.with_block_path(err)
    }

    /// Skips the rest of the innermost block (e.g. a function body) by its length.
    pub fn skip_block(&mut self) -> Result<()> {
        let block = self.cursor.current_block();
        self.cursor.skip_block()?;
        self.depth = self.cursor.depth();
        if let Some(id) = block {
            self.numbering.end_block(id);
        }
        if self.stop_depth.is_some_and(|stop| self.depth < stop) {
            // A part's block skipped whole: as if it had ended.
            self.run_event = Some(RunEvent::Ended);
            self.attention = true;
        }
        Ok(())
    }

    /// Keeps the abbreviation definitions the walk reads, for [`Walker::take_definitions`]
    /// (see [`Cursor::keep_definitions`]).
    pub fn keep_definitions(&mut self) {
        self.cursor.keep_definitions();
    }

    /// The abbreviation definitions read since the last call: after an event, those
    /// written before it (see [`Cursor::take_definitions`]).
    pub fn take_definitions(&mut self) -> Vec<bitcode_schema_runtime::Abbrev> {
        self.cursor.take_definitions()
    }

    /// The cursor underneath (position, block path, BLOCKINFO names).
    pub fn cursor(&self) -> &Cursor<'a> {
        &self.cursor
    }

    /// The value numbering so far.
    pub fn numbering(&self) -> &ValueNumbering {
        &self.numbering
    }

    /// Stops holding block length words to where blocks end (`Cursor::check_block_lengths`),
    /// for a function body: LLVM's reader reads a body and the blocks in it through to
    /// their END_BLOCKs and never looks at their length words. (A block this walker skips
    /// is still skipped by its length word, which must then stay within the input.)
    pub fn read_through(&mut self) {
        self.cursor.check_block_lengths(false);
    }

    /// Reads strings as LLVM's IR reader does: a string operand over 255 gives its low
    /// byte rather than an error (see `DecodeContext::low_byte_strings`). Walkers cloned
    /// from this one, and the parts it hands out, read them so too.
    pub fn read_strings_as_llvm(&mut self) {
        self.context.low_byte_strings = true;
    }

    /// The decode context (its warnings collect every decoder's).
    pub fn context(&self) -> &LlvmContext {
        &self.context
    }

    /// Adds the walker's block path to an error that has none (one the caller's code built;
    /// a typed decoder's error carries its record's path already).
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
