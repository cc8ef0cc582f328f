//! `bcdump --remarks` against LLVM's own YAML remarks. Each fixture of tests/data/remarks is
//! compiled twice, once with bitstream remarks and once with YAML remarks; the YAML that
//! bcdump prints from the bitstream equals the compiler's YAML file, byte for byte (so the
//! same remarks in the same order, each with the same type, pass, name, function, location,
//! hotness and arguments). Every container layout LLVM writes is covered:
//!
//! - clang 14, 16, 19 (container version 0) for a Darwin target: the object's
//!   `__LLVM,__remarks` section holds the string table and names the remarks file, which
//!   has none; bcdump reads the object, also after both files moved elsewhere;
//! - LLVM 22 (rustc's `opt` and `llc`, container version 1): opt writes one remarks file
//!   with its string table at the end; llc's Darwin object section only names that file;
//! - version 0 standalone files (string table first), from `llvm-remarkutil-19
//!   yaml2bitstream`, compared with `llvm-remarkutil-19 bitstream2yaml`.
//!
//! Hotness comes from a sample profile (loops.prof). YAML quoting is checked against LLVM on
//! strings written here for the purpose: numbers, bools, indicators, quotes, control
//! characters, non-ASCII text, paths long enough to wrap a location.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bitcode_schema::runtime::abbrev::{Abbrev, AbbrevOp};
use bitcode_schema::runtime::writer::StreamWriter;
use common::*;

const TEST: &str = "remarks";

/// The clangs before LLVM 22 that write remarks in separate files.
const CLANGS: &[u32] = &[14, 16, 19];
/// A target whose objects have a remarks section (ELF objects have none).
const DARWIN: &str = "x86_64-apple-macosx11";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/remarks")
}

/// The fixture sources, whether they are C++, and their extra flags.
fn sources() -> Vec<(&'static str, bool, Vec<String>)> {
    let profile = fixtures().join("loops.prof");
    vec![
        (
            "loops.c",
            false,
            vec![format!("-fprofile-sample-use={}", profile.display()), "-fdiagnostics-show-hotness".into()],
        ),
        ("templates.cpp", true, vec!["-nostdinc++".into()]),
    ]
}

/// bcdump's YAML for `file`.
fn remarks_yaml(file: &Path) -> Result<String, String> {
    let out = run(Command::new(bcdump()).arg("--remarks").arg(file))?;
    String::from_utf8(out).map_err(|e| format!("{}: {e}", file.display()))
}

/// bcdump's YAML for `ours` equals the YAML file `theirs`; returns the number of remarks.
fn same_remarks(ours: &Path, theirs: &Path) -> Result<usize, String> {
    let expected = std::fs::read_to_string(theirs).map_err(|e| format!("{}: {e}", theirs.display()))?;
    let actual = remarks_yaml(ours)?;
    compare_lines(&expected, &actual)
        .map_err(|e| format!("{} against {}: {e}", ours.display(), theirs.display()))?;
    let count = expected.lines().filter(|l| l.starts_with("--- !")).count();
    if count == 0 {
        return Err(format!("{}: no remarks to compare", theirs.display()));
    }
    Ok(count)
}

/// Compiles `source` for Darwin with bitstream remarks (object + remarks file) and with YAML
/// remarks; returns the object and the YAML file.
fn compile_clang(
    compiler: &str,
    source: &str,
    flags: &[String],
    dir: &Path,
) -> Result<(PathBuf, PathBuf), String> {
    let object = dir.join(format!("{source}.o"));
    let yaml = dir.join(format!("{source}.opt.yaml"));
    let base = |cmd: &mut Command| {
        cmd.args(["-target", DARWIN, "-O2", "-g", "-c"]).args(flags).arg(fixtures().join(source));
    };
    let mut bitstream = Command::new(compiler);
    base(&mut bitstream);
    bitstream
        .arg("-fsave-optimization-record=bitstream")
        .arg(format!("-foptimization-record-file={}", dir.join(format!("{source}.opt.bitstream")).display()))
        .arg("-o")
        .arg(&object);
    run(&mut bitstream)?;
    let mut text = Command::new(compiler);
    base(&mut text);
    text.arg("-fsave-optimization-record=yaml")
        .arg(format!("-foptimization-record-file={}", yaml.display()))
        .arg("-o")
        .arg(dir.join(format!("{source}.yaml.o")));
    run(&mut text)?;
    Ok((object, yaml))
}

