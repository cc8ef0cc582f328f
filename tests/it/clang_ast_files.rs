//! Clang AST files (`.pch`, `.pcm`) and bitcode of every clang at hand, built here from
//! tests/data/clang-ast: `bcdump --trace FILE` must equal `../shared/oracle/bcanalyzer-jsonl
//! FILE` under the rules of `oracle/compare-trace`, entry for entry.
//!
//! The producers are the clangs 13, 14, 15, 16 and 19 of Debian (`clang-N`, `clang++-N`) and
//! clang 22.1 as zig 0.17.1 ships it (PyPI's `ziglang`, which .ci/run installs; found as
//! `$BITCODE_ZIG`, `zig` on PATH, or `python3 -m ziglang`). From each: a C and a C++
//! precompiled header (`-x c-header`, `-x c++-header`), a C header module
//! (`-fmodules -Xclang -emit-module` of a module map), a C++20 named module
//! (`-x c++-module --precompile`) and C and C++ bitcode (`-c -emit-llvm`).
//!
//! Clang 19 and 22 (not 13 to 16) define, in every AST file, an abbreviation that would be
//! invalid to use and never use it (see tests/data/clang22/make.sh). LLVM's reader accepts
//! it: it checks at definition only what `ReadAbbrevRecord` checks. The committed fixture
//! tests/data/clang22/ast_module.pcm holds it, so the second test checks it without zig.

use crate::common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::*;

const TEST: &str = "clang_ast_files";

/// The Debian clangs whose AST files and bitcode must read alike.
const DEBIAN_CLANGS: &[u32] = &[13, 14, 15, 16, 19];
/// The clang major version of the pinned zig (ziglang 0.17.1 ships clang 22.1.8).
const ZIG_CLANG_MAJOR: u32 = 22;

/// The sources, in tests/data/clang-ast.
fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/clang-ast")
}

/// A compiler: how to run its C and C++ drivers, and what it is.
pub(crate) struct Producer {
    /// A short name for file names and messages, e.g. `clang19` or `zig-clang22`.
    tag: String,
    /// What `--version` says, e.g. `clang 19.1.7` or `zig 0.17.1 (clang 22.1.8)`.
    label: String,
    /// The C driver: a program and its first arguments (`zig cc`).
    pub(crate) cc: Vec<OsString>,
    /// The C++ driver.
    cxx: Vec<OsString>,
    /// The plain clang driver, for modules (`zig cc` does not pass module flags through).
    clang: Vec<OsString>,
    /// Whether the C++ header includes `<vector>` (libstdc++'s makes a 2 MB PCH; libc++'s,
    /// which zig uses, 12 MB, which takes llvm-bcanalyzer half a minute).
    with_vector: bool,
    /// Environment for every run (zig's cache directories).
    env: Vec<(OsString, OsString)>,
}

impl Producer {
    /// A command running `driver` (one of `cc`, `cxx`, `clang`) with this producer's env.
    pub(crate) fn command(&self, driver: &[OsString]) -> Command {
        let mut cmd = Command::new(&driver[0]);
        cmd.args(&driver[1..]).envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }
}

/// The first `clang version X.Y.Z` in a `--version` output.
fn clang_version(output: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(output);
    let rest = &text[text.find("clang version ")? + "clang version ".len()..];
    let version: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    (!version.is_empty()).then_some(version)
}

/// The major number of a version `X.Y.Z`.
fn major(version: &str) -> Option<u32> {
    version.split('.').next()?.parse().ok()
}

/// Debian's `clang-N`, or `None` after reporting it missing.
fn debian_clang(v: u32) -> Option<Producer> {
    let cc = require_tool(TEST, &format!("clang-{v}"))?;
    let cxx = require_tool(TEST, &format!("clang++-{v}"))?;
    let out = run(Command::new(&cc).arg("--version")).ok()?;
    let version = clang_version(&out).unwrap_or_else(|| "?".into());
    Some(Producer {
        tag: format!("clang{v}"),
        label: format!("clang {version}"),
        cc: vec![cc.clone().into()],
        cxx: vec![cxx.into()],
        clang: vec![cc.into()],
        with_vector: true,
        env: Vec::new(),
    })
}

