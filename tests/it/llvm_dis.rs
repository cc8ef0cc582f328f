//! `llvm::dis` against `llvm-dis`: every LLVM IR module of ../shared/corpus is printed by
//! the project and by the `llvm-dis` of the LLVM version that wrote it (clang13 → 13,
//! clang14 and llvmas14 → 14, clang16, llvmas16 and llvmcat16b → 16, clang19 → 19, rustc195
//! → 22, rustc's `llvm-tools`); the two texts must be equal line for line, all but the
//! `; ModuleID` line. The version the printer picks from the file must be the same one.
//!
//! Modules that still differ are allowed per producer up to a ceiling, a ratchet toward 0:
//! the test fails as soon as a producer gets worse, and prints each module's first
//! difference and how many of its lines have no equal on the other side.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use bitcode_schema::llvm::dis::{disassemble, producer_major, write_module_to_file, DisOptions};
use bitcode_schema::llvm::module::{name_structs_in_one_context, read_modules};

use crate::common::*;

const TEST: &str = "llvm_dis";

/// Per producer (the corpus file name's prefix): the LLVM version of its `llvm-dis`, and
/// how many of its modules may still print differently (the ratchet).
const PRODUCERS: &[(&str, u32, usize)] = &[
    ("clang13", 13, 0),
    ("clang14", 14, 0),
    ("clang16", 16, 0),
    ("clang19", 19, 0),
    ("llvmas14", 14, 0),
    ("llvmas16", 16, 0),
    ("llvmcat16b", 16, 0),
    ("rustc195", 22, 0),
];

/// The `llvm-dis` of LLVM `major`, if installed (22: rustc's `llvm-tools` component).
fn llvm_dis(major: u32) -> Option<PathBuf> {
    match major {
        22 => rustc_llvm_tool("llvm-dis"),
        _ => find_tool(&format!("llvm-dis-{major}")),
    }
}

/// The texts `llvm-dis` prints for every module of `file` (one per module: llvm-dis
/// writes `OUT.0`, `OUT.1`, ... for a file of several), or why it could not.
fn reference(tool: &Path, file: &Path, scratch: &Path) -> Result<Vec<String>, String> {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("module");
    let out = scratch.join(format!("{name}.ll"));
    run(Command::new(tool).arg(file).arg("-o").arg(&out))?;
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    if out.is_file() {
        return Ok(vec![read(&out)?]);
    }
    let mut texts = Vec::new();
    while let Ok(text) = read(&scratch.join(format!("{name}.ll.{}", texts.len()))) {
        texts.push(text);
    }
    if texts.is_empty() {
        return Err(format!("{} wrote nothing for {name}", tool.display()));
    }
    Ok(texts)
}

/// The lines of a text without its `; ModuleID` line.
fn body(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with("; ModuleID = ")).collect()
}

/// `None` when the texts are equal but for the ModuleID line; else the first difference
/// and the number of lines of either side without an equal line on the other.
fn difference(got: &str, expected: &str) -> Option<(String, usize)> {
    let (g, e) = (body(got), body(expected));
    if g == e {
        return None;
    }
    let first = match g.iter().zip(&e).position(|(a, b)| a != b) {
        Some(i) => format!("line {}:\n      got      {:?}\n      expected {:?}", i + 2, g[i], e[i]),
        None => format!("{} lines, expected {}", g.len() + 1, e.len() + 1),
    };
    let mut count: HashMap<&str, isize> = HashMap::new();
    for l in &e {
        *count.entry(l).or_default() += 1;
    }
    for l in &g {
        *count.entry(l).or_default() -= 1;
    }
    Some((first, count.values().map(|c| c.unsigned_abs()).sum()))
}

/// How one corpus file fared.
struct Outcome {
    producer: &'static str,
    modules: usize,
    equal: usize,
    lines_off: usize,
    problems: Vec<String>,
}

