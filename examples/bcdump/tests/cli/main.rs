//! bcdump as a user runs it: the bundled sample, `--stats` agreeing with `--trace`, and
//! errors that name the bit offset and block path with a non-zero exit.

mod modes;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The bcdump binary cargo built for these tests.
fn bcdump() -> &'static str {
    env!("CARGO_BIN_EXE_bcdump")
}

/// The bundled sample, examples/bcdump/data/hello.bc.
fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hello.bc")
}

/// A file of the repository, by its path from the root.
fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// ../shared beside the repository (or $BITCODE_SHARED), when present.
fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("BITCODE_SHARED") {
        Some(d) => PathBuf::from(d),
        None => repo_file("../shared"),
    };
    if dir.join("oracle").is_dir() {
        return Some(dir);
    }
    // The parts of these tests that read ../shared cannot silently pass in CI.
    assert!(std::env::var_os("CI").is_none(), "CI: {} (../shared) is missing", dir.display());
    eprintln!(
        "NOTICE: {} (../shared) is missing: the corpus parts of the CLI tests are skipped",
        dir.display()
    );
    None
}

/// Runs a command and returns its stdout, or a message with its stderr.
fn run(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{cmd:?} failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr).trim()))
    }
}

/// With no FILE and a terminal on standard input, bcdump dumps the bundled sample
/// (examples/bcdump/data/hello.bc); with a pipe it reads the pipe. (The terminal is
/// `script`'s, where it is installed; the sample's dump is checked through the pipe.)
#[test]
fn no_file_dumps_the_bundled_sample() {
    if let Ok(out) = Command::new("script")
        .args(["-qec", bcdump(), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
    {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("LLVM IR bitcode stream, 1732 bytes"), "under a terminal: {text}");
    }
    let mut child = Command::new(bcdump())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &std::fs::read(sample()).unwrap()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("LLVM IR bitcode stream, 1732 bytes"), "{text}");
    // typed records: schema names, field names, enum spellings, resolved value ids
    for expected in [
        "STRING producer=\"LLVM14.0.6\"",
        "TRIPLE triple=\"x86_64-pc-linux-gnu\"",
        "linkage=private",
        "%15 = INST_CMP2 lhs=%7 rhs=%9 predicate=eq",
        "%16 = INST_BINOP lhs=%7 rhs=%10 opcode=mul",
        "%17 = INST_PHI type=t5 incoming=[(value=%11, block=0), (value=%16, block=1)]",
        "ENTRY value=%16 name=\"twice\"",
    ] {
        assert!(text.contains(expected), "missing {expected}:\n{text}");
    }
}

/// `--stats` counts exactly the records and blocks that `--trace` lists, and ends with
/// `records=N blocks=M`.
#[test]
fn stats_count_what_the_trace_lists() {
    let mut files = vec![sample()];
    if let Some(shared) = shared_dir() {
        for name in ["corpus/clang14__bad.dia", "corpus/llvmcat16b__hello_O0+switchphi_O2+new16.bc"] {
            files.push(shared.join(name));
        }
    }
    for file in files {
        let trace = run(Command::new(bcdump()).arg("--trace").arg(&file)).unwrap();
        let trace = String::from_utf8(trace).unwrap();
        let records = trace.lines().filter(|l| l.starts_with("{\"record\"")).count();
        let blocks = trace.lines().filter(|l| l.starts_with("{\"enter\"")).count();
        let stats =
            String::from_utf8(run(Command::new(bcdump()).arg("--stats").arg(&file)).unwrap()).unwrap();
        let last = stats.lines().last().unwrap();
        assert_eq!(last, format!("records={records} blocks={blocks}"), "{}", file.display());
    }
}

/// A damaged file: a message naming the file, with the bit offset and block path, on
/// stderr, exit 1.
#[test]
fn errors_name_offset_and_block_path_and_fail() {
    let bytes = std::fs::read(sample()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Cut in half, at a word: the module block's length now runs past the end.
    let cut = dir.path().join("cut.bc");
    std::fs::write(&cut, &bytes[..bytes.len() / 8 * 4]).unwrap();
    // Cut inside a word: no reader goes into it.
    let partial = dir.path().join("partial.bc");
    std::fs::write(&partial, &bytes[..bytes.len() / 8 * 4 + 2]).unwrap();
    // Ones in the middle of the module: a VBR6 field (in the metadata kind block) whose
    // continuation bits never stop.
    let mut damaged = bytes.clone();
    damaged[800..808].fill(0xff);
    let ones_file = dir.path().join("ones.bc");
    std::fs::write(&ones_file, &damaged).unwrap();
    // The raw walks (--stats, --trace) read length words as LLVM's bitstream reader does,
    // not at all; the typed dump holds them to the blocks, as LLVM's IR reader needs them.
    let beyond = "block of 352 words would end at bit 11584, past the end of the input (6912 bits) (at bit 288, top level)";
    let truncated =
        "input ends inside a field: 6 bits needed, 1 left (at bit 6911, record 6, block path 8/22)";
    let not_words = "a bitstream must be whole 32-bit words, as LLVM reads it; this one has 866 bytes (at bit 6912, top level)";
    let ones = "VBR6 field goes on past bit 64 of its value (at bit 6392, record 6, block path 8/22)";
    let cases = [
        (&cut, &["--stats"][..], truncated),
        (&cut, &["--trace"], truncated),
        (&cut, &[], beyond),
        (&partial, &["--stats"], not_words),
        (&partial, &["--trace"], not_words),
        (&partial, &[], not_words),
        (&ones_file, &["--stats"], ones),
        (&ones_file, &["--trace"], ones),
        (&ones_file, &[], ones),
    ];
    for (file, mode, message) in cases {
        let out = Command::new(bcdump()).args(mode).arg(file).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{mode:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end(), format!("bcdump: {}: error: {message}", file.display()), "{mode:?}");
    }
    let nope = dir.path().join("nope.bc");
    let missing = Command::new(bcdump()).arg(&nope).output().unwrap();
    assert_eq!(missing.status.code(), Some(2), "a file that cannot be read: 2");
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.starts_with(&format!("bcdump: {}: error: cannot read it: ", nope.display())), "{err}");
}