pub fn clang_14_16_19_remarks_equal_their_yaml() {
    let scratch = tempfile::tempdir().unwrap();
    let mut jobs = Vec::new();
    for &v in CLANGS {
        for (source, cxx, flags) in sources() {
            let compiler = if cxx { format!("clang++-{v}") } else { format!("clang-{v}") };
            if require_tool(TEST, &compiler).is_none() {
                return;
            }
            let dir = scratch.path().join(format!("clang{v}"));
            std::fs::create_dir_all(&dir).unwrap();
            jobs.push((compiler, source, flags, dir));
        }
    }
    let results = parallel_map(&jobs, |(compiler, source, flags, dir)| {
        let (object, yaml) = compile_clang(compiler, source, flags, dir)?;
        let count = same_remarks(&object, &yaml)?;
        // The remarks file alone has no strings: a clear error that names what to pass.
        let separate = dir.join(format!("{source}.opt.bitstream"));
        match run(Command::new(bcdump()).arg("--remarks").arg(&separate)) {
            Ok(_) => return Err(format!("{}: printed remarks without a string table", separate.display())),
            Err(e) if e.contains("pass that object file") => {}
            Err(e) => return Err(format!("{}: unexpected error {e}", separate.display())),
        }
        Ok((format!("{compiler} {source}"), count, std::fs::read_to_string(&yaml).unwrap_or_default()))
    });
    let mut hotness = 0;
    for result in results {
        let (what, count, yaml) = result.unwrap();
        eprintln!("{what}: {count} remarks equal");
        hotness += yaml.lines().filter(|l| l.starts_with("Hotness:")).count();
    }
    assert!(hotness > 0, "the sample profile gave no remark a hotness");
}

/// The section names the remarks file by its absolute path; moved together, the object
/// still finds the file beside it.
pub fn moved_objects_find_their_remarks_file_beside_them() {
    let Some(compiler) = require_tool(TEST, "clang-16") else { return };
    let scratch = tempfile::tempdir().unwrap();
    let (built, moved) = (scratch.path().join("built"), scratch.path().join("moved"));
    std::fs::create_dir_all(&built).unwrap();
    std::fs::create_dir_all(&moved).unwrap();
    let (source, _, flags) = sources().remove(0);
    let (object, yaml) = compile_clang(compiler.to_str().unwrap(), source, &flags, &built).unwrap();
    let remarks_file = built.join(format!("{source}.opt.bitstream"));
    let (new_object, new_remarks) = (moved.join("renamed.o"), moved.join(remarks_file.file_name().unwrap()));
    std::fs::rename(&object, &new_object).unwrap();
    std::fs::rename(&remarks_file, &new_remarks).unwrap();
    same_remarks(&new_object, &yaml).unwrap();
    // Without the remarks file: an error that names it.
    std::fs::remove_file(&new_remarks).unwrap();
    let err = run(Command::new(bcdump()).arg("--remarks").arg(&new_object)).unwrap_err();
    assert!(err.contains("is missing") && err.contains(".opt.bitstream"), "{err}");
}

