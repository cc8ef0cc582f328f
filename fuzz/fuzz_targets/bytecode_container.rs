//! Fuzz target: [`bitcode_fuzz::bodies::bytecode_container`] on every input libFuzzer makes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bitcode_fuzz::bodies::bytecode_container(data));
