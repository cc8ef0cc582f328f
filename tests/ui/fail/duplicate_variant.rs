mod s {
    bitcode::schema!("tests/ui/fail/duplicate_variant.toml");
}

fn main() {}
