//! Files of several modules, as `llvm-cat` makes them: each module is read with its own
//! tables. Built at test time by LLVM 14's `llvm-cat` from corpus .bc files whose .ll is
//! known (modules of different LLVM versions, with overlapping and with differing names;
//! two, three and five modules; `llvm-cat -b` of files that are themselves multi-module,
//! with a string table after each module or one shared by several), plus the corpus's own
//! llvm-cat file. For each file:
//!
//! - `module_symbols` gives one list per module, and `bcdump --symbols` prints, module by
//!   module, what `../shared/oracle/ll-symbols` prints for that module's .ll;
//! - `bcdump --trace` equals `../shared/oracle/bcanalyzer-jsonl` (llvm-bcanalyzer);
//! - `check_stream_parallel` reports what `check_stream` reports: every record typed, none
//!   unknown, no error.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const TEST: &str = "llvm_multimodule";

/// Where a module file comes from.
#[derive(Clone, Copy)]
enum Part {
    /// A .bc of ../shared/corpus (its .ll beside it).
    Corpus(&'static str),
    /// A .bc of ../shared/corpus-old (its .ll beside it).
    CorpusOld(&'static str),
    /// A file built by an earlier case (its modules' .ll are that case's).
    Built(&'static str),
}

/// One llvm-cat run: the output's name, whether binary (`-b`), the inputs in order.
struct Case {
    name: &'static str,
    binary: bool,
    parts: &'static [Part],
}

use Part::*;

const CASES: &[Case] = &[
    // LLVM 13 and 19, names that differ.
    Case {
        name: "13+19",
        binary: true,
        parts: &[Corpus("clang13__hello__O2"), Corpus("clang19__switchphi__O0")],
    },
    // Three versions of the same program: the same names (their tables alike, so a module
    // named by another's table would not show here, but does in the five-module case).
    Case {
        name: "hello14+16+19",
        binary: true,
        parts: &[Corpus("clang14__hello__O0"), Corpus("clang16__hello__O2"), Corpus("clang19__hello__O0")],
    },
    // LLVM 8, rustc's LLVM, and a C++ module with its ThinLTO summary.
    Case {
        name: "8+rust+thin14",
        binary: true,
        parts: &[
            CorpusOld("clang8__linkedlist__O0"),
            Corpus("rustc195__hello__O0"),
            Corpus("clang14__classes__O2_flto_thin"),
        ],
    },
    // A wrapper-headed module (llvm-cat drops the wrapper) and LLVM 21.
    Case {
        name: "wrapper14+21",
        binary: true,
        parts: &[Corpus("clang14__switchphi__O2_darwin_wrapper"), CorpusOld("clang21__hello__O3")],
    },
    // llvm-cat -b of a multi-module file and a module.
    Case { name: "(13+19)+new16", binary: true, parts: &[Built("13+19"), Corpus("llvmas16__new16")] },
    // llvm-cat -b of two multi-module files: five modules.
    Case { name: "(13+19)+(hello14+16+19)", binary: true, parts: &[Built("13+19"), Built("hello14+16+19")] },
    // llvm-cat without -b: the modules read and written again by LLVM 14, one string table
    // after all of them.
    Case {
        name: "shared13+14",
        binary: false,
        parts: &[Corpus("clang13__switchphi__O2"), Corpus("clang14__linkage__O2")],
    },
    // llvm-cat -b of that: the shared table copied after each of its modules.
    Case {
        name: "(shared13+14)+tls16",
        binary: true,
        parts: &[Built("shared13+14"), Corpus("clang16__tls__O0")],
    },
];

/// The .ll of a corpus .bc path (plain or xz-compressed), written to `scratch` as plain text.
fn ll_of(bc: &Path, scratch: &Path) -> Result<PathBuf, String> {
    let plain = bc.with_extension("ll");
    if plain.is_file() {
        return Ok(plain);
    }
    let xz = bc.with_extension("ll.xz");
    let name = bc.file_name().and_then(|n| n.to_str()).unwrap_or("module");
    let out = scratch.join(format!("{name}.ll"));
    let text = run(Command::new("xz").arg("-dc").arg(&xz))?;
    std::fs::write(&out, text).map_err(|e| e.to_string())?;
    Ok(out)
}

/// A multi-module file and the .ll of each of its modules, in module order.
struct CatFile {
    name: String,
    path: PathBuf,
    modules: Vec<PathBuf>,
}

/// Runs llvm-cat for every case (in order: later cases read earlier outputs).
fn build(shared: &Path, llvm_cat: &Path, scratch: &Path) -> Result<Vec<CatFile>, String> {
    let mut built: Vec<CatFile> = Vec::new();
    for case in CASES {
        let (mut inputs, mut modules) = (Vec::new(), Vec::new());
        for part in case.parts {
            match *part {
                Corpus(name) | CorpusOld(name) => {
                    let dir = if matches!(part, Corpus(_)) { "corpus" } else { "corpus-old" };
                    let bc = shared.join(dir).join(format!("{name}.bc"));
                    modules.push(ll_of(&bc, scratch)?);
                    inputs.push(bc);
                }
                Built(name) => {
                    let earlier = built.iter().find(|b| b.name == name).ok_or(format!("no case {name}"))?;
                    inputs.push(earlier.path.clone());
                    modules.extend(earlier.modules.iter().cloned());
                }
            }
        }
        let path = scratch.join(format!("{}.bc", case.name));
        let mut cmd = Command::new(llvm_cat);
        if case.binary {
            cmd.arg("-b");
        }
        run(cmd.arg("-o").arg(&path).args(&inputs))?;
        built.push(CatFile { name: case.name.to_string(), path, modules });
    }
    Ok(built)
}

/// What was compared in one file.
struct Checked {
    modules: usize,
    symbols: usize,
    records: u64,
}

/// Checks one multi-module file against the .ll of its modules (see the top of the file).
fn check_file(
    shared: &Path,
    file: &Path,
    modules: &[PathBuf],
    listings: &HashMap<PathBuf, String>,
) -> Result<Checked, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let input = bitcode_schema::Input::parse(&bytes).map_err(|e| e.to_string())?;
    let streams = input.streams().map_err(|e| e.to_string())?;
    let [stream] = streams.as_slice() else { return Err(format!("{} streams", streams.len())) };

    // Symbols: one list per module, each printed as ll-symbols prints its module.
    let ours = bitcode_schema::llvm::module_symbols(stream).map_err(|e| e.to_string())?;
    if ours.len() != modules.len() {
        return Err(format!("module_symbols gives {} modules, the file has {}", ours.len(), modules.len()));
    }
    let printed = run(Command::new(bcdump()).arg("--symbols").arg(file))?;
    let printed = String::from_utf8_lossy(&printed);
    let mut lines = printed.lines();
    let mut symbols = 0;
    for (i, (module, ll)) in ours.iter().zip(modules).enumerate() {
        let theirs = listings.get(ll).ok_or(format!("no listing of {}", ll.display()))?;
        let printed_here: String = lines.by_ref().take(module.len()).map(|l| format!("{l}\n")).collect();
        compare_lines(theirs, &printed_here).map_err(|e| format!("module {i} ({}): {e}", ll.display()))?;
        // The library's names are the printed ones (bcdump prints what it gives).
        for (symbol, line) in module.iter().zip(printed_here.lines()) {
            let name = serde_json::to_string(&symbol.display_name()).map_err(|e| e.to_string())?;
            if !line.contains(&format!("\"name\":{name},")) {
                return Err(format!("module {i}: module_symbols names {name}, bcdump printed {line}"));
            }
        }
        symbols += module.len();
    }
    if let Some(extra) = lines.next() {
        return Err(format!("bcdump --symbols prints more than the modules' symbols: {extra}"));
    }

    // The trace, as llvm-bcanalyzer reads the file.
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (expected, actual) = (dir.path().join("expected.jsonl"), dir.path().join("actual.jsonl"));
    let oracle = run(Command::new(shared.join("oracle/bcanalyzer-jsonl")).arg(file))?;
    std::fs::write(&expected, oracle).map_err(|e| e.to_string())?;
    std::fs::write(&actual, run(Command::new(bcdump()).arg("--trace").arg(file))?)
        .map_err(|e| e.to_string())?;
    run(Command::new(shared.join("oracle/compare-trace")).arg(&expected).arg(&actual))
        .map_err(|e| format!("trace: {e}"))?;

    // The typed check, sequential and parallel.
    let report = bitcode_schema::llvm::check_stream(stream).map_err(|e| e.to_string())?;
    let parallel = bitcode_schema::llvm::check_stream_parallel(stream).map_err(|e| e.to_string())?;
    if parallel != report {
        return Err(format!("parallel check {} / check {}", parallel.summary(), report.summary()));
    }
    if report.unknown + report.errors > 0 || report.typed != report.records {
        return Err(format!("check: {} {:?}", report.summary(), report.first_errors));
    }
    Ok(Checked { modules: modules.len(), symbols, records: report.records })
}

pub fn every_module_of_llvm_cat_files_reads_with_its_own_tables() {
    let Some(shared) = require_shared(TEST) else { return };
    let Some(llvm_cat) = require_tool(TEST, "llvm-cat-14") else { return };
    let scratch = tempfile::tempdir().unwrap();
    let built = build(&shared, &llvm_cat, scratch.path()).unwrap_or_else(|e| panic!("llvm-cat: {e}"));
    let mut files: Vec<(String, PathBuf, Vec<PathBuf>)> =
        built.into_iter().map(|b| (b.name, b.path, b.modules)).collect();
    for (name, modules) in MULTI_MODULE_CORPUS {
        let path = shared.join("corpus").join(name);
        let modules = modules
            .iter()
            .map(|m| ll_of(&shared.join("corpus").join(format!("{m}.bc")), scratch.path()))
            .collect::<Result<Vec<_>, _>>()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        files.push((name.to_string(), path, modules));
    }

    // ll-symbols of every module's .ll, once each.
    let mut lls: Vec<PathBuf> = files.iter().flat_map(|(_, _, m)| m.iter().cloned()).collect();
    lls.sort();
    lls.dedup();
    let oracle = shared.join("oracle/ll-symbols");
    let listings = parallel_map(&lls, |ll| run(Command::new(&oracle).arg(ll)));
    let listings: HashMap<PathBuf, String> = lls
        .iter()
        .zip(listings)
        .map(|(ll, out)| {
            let out = out.unwrap_or_else(|e| panic!("ll-symbols {}: {e}", ll.display()));
            (ll.clone(), String::from_utf8_lossy(&out).into_owned())
        })
        .collect();

    let results = parallel_map(&files, |(_, path, modules)| check_file(&shared, path, modules, &listings));
    let mut failures = Vec::new();
    let (mut modules, mut symbols, mut records) = (0, 0, 0);
    for ((name, _, _), result) in files.iter().zip(&results) {
        match result {
            Ok(c) => {
                modules += c.modules;
                symbols += c.symbols;
                records += c.records;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{} multi-module files ({} built by llvm-cat-14), {modules} modules from {} .ll, \
         {symbols} global values agree, {records} records typed",
        files.len(),
        CASES.len(),
        lls.len()
    );
    assert!(failures.is_empty(), "{} files differ:\n{}", failures.len(), failures.join("\n"));
}

/// The committed fixtures of tests/data/multimodule (made by its make.sh): each module's
/// symbols are ll-symbols of its .ll.
pub fn multimodule_fixtures_equal_the_ll_symbols_of_their_modules() {
    let Some(shared) = require_shared(TEST) else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/multimodule");
    let ll = |m: &str| dir.join(format!("{m}.ll"));
    let fixtures = [
        ("alpha+beta.bc", vec![ll("alpha"), ll("beta")]),
        ("alpha+beta.shared.bc", vec![ll("alpha"), ll("beta")]),
        ("alpha+beta+gamma.bc", vec![ll("alpha"), ll("beta"), ll("gamma")]),
    ];
    let oracle = shared.join("oracle/ll-symbols");
    let listings: HashMap<PathBuf, String> = ["alpha", "beta", "gamma"]
        .iter()
        .map(|m| {
            let out = run(Command::new(&oracle).arg(ll(m))).unwrap();
            (ll(m), String::from_utf8(out).unwrap())
        })
        .collect();
    for (name, modules) in &fixtures {
        let checked = check_file(&shared, &dir.join(name), modules, &listings)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(checked.modules, modules.len());
    }
}