/// The ways to run zig, in the order they are tried: `$BITCODE_ZIG` (a path to the zig
/// binary), `zig` on PATH, `python3 -m ziglang`.
fn zig_candidates() -> Vec<Vec<OsString>> {
    let mut found = Vec::new();
    if let Some(zig) = std::env::var_os("BITCODE_ZIG").filter(|z| !z.is_empty()) {
        found.push(vec![zig]);
    }
    if let Some(zig) = find_tool("zig") {
        found.push(vec![zig.into()]);
    }
    found.push(vec!["python3".into(), "-m".into(), "ziglang".into()]);
    found
}

/// zig with clang 22, or `None` after reporting it missing (a failure in CI). zig's caches
/// go to `scratch`.
pub(crate) fn zig_clang(scratch: &Path) -> Option<Producer> {
    let cache = scratch.join("zig-cache");
    let env = vec![
        (OsString::from("ZIG_GLOBAL_CACHE_DIR"), cache.clone().into_os_string()),
        (OsString::from("ZIG_LOCAL_CACHE_DIR"), cache.into_os_string()),
    ];
    let mut seen = Vec::new();
    for zig in zig_candidates() {
        let with = |extra: &[&str]| -> Vec<OsString> {
            zig.iter().cloned().chain(extra.iter().map(OsString::from)).collect()
        };
        let probe = |args: Vec<OsString>| -> Result<Vec<u8>, String> {
            let mut cmd = Command::new(&args[0]);
            run(cmd.args(&args[1..]).envs(env.iter().map(|(k, v)| (k, v))))
        };
        let shown = zig.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ");
        let (zig_version, clang) = match (probe(with(&["version"])), probe(with(&["cc", "--version"]))) {
            (Ok(zig), Ok(clang)) => (zig, clang),
            // A candidate that is not there (no zig on PATH, no ziglang module) says nothing.
            (Err(e), _) | (_, Err(e)) => {
                if std::env::var_os("BITCODE_ZIG").is_some_and(|z| zig.first() == Some(&z)) {
                    seen.push(format!("BITCODE_ZIG={shown} does not run: {e}"));
                }
                continue;
            }
        };
        let zig_version = String::from_utf8_lossy(&zig_version).trim().to_string();
        let Some(clang) = clang_version(&clang) else {
            seen.push(format!("{shown} cc --version names no clang version"));
            continue;
        };
        if major(&clang) != Some(ZIG_CLANG_MAJOR) {
            seen.push(format!("{shown} is zig {zig_version} with clang {clang}"));
            continue;
        }
        return Some(Producer {
            tag: format!("zig-clang{ZIG_CLANG_MAJOR}"),
            label: format!("zig {zig_version} (clang {clang})"),
            cc: with(&["cc"]),
            cxx: with(&["c++"]),
            clang: with(&["clang"]),
            with_vector: false,
            env,
        });
    }
    let why = if seen.is_empty() { String::new() } else { format!(" ({})", seen.join("; ")) };
    missing(
        TEST,
        &format!(
            "zig with clang {ZIG_CLANG_MAJOR} (pip install ziglang==0.17.1; set BITCODE_ZIG to its zig, \
             or put zig on PATH){why}"
        ),
    );
    None
}

/// The kinds of file built from each producer.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `-x c-header ast.h`.
    CPch,
    /// `-x c++-header ast.hpp`.
    CxxPch,
    /// A header module of `module.modulemap`.
    CPcm,
    /// A C++20 named module, `ast.cppm`.
    CxxPcm,
    /// `-c -emit-llvm use.c`.
    CBc,
    /// `-c -emit-llvm use.cpp`.
    CxxBc,
}

const KINDS: &[Kind] = &[Kind::CPch, Kind::CxxPch, Kind::CPcm, Kind::CxxPcm, Kind::CBc, Kind::CxxBc];

