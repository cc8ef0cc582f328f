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

/// A revision 5 module (no target dependence) holding `blocks`, each `(id, body)`.
fn module(blocks: &[(u32, &[u8])]) -> Vec<u8> {
    let mut body = vec![0x5c];
    for (id, b) in blocks {
        body.extend(((b.len() as u32) << 5 | id).to_le_bytes());
        body.extend(*b);
    }
    let mut m = b"llvm\x01\0\0\0".to_vec();
    m.extend((body.len() as u32).to_le_bytes());
    m.extend(body);
    m
}

/// `module` with `tail` appended to the module block (its size grown to hold it).
fn with_tail(mut m: Vec<u8>, tail: &[u8]) -> Vec<u8> {
    m.extend(tail);
    let size = (m.len() - 12) as u32;
    m[8..12].copy_from_slice(&size.to_le_bytes());
    m
}

/// Hostile modules: counts and lengths the input cannot hold, cut fields, nesting. Each
/// fails with the block and field at its byte offset and block path (or reads, where LLVM
/// reads it too), without reserving what the input does not hold.
pub fn hostile_modules_fail_cleanly() {
    let global_info: &[u8] = &[0, 0, 0, 0];
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a type count of 2^32 - 1",
            module(&[(6, &[0xff, 0xff, 0xff, 0xff, 0x0f])]),
            "TYPE_POOL: field types: 4294967295 entries cannot fit in the 0 bytes left (at byte 22, block path 1/6)",
        ),
        (
            "a triple longer than its block",
            module(&[(6, &[0]), (5, &[0, 0, 0, 0xff, 0xff, 0x03, b'x'])]),
            "input ends inside a field: 65535 bytes needed, 1 left (at byte 28, block path 1/5)",
        ),
        (
            "a constant plane claiming more entries than bytes",
            module(&[(6, &[0]), (5, global_info), (3, &[0x80, 0x80, 0x04, 7])]),
            "CONSTANT_POOL: field entries: 65536 entries cannot fit in the 0 bytes left (at byte 34, block path 1/3)",
        ),
        (
            "an instruction word cut short",
            module(&[(6, &[0]), (5, global_info), (2, &[0, 0x67, 0, 0, 0, 0x01, 0x02, 0x03])]),
            "input ends inside a field: 4 bytes needed, 3 left (at byte 35, block path 1/2/7)",
        ),
        (
            "a block claiming more than the module holds",
            with_tail(module(&[(6, &[0]), (5, global_info)]), &[0xe3, 0xff, 0xff, 0xff]),
            "block 3 claims 134217727 bytes, but 0 follow (at byte 26, block path 1)",
        ),
        (
            "an unknown constant plane type",
            module(&[(6, &[0]), (5, global_info), (3, &[1, 40, 0, 5])]),
            "CONSTANT_POOL: field value: the reader cannot answer `@plain_kind` here (at byte 33, block path 1/3)",
        ),
    ];
    for (what, bytes, expected) in &cases {
        let e = reader::check(bytes).expect_err(what);
        assert!(e.to_string().contains(expected), "{what}: {e}");
    }
    // A function block inside a function block is not read as one (LLVM skips it), so
    // nesting cannot grow with the input.
    let mut nested: Vec<u8> = vec![0];
    for _ in 0..10_000 {
        let mut outer = vec![0];
        outer.extend(((nested.len() as u32) << 5 | 2).to_le_bytes());
        outer.extend(&nested);
        nested = outer;
    }
    let bytes = module(&[(6, &[0]), (5, global_info), (2, &nested)]);
    let report = reader::check(&bytes).unwrap();
    // The module, its types and globals, the function and the block inside it, decoded but
    // not walked into.
    assert_eq!(report.blocks, 5);
}
