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
