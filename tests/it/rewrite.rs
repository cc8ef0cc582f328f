//! The lossless round trip (`bitcode_schema::rewrite`) on every bitstream file of both
//! corpora: each record decoded into its typed value, encoded back, written with the
//! abbreviation the original used; the whole file must come back byte for byte, and no LLVM
//! IR, diagnostics or remarks record may need its raw operands.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::*;

const TEST: &str = "rewrite";

/// Files LLVM's own reader refuses (the corpus keeps them on purpose); the walk stops there.
const UNREADABLE: &[&str] = &["llvmtest__null-type.bc", "llvmtest__invalid-type-for-null-constant.bc"];

/// What one file's rewrite gave.
struct Outcome {
    identical: bool,
    stats: bitcode_schema::rewrite::RewriteStats,
}

fn rewrite_file(path: &PathBuf) -> Result<Outcome, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let rewritten = bitcode_schema::rewrite::rewrite(&bytes).map_err(|e| e.to_string())?;
    Ok(Outcome { identical: rewritten.bytes == bytes, stats: rewritten.stats })
}

/// Every corpus and corpus-old file rewrites byte-identical; IR, diagnostics and remarks
/// records are all written from their typed values.
pub fn every_corpus_file_rewrites_byte_identical_from_typed_records() {
    let Some(shared) = require_shared(TEST) else { return };
    let files: Vec<PathBuf> = corpus_dirs(&shared).iter().flat_map(|d| bitstream_files(d)).collect();
    assert!(files.len() > 400, "expected both corpora, found {} files", files.len());
    let results = parallel_map(&files, rewrite_file);
    let mut failures = Vec::new();
    let (mut identical, mut records, mut typed, mut blockinfo) = (0, 0, 0, 0);
    let mut raw: BTreeMap<String, u64> = BTreeMap::new();
    for (path, result) in files.iter().zip(results) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        match result {
            Ok(outcome) => {
                records += outcome.stats.records;
                typed += outcome.stats.typed;
                blockinfo += outcome.stats.blockinfo;
                for (why, n) in &outcome.stats.raw {
                    *raw.entry(why.clone()).or_default() += n;
                }
                if outcome.identical {
                    identical += 1;
                } else {
                    failures.push(format!("{}: not byte-identical", path.display()));
                }
                // Only formats without a schema (clang's AST files) may have raw records.
                let schema_less = name.ends_with(".pch") || name.ends_with(".pcm");
                if !schema_less && outcome.stats.raw_count() > 0 {
                    failures.push(format!("{}: raw records {:?}", path.display(), outcome.stats.raw));
                }
            }
            Err(e) if UNREADABLE.contains(&name) => eprintln!("{name}: unreadable, as LLVM finds it: {e}"),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    eprintln!(
        "{identical} of {} files byte-identical; {records} records: {typed} typed, {blockinfo} BLOCKINFO, {} raw",
        files.len(),
        raw.values().sum::<u64>()
    );
    for (why, n) in &raw {
        eprintln!("  raw {n:>8}  {why}");
    }
    assert!(failures.is_empty(), "{} files fail:\n{}", failures.len(), failures.join("\n"));
    assert!(typed > 1_000_000, "only {typed} typed records");
}

/// What a rewrite gave, comparable: the bytes and counts, or the error's message.
fn outcome(
    result: bitcode_schema::Result<bitcode_schema::rewrite::Rewritten>,
) -> Result<(Vec<u8>, String), String> {
    result.map(|r| (r.bytes, r.stats.summary())).map_err(|e| e.to_string())
}

/// `rewrite_parallel` (blocks that can be read apart rewritten on rayon's pool) gives every
/// corpus and corpus-old file back as `rewrite` does: the same bytes, counts and errors.
pub fn parallel_rewrite_equals_one_walk_on_every_corpus_file() {
    let Some(shared) = require_shared(TEST) else { return };
    let files: Vec<PathBuf> = corpus_dirs(&shared).iter().flat_map(|d| bitstream_files(d)).collect();
    assert!(files.len() > 400, "expected both corpora, found {} files", files.len());
    let mut differ = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let sequential = outcome(bitcode_schema::rewrite::rewrite(&bytes));
        let parallel = outcome(bitcode_schema::rewrite::rewrite_parallel(&bytes));
        if parallel != sequential {
            differ.push(format!(
                "{}: {:?} vs {:?}",
                path.display(),
                parallel.map(|p| p.1),
                sequential.map(|s| s.1)
            ));
        }
    }
    assert!(differ.is_empty(), "{} files differ:\n{}", differ.len(), differ.join("\n"));
}

/// Truncations and flipped bits of two large modules: the parallel rewrite writes what one
/// walk writes, or fails with its error.
pub fn parallel_rewrite_fails_like_one_walk_on_damaged_files() {
    let Some(shared) = require_shared(TEST) else { return };
    let names = ["corpus/clang14__sqlite3__O2.bc", "corpus/rustc195__cargo_regex_automata_release_O3.bc"];
    let (mut differ, mut failed, mut written) = (Vec::new(), 0, 0);
    for name in names {
        let original = std::fs::read(shared.join(name)).unwrap();
        let len = original.len() as u64;
        for i in 1..16u64 {
            let mut flipped = original.clone();
            let bit = (i * 7_919_993 + 12_345) % (len * 8);
            flipped[(bit / 8) as usize] ^= 1 << (bit % 8);
            for bytes in [original[..(len * i / 16) as usize].to_vec(), flipped] {
                let sequential = outcome(bitcode_schema::rewrite::rewrite(&bytes));
                let parallel = outcome(bitcode_schema::rewrite::rewrite_parallel(&bytes));
                failed += usize::from(sequential.is_err());
                written += usize::from(sequential.is_ok());
                if parallel != sequential {
                    let (p, s) = (parallel.map(|p| p.1), sequential.map(|s| s.1));
                    differ.push(format!("{name} mutant {i}: {p:?} vs {s:?}"));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(
        failed > 10 && written > 5,
        "{failed} mutants failed and {written} were written: too few of either"
    );
}
