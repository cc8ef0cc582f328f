mod s {
    bitcode::schema!("tests/ui/fail/overlapping_bits.toml");
}

fn main() {}
