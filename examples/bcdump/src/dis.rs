//! `--dis`: a module as textual IR, through `bitcode_schema::llvm::dis` (LLVM IR bitcode)
//! or `bitcode_schema::bytecode` (LLVM 1.x bytecode), to standard output or to `-o OUT`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use bitcode_schema::llvm::dis::{write_module, DisError, DisOptions};
use bitcode_schema::llvm::module::read_modules;

use crate::Failure;

/// Where the text goes.
pub enum Target<'o, W: Write> {
    /// Standard output (or what stands for it).
    Out(&'o mut W),
    /// A file: `OUT`, or for a file of several modules `OUT.0`, `OUT.1`, ... as llvm-dis
    /// names them.
    File(&'o Path),
}

/// Every module of the bitcode in `bytes` as the `llvm-dis` of `llvm_major` prints it (the
/// version that wrote the module when `None`); `name` is the `; ModuleID`. The text is
/// written as it is made; a file is removed again when the module turns out bad (as
/// llvm-dis leaves no output then).
pub fn bitcode<W: Write>(
    bytes: &[u8],
    name: &str,
    llvm_major: Option<u32>,
    target: Target<'_, W>,
) -> Result<(), Failure> {
    let input = bitcode_schema::Input::parse(bytes)?;
    let options = DisOptions { llvm_major, module_id: name.to_string() };
    let mut modules = Vec::new();
    for stream in input.streams()? {
        modules.extend(read_modules(&stream)?);
    }
    match target {
        Target::Out(out) => {
            for m in modules {
                write_module(m, &options, out).map_err(failure)?;
            }
            Ok(())
        }
        Target::File(path) => {
            let count = modules.len();
            for (i, m) in modules.into_iter().enumerate() {
                let path = if count == 1 { path.to_path_buf() } else { numbered(path, i) };
                let mut out = FileBeingCreated::new(path.clone());
                if let Err(e) = write_module(m, &options, &mut out) {
                    drop(out);
                    let _ = std::fs::remove_file(&path);
                    return Err(match e {
                        DisError::Output(e) => Failure::WriteFile(path, e),
                        e => failure(e),
                    });
                }
            }
            Ok(())
        }
    }
}

/// An output file created on a thread of its own while the module is printed: truncating
/// a large old file keeps the kernel busy for a while (about 40 ms for a 75 MB .ll), and
/// nothing is written before the module's every body has been read.
struct FileBeingCreated {
    /// The thread creating the file, until the first write.
    creating: Option<std::thread::JoinHandle<io::Result<File>>>,
    /// The file, once created.
    file: Option<BufWriter<File>>,
}

impl FileBeingCreated {
    /// Starts creating (or truncating) `path`.
    fn new(path: PathBuf) -> Self {
        FileBeingCreated { creating: Some(std::thread::spawn(move || File::create(path))), file: None }
    }

    /// The file, waiting for it to be created.
    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        if let Some(creating) = self.creating.take() {
            let file =
                creating.join().map_err(|_| io::Error::other("the thread creating the file panicked"))??;
            self.file = Some(BufWriter::with_capacity(1 << 16, file));
        }
        self.file.as_mut().ok_or_else(|| io::Error::other("the file could not be created"))
    }
}

impl Write for FileBeingCreated {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file()?.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

impl Drop for FileBeingCreated {
    /// Waits for the file to exist, so that a caller removing it after a failure does.
    fn drop(&mut self) {
        if let Some(creating) = self.creating.take() {
            let _ = creating.join();
        }
    }
}

/// A disassembly error as a failure.
fn failure(e: DisError) -> Failure {
    match e {
        DisError::Input(e) => Failure::Input(e),
        DisError::Output(e) => Failure::Output(e),
    }
}

/// The texts to their target.
pub fn write<W: Write>(texts: &[String], target: Target<'_, W>) -> Result<(), Failure> {
    match target {
        Target::Out(out) => {
            for text in texts {
                out.write_all(text.as_bytes())?;
            }
            Ok(())
        }
        Target::File(path) => {
            let paths: Vec<PathBuf> = match texts.len() {
                1 => vec![path.to_path_buf()],
                _ => (0..texts.len()).map(|i| numbered(path, i)).collect(),
            };
            for (text, path) in texts.iter().zip(paths) {
                std::fs::write(&path, text).map_err(|e| Failure::WriteFile(path.clone(), e))?;
            }
            Ok(())
        }
    }
}

/// `OUT.i`, the file of the `i`th module of several.
fn numbered(path: &Path, i: usize) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(format!(".{i}"));
    PathBuf::from(name)
}
