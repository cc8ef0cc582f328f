//! The LLVM IR schema over every bitcode file of ../shared/corpus (LLVM 13 to 22):
//! `bcdump --check` decodes every record typed, with no unknown record and no error, and
//! visits exactly the records of the file's trace; and for every .bc with its .ll beside
//! it, `bcdump --symbols` equals `../shared/oracle/ll-symbols FILE.ll`, line for line.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const TEST: &str = "llvm_corpus";

fn bitcode_files(shared: &Path) -> Vec<PathBuf> {
    let mut files = bitstream_files(&shared.join("corpus"));
    files.retain(|f| f.extension().is_some_and(|e| e == "bc"));
    files
}

/// The .ll beside `bc` (plain or xz-compressed), as text.
fn companion_ll(bc: &Path) -> Option<String> {
    let plain = bc.with_extension("ll");
    if plain.is_file() {
        return std::fs::read_to_string(plain).ok();
    }
    let xz = bc.with_extension("ll.xz");
    if xz.is_file() {
        return run(Command::new("xz").arg("-dc").arg(&xz))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned());
    }
    None
}

#[test]
fn every_record_of_every_corpus_file_decodes_typed() {
    let Some(shared) = require_shared(TEST) else { return };
    let files = bitcode_files(&shared);
    assert!(files.len() > 100, "expected the corpus, found {} .bc files", files.len());
    let results = parallel_map(&files, |f| -> Result<CheckCounts, String> {
        let name = f.display();
        let out = Command::new(bcdump()).arg("--check").arg(f).output().map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stdout);
        let counts = parse_check(text.trim())
            .ok_or_else(|| format!("{name}: no counts ({})", String::from_utf8_lossy(&out.stderr).trim()))?;
        if counts.unknown != 0 || counts.errors != 0 || !out.status.success() {
            let errors = String::from_utf8_lossy(&out.stderr);
            return Err(format!(
                "{name}: {} {}",
                text.trim(),
                errors.lines().take(3).collect::<Vec<_>>().join(" | ")
            ));
        }
        // the trace lists every record once
        let trace = run(Command::new(bcdump()).arg("--trace").arg(f))?;
        let traced = trace.split(|&b| b == b'\n').filter(|l| l.starts_with(b"{\"record\"")).count() as u64;
        if traced != counts.records || counts.typed != counts.records {
            return Err(format!("{name}: {} records in the trace, check says {}", traced, text.trim()));
        }
        Ok(counts)
    });
    let mut failures = Vec::new();
    let (mut records, mut warnings) = (0, 0);
    for r in results {
        match r {
            Ok(c) => {
                records += c.records;
                warnings += c.warnings;
            }
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{} files, {records} records decoded typed, {warnings} warnings", files.len());
    assert!(failures.is_empty(), "{} files fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn symbols_equal_the_ll_symbols_of_the_same_compilation() {
    let Some(shared) = require_shared(TEST) else { return };
    let oracle = shared.join("oracle/ll-symbols");
    let pairs: Vec<(PathBuf, String)> =
        bitcode_files(&shared).into_iter().filter_map(|bc| companion_ll(&bc).map(|ll| (bc, ll))).collect();
    assert!(pairs.len() > 100, "expected the corpus's .bc/.ll pairs, found {}", pairs.len());
    let scratch = tempfile::tempdir().unwrap();
    let indexed: Vec<(usize, &(PathBuf, String))> = pairs.iter().enumerate().collect();
    let results = parallel_map(&indexed, |(i, (bc, ll))| -> Result<usize, String> {
        let ll_path = scratch.path().join(format!("{i}.ll"));
        std::fs::write(&ll_path, ll).map_err(|e| e.to_string())?;
        let theirs = run(Command::new(&oracle).arg(&ll_path))?;
        let ours = run(Command::new(bcdump()).arg("--symbols").arg(bc))?;
        let (theirs, ours) = (String::from_utf8_lossy(&theirs), String::from_utf8_lossy(&ours));
        compare_lines(&theirs, &ours).map_err(|e| format!("{}: {e}", bc.display()))?;
        Ok(theirs.lines().count())
    });
    let mut failures = Vec::new();
    let mut symbols = 0;
    for r in results {
        match r {
            Ok(n) => symbols += n,
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{} .bc/.ll pairs, {symbols} global values agree", pairs.len());
    assert!(failures.is_empty(), "{} files differ:\n{}", failures.len(), failures.join("\n"));
}

/// `--symbols` reads only the module's records: function bodies are skipped by their
/// length, never walked. With every function body overwritten by garbage (lengths kept),
/// the symbols are unchanged while a full typed walk fails.
#[test]
fn symbols_never_walk_function_bodies() {
    let Some(shared) = require_shared(TEST) else { return };
    let bytes = std::fs::read(shared.join("corpus/clang16__switchphi__O2.bc")).unwrap();
    let stream = bitcode::Bitstream::new(&bytes).unwrap();
    let expected = bitcode::llvm::module_symbols(&stream).unwrap();
    // Find every function body's content (after its length word, before its END_BLOCK).
    let mut bodies = Vec::new();
    let mut cursor = stream.cursor();
    while let Some(entry) = cursor.next_entry().unwrap() {
        if let bitcode::Entry::Block(h) = entry {
            if h.id == 12 {
                let start = (cursor.position() / 8) as usize;
                bodies.push(start..start + h.words as usize * 4 - 4);
                cursor.skip_block().unwrap();
            }
        }
    }
    assert!(!bodies.is_empty());
    let mut garbled = bytes.clone();
    for body in &bodies {
        garbled[body.clone()].fill(0xff);
    }
    let stream = bitcode::Bitstream::new(&garbled).unwrap();
    assert_eq!(bitcode::llvm::module_symbols(&stream).unwrap(), expected);
    assert!(bitcode::llvm::check_stream(&stream).is_err(), "the garbage is really there");
}
