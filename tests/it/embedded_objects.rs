//! Bitcode embedded in native objects (tests/data/embedded, made by make-fixtures.sh with
//! clang-14): COFF and Mach-O `-fembed-bitcode` objects, universal Mach-O binaries of
//! objects and of bitcode files, and an ELF object with a `.llvm.lto` section. The bytes
//! found equal what LLVM's own tools extract, and their traces equal llvm-bcanalyzer's.
// Embedded bitcode is read behind the `object` feature.
#![cfg(feature = "object")]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bitcode_schema::{ErrorKind, Input};
use common::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/embedded").join(name)
}

/// How LLVM's own tools get a section's bytes out of a fixture.
#[derive(Clone, Copy)]
enum Extract {
    /// `llvm-objcopy --dump-section NAME=OUT` (ELF, Mach-O).
    Objcopy(&'static str),
    /// The hex dump of `llvm-objdump -s -j NAME` (COFF, where llvm-objcopy 14 cannot dump).
    Objdump(&'static str),
    /// `llvm-lipo -thin ARCH`, then the member's `__LLVM,__bitcode` by llvm-objcopy.
    LipoObject(&'static str),
    /// `llvm-lipo -thin ARCH` of a universal file whose members are bitcode files.
    LipoBitcode(&'static str),
}

/// Each fixture with the sections found in it, in order, and how LLVM's tools extract them.
const EXPECTATIONS: &[(&str, &[(&str, Extract)])] = &[
    ("hello.coff.obj", &[(".llvmbc", Extract::Objdump(".llvmbc"))]),
    ("hello.x86_64.macho.o", &[("__LLVM,__bitcode", Extract::Objcopy("__LLVM,__bitcode"))]),
    ("hello.fatlto.elf.o", &[(".llvm.lto", Extract::Objcopy(".llvm.lto"))]),
    (
        "hello.universal.macho.o",
        &[
            ("member 0: __LLVM,__bitcode", Extract::LipoObject("x86_64")),
            ("member 1: __LLVM,__bitcode", Extract::LipoObject("arm64")),
        ],
    ),
    (
        "hello.universal.bitcode",
        &[("member 0", Extract::LipoBitcode("x86_64")), ("member 1", Extract::LipoBitcode("arm64"))],
    ),
];

fn objcopy_section(object: &Path, section: &str, scratch: &Path, tag: &str) -> Vec<u8> {
    let out = scratch.join(format!("{tag}.section"));
    let dump = format!("{section}={}", out.display());
    let copy = scratch.join(format!("{tag}.copy"));
    run(Command::new("llvm-objcopy-14").arg("--dump-section").arg(dump).arg(object).arg(copy))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::read(out).expect("dumped section")
}

/// Parses `llvm-objdump -s -j SECTION`: after "Contents of section SECTION:", lines of an
/// offset, up to four groups of eight hex digits in a 35-column field, and the ASCII.
fn objdump_section(object: &Path, section: &str) -> Vec<u8> {
    let text = run(Command::new("llvm-objdump-14").args(["-s", "-j", section]).arg(object))
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8(text).expect("objdump prints text");
    let header = format!("Contents of section {section}:");
    let mut lines = text.lines().skip_while(|l| l.trim() != header).skip(1);
    let mut bytes = Vec::new();
    for line in lines.by_ref().take_while(|l| l.starts_with(' ')) {
        let (_, rest) = line.trim_start().split_once(' ').expect("offset then hex");
        let hex: String = rest.chars().take(35).filter(|c| !c.is_whitespace()).collect();
        for pair in hex.as_bytes().chunks(2) {
            bytes.push(u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).expect("hex digits"));
        }
    }
    bytes
}

fn lipo_thin(universal: &Path, arch: &str, scratch: &Path, tag: &str) -> PathBuf {
    let out = scratch.join(format!("{tag}.thin"));
    run(Command::new("llvm-lipo-14").arg(universal).args(["-thin", arch, "-output"]).arg(&out))
        .unwrap_or_else(|e| panic!("{e}"));
    out
}

fn extract(file: &Path, how: Extract, scratch: &Path, tag: &str) -> Vec<u8> {
    match how {
        Extract::Objcopy(section) => objcopy_section(file, section, scratch, tag),
        Extract::Objdump(section) => objdump_section(file, section),
        Extract::LipoObject(arch) => {
            let thin = lipo_thin(file, arch, scratch, tag);
            objcopy_section(&thin, "__LLVM,__bitcode", scratch, tag)
        }
        Extract::LipoBitcode(arch) => {
            std::fs::read(lipo_thin(file, arch, scratch, tag)).expect("thin member")
        }
    }
}

/// The sections found, their bytes, and that every stream in them reads to the end.
pub fn objects_of_every_format_yield_their_bitcode_sections() {
    for (file, sections) in EXPECTATIONS {
        let bytes = std::fs::read(fixture(file)).unwrap();
        let input = Input::parse(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(input.is_native_object(), "{file}");
        let streams = input.streams().unwrap();
        assert_eq!(streams.len(), sections.len(), "{file}");
        for stream in &streams {
            assert_eq!(stream.magic(), bitcode_schema::Magic::LlvmIr, "{file}");
            let mut cursor = stream.cursor();
            let mut records = 0;
            while let Some(entry) = cursor.next_entry().unwrap_or_else(|e| panic!("{file}: {e}")) {
                records += matches!(entry, bitcode_schema::Entry::Record(_)) as usize;
            }
            assert!(records > 50, "{file}: only {records} records");
        }
    }
}

/// The bytes we find are the bytes llvm-objcopy / llvm-lipo extract, and bcdump's trace of
/// the object equals llvm-bcanalyzer's trace of the extracted section.
pub fn sections_match_llvm_tools_and_traces_match_the_analyzer() {
    const TEST: &str = "embedded_objects";
    let Some(shared) = require_shared(TEST) else { return };
    for tool in ["llvm-objcopy-14", "llvm-lipo-14", "llvm-bcanalyzer"] {
        if require_tool(TEST, tool).is_none() {
            return;
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    for (file, sections) in EXPECTATIONS {
        let bytes = std::fs::read(fixture(file)).unwrap();
        let found = bitcode_schema::runtime::embedded::embedded_bitcode(&bytes).unwrap();
        let names: Vec<&str> = found.iter().map(|s| s.section.as_str()).collect();
        let expected_names: Vec<&str> = sections.iter().map(|s| s.0).collect();
        assert_eq!(names, expected_names, "{file}");
        let mut oracle_trace = Vec::new();
        for (i, ((_, how), section)) in sections.iter().zip(&found).enumerate() {
            let tag = format!("{file}.{i}");
            let theirs = extract(&fixture(file), *how, scratch.path(), &tag);
            assert!(theirs == *section.data, "{file}: section {i} differs from what LLVM's tools extract");
            let section_file = scratch.path().join(format!("{tag}.bc"));
            std::fs::write(&section_file, &theirs).unwrap();
            let trace = run(Command::new(shared.join("oracle/bcanalyzer-jsonl")).arg(&section_file))
                .unwrap_or_else(|e| panic!("{e}"));
            oracle_trace.extend_from_slice(&trace);
        }
        let ours =
            run(Command::new(bcdump()).arg("--trace").arg(fixture(file))).unwrap_or_else(|e| panic!("{e}"));
        let (expected, actual) = (scratch.path().join("expected"), scratch.path().join("actual"));
        std::fs::write(&expected, &oracle_trace).unwrap();
        std::fs::write(&actual, &ours).unwrap();
        run(Command::new(shared.join("oracle/compare-trace")).arg(&expected).arg(&actual))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
}

/// Errors inside an embedded section give absolute offsets in the object file.
pub fn errors_in_sections_point_into_the_object_file() {
    let mut bytes = std::fs::read(fixture("hello.coff.obj")).unwrap();
    let offset = {
        let input = Input::parse(&bytes).unwrap();
        input.streams().unwrap()[0].file_offset() as usize
    };
    // The first block's length word sits at bytes 8..12 of the stream (magic, then the
    // ENTER_SUBBLOCK fields aligned to 32 bits); claim far more words than there are.
    bytes[offset + 8..offset + 12].copy_from_slice(&0x00ff_ffffu32.to_le_bytes());
    let input = Input::parse(&bytes).unwrap();
    let stream = input.streams().unwrap()[0];
    let mut cursor = stream.cursor();
    cursor.check_block_lengths(true);
    let err = cursor.next_entry().map(|_| ()).expect_err("the corrupted length was accepted");
    assert!(matches!(err.kind(), ErrorKind::BlockBeyondInput { .. }), "{err}");
    assert_eq!(err.bit_offset(), (offset as u64 + 8) * 8);
}

/// An object without a bitcode section is an error that says so.
pub fn objects_without_bitcode_are_an_error() {
    let bytes = std::fs::read(fixture("hello.fatlto.elf.o")).unwrap();
    // Rename the section so that nothing is found.
    let pos = bytes.windows(9).position(|w| w == b".llvm.lto").expect("section name in the string table");
    let mut renamed = bytes.clone();
    renamed[pos + 1] = b'X';
    let err = Input::parse(&renamed).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Object(msg) if msg.contains("no .llvmbc")), "{err}");
}
