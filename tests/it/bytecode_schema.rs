//! The schema of LLVM 1.x bytecode (schema/llvm_bytecode.toml) on every module of
//! ../shared/corpus-bytecode and every `llvc` copy: every block decodes typed, with no
//! block the schema does not know and no error.

use bitcode_schema::bytecode::reader;

use crate::common::*;

const TEST: &str = "bytecode_schema";

/// Every module and `llvc` copy decodes: all its blocks, typed, without error.
pub fn every_module_decodes_typed() {
    let Some(shared) = require_shared(TEST) else { return };
    let root = shared.join("corpus-bytecode");
    let mut files = Vec::new();
    for release in std::fs::read_dir(&root).unwrap().flatten() {
        let dir = release.path();
        if !dir.is_dir() || dir.file_name().is_some_and(|n| n == "history") {
            continue;
        }
        for sub in [dir.clone(), dir.join("compressed-llvc")] {
            for e in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
                if e.path().extension().is_some_and(|x| x == "bc") {
                    files.push(e.path());
                }
            }
        }
    }
    files.sort();
    let (mut blocks, mut failures) = (0, Vec::new());
    let mut by_revision = std::collections::BTreeMap::<u32, (usize, usize)>::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        match reader::check(&bytes) {
            Ok(report) if report.unknown_blocks == 0 => {
                blocks += report.blocks;
                by_revision.entry(report.revision).or_default().0 += 1;
            }
            Ok(report) => {
                failures.push(format!("{}: {} unknown blocks", path.display(), report.unknown_blocks))
            }
            Err(e) => {
                let rev = bitcode_schema::runtime::bytecode::Bytecode::parse(&bytes)
                    .and_then(|b| b.header())
                    .map_or(99, |h| h.version.revision);
                by_revision.entry(rev).or_default().1 += 1;
                failures.push(format!("{}: {e}", path.display()))
            }
        }
    }
    println!(
        "{TEST}: {} files, {blocks} blocks decoded typed; by revision (ok, failed): {by_revision:?}",
        files.len()
    );
    for f in failures.iter().take(40) {
        println!("  {f}");
    }
    assert!(files.len() > 8000, "{} files", files.len());
    assert!(failures.is_empty(), "{} of {} files fail", failures.len(), files.len());
}
