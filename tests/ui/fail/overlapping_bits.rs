mod s {
    bitcode_schema::schema!("tests/ui/fail/overlapping_bits.toml");
}

fn main() {}