impl Kind {
    /// The output file name.
    fn file_name(self) -> &'static str {
        match self {
            Kind::CPch => "c.pch",
            Kind::CxxPch => "cxx.pch",
            Kind::CPcm => "c.pcm",
            Kind::CxxPcm => "cxx.pcm",
            Kind::CBc => "c.bc",
            Kind::CxxBc => "cxx.bc",
        }
    }

    /// The command that builds this kind with `p` into `out`; `dir` holds the producer's
    /// other outputs (the module cache).
    fn command(self, p: &Producer, dir: &Path, out: &Path) -> Command {
        let src = sources();
        let mut cmd = match self {
            Kind::CPch | Kind::CBc => p.command(&p.cc),
            Kind::CxxPch | Kind::CxxBc => p.command(&p.cxx),
            Kind::CPcm | Kind::CxxPcm => p.command(&p.clang),
        };
        cmd.arg("-w");
        match self {
            Kind::CPch => cmd.args(["-x", "c-header"]).arg(src.join("ast.h")),
            Kind::CxxPch => {
                if p.with_vector {
                    cmd.arg("-DAST_WITH_VECTOR");
                }
                cmd.args(["-std=c++17", "-x", "c++-header"]).arg(src.join("ast.hpp"))
            }
            Kind::CPcm => cmd
                .args(["-c", "-fmodules", "-fmodule-name=ast_module", "-Xclang", "-emit-module"])
                .arg(format!("-fmodules-cache-path={}", dir.join("module-cache").display()))
                .args(["-x", "c"])
                .arg(src.join("module.modulemap")),
            Kind::CxxPcm => {
                cmd.args(["-std=c++20", "-x", "c++-module", "--precompile"]).arg(src.join("ast.cppm"))
            }
            Kind::CBc => cmd.args(["-O1", "-c", "-emit-llvm"]).arg(src.join("use.c")),
            Kind::CxxBc => cmd.args(["-std=c++17", "-O1", "-c", "-emit-llvm"]).arg(src.join("use.cpp")),
        };
        cmd.arg("-o").arg(out);
        cmd
    }
}

/// Runs a command; its stdout, or a message with its exit status, stdout and stderr.
fn run_all(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let text = [out.stdout, out.stderr].map(|t| String::from_utf8_lossy(&t).trim().to_string());
    Err(format!("{} {}", out.status, text.join("\n").trim()))
}

/// What became of one file.
enum Outcome {
    /// bcdump's trace equals llvm-bcanalyzer's, with this many entries.
    Agree(usize),
    /// llvm-bcanalyzer does not read the file: why.
    OracleRejects(String),
    /// The file was not built, or bcdump disagrees: why.
    Failed(String),
}