/// Every module of `stream` printed by the project: into strings ([`disassemble`], the
/// functions' text waiting for the header), or given a path `into_file` into files named
/// after it ([`write_module_to_file`], the header's struct types put right at the end).
fn print(
    stream: &bitcode_schema::Bitstream<'_>,
    options: &DisOptions,
    into_file: Option<&Path>,
) -> bitcode_schema::Result<Vec<String>> {
    let Some(prefix) = into_file else { return disassemble(stream, options) };
    let mut texts = Vec::new();
    let mut modules = read_modules(stream)?;
    name_structs_in_one_context(&mut modules);
    for (i, m) in modules.into_iter().enumerate() {
        let path = PathBuf::from(format!("{}.printed.{i}.ll", prefix.display()));
        // Read and written: a struct type that turns up unused moves the text after it.
        let file = std::fs::File::options().read(true).write(true).create(true).truncate(true).open(&path);
        let file = file.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        write_module_to_file(m, options, &file).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        texts.push(std::fs::read_to_string(&path).unwrap());
        std::fs::remove_file(&path).unwrap();
    }
    Ok(texts)
}

/// Prints every module of `file` with llvm-dis and with the project (into strings and into
/// files) and compares.
fn compare(file: &Path, producer: &'static str, major: u32, tool: &Path, scratch: &Path) -> Outcome {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let mut outcome = Outcome { producer, modules: 1, equal: 0, lines_off: 0, problems: Vec::new() };
    let expected = match reference(tool, file, scratch) {
        Ok(texts) => texts,
        Err(e) => {
            outcome.problems.push(format!("{name}: llvm-dis-{major} cannot read it: {e}"));
            return outcome;
        }
    };
    outcome.modules = expected.len();
    let bytes = std::fs::read(file).unwrap();
    // The module's path as llvm-dis was given it: a summary's `^0 = module:` line holds it.
    let options = DisOptions { llvm_major: None, module_id: file.display().to_string() };
    // Into strings and into a file: a module is equal when both are.
    let mut equal = vec![true; expected.len()];
    for into_file in [None, Some(scratch.join(&name))] {
        let way = if into_file.is_some() { "into a file" } else { "into a string" };
        let got = bitcode_schema::Input::parse(&bytes).and_then(|input| {
            let mut texts = Vec::new();
            for stream in input.streams()? {
                let found = producer_major(&stream);
                if found != Some(major) {
                    outcome.problems.push(format!("{name}: producer_major says {found:?}, not {major}"));
                }
                texts.extend(print(&stream, &options, into_file.as_deref())?);
            }
            Ok(texts)
        });
        let got = match got {
            Ok(texts) => texts,
            Err(e) => {
                outcome.problems.push(format!("{name}: error: {e}"));
                outcome.lines_off = expected.iter().map(|t| t.lines().count()).sum();
                return outcome;
            }
        };
        if got.len() != expected.len() {
            outcome.problems.push(format!(
                "{name}: {} modules, llvm-dis prints {}",
                got.len(),
                expected.len()
            ));
            return outcome;
        }
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            if let Some((first, off)) = difference(g, e) {
                equal[i] = false;
                outcome.lines_off += off;
                outcome
                    .problems
                    .push(format!("{name} (module {i}, {way}): {off} lines differ; first at {first}"));
            }
        }
    }
    outcome.equal = equal.iter().filter(|&&e| e).count();
    outcome
}

