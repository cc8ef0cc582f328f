//! The fuzz bodies (bodies.rs, shared with tests/it/fuzz_smoke.rs) for the fuzz targets in
//! fuzz_targets/, with the schemas the diagnostics and remarks body decodes with.

pub mod bodies;

/// The library's schemas of clang's serialized diagnostics and LLVM's remarks.
mod schemas {
    /// clang serialized diagnostics (`DIAG`).
    pub use bitcode_schema::diagnostics::schema as diagnostics;
    /// LLVM bitstream remarks (`RMRK`).
    pub use bitcode_schema::remarks::schema as remarks;
}
