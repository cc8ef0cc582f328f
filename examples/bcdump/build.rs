//! The diagnostics and remarks modules name their schemas by their path from the
//! repository's root (`examples/bcdump/schemas/...`), as the other crates that expand them
//! do; resolve `schema!` paths there.

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let root = std::path::Path::new(&manifest).join("../..");
    println!("cargo:rustc-env=BITCODE_SCHEMA_BASE_DIR={}", root.display());
    println!("cargo:rerun-if-changed=build.rs");
}
