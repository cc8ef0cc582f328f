//! The fuzz bodies (fuzz/bodies.rs, the same functions the cargo-fuzz targets run) under
//! `cargo test`: each on small files of ../shared/corpus and on a few hundred fixed-seed
//! mutations of them (bit flips, interesting bytes, truncations, chunks repeated, removed or
//! spliced in from another file), and on every input in tests/data/fuzz-regressions/ (the
//! crashes fuzzing found, minimized). A failing input is saved to a temporary file and
//! named in the failure.

use crate::common;

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use common::*;

#[path = "../../fuzz/bodies.rs"]
mod bodies;

/// The library's schemas of diagnostics and remarks, for the diagnostics and remarks body.
mod schemas {
    /// clang serialized diagnostics (`DIAG`).
    pub use bitcode_schema::diagnostics::schema as diagnostics;
    /// LLVM bitstream remarks (`RMRK`).
    pub use bitcode_schema::remarks::schema as remarks;
}

/// Mutants run per body, besides the seeds themselves.
const MUTANTS: usize = 2000;

/// The mutants to run: [`MUTANTS`], or `$FUZZ_SMOKE_MUTANTS` for a long run outside CI.
fn mutants() -> usize {
    std::env::var("FUZZ_SMOKE_MUTANTS").ok().and_then(|n| n.parse().ok()).unwrap_or(MUTANTS)
}
/// Seed files larger than this are left out (they would only slow the test down).
const MAX_SEED_BYTES: u64 = 64 << 10;
/// Seeds taken per body at most (spread over the corpus, in name order).
const MAX_SEEDS: usize = 40;

/// Small corpus files whose names end in one of `suffixes`, at most [`MAX_SEEDS`] of them
/// spread evenly over the list.
fn seeds(shared: &Path, suffixes: &[&str]) -> Vec<(String, Vec<u8>)> {
    let files: Vec<PathBuf> = bitstream_files(&shared.join("corpus"))
        .into_iter()
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            suffixes.iter().any(|s| name.ends_with(s))
                && p.metadata().is_ok_and(|m| m.len() <= MAX_SEED_BYTES)
        })
        .collect();
    let step = files.len().div_ceil(MAX_SEEDS).max(1);
    files
        .iter()
        .step_by(step)
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
        .collect()
}

/// A copy of `seed` with one to four mutations; `donor` gives bytes to splice in.
fn mutate(rng: &mut SplitMix64, seed: &[u8], donor: &[u8]) -> (Vec<u8>, String) {
    let mut bytes = seed.to_vec();
    let mut what = Vec::new();
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            bytes.push(0);
        }
        let at = rng.below(bytes.len());
        match rng.below(7) {
            0 | 1 => {
                let bit = rng.below(8);
                bytes[at] ^= 1 << bit;
                what.push(format!("flip bit {bit} of byte {at}"));
            }
            2 => {
                let value = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x20, 0x3f][rng.below(7)];
                bytes[at] = value;
                what.push(format!("byte {at} = {value:#04x}"));
            }
            3 => {
                bytes.truncate(at);
                what.push(format!("truncate to {at}"));
            }
            4 => {
                let len = 1 + rng.below(64.min(bytes.len() - at));
                let chunk = bytes[at..at + len].to_vec();
                let to = rng.below(bytes.len());
                bytes.splice(to..to, chunk);
                what.push(format!("repeat {len} bytes from {at} at {to}"));
            }
            5 => {
                let len = 1 + rng.below(64.min(bytes.len() - at));
                bytes.drain(at..at + len);
                what.push(format!("remove {len} bytes at {at}"));
            }
            _ => {
                if donor.is_empty() {
                    continue;
                }
                let from = rng.below(donor.len());
                let len = 1 + rng.below(256.min(donor.len() - from));
                bytes.splice(at..at, donor[from..from + len].iter().copied());
                what.push(format!("splice {len} donor bytes from {from} at {at}"));
            }
        }
    }
    (bytes, what.join(", "))
}

