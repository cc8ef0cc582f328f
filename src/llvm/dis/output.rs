//! Text on its way out: written to the writer a chunk at a time, so that no whole module's
//! text is ever held; into a file, text already written can be replaced (the struct types,
//! which the bodies decide, once they are known); into any other writer, the functions'
//! text waits for them, kept in chunks rather than one growing string.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// How much text gathers before it is written out.
const CHUNK: usize = 1 << 16;

/// How big a chunk of waiting text grows before the next is begun.
const WAITING_CHUNK: usize = 1 << 20;

/// The room a chunk of waiting text is given: one more line (a long one) overruns the
/// chunk's size without growing it.
const CHUNK_ROOM: usize = WAITING_CHUNK + WAITING_CHUNK / 4;

/// Where a [`Sink`]'s text goes.
enum Target<'w> {
    /// A writer, written in order.
    Stream(&'w mut dyn io::Write),
    /// A regular file, from its position `start` on: what was written can be replaced.
    File {
        /// The file.
        file: &'w File,
        /// Where the text begins in it.
        start: u64,
    },
}

/// A writer and the first error it gave (later writes are skipped).
pub(super) struct Sink<'w> {
    target: Target<'w>,
    /// How many bytes were written.
    written: u64,
    error: Option<io::Error>,
}

impl<'w> Sink<'w> {
    /// Text to `out`.
    pub fn new(out: &'w mut dyn io::Write) -> Self {
        Sink { target: Target::Stream(out), written: 0, error: None }
    }

    /// Text to `file` from its current position; `None` when it is not a regular file
    /// (a pipe or a terminal, written in order).
    pub fn file(file: &'w File) -> io::Result<Option<Self>> {
        if !file.metadata()?.is_file() {
            return Ok(None);
        }
        let start = (&mut &*file).stream_position()?;
        Ok(Some(Sink { target: Target::File { file, start }, written: 0, error: None }))
    }

    /// Whether text already written can be replaced ([`replace`](Self::replace)).
    pub fn can_replace(&self) -> bool {
        matches!(self.target, Target::File { .. })
    }

    /// How many bytes were written.
    pub fn written(&self) -> u64 {
        self.written
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
        if self.error.is_some() {
            return;
        }
        let written = match &mut self.target {
            Target::Stream(out) => out.write_all(text.as_bytes()),
            Target::File { file, .. } => (&mut &**file).write_all(text.as_bytes()),
        };
        match written {
            Ok(()) => self.written += text.len() as u64,
            Err(e) => self.error = Some(e),
        }
    }

    /// Replaces the `len` bytes written at `at` (counted from the first byte written) by
    /// `text`, moving what follows when the lengths differ. Only for a file.
    pub fn replace(&mut self, at: u64, len: u64, text: &str) {
        if self.error.is_some() {
            return;
        }
        let Target::File { file, start } = self.target else {
            self.error = Some(io::Error::other("text written in order cannot be replaced"));
            return;
        };
        let mut file = file;
        let moved = (|| -> io::Result<u64> {
            let after =
                at.checked_add(len).filter(|&a| a <= self.written).ok_or(io::ErrorKind::InvalidInput)?;
            let mut rest = Vec::new();
            if text.len() as u64 != len {
                file.seek(SeekFrom::Start(start + after))?;
                rest.reserve((self.written - after) as usize);
                (&mut file).take(self.written - after).read_to_end(&mut rest).map_err(|e| {
                    io::Error::new(e.kind(), format!("reading back the text after the struct types: {e}"))
                })?;
            }
            file.seek(SeekFrom::Start(start + at))?;
            file.write_all(text.as_bytes())?;
            if text.len() as u64 == len {
                file.seek(SeekFrom::Start(start + self.written))?;
                return Ok(self.written);
            }
            file.write_all(&rest)?;
            let written = at + text.len() as u64 + rest.len() as u64;
            file.set_len(start + written)?;
            Ok(written)
        })();
        match moved {
            Ok(written) => self.written = written,
            Err(e) => self.error = Some(e),
        }
    }

