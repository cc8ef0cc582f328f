//! Fuzz target: [`bitcode_fuzz::bodies::typed_roundtrip`] on every input libFuzzer makes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bitcode_fuzz::bodies::typed_roundtrip(data));
