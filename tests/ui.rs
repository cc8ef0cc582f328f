//! UI tests of the `schema!` macro: one compile-fail case per kind of schema mistake, each
//! with the diagnostics a user sees pinned in its `.stderr`, and compile-pass cases that
//! use the generated API. Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test --test ui`, then read every one of them.

#[test]
fn ui() {
    // trybuild builds each case in a project of its own under target/tests/trybuild, whose
    // manifest directory is not this crate's: resolve the schema paths against ours.
    std::env::set_var("BITCODE_SCHEMA_BASE_DIR", env!("CARGO_MANIFEST_DIR"));
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