/// A fuzz body.
type Body = fn(&[u8]);

/// Runs `body` on `input`; a panic is returned with its message and the input saved.
fn run_one(body_name: &str, body: Body, input: &[u8], what: &str) -> Result<(), String> {
    IN_BODY.set(true);
    let result = panic::catch_unwind(AssertUnwindSafe(|| body(input)));
    IN_BODY.set(false);
    match result {
        Ok(()) => Ok(()),
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            let saved = std::env::temp_dir().join(format!(
                "fuzz_smoke-{body_name}-{:016x}.bin",
                input
                    .iter()
                    .fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
            ));
            let _ = std::fs::write(&saved, input);
            Err(format!("{body_name}: {what}: {message} (input saved to {})", saved.display()))
        }
    }
}

/// Runs `body` on every seed and on [`MUTANTS`] mutants of them; asserts that none fails.
fn smoke(body_name: &str, body: Body, seeds: &[(String, Vec<u8>)]) {
    assert!(!seeds.is_empty(), "{body_name}: no seeds");
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    for (name, bytes) in seeds {
        failures.extend(run_one(body_name, body, bytes, name).err());
    }
    let mut rng = SplitMix64(body_name.bytes().fold(7, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))));
    let mutants = mutants();
    for i in 0..mutants {
        let (name, seed) = &seeds[rng.below(seeds.len())];
        let donor = &seeds[rng.below(seeds.len())].1;
        let (mutant, what) = mutate(&mut rng, seed, donor);
        failures.extend(run_one(body_name, body, &mutant, &format!("mutant {i} of {name} ({what})")).err());
    }
    eprintln!(
        "{body_name}: {} seeds and {mutants} mutants in {:.1}s, {} failures",
        seeds.len(),
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(failures.is_empty(), "{} inputs failed:\n{}", failures.len(), failures.join("\n"));
}

thread_local! {
    /// True while this thread runs a body (whose panics are caught and reported).
    static IN_BODY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Keeps the default panic hook quiet while a body runs (its panics are caught and
/// reported with the input); other panics are shown as usual.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default_hook = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !IN_BODY.with(std::cell::Cell::get) {
                default_hook(info);
            }
        }));
    });
}

/// `raw_walk` on the corpus's small bitstream files (every format) and their mutants.
pub fn raw_walk_survives_corpus_mutants() {
    let Some(shared) = require_shared("fuzz_smoke") else { return };
    quiet_panics();
    let seeds = seeds(&shared, &[".bc", ".dia", ".pcm", ".opt.bitstream", ".o"]);
    smoke("raw_walk", bodies::raw_walk, &seeds);
}

/// `llvm_module` on the corpus's small .bc and .o files and their mutants.
pub fn llvm_module_survives_corpus_mutants() {
    let Some(shared) = require_shared("fuzz_smoke") else { return };
    quiet_panics();
    let seeds = seeds(&shared, &[".bc", ".o"]);
    smoke("llvm_module", bodies::llvm_module, &seeds);
}

/// `llvm_dis` (the module model and its printer) on the corpus's small .bc files and
/// their mutants.
pub fn llvm_dis_survives_corpus_mutants() {
    let Some(shared) = require_shared("fuzz_smoke") else { return };
    quiet_panics();
    let seeds = seeds(&shared, &[".bc"]);
    smoke("llvm_dis", bodies::llvm_dis, &seeds);
}

/// `diagnostics_remarks` on the corpus's .dia and remarks files and their mutants.
pub fn diagnostics_remarks_survive_corpus_mutants() {
    let Some(shared) = require_shared("fuzz_smoke") else { return };
    quiet_panics();
    let seeds = seeds(&shared, &[".dia", ".opt.bitstream"]);
    smoke("diagnostics_remarks", bodies::diagnostics_remarks, &seeds);
}

