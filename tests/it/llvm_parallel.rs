//! Parallel decoding gives what sequential decoding gives: for every .bc of the corpora
//! (LLVM 3.2 to 22), `check_stream_parallel` reports exactly what `check_stream` reports
//! (counts, warnings, first errors in order), and on damaged copies of some of them a
//! failing walk fails with the same error; `bcdump FILE` (function bodies and other blocks
//! dumped on several threads) prints byte for byte what `bcdump --jobs 1 FILE` prints.

use crate::common;

use std::process::Command;

use bitcode_schema::llvm::{check_stream, check_stream_parallel, LlvmContext, Walker, WalkerEvent};
use bitcode_schema::Input;
use bitcode_schema::Record;
use common::*;

const TEST: &str = "llvm_parallel";

pub fn parallel_check_equals_sequential_check_on_every_corpus_file() {
    let Some(shared) = require_shared(TEST) else { return };
    let files = corpus_bc_files(&shared);
    assert!(files.len() > 300, "expected both corpora, found {} .bc files", files.len());
    let mut compared = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let Ok(input) = Input::parse(&bytes) else { continue };
        let Ok(streams) = input.streams() else { continue };
        for stream in &streams {
            let sequential = check_stream(stream).map_err(|e| e.to_string());
            let parallel = check_stream_parallel(stream).map_err(|e| e.to_string());
            assert_eq!(parallel, sequential, "{}", file.display());
            compared += 1;
        }
    }
    assert!(compared >= files.len(), "{compared} streams compared for {} files", files.len());
}

