//! Text on its way out: written to the writer a chunk at a time, so that no whole module's
//! text is ever held; and the functions' text, which must wait for the struct types the
//! bodies decide, kept in chunks rather than one growing string.

use std::io;

/// How much text gathers before it is written out.
const CHUNK: usize = 1 << 16;

/// How big a chunk of waiting text grows before the next is begun.
const WAITING_CHUNK: usize = 1 << 20;

/// A writer and the first error it gave (later writes are skipped).
pub(super) struct Sink<'w> {
    out: &'w mut dyn io::Write,
    error: Option<io::Error>,
}

impl<'w> Sink<'w> {
    /// Text to `out`.
    pub fn new(out: &'w mut dyn io::Write) -> Self {
        Sink { out, error: None }
    }

    /// Writes `text` out and empties it, once it holds a chunk.
    pub fn spill(&mut self, text: &mut String) {
        if text.len() >= CHUNK {
            self.write(text);
        }
    }

    /// Writes `text` out and empties it.
    pub fn write(&mut self, text: &mut String) {
        self.write_str(text);
        text.clear();
    }

    /// Writes `text` out.
    pub fn write_str(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(text.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Flushes the writer; the first error of any write.
    pub fn finish(self) -> io::Result<()> {
        match self.error {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

/// Text that waits, in chunks of about [`WAITING_CHUNK`] bytes.
#[derive(Default)]
pub(super) struct Waiting {
    done: Vec<String>,
    current: String,
}

impl Waiting {
    /// The string to append to.
    pub fn text(&mut self) -> &mut String {
        if self.current.len() >= WAITING_CHUNK {
            let next = String::with_capacity(WAITING_CHUNK + WAITING_CHUNK / 4);
            self.done.push(std::mem::replace(&mut self.current, next));
        }
        &mut self.current
    }

    /// Writes every chunk to `sink`, dropping each once written.
    pub fn write_to(self, sink: &mut Sink<'_>) {
        for chunk in self.done.into_iter().chain(std::iter::once(self.current)) {
            sink.write_str(&chunk);
        }
    }
}
