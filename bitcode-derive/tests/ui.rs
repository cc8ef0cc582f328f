//! UI tests of the `schema!` macro: one compile-fail case per kind of schema mistake, each
//! with the diagnostics a user sees pinned in its `.stderr`, and compile-pass cases that
//! use the generated API. Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p bitcode-schema-derive --test ui`, then read every one.
//!
//! The cases are the repository's `tests/ui/`, run from this crate rather than the facade
//! because trybuild builds each against every dependency and dev-dependency of the crate that
//! runs it: this crate's are few, the facade's many more (serde_json, libtest-mimic, tempfile
//! and the whole IR layer).

#[test]
fn ui() {
    // trybuild builds each case in a project of its own under target/tests/trybuild, whose
    // manifest directory is not the repository's: resolve the schema paths against its root.
    // (It prints the cases' paths as $WORKSPACE/… without line numbers; the positions these
    // cases pin are the schema's, inside the messages.)
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    std::env::set_var("BITCODE_SCHEMA_BASE_DIR", root);
    let t = trybuild::TestCases::new();
    t.compile_fail("../tests/ui/fail/*.rs");
    t.pass("../tests/ui/pass/*.rs");
}