/// Every corpus IR module prints as the llvm-dis of its own LLVM version prints it.
pub fn every_corpus_module_prints_as_its_llvm_dis() {
    let Some(shared) = require_shared(TEST) else { return };
    // Removed when dropped, a failed assertion included.
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let mut jobs = Vec::new();
    for file in bitstream_files(&shared.join("corpus")) {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".bc") {
            continue;
        }
        let Some(&(producer, major, _)) =
            PRODUCERS.iter().find(|(p, ..)| name.starts_with(&format!("{p}__")))
        else {
            panic!("{name}: no producer of the table makes it; add its prefix to PRODUCERS");
        };
        match llvm_dis(major) {
            Some(tool) => jobs.push((file, producer, major, tool)),
            None => missing(TEST, &format!("llvm-dis of LLVM {major} (for {name})")),
        }
    }
    let outcomes =
        parallel_map(&jobs, |(file, producer, major, tool)| compare(file, producer, *major, tool, scratch));
    let mut regressions = Vec::new();
    for &(producer, major, ceiling) in PRODUCERS {
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.producer == producer).collect();
        let modules: usize = mine.iter().map(|o| o.modules).sum();
        let equal: usize = mine.iter().map(|o| o.equal).sum();
        let lines_off: usize = mine.iter().map(|o| o.lines_off).sum();
        eprintln!("{TEST}: {producer} (llvm-dis-{major}): {equal}/{modules} modules equal, {lines_off} lines differ");
        for problem in mine.iter().flat_map(|o| &o.problems) {
            eprintln!("    {problem}");
        }
        if modules - equal > ceiling {
            regressions
                .push(format!("{producer}: {} modules differ, the ceiling is {ceiling}", modules - equal));
        }
        let wrong_version = mine.iter().flat_map(|o| &o.problems).find(|p| p.contains("producer_major"));
        if let Some(p) = wrong_version {
            regressions.push(p.clone());
        }
    }
    assert!(regressions.is_empty(), "{TEST}: worse than the ratchet:\n  {}", regressions.join("\n  "));
}

/// The LLVM versions whose llvm-dis checks the modules of ../shared/corpus-old they wrote
/// (the ones Debian packages here; the corpus has 17, 18, 20 and 21 too).
const OLD_CORPUS_VERSIONS: &[u32] = &[13, 14, 15, 16, 19];

/// Every module of ../shared/corpus-old written by LLVM 13, 14, 15, 16 or 19 (clang on
/// Linux and macOS, LLVM's own bitcode compatibility fixtures) prints as that version's
/// llvm-dis prints it.
pub fn old_corpus_modules_print_as_their_llvm_dis() {
    let Some(shared) = require_shared(TEST) else { return };
    // Removed when dropped, a failed assertion included.
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let mut jobs = Vec::new();
    for file in bitstream_files(&shared.join("corpus-old")) {
        if file.extension().is_none_or(|x| x != "bc") {
            continue;
        }
        let bytes = std::fs::read(&file).unwrap();
        let Ok(input) = bitcode_schema::Input::parse(&bytes) else { continue };
        let major = input.streams().ok().and_then(|streams| streams.first().and_then(producer_major));
        let Some(major) = major.filter(|m| OLD_CORPUS_VERSIONS.contains(m)) else { continue };
        match llvm_dis(major) {
            Some(tool) => jobs.push((file, major, tool)),
            None => missing(TEST, &format!("llvm-dis-{major}")),
        }
    }
    assert!(jobs.len() >= 60, "{TEST}: only {} corpus-old modules of LLVM 13-19", jobs.len());
    let outcomes =
        parallel_map(&jobs, |(file, major, tool)| compare(file, "corpus-old", *major, tool, scratch));
    let problems: Vec<&String> = outcomes.iter().flat_map(|o| &o.problems).collect();
    let modules: usize = outcomes.iter().map(|o| o.modules).sum();
    eprintln!("{TEST}: corpus-old, LLVM 13-19: {modules} modules, {} problems", problems.len());
    assert!(
        problems.is_empty(),
        "{TEST}: {}",
        problems.iter().map(|p| p.as_str()).collect::<Vec<_>>().join("\n")
    );
}

