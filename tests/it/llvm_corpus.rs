//! The LLVM IR schema over every bitcode file of ../shared/corpus (clang 13 to 19, rustc's
//! LLVM 22) and ../shared/corpus-old (LLVM's own compatibility fixtures written by LLVM 3.2
//! to 21, clang and llvm-as 8 to 21, rustc 1.37): `bcdump --check` decodes every record
//! typed, with no unknown record and no error, and visits exactly the records of the file's
//! trace; the two fixtures LLVM keeps as invalid fail with a clean error giving LLVM's reason;
//! and for every .bc with its .ll beside it, `bcdump --symbols` equals
//! `../shared/oracle/ll-symbols FILE.ll`, line for line (for a multi-module file, the
//! listings of its modules' .ll, module after module). Each test's summary counts the files
//! per LLVM version (from the folders' MANIFEST.tsv), and every failure names its version,
//! so that a regression shows by version.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const TEST: &str = "llvm_corpus";

/// The fixtures LLVM keeps as invalid, with what our error must say (LLVM 14's reader says
/// "Malformed block" and "Invalid type for a constant null value").
const INVALID: &[(&str, &str)] = &[
    ("llvmtest__null-type.bc", "block abbreviation id width 0 is not between 1 and 64"),
    ("llvmtest__invalid-type-for-null-constant.bc", "invalid type for a constant null value"),
];

/// .bc/.ll pairs whose two halves disagree on names: rustc 1.37 named its anonymous globals
/// `anon.<hash>.N` in the bitcode but left them unnamed in the separately emitted .ll.
const SYMBOLS_EXCEPTED: &[&str] = &["rustc137__rust__O0.bc", "rustc137__rust__O0_g.bc"];

/// A .bc file of either corpus and the LLVM version that wrote it.
struct CorpusFile {
    path: PathBuf,
    version: Version,
}

impl CorpusFile {
    fn name(&self) -> &str {
        self.path.file_name().and_then(|n| n.to_str()).unwrap_or("")
    }
}

/// An LLVM release as the summaries group them: major and minor for 3.x, major after.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Version {
    Release(u32, u32),
    /// Apple's LLVM, named by its own numbering.
    Apple,
    /// No version in the file (before LLVM 3.8's IDENTIFICATION block) nor in its name.
    Unknown,
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version::Release(3, minor) => write!(f, "3.{minor}"),
            Version::Release(major, _) => write!(f, "{major}"),
            Version::Apple => f.write_str("apple"),
            Version::Unknown => f.write_str("unknown"),
        }
    }
}

/// The version in a MANIFEST.tsv producer column: the first "LLVM" followed by a version
/// ("LLVM 14.0.6", "LLVM-22.1.2", "LLVM10.0.0svn", "LLVM 3.2 (named in the file name)").
fn llvm_version(producer: &str) -> Version {
    for (at, _) in producer.match_indices("LLVM") {
        let rest = producer[at + 4..].trim_start_matches([' ', '-']);
        let mut numbers = rest.split(|c: char| !c.is_ascii_digit());
        let major = numbers.next().and_then(|n| n.parse::<u32>().ok());
        if let Some(major) = major {
            let minor = if major == 3 { numbers.next().and_then(|n| n.parse().ok()).unwrap_or(0) } else { 0 };
            return Version::Release(major, minor);
        }
    }
    if producer.contains("APPLE") {
        Version::Apple
    } else {
        Version::Unknown
    }
}

/// Every .bc file of both corpora, with its version from its folder's MANIFEST.tsv.
fn corpus_files(shared: &Path) -> Vec<CorpusFile> {
    let mut producers: HashMap<PathBuf, String> = HashMap::new();
    for dir in corpus_dirs(shared) {
        let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
        for line in manifest.lines().skip(1) {
            let mut columns = line.split('\t');
            if let (Some(file), Some(producer)) = (columns.next(), columns.next()) {
                producers.insert(dir.join(file), producer.to_string());
            }
        }
    }
    corpus_bc_files(shared)
        .into_iter()
        .map(|path| {
            let version = producers.get(&path).map_or(Version::Unknown, |p| llvm_version(p));
            CorpusFile { path, version }
        })
        .collect()
}

/// "3.2: 32, 3.3: 4, ..., 22: 23" over the files that passed, with "(N failing)" where some
/// did not.
fn per_version(files: &[&CorpusFile], passed: &[bool]) -> String {
    let mut counts: BTreeMap<&Version, (usize, usize)> = BTreeMap::new();
    for (file, &ok) in files.iter().zip(passed) {
        let entry = counts.entry(&file.version).or_default();
        if ok {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(v, (ok, failing))| match failing {
            0 => format!("{v}: {ok}"),
            _ => format!("{v}: {ok} ({failing} failing)"),
        })
        .collect();
    parts.join(", ")
}

/// The .ll beside `bc` (plain or xz-compressed), as text.
fn companion_ll(bc: &Path) -> Option<String> {
    let plain = bc.with_extension("ll");
    if plain.is_file() {
        return std::fs::read_to_string(plain).ok();
    }
    let xz = bc.with_extension("ll.xz");
    if xz.is_file() {
        return run(Command::new("xz").arg("-dc").arg(&xz))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned());
    }
    None
}

