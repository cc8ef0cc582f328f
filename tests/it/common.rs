//! Helpers shared by the integration tests: where ../shared and the LLVM tools are, which
//! corpus files are bitstreams, and how to run the bcdump example.
#![allow(dead_code)] // each test binary uses a different part

use std::path::{Path, PathBuf};
use std::process::Command;

/// True when running in CI, where missing data or tools are failures, not skips.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// What the tests found missing at run time: (test, what), in the order reported.
static SKIPPED: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

thread_local! {
    /// The name of the test this thread runs (set by the harness of tests/it).
    static CURRENT_TEST: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `body` as the test `name`: what it reports missing is recorded under that name.
pub fn as_test<R>(name: &str, body: impl FnOnce() -> R) -> R {
    CURRENT_TEST.with(|c| *c.borrow_mut() = Some(name.to_string()));
    let result = body();
    CURRENT_TEST.with(|c| *c.borrow_mut() = None);
    result
}

/// Everything reported missing so far: (test, what).
pub fn skipped() -> Vec<(String, String)> {
    SKIPPED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Reports that `what` is missing: a failure in CI; elsewhere a printed notice, recorded
/// for the closing summary of the test run.
pub fn missing(test: &str, what: &str) {
    assert!(!in_ci(), "{test}: {what} is missing (CI=true: this is a failure, not a skip)");
    eprintln!("NOTICE: {test} skipped: {what} is missing");
    let name = CURRENT_TEST.with(|c| c.borrow().clone()).unwrap_or_else(|| test.to_string());
    let what = format!("{what} is missing");
    let mut skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    if !skipped.iter().any(|(t, w)| *t == name && *w == what) {
        skipped.push((name, what));
    }
}

/// ../shared beside the repository (or $BITCODE_SHARED), when present.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("BITCODE_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    dir.join("oracle").is_dir().then_some(dir)
}

/// ../shared, or `None` after reporting it missing.
pub fn require_shared(test: &str) -> Option<PathBuf> {
    let dir = shared_dir();
    if dir.is_none() {
        missing(test, "../shared (the corpus and oracles)");
    }
    dir
}

/// The path of `tool` on PATH, if it is installed.
pub fn find_tool(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(tool)).find(|p| p.is_file())
}

/// The path of `tool`, or `None` after reporting it missing.
pub fn require_tool(test: &str, tool: &str) -> Option<PathBuf> {
    let found = find_tool(tool);
    if found.is_none() {
        missing(test, tool);
    }
    found
}

/// File name suffixes of the bitstream files in the corpora (native objects included).
const BITSTREAM_SUFFIXES: &[&str] = &[".bc", ".dia", ".pch", ".pcm", ".opt.bitstream", ".o"];

/// The bitstream files (and native objects embedding bitcode) directly in `dir`, sorted.
pub fn bitstream_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        p.is_file() && BITSTREAM_SUFFIXES.iter().any(|s| name.ends_with(s))
    });
    files.sort();
    files
}

/// The corpora under ../shared: the current one and the old-releases one.
pub fn corpus_dirs(shared: &Path) -> Vec<PathBuf> {
    ["corpus", "corpus-old"].iter().map(|d| shared.join(d)).filter(|d| d.is_dir()).collect()
}

/// Every LLVM IR bitcode file (`.bc`) of both corpora.
pub fn corpus_bc_files(shared: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in corpus_dirs(shared) {
        files.extend(bitstream_files(&dir).into_iter().filter(|f| f.extension().is_some_and(|e| e == "bc")));
    }
    files
}

/// The multi-module files of ../shared/corpus (made by `llvm-cat`) and the corpus .bc files,
/// without extension, whose modules they hold, in order (the .ll of each is beside it).
pub const MULTI_MODULE_CORPUS: &[(&str, &[&str])] = &[(
    "llvmcat16b__hello_O0+switchphi_O2+new16.bc",
    &["clang16__hello__O0", "clang16__switchphi__O2", "llvmas16__new16"],
)];

/// The bcdump binary (package `bcdump`, examples/bcdump) that `cargo test` at the root built
/// into target/<profile>/ beside this test's profile directory.
pub fn bcdump() -> PathBuf {
    workspace_binary("bcdump")
}

/// A binary of the workspace (bcdump, set-linkage) that `cargo test` at the root built into
/// target/<profile>/ beside this test's profile directory.
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>/deps/<test>");
    let path = profile_dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: build it first with `cargo build -p {name}` (plain `cargo test` at the root builds it too)",
        path.display()
    );
    path
}

/// Runs a command and returns its stdout, or a message with its stderr.
pub fn run(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{cmd:?} failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr).trim()))
    }
}

/// Runs `work` on every item with one thread per available core; returns the results in
/// item order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(items.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    let slots = std::sync::Mutex::new(&mut results);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = work(item);
                slots.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results.into_iter().map(|r| r.expect("every item processed")).collect()
}

/// The counts `bcdump --check` prints: `records=N typed=T unknown=U errors=E warnings=W`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckCounts {
    pub records: u64,
    pub typed: u64,
    pub unknown: u64,
    pub errors: u64,
    pub warnings: u64,
}

/// Parses the last line of `bcdump --check`.
pub fn parse_check(output: &str) -> Option<CheckCounts> {
    let line = output.lines().last()?;
    let mut c = CheckCounts::default();
    for part in line.split_whitespace() {
        let (key, value) = part.split_once('=')?;
        let value: u64 = value.parse().ok()?;
        match key {
            "records" => c.records = value,
            "typed" => c.typed = value,
            "unknown" => c.unknown = value,
            "errors" => c.errors = value,
            "warnings" => c.warnings = value,
            _ => return None,
        }
    }
    Some(c)
}

/// Compares two texts line by line; describes the first difference.
pub fn compare_lines(expected: &str, actual: &str) -> Result<(), String> {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    for (i, (x, y)) in e.iter().zip(&a).enumerate() {
        if x != y {
            return Err(format!("line {} differs:\n  expected {x}\n  actual   {y}", i + 1));
        }
    }
    if e.len() != a.len() {
        let extra = if e.len() > a.len() { e.get(a.len()) } else { a.get(e.len()) };
        return Err(format!(
            "{} lines expected, {} found; first extra: {}",
            e.len(),
            a.len(),
            extra.unwrap_or(&"")
        ));
    }
    Ok(())
}

/// The lines of a typed dump (`bcdump FILE`) that show a record the schema does not know or
/// could not decode.
pub fn typed_dump_problems(dump: &str) -> Vec<&str> {
    dump.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("unknown ") || l.starts_with("error:")
        })
        .collect()
}

/// A tool of the LLVM that rustc is built on (the `llvm-tools` rustup component: opt, llc),
/// when installed.
pub fn rustc_llvm_tool(tool: &str) -> Option<PathBuf> {
    let sysroot = run(Command::new("rustc").arg("--print").arg("sysroot")).ok()?;
    let version = run(Command::new("rustc").arg("-vV")).ok()?;
    let version = String::from_utf8_lossy(&version);
    let host = version.lines().find_map(|l| l.strip_prefix("host: "))?;
    let path = Path::new(String::from_utf8_lossy(&sysroot).trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin")
        .join(format!("{tool}{}", std::env::consts::EXE_SUFFIX));
    path.is_file().then_some(path)
}

/// A fixed-seed pseudo-random sequence (splitmix64), for mutants that are the same in
/// every run.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next number of the sequence.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