/// The atomic records of LLVM 12 and before (atomicrmw and cmpxchg with the value typed by
/// the pointer): LLVM's fixture of them, printed as LLVM 13 prints it, equals llvm-dis-13.
pub fn old_atomic_records_print_as_llvm_dis_13() {
    let Some(shared) = require_shared(TEST) else { return };
    let Some(tool) = llvm_dis(13) else {
        missing(TEST, "llvm-dis-13");
        return;
    };
    let file = shared.join("corpus-old/llvmtest__atomic-no-syncscope.bc");
    // Removed when dropped, a failed assertion included.
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let expected = reference(&tool, &file, scratch).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let input = bitcode_schema::Input::parse(&bytes).unwrap();
    let options = DisOptions { llvm_major: Some(13), module_id: file.display().to_string() };
    let got = disassemble(&input.streams().unwrap()[0], &options).unwrap();
    assert!(expected[0].contains("atomicrmw") && expected[0].contains("cmpxchg"));
    if let Some((first, off)) = difference(&got[0], &expected[0]) {
        panic!("{TEST}: {off} lines differ; first at {first}");
    }
}

/// The `llvm-as` of LLVM `major`, if installed (22: rustc's `llvm-tools` component).
fn llvm_as(major: u32) -> Option<PathBuf> {
    match major {
        22 => rustc_llvm_tool("llvm-as"),
        _ => find_tool(&format!("llvm-as-{major}")),
    }
}

/// The LLVM versions a hand-written module names on its first line (`; versions: 13 16`).
fn versions_of(source: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(source).unwrap();
    let line = text.lines().next().and_then(|l| l.strip_prefix("; versions:"));
    let line = line.unwrap_or_else(|| panic!("{}: no `; versions:` first line", source.display()));
    line.split_whitespace().map(|v| v.parse().unwrap()).collect()
}

/// The hand-written modules of tests/data/dis, each assembled by the llvm-as of every
/// version its first line names, print as that version's llvm-dis prints them, into a
/// string and into a file.
pub fn hand_written_modules_print_as_llvm_dis() {
    // Removed when dropped, a failed assertion included.
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dis");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "{TEST}: no .ll files in {}", dir.display());
    let mut problems = Vec::new();
    let mut compared = 0;
    for source in &sources {
        let name = source.file_stem().and_then(|n| n.to_str()).unwrap_or("?");
        for major in versions_of(source) {
            let (Some(assembler), Some(dis)) = (llvm_as(major), llvm_dis(major)) else {
                missing(TEST, &format!("llvm-as or llvm-dis of LLVM {major}"));
                continue;
            };
            let bc = scratch.join(format!("{name}-{major}.bc"));
            run(Command::new(&assembler).arg(source).arg("-o").arg(&bc)).unwrap();
            let expected = reference(&dis, &bc, scratch).unwrap();
            let bytes = std::fs::read(&bc).unwrap();
            let options = DisOptions { llvm_major: None, module_id: bc.display().to_string() };
            for into_file in [None, Some(scratch.join(format!("{name}-{major}")))] {
                let way = if into_file.is_some() { "into a file" } else { "into a string" };
                let input = bitcode_schema::Input::parse(&bytes).unwrap();
                let mut got = Vec::new();
                for stream in input.streams().unwrap() {
                    got.extend(
                        print(&stream, &options, into_file.as_deref())
                            .unwrap_or_else(|e| panic!("{name} ({major}): {e}")),
                    );
                }
                assert_eq!(got.len(), expected.len(), "{name} ({major}): module count");
                for (g, e) in got.iter().zip(&expected) {
                    if let Some((first, off)) = difference(g, e) {
                        problems.push(format!(
                            "{name} (LLVM {major}, {way}): {off} lines differ; first at {first}"
                        ));
                    }
                }
            }
            compared += 1;
        }
    }
    assert!(problems.is_empty(), "{TEST}: {}", problems.join("\n"));
    eprintln!("{TEST}: {compared} hand-written module builds equal to their llvm-dis");
}

/// The clangs that compile tests/data/dis/compiled.
const COMPILING_CLANGS: &[u32] = &[13, 14, 15, 16, 19];