/// `bcdump --check` on a valid file: every record typed, none unknown, no error, and as
/// many records as its trace lists.
fn check_valid(file: &Path) -> Result<CheckCounts, String> {
    let out = Command::new(bcdump()).arg("--check").arg(file).output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let counts = parse_check(text.trim())
        .ok_or_else(|| format!("no counts ({})", String::from_utf8_lossy(&out.stderr).trim()))?;
    if counts.unknown != 0 || counts.errors != 0 || !out.status.success() {
        let errors = String::from_utf8_lossy(&out.stderr);
        return Err(format!("{} {}", text.trim(), errors.lines().take(3).collect::<Vec<_>>().join(" | ")));
    }
    // the trace lists every record once
    let trace = run(Command::new(bcdump()).arg("--trace").arg(file))?;
    let traced = trace.split(|&b| b == b'\n').filter(|l| l.starts_with(b"{\"record\"")).count() as u64;
    if traced != counts.records || counts.typed != counts.records {
        return Err(format!("{traced} records in the trace, check says {}", text.trim()));
    }
    Ok(counts)
}

/// `bcdump --check` on an invalid fixture: a failure (not a crash) whose one error line
/// gives `reason` and the bit offset.
fn check_invalid(file: &Path, reason: &str) -> Result<CheckCounts, String> {
    let out = Command::new(bcdump()).arg("--check").arg(file).output().map_err(|e| e.to_string())?;
    let errors = String::from_utf8_lossy(&out.stderr);
    let clean = out.status.code() == Some(1)
        && errors.lines().any(|l| {
            l.starts_with(&format!("bcdump: {}: error: ", file.display()))
                && l.contains(reason)
                && l.contains("(at bit ")
        })
        && !errors.contains("panicked");
    if clean {
        Ok(CheckCounts::default())
    } else {
        Err(format!("expected a clean error saying {reason:?}, got {}: {}", out.status, errors.trim()))
    }
}

pub fn every_record_of_every_corpus_file_decodes_typed() {
    let Some(shared) = require_shared(TEST) else { return };
    let files = corpus_files(&shared);
    assert!(files.len() > 400, "expected both corpora, found {} .bc files", files.len());
    for (name, _) in INVALID {
        assert!(files.iter().any(|f| f.name() == *name), "{name} is missing from corpus-old");
    }
    let results = parallel_map(&files, |f| match INVALID.iter().find(|(name, _)| f.name() == *name) {
        Some((_, reason)) => check_invalid(&f.path, reason),
        None => check_valid(&f.path),
    });
    let mut failures = Vec::new();
    let (mut records, mut warnings) = (0, 0);
    for (file, result) in files.iter().zip(&results) {
        match result {
            Ok(c) => {
                records += c.records;
                warnings += c.warnings;
            }
            Err(e) => failures.push(format!("[LLVM {}] {}: {e}", file.version, file.path.display())),
        }
    }
    let passed: Vec<bool> = results.iter().map(Result::is_ok).collect();
    let all: Vec<&CorpusFile> = files.iter().collect();
    eprintln!(
        "{} files ({} invalid on purpose), {records} records decoded typed, {warnings} warnings; \
         per LLVM version: {}",
        files.len(),
        INVALID.len(),
        per_version(&all, &passed)
    );
    let versions: std::collections::BTreeSet<&Version> = files.iter().map(|f| &f.version).collect();
    assert!(versions.len() >= 20, "expected files of 20+ LLVM versions, found {versions:?}");
    assert!(failures.is_empty(), "{} files fail:\n{}", failures.len(), failures.join("\n"));
}

/// How many modules `module_symbols` finds in a .bc (0 when it cannot read it).
fn module_count(path: &Path) -> usize {
    let Ok(bytes) = std::fs::read(path) else { return 0 };
    let Ok(input) = bitcode_schema::Input::parse(&bytes) else { return 0 };
    let Ok(streams) = input.streams() else { return 0 };
    streams.iter().filter_map(|s| bitcode_schema::llvm::module_symbols(s).ok()).map(|m| m.len()).sum()
}

