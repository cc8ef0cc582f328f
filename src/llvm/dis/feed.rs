//! The function bodies a printer prints, read in function order. Each is checked here,
//! then handed to the printer, which drops it once printed: a few bodies at a time are
//! held, never the module's every body. With the `parallel` feature the bodies are read
//! on a thread of their own while the printer prints the ones before them, and handed
//! over in batches (at most two waiting); the printer hands each printed body back, for
//! the reader's thread to free. A printer that has nothing to print reads the next body
//! itself (see [`read_out_of_turn`]).

use bitcode_schema_runtime::Result;

use super::{nesting, operands};
use crate::llvm::module::{FunctionBody, Module, Type, Types};

/// One body, read.
pub(super) struct ReadBody<'a> {
    /// The body's ordinal among the module's bodies (the scope of its metadata).
    pub ordinal: u32,
    /// The body.
    pub body: FunctionBody<'a>,
    /// The types reading it added to the type table, for the printer's copy of the table.
    pub added_types: Vec<Type>,
}

/// How many batches of read bodies may wait for the printer.
#[cfg(feature = "parallel")]
const QUEUE: usize = 2;

/// Bodies are handed over in batches of about this many instructions: one hand-over per
/// small function woke the other thread thousands of times (a system call each).
#[cfg(feature = "parallel")]
const BATCH_INSTRUCTIONS: usize = 1024;

/// Reads every body of `m` in order and hands each to `print`, with the state `prepare`
/// makes meanwhile (the reader starts first: with the `parallel` feature the first bodies
/// are read while the printer numbers the module); returns that state. The first error, of
/// preparing, reading or printing, stops both. `print` gives the body back when it is done
/// with it. `read_all_done` is called once every body is read (with the `parallel`
/// feature, on the reader's thread once it has no body left to read: it has nothing more
/// to do).
pub(super) fn each_body<'a, S>(
    m: &Module<'a>,
    prepare: impl FnOnce() -> Result<S>,
    read_all_done: &(dyn Fn() + Sync),
    print: impl FnMut(&mut S, ReadBody<'a>) -> Result<Option<FunctionBody<'a>>>,
) -> Result<S> {
    #[cfg(feature = "parallel")]
    {
        parallel::each_body(m, prepare, read_all_done, print)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut print = print;
        let mut state = prepare()?;
        let mut printed = Ok(());
        read_all(m, |b| match print(&mut state, b) {
            Ok(_) => true,
            Err(e) => {
                printed = Err(e);
                false
            }
        })?;
        read_all_done();
        printed.map(|()| state)
    }
}

/// Reads and checks every body of `m` in order, handing each to `take` (false: stop).
pub(super) fn read_all<'a>(m: &Module<'a>, mut take: impl FnMut(ReadBody<'a>) -> bool) -> Result<()> {
    let depths = nesting::module_depths(m)?;
    let mut types = m.types.clone();
    for ordinal in 0..m.bodies().count() as u32 {
        if !take(read_in_turn(m, ordinal, &mut types, &depths)?) {
            break;
        }
    }
    Ok(())
}

/// What is checked of body `ordinal` once read, before it is printed: its constants'
/// nesting (the module's having `depths`) and its operands.
fn check(m: &Module<'_>, ordinal: u32, body: &FunctionBody<'_>, types: &Types, depths: &[u32]) -> Result<()> {
    nesting::check_body(m, ordinal, body, depths)?;
    operands::check_body(m, ordinal, body, types)
}

/// Reads and checks body `ordinal` of `m` in turn: `types` holds the types every body
/// before it added.
fn read_in_turn<'a>(m: &Module<'a>, ordinal: u32, types: &mut Types, depths: &[u32]) -> Result<ReadBody<'a>> {
    let before = types.len();
    let body = m.read_body(ordinal as usize, types)?;
    check(m, ordinal, &body, types, depths)?;
    let added_types = types.added_since(before).to_vec();
    Ok(ReadBody { ordinal, body, added_types })
}

/// Reads and checks body `ordinal` of `m` out of turn, against `types` as the module left
/// them or with the types some bodies before it added: `None` when it needed a type the
/// table lacks (taken back out of `types`), to be read in turn. A body that added no type
/// reads the same whatever bodies come before it, since they only ever add types at the
/// table's end. An error is for the read in turn to give, with the bodies before it.
#[cfg(feature = "parallel")]
fn read_out_of_turn<'a>(
    m: &Module<'a>,
    ordinal: u32,
    types: &mut Types,
    depths: &[u32],
) -> Result<Option<FunctionBody<'a>>> {
    #[cfg(test)]
    {
        let every = REFUSED_OUT_OF_TURN.load(std::sync::atomic::Ordering::Relaxed);
        if every != 0 && ordinal.is_multiple_of(every) {
            return Ok(None);
        }
    }
    let before = types.len();
    let body = m.read_body(ordinal as usize, types);
    if types.len() != before {
        types.truncate(before);
        return Ok(None);
    }
    let body = body?;
    check(m, ordinal, &body, types, depths)?;
    Ok(Some(body))
}

/// For tests: one body in how many is read in turn even when it could be read out of
/// turn (0: none), so that the in-turn path runs on modules that never need it.
#[cfg(all(test, feature = "parallel"))]
pub(super) static REFUSED_OUT_OF_TURN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

