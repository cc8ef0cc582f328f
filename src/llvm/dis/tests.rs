//! Corpus tests: every module of /work/shared/corpus printed and compared with the
//! output of the llvm-dis of its producer's version, in /tmp/ref.

use std::path::{Path, PathBuf};

use super::{disassemble, producer_major, DisOptions};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
const REFERENCE: &str = "/tmp/ref";

/// How many corpus modules must print equal to their reference (a ratchet: raise it).
const EQUAL_AT_LEAST: usize = 129;

/// The corpus files with a reference, and their reference texts (one per module).
fn corpus() -> Option<Vec<(PathBuf, Vec<String>)>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bc"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.file_name()?.to_string_lossy().to_string();
        let single = Path::new(REFERENCE).join(format!("{name}.ll"));
        let refs: Vec<String> = if single.exists() {
            vec![std::fs::read_to_string(single).ok()?]
        } else {
            (0..)
                .map_while(|i| {
                    std::fs::read_to_string(Path::new(REFERENCE).join(format!("{name}.ll.{i}"))).ok()
                })
                .collect()
        };
        if !refs.is_empty() {
            out.push((f, refs));
        }
    }
    Some(out)
}

/// Lines that differ between two texts (a rough count: by position after the first
/// line, plus the difference in length).
fn differing_lines(a: &str, b: &str) -> usize {
    let a: Vec<&str> = a.lines().skip(1).collect();
    let b: Vec<&str> = b.lines().skip(1).collect();
    let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
    a.len().max(b.len()) - same
}

/// The development loop (`DIS_DUMP=DIR` writes each text): tests/it/llvm_dis runs the
/// same comparison against llvm-dis itself in CI.
#[test]
#[ignore = "needs references in /tmp/ref (llvm-dis of each corpus module); tests/it/llvm_dis is the CI test"]
fn corpus_modules_print_as_llvm_dis() {
    let Some(files) = corpus() else {
        println!("SKIPPED: no corpus at {CORPUS}");
        return;
    };
    if files.is_empty() {
        println!("SKIPPED: no references in {REFERENCE}");
        return;
    }
    let dump = std::env::var("DIS_DUMP").ok();
    let (mut equal, mut total, mut lines) = (0, 0, 0);
    for (path, refs) in &files {
        let bytes = std::fs::read(path).unwrap();
        let input = crate::Input::parse(&bytes).unwrap();
        let streams = input.streams().unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let options = DisOptions { llvm_major: producer_major(&streams[0]), module_id: name.clone() };
        let texts = match disassemble(&streams[0], &options) {
            Ok(t) => t,
            Err(e) => {
                println!("{name}: error: {e}");
                total += refs.len();
                lines += refs.iter().map(|r| r.lines().count()).sum::<usize>();
                continue;
            }
        };
        for (i, r) in refs.iter().enumerate() {
            total += 1;
            let text = texts.get(i).map_or("", |t| t.as_str());
            if let Some(dir) = &dump {
                let suffix = if refs.len() > 1 { format!(".{i}") } else { String::new() };
                let _ = std::fs::write(Path::new(dir).join(format!("{name}.ll{suffix}")), text);
            }
            let d = differing_lines(text, r);
            if d == 0 {
                equal += 1;
            } else {
                println!("{name}[{i}]: {d} lines differ");
                lines += d;
            }
        }
    }
    println!("equal {equal}/{total}, {lines} differing lines");
    assert!(equal >= EQUAL_AT_LEAST, "equal {equal}/{total}: fewer than {EQUAL_AT_LEAST}");
}

/// The bodies refused out of turn (as a body that needs a type the table lacks is) are
/// read again in turn, by the printer's thread, and print the same: on a rustc module
/// with a summary, a clang one with debug info and one with typed pointers.
#[cfg(feature = "parallel")]
#[test]
fn bodies_read_in_turn_print_the_same() {
    use std::sync::atomic::Ordering;

    use super::feed::REFUSED_OUT_OF_TURN;

    for name in [
        "rustc195__cargo_regex_automata_release_O3.bc",
        "clang16__sqlite3__O0_g.bc",
        "clang14__sqlite3__O2.bc",
    ] {
        let path = Path::new(CORPUS).join(name);
        let Ok(bytes) = std::fs::read(&path) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} is missing (CI: a failure, not a skip)",
                path.display()
            );
            println!("SKIPPED: no {}", path.display());
            return;
        };
        let input = crate::Input::parse(&bytes).unwrap();
        let streams = input.streams().unwrap();
        let options = DisOptions { llvm_major: producer_major(&streams[0]), module_id: name.to_string() };
        let texts = |every: u32| {
            REFUSED_OUT_OF_TURN.store(every, Ordering::Relaxed);
            let texts = disassemble(&streams[0], &options);
            REFUSED_OUT_OF_TURN.store(0, Ordering::Relaxed);
            texts.unwrap()
        };
        let out_of_turn = texts(0);
        for every in [1, 3] {
            assert!(texts(every) == out_of_turn, "{name}: one body in {every} read in turn prints otherwise");
        }
    }
}