    /// Cuts a file back to where the text began (after a failure, as llvm-dis leaves no
    /// text then).
    pub fn discard(&mut self) {
        if let Target::File { file, start } = self.target {
            let _ = file.set_len(start);
            let _ = (&mut &*file).seek(SeekFrom::Start(start));
            self.written = 0;
        }
    }

    /// Flushes the writer, or ends a file where the text ends (it may have held more);
    /// the first error of any write (a file is cut back then, as by
    /// [`discard`](Self::discard)).
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            self.discard();
            return Err(e);
        }
        match self.target {
            Target::Stream(out) => out.flush(),
            Target::File { file, start } => file.set_len(start + self.written),
        }
    }
}

/// Moves `text` to `done` once it holds a chunk, leaving it empty with room for the next.
fn take_full(done: &mut Vec<String>, text: &mut String) {
    if text.len() >= WAITING_CHUNK {
        let next = String::with_capacity(CHUNK_ROOM);
        done.push(std::mem::replace(text, next));
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
        take_full(&mut self.done, &mut self.current);
        // The first chunk too is reserved whole: grown by doubling, its pages were
        // touched about twice over (a summary's text is most of a megabyte).
        if self.current.capacity() == 0 {
            self.current.reserve(CHUNK_ROOM);
        }
        &mut self.current
    }

    /// Takes `text` as a chunk once it holds one, leaving it empty with room for the next
    /// (for text made into a string of the caller's).
    #[cfg(feature = "parallel")]
    pub fn take_full(&mut self, text: &mut String) {
        take_full(&mut self.done, text);
    }

    /// Ends the text with `text`.
    #[cfg(feature = "parallel")]
    pub fn end_with(&mut self, text: String) {
        let current = std::mem::replace(&mut self.current, text);
        if !current.is_empty() {
            self.done.push(current);
        }
    }

    /// Writes every chunk to `sink`, dropping each once written.
    pub fn write_to(self, sink: &mut Sink<'_>) {
        for chunk in self.done.into_iter().chain(std::iter::once(self.current)) {
            sink.write_str(&chunk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file in the temporary directory, holding `before`, opened for reading and writing
    /// at its end.
    fn file_holding(name: &str, before: &str) -> (std::path::PathBuf, File) {
        let path = std::env::temp_dir().join(format!("bitcode-sink-{}-{name}", std::process::id()));
        std::fs::write(&path, before).unwrap();
        let mut file = File::options().read(true).write(true).open(&path).unwrap();
        file.seek(SeekFrom::End(0)).unwrap();
        (path, file)
    }

    #[test]
    fn text_in_a_file_is_replaced_in_place_or_moved() {
        let (path, file) = file_holding("replace", "kept:");
        let mut sink = Sink::file(&file).unwrap().unwrap();
        assert!(sink.can_replace());
        sink.write_str("head [abc] tail");
        sink.replace(6, 3, "xyz");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept:head [xyz] tail");
        // Shorter: what follows moves up; longer: down. Writing goes on at the end.
        sink.replace(6, 3, "q");
        sink.write_str("!");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept:head [q] tail!");
        sink.replace(6, 1, "longer");
        assert_eq!(sink.written(), 19);
        sink.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept:head [longer] tail!");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_file_ends_where_the_text_does_and_is_cut_back_on_failure() {
        // Written over an old, longer text: the file ends where the new one does.
        let (path, mut file) = file_holding("end", "kept:an old text, longer");
        file.seek(SeekFrom::Start(5)).unwrap();
        let mut sink = Sink::file(&file).unwrap().unwrap();
        sink.write_str("new");
        sink.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept:new");
        // Discarded: back to where the text began.
        let mut sink = Sink::file(&file).unwrap().unwrap();
        sink.write_str("more text");
        sink.discard();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept:new");
        let _ = std::fs::remove_file(&path);
        // Text written in order cannot be replaced: an error, at the end.
        let mut out = Vec::new();
        let mut sink = Sink::new(&mut out);
        assert!(!sink.can_replace());
        sink.write_str("abc");
        sink.replace(0, 1, "x");
        assert!(sink.finish().is_err());
        assert_eq!(out, b"abc");
    }
}