#[cfg(feature = "parallel")]
mod parallel {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::{self, TryRecvError};

    use super::*;

    /// A body read out of turn, by its ordinal.
    struct Handed<'a> {
        /// The body; `None` when it is to be read in turn (out of turn it needed a type
        /// the table lacked, or failed).
        body: Option<FunctionBody<'a>>,
        /// Whether the reader's thread read it (it is freed there).
        by_reader: bool,
    }

    /// [`each_body`](super::each_body) with the `parallel` feature. The bodies are claimed
    /// in order from a shared counter, by the reader's thread and, whenever the body next
    /// to print is not there yet, by the printer's: one thread then never waits while
    /// the other works (on a rustc module the printer waited a third of its time).
    pub(super) fn each_body<'a, S>(
        m: &Module<'a>,
        prepare: impl FnOnce() -> Result<S>,
        read_all_done: &(dyn Fn() + Sync),
        mut print: impl FnMut(&mut S, ReadBody<'a>) -> Result<Option<FunctionBody<'a>>>,
    ) -> Result<S> {
        let depths = nesting::module_depths(m)?;
        let count = m.bodies().count();
        let next = AtomicUsize::new(0);
        let claim = || Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&n| n < count).map(|n| n as u32);
        std::thread::scope(|scope| {
            let (send, receive) = mpsc::sync_channel::<Vec<(u32, Handed<'a>)>>(QUEUE);
            // Printed bodies go back to be freed where they were allocated: freed on the
            // printer's thread, each of their blocks took the lock of the reader's malloc
            // arena, which the reader held as often as not (a quarter of a rustc module's
            // time went to malloc, free and the lock's system calls).
            let (give_back, given_back) = mpsc::channel::<Vec<FunctionBody<'a>>>();
            let depths = &depths;
            scope.spawn(move || {
                let mut types = m.types.clone();
                let mut batch = Vec::new();
                let mut size = 0;
                let mut failed = false;
                while let Some(ordinal) = claim() {
                    while let Ok(spent) = given_back.try_recv() {
                        drop(spent);
                    }
                    let body = read_out_of_turn(m, ordinal, &mut types, depths);
                    failed = body.is_err();
                    let body = body.ok().flatten();
                    size += body.as_ref().map_or(0, |b| b.instructions.len());
                    batch.push((ordinal, Handed { body, by_reader: true }));
                    if failed {
                        break;
                    }
                    if size >= BATCH_INSTRUCTIONS {
                        size = 0;
                        if send.send(std::mem::take(&mut batch)).is_err() {
                            return;
                        }
                    }
                }
                if !batch.is_empty() && send.send(batch).is_err() {
                    return;
                }
                if !failed {
                    read_all_done();
                }
            });
            // On an error (returned below) the receiver is dropped: the reader stops at
            // its next send.
            let mut state = prepare()?;
            // The printer's copy of the types, for the bodies it reads; the bodies read in
            // turn leave theirs in it.
            let mut types = m.types.clone();
            let mut waiting = BTreeMap::new();
            let mut spent = Vec::new();
            let mut reader_done = false;
            // The instructions of the bodies read here and not yet printed: at most about
            // a batch is read ahead.
            let mut ahead = 0;
            // A batch taken is the time to give back the bodies printed since the last.
            let take = |batch: Vec<(u32, Handed<'a>)>,
                        waiting: &mut BTreeMap<u32, Handed<'a>>,
                        spent: &mut Vec<FunctionBody<'a>>| {
                waiting.extend(batch);
                if !spent.is_empty() {
                    let _ = give_back.send(std::mem::take(spent));
                }
            };
            for ordinal in 0..count as u32 {
                let handed = loop {
                    if let Some(handed) = waiting.remove(&ordinal) {
                        break Some(handed);
                    }
                    if !reader_done {
                        match receive.try_recv() {
                            Ok(batch) => {
                                take(batch, &mut waiting, &mut spent);
                                continue;
                            }
                            Err(TryRecvError::Disconnected) => reader_done = true,
                            Err(TryRecvError::Empty) => {}
                        }
                    }
                    if let Some(other) = (ahead < BATCH_INSTRUCTIONS).then(claim).flatten() {
                        let body = read_out_of_turn(m, other, &mut types, depths).ok().flatten();
                        ahead += body.as_ref().map_or(0, |b| b.instructions.len());
                        waiting.insert(other, Handed { body, by_reader: false });
                        continue;
                    }
                    if reader_done {
                        // The reader stopped before handing it over: read here.
                        next.fetch_max(ordinal as usize + 1, Ordering::Relaxed);
                        break None;
                    }
                    match receive.recv() {
                        Ok(batch) => take(batch, &mut waiting, &mut spent),
                        Err(_) => reader_done = true,
                    }
                };
                match handed {
                    Some(Handed { body: Some(body), by_reader }) => {
                        if !by_reader {
                            ahead -= body.instructions.len();
                        }
                        let read = ReadBody { ordinal, body, added_types: Vec::new() };
                        let printed = print(&mut state, read)?;
                        if by_reader {
                            spent.extend(printed);
                        }
                    }
                    _ => {
                        print(&mut state, read_in_turn(m, ordinal, &mut types, depths)?)?;
                    }
                }
            }
            Ok(state)
        })
    }
}