/// The sources of tests/data/dis/compiled and the flags each clang compiles them with:
/// ThinLTO with whole-program devirtualization (two modules whose struct names collide in
/// llvm-dis's one context, virtual calls in the summary), plain ThinLTO (a class's type
/// info name is both a global value and a vtable type id of the summary: one slot before
/// LLVM 18, two since), full LTO with control-flow
/// integrity (type tests, the index flags), ThinLTO with stack tagging (parameter
/// accesses), optimized C++ with a typed catch (an intrinsic declaration the optimizer
/// gave attributes that LLVM's reader replaces), and AddressSanitizer (constant
/// expressions LLVM's reader folds).
const COMPILED: &[(&str, &[&str])] = &[
    ("virtual_calls.cpp", &["-O2", "-flto=thin", "-fwhole-program-vtables", "-fvisibility=hidden"]),
    ("virtual_calls.cpp", &["-O2", "-flto=thin"]),
    (
        "virtual_calls.cpp",
        &["-O2", "-flto", "-fvisibility=hidden", "-fsanitize=cfi", "-fno-sanitize-trap=cfi"],
    ),
    (
        "stack_accesses.c",
        &["-O2", "-flto=thin", "--target=aarch64-linux-gnu", "-march=armv8.5-a+memtag", "-fsanitize=memtag"],
    ),
    ("typed_catch.cpp", &["-O2", "-emit-llvm"]),
    ("asan_global.cpp", &["-O1", "-fsanitize=address", "-emit-llvm"]),
];

/// Sources compiled by clang 22 (zig cc), each printing as LLVM 22's llvm-dis prints it:
/// tests/data/dis/compiled/key_instructions.c with -O2 -g (debug locations carry Key
/// Instructions' atom groups and ranks), tests/data/producers/features.c with
/// AddressSanitizer (`llvm.assume` declared with a list LLVM 22's reader replaces by the
/// intrinsic's own).
pub fn clang22_modules_print_as_llvm_dis_22() {
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let Some(dis) = llvm_dis(22) else {
        missing(TEST, "llvm-dis of LLVM 22 (rustup component add llvm-tools)");
        return;
    };
    let Some(zig) = crate::clang_ast_files::zig_clang(scratch) else { return };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let builds: [(&str, &[&str], &str); 2] = [
        ("dis/compiled/key_instructions.c", &["-O2", "-g"], "atomGroup: "),
        ("producers/features.c", &["-O1", "-g", "-fsanitize=address"], "declare void @llvm.assume("),
    ];
    for (i, (source, flags, sign)) in builds.iter().enumerate() {
        let bc = scratch.join(format!("clang22-{i}.bc"));
        run(zig
            .command(&zig.cc)
            .args(*flags)
            .args(["-c", "-emit-llvm"])
            .arg(data.join(source))
            .arg("-o")
            .arg(&bc))
        .unwrap_or_else(|e| panic!("zig cc {source}: {e}"));
        let reference = scratch.join(format!("clang22-{i}.ll"));
        run(Command::new(&dis).arg(&bc).arg("-o").arg(&reference)).unwrap();
        let text = std::fs::read_to_string(&reference).unwrap();
        assert!(text.contains(sign), "{source}: llvm-dis 22 printed no `{sign}`");
        let outcome = compare(&bc, "zig-clang22", 22, &dis, scratch);
        assert_eq!(outcome.equal, outcome.modules, "{TEST}: {source}: {}", outcome.problems.join("; "));
    }
}

