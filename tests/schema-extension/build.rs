//! Writes the LLVM IR schema with one more value-defining instruction to OUT_DIR and points
//! the `schema!` macro there (BITCODE_SCHEMA_BASE_DIR resolves its path).

use std::path::PathBuf;

/// The record added: a made-up instruction of code 200 that yields a value.
const EXTRA_RECORD: &str = r#"
[blocks.FUNCTION_BLOCK.records.INST_EXAMPLE]
code = 200
defines = "value"
doc = "A made-up instruction of one operand that yields a value (not in LLVM)."
fields = [{ name = "operand", kind = "value_type" }]
"#;

fn main() {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let schema = manifest.join("../../schema/llvm_ir.toml");
    println!("cargo:rerun-if-changed={}", schema.display());
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(&schema).expect("schema/llvm_ir.toml is readable");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("llvm_ir_extended.toml"), text + EXTRA_RECORD).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=BITCODE_SCHEMA_BASE_DIR={}", out.display());
}
