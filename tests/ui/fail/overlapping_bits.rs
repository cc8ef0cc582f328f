mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/overlapping_bits.toml");
}

fn main() {}