/// tests/data/dis/rejected/msan_float_atomic.c, compiled by clang 13 and 14 with
/// MemorySanitizer: a store whose type is not its typed pointer's element type. The
/// llvm-dis of the same version rejects the module, and so does the printer, naming the
/// function, the bit and the block path.
pub fn modules_llvm_dis_rejects_are_rejected() {
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dis/rejected/msan_float_atomic.c");
    for major in [13, 14] {
        let Some(dis) = llvm_dis(major) else {
            missing(TEST, &format!("llvm-dis-{major}"));
            continue;
        };
        let Some(clang) = require_tool(TEST, &format!("clang-{major}")) else { continue };
        let bc = scratch.join(format!("rejected-{major}.bc"));
        run(Command::new(clang)
            .args(["-O1", "-fsanitize=memory", "-c", "-emit-llvm"])
            .arg(&source)
            .arg("-o")
            .arg(&bc))
        .unwrap_or_else(|e| panic!("clang-{major}: {e}"));
        let refused = reference(&dis, &bc, scratch).expect_err("llvm-dis reads the module");
        assert!(refused.contains("Explicit load/store type does not match pointee type"), "{refused}");
        let bytes = std::fs::read(&bc).unwrap();
        let input = bitcode_schema::Input::parse(&bytes).unwrap();
        let options = DisOptions { llvm_major: None, module_id: bc.display().to_string() };
        for stream in input.streams().unwrap() {
            let err = disassemble(&stream, &options).expect_err("the printer prints the module");
            let message = err.to_string();
            assert!(
                message.contains("function add: a store of type")
                    && message.contains("element type of a typed pointer")
                    && message.contains("block path 8/12"),
                "LLVM {major}: {message}"
            );
        }
    }
}

/// Corpus files with one bit changed (file, byte, the bits flipped, what it does) that
/// llvm-dis-14 reads: the printer must read them as LLVM's reader does. Found by comparing
/// the two on random mutants (see docs/llvm-dis.md).
const MUTANTS: &[(&str, usize, u8, &str)] = &[
    // DECLAREBLOCKS says more blocks than the body fills: the rest are empty.
    ("clang14__atomics__O2.bc", 2746, 8, "relaxed_inc declares 9 blocks, has 1"),
    ("clang14__switchphi__O2.bc", 3554, 4, "gcd declares 7 blocks, has 3"),
    ("clang14__switchphi__O2.bc", 2982, 16, "dense_switch declares 17 blocks, has 1"),
    // A constant of a code LLVM does not know is undef, and takes its value number.
    ("clang14__switchphi__O2.bc", 1877, 128, "a constant of code 39 in @interp.labels"),
    // An attribute set holds one attribute per kind, its string attributes sorted by key.
    ("clang14__linkage__O2_flto_thin.bc", 3762, 8, "nofree twice in one group"),
    ("clang14__linkage__O2_flto_thin.bc", 1591, 16, "target-cpu becomes targeu-cpu"),
    ("clang14__linkage__O2_flto_thin.bc", 2377, 16, "min-legal-vector-width becomes Min-legal-..."),
    ("clang14__switchphi__O2.bc", 1018, 4, "target-cpu becomes targgt-cpu"),
    // A string operand over 255 is its low byte, in every kind of string record.
    ("clang14__hello__O0.bc", 1640, 2, "a metadata kind name's operand 376"),
    ("clang14__atomics__O2.bc", 1357, 32, "a datalayout operand 312"),
    ("clang14__linkage__O2_flto_thin.bc", 6462, 64, "an operand bundle tag's operand 366"),
    ("clang14__linkage__O2_flto_thin.bc", 6576, 16, "a sync scope name's operand 613"),
    ("clang14__hello__O0.bc", 351, 64, "an attribute key's operand 370"),
    ("clang14__hello__O0.bc", 698, 1, "an attribute value's operand 621"),
    // A string constant is [N x i8] whatever the SETTYPE before it says (here a struct,
    // which would move in the struct order).
    ("clang14__classes__O0_g.bc", 6577, 8, "a SETTYPE of a struct before a string constant"),
    // Length words of the blocks inside a body, which LLVM's reader never looks at: too
    // long, too short, or past the end of the input.
    ("clang14__switchphi__O2.bc", 4512, 128, "a use-list block's length word too long"),
    ("clang14__switchphi__O2.bc", 4560, 16, "a constants block's length word too long"),
    ("clang14__classes__O0_g.bc", 31736, 4, "an attachment block's length word too long"),
    ("clang14__switchphi__O2.bc", 3879, 32, "a body's block runs past the end of the input"),
    ("clang14__atomics__O2.bc", 3530, 32, "a body's block runs past the end of the input"),
    // An attribute's key is written as it is (its value escaped).
    ("clang14__hello__O0.bc", 253, 2, "frame-pointer becomes frame\\rpointer"),
];

