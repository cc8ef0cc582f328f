//! The fuzz bodies (bodies.rs, shared with tests/it/fuzz_smoke.rs) for the fuzz targets in
//! fuzz_targets/, with the schemas the diagnostics and remarks body decodes with.

pub mod bodies;

/// The downstream schemas bcdump reads clang's serialized diagnostics and LLVM's remarks
/// with (paths relative to this crate's Cargo.toml, fuzz/).
mod schemas {
    /// clang serialized diagnostics (`DIAG`).
    pub mod diagnostics {
        bitcode_schema::schema!("../schema/diagnostics.toml");
    }
    /// LLVM bitstream remarks (`RMRK`).
    pub mod remarks {
        bitcode_schema::schema!("../schema/remarks.toml");
    }
}
