//! set-linkage on bcdump's bundled sample (examples/bcdump/data/hello.bc): the edited file
//! reads back with the new linkage and visibility and nothing else changed; bad requests
//! fail with their reason. (tests/it/edit.rs checks the results with LLVM's own tools.)
//! Being the package's test, it also makes `cargo test --workspace` build the binary
//! that test runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bitcode_schema::llvm::ir::{Linkage, Visibility};
use bitcode_schema::llvm::{module_symbols, Symbol};
use bitcode_schema::Input;

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bcdump/data/hello.bc")
}

fn set_linkage(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_set-linkage"))
        .arg(sample())
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

/// The symbols of the one module of `bytes`, by name, as text for comparison.
fn symbols(bytes: &[u8]) -> Vec<String> {
    let input = Input::parse(bytes).unwrap();
    let streams = input.streams().unwrap();
    let modules = module_symbols(&streams[0]).unwrap();
    modules[0]
        .iter()
        .map(|s: &Symbol<'_>| format!("{} {:?} {:?}", s.display_name(), s.linkage, s.visibility))
        .collect()
}

#[test]
fn a_global_becomes_weak_and_hidden_and_nothing_else_changes() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("set-linkage-greeting.bc");
    let run = set_linkage(&["greeting", "--linkage", "weak", "--visibility", "hidden"], &out);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(
        String::from_utf8_lossy(&run.stdout).contains("edited=1"),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    let before = symbols(&std::fs::read(sample()).unwrap());
    let after = symbols(&std::fs::read(&out).unwrap());
    let changed: Vec<(&String, &String)> = before.iter().zip(&after).filter(|(b, a)| b != a).collect();
    let expected = format!("greeting {:?} {:?}", Linkage::Weak, Visibility::Hidden);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].1, &expected);
}

#[test]
fn unknown_names_and_words_fail_with_their_reason() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("set-linkage-unwritten.bc");
    for (args, reason) in [
        (&["nope", "--linkage", "internal"][..], "the module has no global value @nope"),
        (&["main", "--linkage", "sideways"][..], "no linkage `sideways`"),
        (&["main"][..], "nothing to change"),
    ] {
        let run = set_linkage(args, &out);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && stderr.contains(reason), "{args:?}: {stderr}");
    }
}