pub fn symbols_equal_the_ll_symbols_of_the_same_compilation() {
    let Some(shared) = require_shared(TEST) else { return };
    let oracle = shared.join("oracle/ll-symbols");
    let files = corpus_files(&shared);
    // Each .bc with the .ll text of its modules, in order: its companion, or for a
    // multi-module file those of the files its modules came from.
    let mut pairs: Vec<(&CorpusFile, Vec<String>)> = Vec::new();
    let mut failures = Vec::new();
    for file in &files {
        if SYMBOLS_EXCEPTED.contains(&file.name()) {
            continue;
        }
        if let Some((_, modules)) = MULTI_MODULE_CORPUS.iter().find(|(name, _)| *name == file.name()) {
            let dir = file.path.parent().unwrap_or(Path::new("."));
            let lls: Option<Vec<String>> =
                modules.iter().map(|m| companion_ll(&dir.join(format!("{m}.bc")))).collect();
            match lls {
                Some(lls) => pairs.push((file, lls)),
                None => failures.push(format!("{}: the .ll of a module is missing", file.path.display())),
            }
        } else if let Some(ll) = companion_ll(&file.path) {
            pairs.push((file, vec![ll]));
        } else if module_count(&file.path) > 1 {
            // Not to be skipped unnoticed: its modules' .ll belong in MULTI_MODULE_CORPUS.
            failures.push(format!("{}: several modules, not in MULTI_MODULE_CORPUS", file.path.display()));
        }
    }
    assert!(pairs.len() > 250, "expected the .bc/.ll pairs of both corpora, found {}", pairs.len());
    let multi = pairs.iter().filter(|(_, lls)| lls.len() > 1).count();
    assert_eq!(multi, MULTI_MODULE_CORPUS.len(), "multi-module files compared");
    let scratch = tempfile::tempdir().unwrap();
    let indexed: Vec<(usize, &(&CorpusFile, Vec<String>))> = pairs.iter().enumerate().collect();
    let results = parallel_map(&indexed, |(i, (file, lls))| -> Result<usize, String> {
        // ll-symbols sorts each module's values; the modules follow each other.
        let mut theirs = Vec::new();
        for (m, ll) in lls.iter().enumerate() {
            let ll_path = scratch.path().join(format!("{i}.{m}.ll"));
            std::fs::write(&ll_path, ll).map_err(|e| e.to_string())?;
            theirs.extend(run(Command::new(&oracle).arg(&ll_path))?);
        }
        let ours = run(Command::new(bcdump()).arg("--symbols").arg(&file.path))?;
        let (theirs, ours) = (String::from_utf8_lossy(&theirs), String::from_utf8_lossy(&ours));
        compare_lines(&theirs, &ours)
            .map_err(|e| format!("[LLVM {}] {}: {e}", file.version, file.path.display()))?;
        Ok(theirs.lines().count())
    });
    let mut symbols = 0;
    for r in &results {
        match r {
            Ok(n) => symbols += n,
            Err(e) => failures.push(e.clone()),
        }
    }
    let passed: Vec<bool> = results.iter().map(Result::is_ok).collect();
    let paired: Vec<&CorpusFile> = pairs.iter().map(|(f, _)| *f).collect();
    eprintln!(
        "{} .bc/.ll pairs ({multi} of them multi-module files), {symbols} global values agree; \
         per LLVM version: {}",
        pairs.len(),
        per_version(&paired, &passed)
    );
    assert!(failures.is_empty(), "{} files differ:\n{}", failures.len(), failures.join("\n"));
}

/// Fixtures whose functions LLVM's reader renames beyond intrinsics: the ObjC ARC upgrade
/// turns `objc_*` runtime calls and `clang.arc.use` into `llvm.objc.*` intrinsics.
const ARC_UPGRADED: &[&str] = &[
    "llvmtest__upgrade-arc-runtime-calls.bc",
    "llvmtest__upgrade-arc-runtime-calls-new.bc",
    "llvmtest__upgrade-clang-arc-use.bc",
    "llvmtest__upgrade-mrr-runtime-calls.bc",
];

/// The lines of an ll-symbols listing that are not intrinsics (`llvm.*`), whose names
/// LLVM's reader upgrades (`llvm.frameaddress` to `llvm.frameaddress.p0i8`...) while the
/// file keeps the old name.
fn without_intrinsics(listing: &[u8]) -> String {
    let text = String::from_utf8_lossy(listing);
    text.lines().filter(|l| !l.contains("\"name\":\"llvm.")).map(|l| format!("{l}\n")).collect()
}