/// `bytecode_container` on LLVM 1.x bytecode (modules of every release, their `llvc`
/// copies, the files of LLVM's history) and their mutants.
pub fn bytecode_container_survives_corpus_mutants() {
    let Some(shared) = require_shared("fuzz_smoke") else { return };
    quiet_panics();
    let root = shared.join("corpus-bytecode");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in
        ["llvm11", "llvm13", "llvm15/compressed-llvc", "llvm19", "llvm20dev/compressed-llvc", "history"]
    {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        found.retain(|p| {
            p.to_string_lossy().contains(".bc") && p.metadata().is_ok_and(|m| m.len() <= MAX_SEED_BYTES)
        });
        found.sort();
        files.extend(found.into_iter().step_by(25));
    }
    let seeds: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
        .collect();
    assert!(seeds.len() > 100, "{} bytecode seeds", seeds.len());
    smoke("bytecode_container", bodies::bytecode_container, &seeds);
}

/// `writer_roundtrip` on programs spelled by corpus files, their mutants and random bytes.
pub fn writer_roundtrip_holds_for_programs_from_corpus_bytes() {
    let Some(shared) = require_shared("fuzz_smoke") else { return };
    quiet_panics();
    // Any bytes are a program; corpus files and their mutants make varied ones. Random
    // bytes add programs that do not start with a magic.
    let mut seeds = seeds(&shared, &[".dia", ".opt.bitstream", ".bc"]);
    let mut rng = SplitMix64(42);
    for i in 0..20 {
        let len = 16 + rng.below(2000);
        seeds.push((format!("random {i}"), (0..len).map(|_| rng.next() as u8).collect()));
    }
    smoke("writer_roundtrip", bodies::writer_roundtrip, &seeds);
}

/// `typed_roundtrip` on random programs (needs nothing from ../shared): every schema's
/// records that decode from random operands come back the same through the generated
/// encoders, the writer and the reader. The count keeps the test from passing empty.
pub fn typed_roundtrip_holds_for_random_programs() {
    quiet_panics();
    let mut rng = SplitMix64(20);
    let mut failures = Vec::new();
    TYPED_RECORDS.set(0);
    for i in 0..600 {
        let len = 16 + rng.below(4000);
        let mut input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        input[0] = (i % 3) as u8; // each schema in turn
        let body: Body = |data| {
            let count = bodies::typed_records_roundtrip(data);
            TYPED_RECORDS.set(TYPED_RECORDS.get() + count);
        };
        failures.extend(run_one("typed_roundtrip", body, &input, &format!("random program {i}")).err());
    }
    let records = TYPED_RECORDS.take();
    eprintln!(
        "typed_roundtrip: 600 random programs wrote {records} typed records, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{} inputs failed:\n{}", failures.len(), failures.join("\n"));
    assert!(records > 10_000, "only {records} typed records written");
}

thread_local! {
    /// Typed records the programs of [`typed_roundtrip_holds_for_random_programs`] wrote.
    static TYPED_RECORDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Every input in tests/data/fuzz-regressions/TARGET/ (the minimized crashes fuzzing
/// found) passes the body of TARGET; needs nothing from ../shared.
pub fn fuzz_regressions_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let bodies: [(&str, Body); 6] = [
        ("raw_walk", bodies::raw_walk),
        ("llvm_module", bodies::llvm_module),
        ("diagnostics_remarks", bodies::diagnostics_remarks),
        ("writer_roundtrip", bodies::writer_roundtrip),
        ("typed_roundtrip", bodies::typed_roundtrip),
        ("bytecode_container", bodies::bytecode_container),
    ];
    quiet_panics();
    let mut failures = Vec::new();
    let mut count = 0;
    for (name, body) in bodies {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(name))
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for file in files {
            let input = std::fs::read(&file).unwrap();
            failures.extend(run_one(name, body, &input, &file.display().to_string()).err());
            count += 1;
        }
    }
    eprintln!("fuzz regressions: {count} inputs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
