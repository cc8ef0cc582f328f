//! The function bodies a printer prints, read in function order. Each is checked here,
//! then handed to the printer, which drops it once printed: a few bodies at a time are
//! held, never the module's every body. With the `parallel` feature the bodies are read
//! on a thread of their own while the printer prints the ones before them, and handed
//! over in batches (at most two waiting); the printer hands each printed body back, for
//! the reader's thread to free.

use bitcode_schema_runtime::Result;

use super::nesting;
use crate::llvm::module::{FunctionBody, Module, Type};

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
/// feature, on the reader's thread, which has nothing more to do).
pub(super) fn each_body<'a, S>(
    m: &Module<'a>,
    prepare: impl FnOnce() -> Result<S>,
    read_all_done: &(dyn Fn() + Sync),
    mut print: impl FnMut(&mut S, ReadBody<'a>) -> Result<Option<FunctionBody<'a>>>,
) -> Result<S> {
    #[cfg(feature = "parallel")]
    {
        std::thread::scope(|scope| {
            let (send, receive) = std::sync::mpsc::sync_channel::<Vec<ReadBody<'a>>>(QUEUE);
            // Printed bodies go back to be freed where they were allocated: freed on the
            // printer's thread, each of their blocks took the lock of the reader's malloc
            // arena, which the reader held as often as not (a quarter of a rustc module's
            // time went to malloc, free and the lock's system calls).
            let (give_back, given_back) = std::sync::mpsc::channel::<Vec<FunctionBody<'a>>>();
            let reader = scope.spawn(move || {
                let mut batch = Vec::new();
                let mut size = 0;
                let read = read_all(m, |b| {
                    while let Ok(spent) = given_back.try_recv() {
                        drop(spent);
                    }
                    size += b.body.instructions.len();
                    batch.push(b);
                    if size < BATCH_INSTRUCTIONS {
                        return true;
                    }
                    size = 0;
                    send.send(std::mem::take(&mut batch)).is_ok()
                });
                if !batch.is_empty() {
                    let _ = send.send(batch);
                }
                if read.is_ok() {
                    read_all_done();
                }
                read
            });
            let printed = (|| {
                let mut state = prepare()?;
                for batch in receive {
                    let mut spent = Vec::with_capacity(batch.len());
                    for b in batch {
                        spent.extend(print(&mut state, b)?);
                    }
                    // The reader may have finished: then the bodies are freed here.
                    let _ = give_back.send(spent);
                }
                Ok(state)
            })();
            // On an error the receiver is dropped with the closure: the reader stops at
            // its next send.
            let read = reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let state = printed?;
            read?;
            Ok(state)
        })
    }
    #[cfg(not(feature = "parallel"))]
    {
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
    for (ordinal, _) in m.bodies().enumerate() {
        let before = types.len();
        let body = m.read_body(ordinal, &mut types)?;
        nesting::check_body(&body, &depths)?;
        let added_types = types.added_since(before).to_vec();
        if !take(ReadBody { ordinal: ordinal as u32, body, added_types }) {
            break;
        }
    }
    Ok(())
}