/// The trace of `file` by the oracle and by bcdump, compared under compare-trace.
fn compare(file: &Path, shared: &Path) -> Outcome {
    let oracle = match run_all(Command::new(shared.join("oracle/bcanalyzer-jsonl")).arg(file)) {
        Ok(trace) => trace,
        Err(e) => return Outcome::OracleRejects(e),
    };
    let entries = |t: &[u8]| t.iter().filter(|&&b| b == b'\n').count();
    let out = match Command::new(bcdump()).arg("--trace").arg(file).output() {
        Ok(out) => out,
        Err(e) => return Outcome::Failed(format!("cannot run bcdump: {e}")),
    };
    if !out.status.success() {
        return Outcome::Failed(format!(
            "bcdump --trace stops after {} of llvm-bcanalyzer's {} entries: {}",
            entries(&out.stdout),
            entries(&oracle),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    // FILE.expected.jsonl beside FILE: c.pch and c.pcm have a stem in common.
    let beside = |suffix: &str| {
        let mut name = file.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let (expected, actual) = (beside(".expected.jsonl"), beside(".actual.jsonl"));
    if let Err(e) = std::fs::write(&expected, &oracle).and_then(|_| std::fs::write(&actual, &out.stdout)) {
        return Outcome::Failed(format!("writing the traces: {e}"));
    }
    match run_all(Command::new(shared.join("oracle/compare-trace")).arg(&expected).arg(&actual)) {
        Ok(_) => Outcome::Agree(entries(&oracle)),
        Err(e) => Outcome::Failed(format!("the trace differs from llvm-bcanalyzer's: {e}")),
    }
}

pub fn ast_files_and_bitcode_of_every_clang_trace_as_llvm_bcanalyzer() {
    let started = Instant::now();
    let Some(shared) = require_shared(TEST) else { return };
    if require_tool(TEST, "llvm-bcanalyzer").is_none() {
        return;
    }
    let scratch = tempfile::tempdir().expect("temporary directory");
    let mut producers: Vec<Producer> = DEBIAN_CLANGS.iter().filter_map(|&v| debian_clang(v)).collect();
    producers.extend(zig_clang(scratch.path()));

    // Build every file, then trace every file built.
    let mut jobs: Vec<(usize, Kind, PathBuf)> = Vec::new();
    for (i, p) in producers.iter().enumerate() {
        let dir = scratch.path().join(&p.tag);
        std::fs::create_dir_all(&dir).expect("producer directory");
        jobs.extend(KINDS.iter().map(|&k| (i, k, dir.join(k.file_name()))));
    }
    let outcomes = parallel_map(&jobs, |(i, kind, out)| {
        let p = &producers[*i];
        let dir = out.parent().unwrap_or(scratch.path());
        let mut cmd = kind.command(p, dir, out);
        match run_all(&mut cmd) {
            Ok(_) => compare(out, &shared),
            Err(e) => Outcome::Failed(format!("building it failed: {cmd:?}: {e}")),
        }
    });

    let mut failures = Vec::new();
    let mut rejected = Vec::new();
    for (i, p) in producers.iter().enumerate() {
        let (mut agreed, mut entries, mut bytes) = (0, 0, 0);
        for ((_, kind, out), outcome) in jobs.iter().zip(&outcomes).filter(|((j, _, _), _)| *j == i) {
            let what = format!("{} {} ({})", p.label, kind.file_name(), out.display());
            bytes += std::fs::metadata(out).map_or(0, |m| m.len());
            match outcome {
                Outcome::Agree(n) => {
                    agreed += 1;
                    entries += n;
                }
                Outcome::OracleRejects(why) => {
                    rejected.push(format!("{what}: llvm-bcanalyzer rejects it: {why}"))
                }
                Outcome::Failed(why) => failures.push(format!("{what}: {why}")),
            }
        }
        eprintln!(
            "{}: {agreed} of {} files ({} KiB) agree with llvm-bcanalyzer ({entries} entries)",
            p.label,
            KINDS.len(),
            bytes / 1024
        );
    }
    eprintln!(
        "{} producers, {} files, {:.1} s",
        producers.len(),
        jobs.len(),
        started.elapsed().as_secs_f64()
    );
    if failures.is_empty() && rejected.is_empty() {
        return;
    }
    // Keep the files for a look: the paths in the messages stay valid.
    let kept = scratch.keep();
    panic!(
        "{} of {} files fail; {} rejected by llvm-bcanalyzer (there should be none); files kept in {}:\n{}",
        failures.len(),
        jobs.len(),
        rejected.len(),
        kept.display(),
        failures.iter().chain(&rejected).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The committed clang 22 module (tests/data/clang22/make.sh).
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/clang22/ast_module.pcm")
}

/// A reader of single bits, LSB first as the bitstream stores them. Independent of the
/// project's reader on purpose: the fixture is checked for the abbreviation whatever that
/// reader makes of it.
struct Bits<'a> {
    data: &'a [u8],
    pos: u64,
}

impl Bits<'_> {
    /// The next `width` bits; `None` past the end.
    fn read(&mut self, width: u32) -> Option<u64> {
        let mut value = 0;
        for i in 0..width {
            let byte = *self.data.get(usize::try_from(self.pos / 8).ok()?)?;
            value |= u64::from((byte >> (self.pos % 8)) & 1) << i;
            self.pos += 1;
        }
        Some(value)
    }

    /// The next VBR of `width`-bit chunks; `None` past the end or beyond 64 bits.
    fn vbr(&mut self, width: u32) -> Option<u64> {
        let (mut value, mut shift) = (0u64, 0u32);
        loop {
            let chunk = self.read(width)?;
            if shift >= 64 {
                return None;
            }
            value |= (chunk & ((1 << (width - 1)) - 1)) << shift;
            if chunk >> (width - 1) == 0 {
                return Some(value);
            }
            shift += width - 1;
        }
    }
}

/// One operand of a DEFINE_ABBREV as written: a literal, or an encoding (1 fixed, 2 VBR,
/// 3 array, 4 char6, 5 blob) with its width when it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RawOp {
    Literal(u64),
    Encoding(u64, Option<u64>),
}

/// The operands of the DEFINE_ABBREV whose abbreviation id (of `width` bits) starts at bit
/// `pos`, when the bits there read as one.
fn define_abbrev_at(data: &[u8], pos: u64, width: u32) -> Option<Vec<RawOp>> {
    let mut bits = Bits { data, pos };
    if bits.read(width)? != 2 {
        return None;
    }
    let count = bits.vbr(5)?;
    if count > 64 {
        return None;
    }
    let mut ops = Vec::new();
    for _ in 0..count {
        if bits.read(1)? == 1 {
            ops.push(RawOp::Literal(bits.vbr(8)?));
        } else {
            ops.push(match bits.read(3)? {
                e @ (1 | 2) => RawOp::Encoding(e, Some(bits.vbr(5)?)),
                e @ 3..=5 => RawOp::Encoding(e, None),
                _ => return None,
            });
        }
    }
    Some(ops)
}

pub fn clang22_fixture_holds_the_unused_abbreviation_and_reads_as_llvm_bcanalyzer() {
    let path = fixture();
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));

    // The fixture is what it is for: clang's DECL_CXX_METHOD abbreviation of DECLTYPES_BLOCK
    // (abbreviation ids of 6 bits there) for template kind 4, whose array (encoding 3) is
    // not the second to last operand and has a literal for its element.
    const ARRAY: RawOp = RawOp::Encoding(3, None);
    let prefix = [RawOp::Literal(101), RawOp::Literal(0), RawOp::Literal(4), ARRAY, RawOp::Literal(0)];
    let found: Vec<(u64, Vec<RawOp>)> = (0..data.len() as u64 * 8)
        .filter_map(|pos| define_abbrev_at(&data, pos, 6).map(|ops| (pos, ops)))
        .filter(|(_, ops)| ops.starts_with(&prefix) && ops.len() > prefix.len())
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{}: expected one DEFINE_ABBREV starting {prefix:?}, found {found:?}",
        path.display()
    );

    // The project reads every record of it.
    let walk = || -> bitcode_schema::Result<(u64, u64)> {
        let (mut records, mut blocks) = (0, 0);
        for stream in bitcode_schema::Input::parse(&data)?.streams()? {
            let mut cursor = stream.cursor();
            while let Some(entry) = cursor.next_entry()? {
                match entry {
                    bitcode_schema::Entry::Record(_) => records += 1,
                    bitcode_schema::Entry::Block(_) => blocks += 1,
                    bitcode_schema::Entry::EndBlock(_) => {}
                }
            }
        }
        Ok((records, blocks))
    };
    let walked = walk();

    // And the trace equals llvm-bcanalyzer's, with as many records.
    let oracle = match (require_shared(TEST), require_tool(TEST, "llvm-bcanalyzer")) {
        (Some(shared), Some(_)) => Some(shared),
        _ => None,
    };
    let mut problems = Vec::new();
    if let Err(e) = &walked {
        problems.push(format!("the project's walk stops: {e}"));
    }
    if let Some(shared) = oracle {
        let scratch = tempfile::tempdir().expect("temporary directory");
        let copy = scratch.path().join("ast_module.pcm");
        std::fs::copy(&path, &copy).expect("copy of the fixture");
        match compare(&copy, &shared) {
            Outcome::Agree(entries) => {
                eprintln!("clang 22 fixture: {entries} entries agree with llvm-bcanalyzer")
            }
            Outcome::OracleRejects(why) => problems.push(format!("llvm-bcanalyzer rejects it: {why}")),
            Outcome::Failed(why) => problems.push(why),
        }
        let trace = run(Command::new(shared.join("oracle/bcanalyzer-jsonl")).arg(&copy)).unwrap_or_default();
        let text = String::from_utf8_lossy(&trace);
        let oracle_records = text.lines().filter(|l| l.starts_with("{\"record\"")).count() as u64;
        let oracle_blocks = text.lines().filter(|l| l.starts_with("{\"enter\"")).count() as u64;
        if let Ok((records, blocks)) = walked {
            if (records, blocks) != (oracle_records, oracle_blocks) {
                problems.push(format!(
                    "the walk reads {records} records in {blocks} blocks, llvm-bcanalyzer \
                     {oracle_records} in {oracle_blocks}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "clang 22 fixture {}:\n{}", path.display(), problems.join("\n"));
}
