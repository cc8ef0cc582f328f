//! `--dis`: a module as textual IR, through `bitcode_schema::llvm::dis` (LLVM IR bitcode)
//! or `bitcode_schema::bytecode` (LLVM 1.x bytecode), to standard output or to `-o OUT`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use bitcode_schema::llvm::dis::{write_module, write_module_to_file, DisError, DisOptions};
use bitcode_schema::llvm::module::{name_structs_in_one_context, read_modules};

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
/// written as it is made; a regular file is removed again when the module turns out bad
/// (as llvm-dis leaves no output then).
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
    // llvm-dis reads every module of the file into one context.
    name_structs_in_one_context(&mut modules);
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
                // Not truncated: the text overwrites an old file and ends it. A file this
                // user may write but not read is written in order, as to standard output.
                let opened = File::options().write(true).read(true).create(true).truncate(false).open(&path);
                let written = match opened {
                    Ok(file) => write_module_to_file(m, &options, &file),
                    Err(e) if e.kind() == io::ErrorKind::PermissionDenied => File::create(&path)
                        .map_err(DisError::Output)
                        .and_then(|file| write_module(m, &options, &mut BufWriter::new(file))),
                    Err(e) => return Err(Failure::WriteFile(path, e)),
                };
                if let Err(e) = written {
                    // Only a regular file is removed, as LLVM's tools remove theirs: `-o
                    // /dev/null` or a pipe stays what it was.
                    if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                        let _ = std::fs::remove_file(&path);
                    }
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
