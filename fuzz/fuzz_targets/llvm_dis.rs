//! Fuzz target: [`bitcode_fuzz::bodies::llvm_dis`] on every input libFuzzer makes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bitcode_fuzz::bodies::llvm_dis(data));
