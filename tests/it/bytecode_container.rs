//! The container of LLVM 1.x bytecode (`bitcode_schema::runtime::bytecode`) on every module
//! of ../shared/corpus-bytecode: the revision, target flags and module block size are
//! those its MANIFEST.tsv records, the blocks inside the module block (two-word headers up
//! to revision 2, packed ones after; padding up to revision 3) fill it exactly, and so are those of every `llvc` copy (stored or bzip2);
//! the history files that are intact read, and the damaged ones read or fail with a clear
//! error.

use std::collections::HashMap;
use std::path::Path;

use bitcode_schema::runtime::bytecode::{Bytecode, Version};

use crate::common::*;

const TEST: &str = "bytecode_container";

/// The rows of a MANIFEST.tsv (or PROVENANCE.tsv), by their first column, as column name
/// to value.
fn rows(path: &Path) -> HashMap<String, HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let names: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    lines
        .map(|line| {
            let row: HashMap<String, String> =
                names.iter().zip(line.split('\t')).map(|(n, v)| (n.to_string(), v.to_string())).collect();
            (row.get(names[0]).cloned().unwrap_or_default(), row)
        })
        .collect()
}

/// The flags as the manifest spells them (`BE=0,LP=0,NoEnd=1,NoPtr=1`; revision 7 has
/// none).
fn flags(v: &Version) -> String {
    if v.revision == 7 {
        return "none(plain vbr)".into();
    }
    let bit = |b: bool| u8::from(b);
    format!(
        "BE={},LP={},NoEnd={},NoPtr={}",
        bit(v.big_endian),
        bit(v.long_pointers),
        bit(v.no_endianness),
        bit(v.no_pointer_size)
    )
}

/// The header of the module in `path`, checked against its manifest row: the magic, the
/// revision, the flags and the module block's size; the blocks inside the module block
/// read to its end. Gives the module's bytes.
fn check_module(path: &Path, row: &HashMap<String, String>, magic_column: &str) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let bytecode = Bytecode::parse(&bytes).map_err(|e| e.to_string())?;
    let header = bytecode.header().map_err(|e| e.to_string())?;
    // The blocks inside the module block fill it exactly, with the revision's headers and
    // padding.
    let blocks = bytecode.module_blocks().map_err(|e| e.to_string())?;
    if blocks.is_empty() {
        return Err("no block inside the module block".into());
    }
    let found = [
        bytecode.compression().magic().to_string(),
        header.version.revision.to_string(),
        flags(&header.version),
        format!("long(id=1,size={})", header.size),
    ];
    let recorded =
        [magic_column, "format_rev", "version_flags", "module_block_header"].map(|c| row[c].clone());
    if found != recorded {
        return Err(format!("{found:?}, manifest {recorded:?}"));
    }
    Ok(bytecode.module().to_vec())
}

/// Every module of every release, and every `llvc` copy: the header its manifest records.
/// A copy was written by another run of llvm-as, which ordered some tables by heap
/// address: most copies hold their plain file's module byte for byte, the others the same
/// module in another order (their llvm-dis output is the same).
pub fn every_module_has_the_revision_flags_and_size_its_manifest_records() {
    let Some(shared) = require_shared(TEST) else { return };
    let root = shared.join("corpus-bytecode");
    let (mut modules, mut copies, mut bzip2, mut identical) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut releases: Vec<_> = std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).collect();
    releases.retain(|d| d.join("MANIFEST.tsv").is_file());
    releases.sort();
    assert!(releases.len() >= 7, "expected the seven releases in {}", root.display());
    for dir in &releases {
        let mut plain = HashMap::new();
        for (name, row) in rows(&dir.join("MANIFEST.tsv")) {
            let path = dir.join(&name);
            match check_module(&path, &row, "magic") {
                Ok(module) => {
                    modules += 1;
                    plain.insert(name, module);
                }
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
        let copies_dir = dir.join("compressed-llvc");
        if !copies_dir.is_dir() {
            continue;
        }
        for (name, row) in rows(&copies_dir.join("MANIFEST.tsv")) {
            let path = copies_dir.join(&name);
            match check_module(&path, &row, "first5") {
                Ok(module) => {
                    copies += 1;
                    bzip2 += usize::from(row["first5"] == "llvc2");
                    identical += usize::from(plain.get(&row["uncompressed_counterpart"]) == Some(&module));
                }
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    eprintln!(
        "{modules} modules of {} releases; {copies} llvc copies ({bzip2} bzip2), {identical} of them the plain module byte for byte",
        releases.len()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(
        modules > 4000 && copies > 3700 && bzip2 >= 3,
        "{modules} modules, {copies} copies, {bzip2} bzip2"
    );
    assert!(identical > copies / 2, "only {identical} of {copies} copies hold their plain module");
}

/// The files of LLVM's history: the intact ones read with the revision PROVENANCE.tsv
/// gives; the ones whose bzip2 stream the CVS-to-SVN conversion broke fail with a clear
/// error at the stream; the others read (a damaged byte of a string is still a byte).
pub fn history_files_read_or_fail_cleanly() {
    let Some(shared) = require_shared(TEST) else { return };
    let dir = shared.join("corpus-bytecode/history");
    let provenance = rows(&dir.join("PROVENANCE.tsv"));
    assert!(provenance.len() >= 10, "{} history files", provenance.len());
    let mut failures = Vec::new();
    for (name, row) in &provenance {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let status = row["status"].as_str();
        let result = Bytecode::parse(&bytes).and_then(|b| b.header().map(|h| (b.compression(), h)));
        let shown = match &result {
            Ok((compression, header)) => {
                format!("{}, revision {}", compression.magic(), header.version.revision)
            }
            Err(e) => e.to_string(),
        };
        eprintln!("{name} ({status}): {shown}");
        match result {
            Ok((_, header)) => {
                let recorded = row["format_rev"].trim_end_matches('?');
                if header.version.revision.to_string() != recorded {
                    failures
                        .push(format!("{name}: revision {}, recorded {recorded}", header.version.revision));
                }
                if status == "MANGLED-bzip2-broken" {
                    failures.push(format!("{name}: a broken bzip2 stream expanded"));
                }
            }
            Err(e) if status == "MANGLED-bzip2-broken" => {
                if !e.to_string().starts_with("bytecode: the bzip2 stream does not expand") {
                    failures.push(format!("{name}: {e}"));
                }
            }
            // The conversion lost a byte of this one: its module block claims one more.
            Err(e) if status.contains("1-byte-lost") => {
                if !e.to_string().contains("the module block claims") {
                    failures.push(format!("{name}: {e}"));
                }
            }
            Err(e) => failures.push(format!("{name} ({status}): {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