pub fn llvm_22_remarks_equal_their_yaml() {
    let (Some(opt), Some(llc)) = (rustc_llvm_tool("opt"), rustc_llvm_tool("llc")) else {
        missing(TEST, "opt and llc of rustc's LLVM (rustup component add llvm-tools)");
        return;
    };
    let Some(clang) = require_tool(TEST, "clang-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    // Unoptimized IR with debug locations, for LLVM 22's optimizer.
    run(Command::new(&clang)
        .args(["-O0", "-Xclang", "-disable-O0-optnone", "-g", "-S", "-emit-llvm"])
        .arg(fixtures().join("loops.c"))
        .arg("-o")
        .arg(d("loops.ll")))
    .unwrap();
    for format in ["bitstream", "yaml"] {
        run(Command::new(&opt)
            .args(["-O2", "-pass-remarks-format", format])
            .arg(format!("-pass-remarks-output={}", d(&format!("opt.{format}")).display()))
            .arg(d("loops.ll"))
            .arg("-o")
            .arg(d("loops.bc")))
        .unwrap();
    }
    let count = same_remarks(&d("opt.bitstream"), &d("opt.yaml")).unwrap();
    eprintln!("opt (LLVM 22): {count} remarks equal");
    for format in ["bitstream", "yaml"] {
        run(Command::new(&llc)
            .args(["-O2", "-filetype=obj", "-pass-remarks-format", format])
            .arg(format!("-mtriple={DARWIN}"))
            .arg(format!("-pass-remarks-output={}", d(&format!("llc.{format}")).display()))
            .arg(d("loops.bc"))
            .arg("-o")
            .arg(d(&format!("llc.{format}.o"))))
        .unwrap();
    }
    // The object's section names the remarks file; the file has its own string table.
    let count = same_remarks(&d("llc.bitstream.o"), &d("llc.yaml")).unwrap();
    same_remarks(&d("llc.bitstream"), &d("llc.yaml")).unwrap();
    eprintln!("llc (LLVM 22): {count} remarks equal");
}

pub fn standalone_remarks_equal_llvm_remarkutil_yaml() {
    let Some(util) = require_tool(TEST, "llvm-remarkutil-19") else { return };
    let Some(compiler) = require_tool(TEST, "clang-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (source, _, flags) = sources().remove(0);
    let (_, yaml) = compile_clang(compiler.to_str().unwrap(), source, &flags, dir.path()).unwrap();
    let standalone = dir.path().join("standalone.opt.bitstream");
    run(Command::new(&util).arg("yaml2bitstream").arg(&yaml).arg("-o").arg(&standalone)).unwrap();
    // LLVM's own reading of the same file (its -o option writes nothing, so stdout).
    let theirs = run(Command::new(&util).arg("bitstream2yaml").arg(&standalone)).unwrap();
    let theirs_path = dir.path().join("standalone.yaml");
    std::fs::write(&theirs_path, theirs).unwrap();
    let count = same_remarks(&standalone, &theirs_path).unwrap();
    eprintln!("standalone: {count} remarks equal");
}

/// The corpus's remarks files were written without a remarks section: their records decode
/// with the schema, and `--remarks` says why it cannot print them.
pub fn corpus_remarks_files_decode_and_explain_their_missing_strings() {
    let Some(shared) = require_shared(TEST) else { return };
    let mut seen = 0;
    for dir in corpus_dirs(&shared) {
        for file in bitstream_files(&dir) {
            if !file.to_string_lossy().ends_with(".opt.bitstream") {
                continue;
            }
            seen += 1;
            let dump = String::from_utf8(run(Command::new(bcdump()).arg(&file)).unwrap()).unwrap();
            assert!(dump.starts_with("LLVM remarks stream"), "{}", file.display());
            assert!(dump.contains("REMARK_HEADER type="), "{}", file.display());
            let problems = typed_dump_problems(&dump);
            assert!(problems.is_empty(), "{}: {problems:?}", file.display());
            let err = run(Command::new(bcdump()).arg("--remarks").arg(&file)).unwrap_err();
            assert!(err.contains("string table"), "{}: {err}", file.display());
        }
    }
    assert!(seen >= 4, "only {seen} remarks files in the corpus");
}

/// Strings whose YAML spelling is easy to get wrong.
const AWKWARD: &[&str] = &[
    "",
    "'",
    "''",
    " lead",
    "trail ",
    "-30",
    "+7",
    "337",
    "1.5e3",
    "1e",
    ".5",
    ".",
    "0x1F",
    "0xg",
    "0o17",
    ".inf",
    "-.INF",
    ".nan",
    "1.2.3",
    "e5",
    "true",
    "False",
    "null",
    "~",
    "a: b",
    "a:b",
    "#hash",
    "key,val",
    "x\ty",
    "line\nbreak",
    "cr\r",
    "bell\x07",
    "del\x7f",
    "caf\u{e9}",
    "\u{65e5}\u{672c}",
    "\u{85}",
    "nb\u{a0}sp",
    "\u{2028}",
    "[x]",
    "{y}",
    "50%",
    "@at",
    "`tick`",
    "!bang",
    "&amp",
    "*star",
    "|pipe",
    ">gt",
    "?q",
    "-dash",
    "plain_text-1.0",
    "back\\slash",
    "quote\"d",
    "tab\tend\t",
    "soh\x01",
    "esc\x1b",
    "vt\x0b",
    "ff\x0c",
    "bs\x08",
    "us\x1f",
    "/a/path/long/enough/that/the/flow/mapping/of/its/location/has/to/wrap.c",
    "mid-dle?",
    "x=y",
];

/// A standalone remarks file (container version 0, type 2: string table first) holding one
/// remark of each type, the awkward strings as names, keys, values and file names.
fn standalone_with_awkward_strings() -> Vec<u8> {
    let strings: Vec<&str> =
        AWKWARD.iter().copied().chain(["String", "AVeryLongArgumentKey", "pass", "fn", "short.c"]).collect();
    let table: Vec<u8> = strings.iter().flat_map(|s| s.bytes().chain([0])).collect();
    let index = |s: &str| strings.iter().position(|x| *x == s).unwrap() as u64;
    let (meta, remark) = (8, 9);
    let mut w = StreamWriter::new(*b"RMRK");
    w.enter_block(0, 2).unwrap();
    w.set_bid(meta).unwrap();
    let strtab = w.define_abbrev(Abbrev::new(vec![AbbrevOp::Literal(3), AbbrevOp::Blob]).unwrap()).unwrap();
    w.end_block().unwrap();
    w.enter_block(meta, 3).unwrap();
    w.unabbreviated_record(1, &[0, 2]).unwrap(); // container version 0, standalone
    w.unabbreviated_record(2, &[0]).unwrap(); // remark version
    w.abbreviated_record(strtab, 3, &[], Some(&table)).unwrap();
    w.end_block().unwrap();
    let long_path = index(AWKWARD[AWKWARD.len() - 3]);
    for (n, chunk) in AWKWARD.chunks(6).enumerate() {
        w.enter_block(remark, 4).unwrap();
        let kind = 1 + (n as u64 % 6); // Passed .. Failure
        let function = if n % 2 == 0 { index("fn") } else { index(chunk[0]) };
        w.unabbreviated_record(5, &[kind, index(chunk[0]), index("pass"), function]).unwrap();
        let file = if n % 3 == 0 { long_path } else { index("short.c") };
        w.unabbreviated_record(6, &[file, 10 + n as u64, n as u64]).unwrap();
        if n % 4 == 1 {
            w.unabbreviated_record(7, &[1000 * n as u64]).unwrap();
        }
        for (i, s) in chunk.iter().enumerate() {
            let key = if i == 0 { index("AVeryLongArgumentKey") } else { index("String") };
            if i % 2 == 0 {
                w.unabbreviated_record(9, &[key, index(s)]).unwrap();
            } else {
                w.unabbreviated_record(8, &[key, index(s), index(s), i as u64, 0]).unwrap();
            }
        }
        w.end_block().unwrap();
    }
    w.finish().unwrap()
}

pub fn awkward_strings_are_quoted_as_llvm_quotes_them() {
    let Some(util) = require_tool(TEST, "llvm-remarkutil-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("awkward.opt.bitstream");
    std::fs::write(&file, standalone_with_awkward_strings()).unwrap();
    let theirs = run(Command::new(&util).arg("bitstream2yaml").arg(&file)).unwrap();
    let theirs_path = dir.path().join("awkward.yaml");
    std::fs::write(&theirs_path, theirs).unwrap();
    same_remarks(&file, &theirs_path).unwrap();
}