/// Corpus files with one bit changed that llvm-dis-14 refuses: the printer must refuse
/// them too, with the words given (a pattern of its message).
const REFUSED_MUTANTS: &[(&str, usize, u8, &str)] = &[
    // "Unknown attribute kind (304)"
    (
        "clang14__atomics__O2.bc",
        599,
        1,
        "attribute kind 304 is not one LLVM knows (at bit 4690, block path 8/10)",
    ),
    // "Conflicting METADATA_KIND records"
    ("clang14__hello__O0.bc", 1098, 2, "metadata kind 4 is given twice (at bit 9056, block path 8/22)"),
    ("clang14__switchphi__O2.bc", 2352, 64, "metadata kind 20 is given twice"),
    // An add's operand a relative id far past the body's values ("Invalid record").
    ("clang14__switchphi__O2.bc", 4059, 2, "uses value 67108903, which the body never defines (it has 47)"),
    // Operands of another type than the one they are read as ("Invalid record").
    (
        "clang14__switchphi__O2.bc",
        3781,
        32,
        "phi_mania: instruction 10: value 29 is of type 19 where one of type 4",
    ),
    (
        "clang14__switchphi__O2.bc",
        3804,
        32,
        "phi_mania: instruction 17: value 37 is of type 4 where one of type 19",
    ),
    (
        "clang14__switchphi__O2.bc",
        4856,
        8,
        "fib_memo: instruction 8: value 53 is of type 4 where one of type 7",
    ),
    (
        "clang14__classes__O0_g.bc",
        27664,
        1,
        "main: instruction 51: value 249 is of type 15 where one of type 0",
    ),
    // Constants LLVM's reader refuses ("Invalid record").
    ("clang14__hello__O0.bc", 2119, 32, "main: an integer constant of type 6, which is not an integer type"),
    ("clang14__switchphi__O2.bc", 1908, 1, "a blockaddress of value 23, which is not a function"),
    // A record of another code among the operand bundle tags ("Invalid record").
    ("clang14__switchphi__O2.bc", 2851, 64, "a record of code 5 among the operand bundle tags"),
    // A body the module's symbol table places elsewhere than it is ("Invalid record").
    (
        "clang14__classes__O0_g.bc",
        36879,
        32,
        "the symbol table puts function 58's body at word 8871, but its FUNCTION_BLOCK is at word 9127",
    ),
    // A function's name outside the string table ("Invalid record").
    ("clang14__atomics__O2.bc", 1514, 32, "the name of function 0 (offset 303, size 11) is outside"),
    // An alloca's count of another type than its record says, a phi from a block the body
    // does not have ("Invalid record").
    (
        "clang14__hello__O0.bc",
        2142,
        4,
        "main: an alloca's count, value 6, is of type 5 where the record says 4",
    ),
    ("clang14__classes__O0_g.bc", 24514, 2, "an alloca's count, value 192, is of type 15"),
    ("clang14__switchphi__O2.bc", 4777, 32, "a phi comes from block 9, which the body does not have"),
    // A cast castIsValid refuses ("Invalid cast").
    ("clang14__atomics__O2.bc", 2847, 32, "a fptosi of type 5 to type 33, which LLVM's reader refuses"),
];