/// Truncations and flipped bits of a few files: the same report or the same error.
pub fn parallel_check_fails_like_sequential_check_on_damaged_files() {
    let Some(shared) = require_shared(TEST) else { return };
    let names = ["corpus/clang14__sqlite3__O2.bc", "corpus/rustc195__cargo_regex_automata_release_O3.bc"];
    let mut differ = Vec::new();
    let mut failed = 0;
    for name in names {
        let original = std::fs::read(shared.join(name)).unwrap();
        let mut mutants: Vec<Vec<u8>> = Vec::new();
        for i in 1..16u64 {
            let len = original.len() as u64;
            mutants.push(original[..(len * i / 16) as usize].to_vec());
            let mut flipped = original.clone();
            let bit = (i * 7_919_993 + 12_345) % (len * 8);
            flipped[(bit / 8) as usize] ^= 1 << (bit % 8);
            mutants.push(flipped);
        }
        for (i, bytes) in mutants.iter().enumerate() {
            let Ok(input) = Input::parse(bytes) else { continue };
            let Ok(streams) = input.streams() else { continue };
            for stream in &streams {
                let sequential = check_stream(stream).map_err(|e| e.to_string());
                let parallel = check_stream_parallel(stream).map_err(|e| e.to_string());
                failed += usize::from(sequential.is_err());
                if parallel != sequential {
                    differ.push(format!("{name} mutant {i}: {parallel:?} vs {sequential:?}"));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(failed > 10, "only {failed} mutants failed to decode");
}

/// The typed dump on several threads equals the dump on one, output, errors and exit
/// status; for every .bc of both corpora, for damaged copies of a large one and for the
/// modules in tests/data/fuzz-regressions/llvm_module.
pub fn parallel_typed_dump_equals_sequential_dump() {
    let Some(shared) = require_shared(TEST) else { return };
    let mut files = corpus_bc_files(&shared);
    // Modules fuzzing found, e.g. one with a BLOCKINFO block inside a function body.
    let regressions =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions/llvm_module");
    files.extend(std::fs::read_dir(regressions).unwrap().map(|e| e.unwrap().path()));
    let scratch = tempfile::tempdir().unwrap();
    let original = std::fs::read(shared.join("corpus/clang14__sqlite3__O2.bc")).unwrap();
    for i in 1..6 {
        let cut = scratch.path().join(format!("cut{i}.bc"));
        std::fs::write(&cut, &original[..original.len() * i / 6]).unwrap();
        files.push(cut);
        let mut flipped = original.clone();
        flipped[original.len() * i / 6 + 3] ^= 0x10;
        let flip = scratch.path().join(format!("flip{i}.bc"));
        std::fs::write(&flip, flipped).unwrap();
        files.push(flip);
    }
    let differ: Vec<String> = parallel_map(&files, |file| {
        let dump = |jobs: &str| Command::new(bcdump()).args(["--jobs", jobs]).arg(file).output().unwrap();
        let (one, two) = (dump("1"), dump("2"));
        let same =
            one.stdout == two.stdout && one.stderr == two.stderr && one.status.code() == two.status.code();
        (!same).then(|| {
            format!(
                "{}: {} vs {} bytes, exit {:?} vs {:?}, {} vs {}",
                file.display(),
                one.stdout.len(),
                two.stdout.len(),
                one.status.code(),
                two.status.code(),
                String::from_utf8_lossy(&one.stderr).trim(),
                String::from_utf8_lossy(&two.stderr).trim()
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// What a walk gave for one record: where it is, its block and code, and the context it
/// was given (value number, version, relative ids, call parameters).
type Seen = (u64, u32, u32, u32, u64, bool, Option<u32>);

/// What a walk gives for a record of `block`.
fn seen(block: u32, record: &Record<'_, '_>, c: &LlvmContext) -> Seen {
    (record.bit_offset, block, record.code, c.value_number, c.version, c.absolute_ids, c.call_params)
}

/// Every record of a walker, with its context; `Err` with the error's text when it fails.
fn records_of(mut walker: Walker<'_>, out: &mut Vec<Seen>) -> Result<(), String> {
    while let Some(event) = walker.next_event().map_err(|e| e.to_string())? {
        if let WalkerEvent::Record { block, record, ctx } = event {
            out.push(seen(block, &record, ctx));
        }
    }
    Ok(())
}

/// Parts that hold runs of blocks, of any length (one block, a few, the whole module):
/// the walk that hands them out and its parts give every record once, with the context
/// one walk gives it; a run's later blocks name the part of its first.
pub fn runs_of_deferred_blocks_give_every_record_once_with_its_context() {
    let Some(shared) = require_shared(TEST) else { return };
    let files = corpus_bc_files(&shared);
    let (mut streams, mut joined) = (0, 0u64);
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let Ok(input) = Input::parse(&bytes) else { continue };
        let Ok(input_streams) = input.streams() else { continue };
        for stream in &input_streams {
            let mut one_walk = Vec::new();
            let Ok(()) = records_of(Walker::new(stream), &mut one_walk) else { continue };
            for run_words in [0, 1, 300, 4096, u64::MAX] {
                let mut walker = Walker::deferring_runs(stream, run_words);
                let (mut given, mut parts, mut last_part) = (Vec::new(), Vec::new(), None);
                while let Some(event) = walker.next_event().unwrap() {
                    match event {
                        WalkerEvent::Record { block, record, ctx } => given.push(seen(block, &record, ctx)),
                        WalkerEvent::Deferred { part, .. } => {
                            if last_part == Some(part) {
                                joined += 1;
                            } else {
                                assert_eq!(part, last_part.map_or(0, |p| p + 1), "{}", file.display());
                            }
                            last_part = Some(part);
                            parts.extend(walker.take_parts().unwrap());
                        }
                        _ => {}
                    }
                }
                if run_words == 0 {
                    assert_eq!(parts.len(), last_part.map_or(0, |p| p + 1));
                }
                for part in parts {
                    records_of(part, &mut given).unwrap();
                }
                given.sort_by_key(|s| s.0);
                assert_eq!(given, one_walk, "{} with runs of {run_words} words", file.display());
            }
            streams += 1;
        }
    }
    // All but the two modules LLVM rejects (corpus-old's invalid fixtures).
    assert!(streams + 2 >= files.len(), "{streams} streams for {} files", files.len());
    assert!(joined > 1000, "only {joined} blocks joined a run");
}