/// LLVM's own fixtures have no .ll: for those LLVM 14 reads (written by LLVM 3.2 to 14:
/// names in the module value symbol table with and without VSTOFFSET and FNENTRY, or in
/// the strtab), `bcdump --symbols` equals ll-symbols of `llvm-dis-14`'s text, intrinsics
/// aside (LLVM upgrades their names as it reads).
pub fn symbols_of_llvm_fixtures_equal_llvm_dis_14() {
    let Some(shared) = require_shared(TEST) else { return };
    let Some(llvm_dis) = require_tool(TEST, "llvm-dis-14") else { return };
    let oracle = shared.join("oracle/ll-symbols");
    let files = corpus_files(&shared);
    let fixtures: Vec<&CorpusFile> = files
        .iter()
        .filter(|f| f.name().starts_with("llvmtest__") && !ARC_UPGRADED.contains(&f.name()))
        .filter(|f| !INVALID.iter().any(|(name, _)| f.name() == *name))
        .collect();
    let scratch = tempfile::tempdir().unwrap();
    // None: a file LLVM 14 cannot read (written by a later LLVM).
    let results = parallel_map(&fixtures, |file| -> Result<Option<usize>, String> {
        let ll_path = scratch.path().join(file.name()).with_extension("ll");
        let dis = Command::new(&llvm_dis).arg("-o").arg(&ll_path).arg(&file.path).output();
        if !dis.is_ok_and(|out| out.status.success()) {
            return Ok(None);
        }
        let theirs = without_intrinsics(&run(Command::new(&oracle).arg(&ll_path))?);
        let ours = without_intrinsics(&run(Command::new(bcdump()).arg("--symbols").arg(&file.path))?);
        compare_lines(&theirs, &ours)
            .map_err(|e| format!("[LLVM {}] {}: {e}", file.version, file.path.display()))?;
        Ok(Some(theirs.lines().count()))
    });
    let mut failures = Vec::new();
    let (mut compared, mut symbols) = (Vec::new(), 0);
    for (file, result) in fixtures.iter().zip(&results) {
        match result {
            Ok(Some(n)) => {
                compared.push(*file);
                symbols += n;
            }
            Ok(None) => {}
            Err(e) => failures.push(e.clone()),
        }
    }
    let passed = vec![true; compared.len()];
    eprintln!(
        "{} of {} LLVM fixtures read by llvm-dis-14, {symbols} global values agree; per LLVM version: {}",
        compared.len(),
        fixtures.len(),
        per_version(&compared, &passed)
    );
    assert!(compared.len() > 60, "expected most fixtures to be compared, got {}", compared.len());
    assert!(failures.is_empty(), "{} files differ:\n{}", failures.len(), failures.join("\n"));
}

/// `--symbols` reads only the module's records: function bodies are skipped by their
/// length, never walked. With every function body overwritten by garbage (lengths kept),
/// the symbols are unchanged while a full typed walk fails.
pub fn symbols_never_walk_function_bodies() {
    let Some(shared) = require_shared(TEST) else { return };
    let bytes = std::fs::read(shared.join("corpus/clang16__switchphi__O2.bc")).unwrap();
    let stream = bitcode_schema::Bitstream::new(&bytes).unwrap();
    let expected = bitcode_schema::llvm::module_symbols(&stream).unwrap();
    // Find every function body's content (after its length word, before its END_BLOCK).
    let mut bodies = Vec::new();
    let mut cursor = stream.cursor();
    while let Some(entry) = cursor.next_entry().unwrap() {
        if let bitcode_schema::Entry::Block(h) = entry {
            if h.id == 12 {
                let start = (cursor.position() / 8) as usize;
                bodies.push(start..start + h.words as usize * 4 - 4);
                cursor.skip_block().unwrap();
            }
        }
    }
    assert!(!bodies.is_empty());
    let mut garbled = bytes.clone();
    for body in &bodies {
        garbled[body.clone()].fill(0xff);
    }
    let stream = bitcode_schema::Bitstream::new(&garbled).unwrap();
    assert_eq!(bitcode_schema::llvm::module_symbols(&stream).unwrap(), expected);
    assert!(bitcode_schema::llvm::check_stream(&stream).is_err(), "the garbage is really there");
}

/// A version 2 module's names are slices of its string table, borrowed from the input
/// rather than copied; only unnamed values, numbered, hold names of their own.
pub fn symbol_names_borrow_the_string_table() {
    let Some(shared) = require_shared(TEST) else { return };
    let bytes = std::fs::read(shared.join("corpus/clang16__switchphi__O2.bc")).unwrap();
    let stream = bitcode_schema::Bitstream::new(&bytes).unwrap();
    let modules = bitcode_schema::llvm::module_symbols(&stream).unwrap();
    let symbols: Vec<_> = modules.iter().flatten().collect();
    assert!(symbols.len() > 3, "{} symbols", symbols.len());
    let input = bytes.as_ptr_range();
    for s in symbols {
        assert!(s.name.is_borrowed(), "{} is a copy", s.display_name());
        assert!(input.contains(&s.name.as_ptr()), "{} is not in the input", s.display_name());
    }
}