/// Each of [`MUTANTS`] prints as llvm-dis-14 prints it; each of [`REFUSED_MUTANTS`] is
/// refused by both.
pub fn corpus_mutants_print_as_llvm_dis_reads_them() {
    let Some(shared) = require_shared(TEST) else { return };
    let Some(dis) = llvm_dis(14) else {
        missing(TEST, "llvm-dis-14");
        return;
    };
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let mut problems = Vec::new();
    // Corpus file `name` with `bits` of byte `byte` flipped, written as `file`.
    let flipped = |name: &str, byte: usize, bits: u8, file: String| {
        let mut bytes = std::fs::read(shared.join("corpus").join(name)).unwrap();
        bytes[byte] ^= bits;
        let path = scratch.join(file);
        std::fs::write(&path, &bytes).unwrap();
        (bytes, path)
    };
    for (i, &(name, byte, bits, what)) in MUTANTS.iter().enumerate() {
        let (_, mutant) = flipped(name, byte, bits, format!("mutant{i}.bc"));
        let outcome = compare(&mutant, "mutant", 14, &dis, scratch);
        if outcome.equal != outcome.modules || !outcome.problems.is_empty() {
            problems.push(format!("{name} byte {byte} ^ {bits} ({what}): {}", outcome.problems.join("; ")));
        }
    }
    for (i, &(name, byte, bits, message)) in REFUSED_MUTANTS.iter().enumerate() {
        let (bytes, mutant) = flipped(name, byte, bits, format!("refused{i}.bc"));
        if let Ok(texts) = reference(&dis, &mutant, scratch) {
            problems
                .push(format!("{name} byte {byte} ^ {bits}: llvm-dis-14 reads it ({} modules)", texts.len()));
        }
        let options = DisOptions { llvm_major: None, module_id: name.to_string() };
        let ours = bitcode_schema::Input::parse(&bytes).and_then(|input| {
            input.streams()?.iter().try_for_each(|stream| disassemble(stream, &options).map(drop))
        });
        match ours {
            Err(e) if e.to_string().contains(message) => {}
            Err(e) => problems.push(format!("{name} byte {byte} ^ {bits}: refused as {e}, not {message}")),
            Ok(()) => problems.push(format!("{name} byte {byte} ^ {bits}: printed, not refused ({message})")),
        }
    }
    assert!(
        problems.is_empty(),
        "{TEST}: mutants read otherwise than by llvm-dis-14:\n  {}",
        problems.join("\n  ")
    );
}

/// The sources of tests/data/dis/compiled, compiled by clang 13, 14, 15, 16 and 19 with
/// the flags of [`COMPILED`], print as the same version's llvm-dis prints them.
pub fn compiled_modules_print_as_llvm_dis() {
    // Removed when dropped, a failed assertion included.
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = scratch_dir.path();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dis/compiled");
    let mut problems = Vec::new();
    let mut compared = 0;
    for &major in COMPILING_CLANGS {
        let Some(dis) = llvm_dis(major) else {
            missing(TEST, &format!("llvm-dis-{major}"));
            continue;
        };
        for (i, (source, flags)) in COMPILED.iter().enumerate() {
            let compiler = if source.ends_with(".cpp") { "clang++" } else { "clang" };
            let Some(compiler) = require_tool(TEST, &format!("{compiler}-{major}")) else { continue };
            let bc = scratch.join(format!("{i}-{major}.bc"));
            run(Command::new(compiler).args(*flags).arg("-c").arg(dir.join(source)).arg("-o").arg(&bc))
                .unwrap_or_else(|e| panic!("{source} ({major}): {e}"));
            let outcome = compare(&bc, "compiled", major, &dis, scratch);
            if outcome.equal != outcome.modules {
                problems.push(format!(
                    "{source} {} (LLVM {major}): {}",
                    flags.join(" "),
                    outcome.problems.join("; ")
                ));
            }
            compared += 1;
        }
    }
    assert!(problems.is_empty(), "{TEST}: {}", problems.join("\n"));
    eprintln!("{TEST}: {compared} compiled modules equal to their llvm-dis");
}
