mod s {
    bitcode::schema!("tests/ui/fail/invalid_identifier.toml");
}

fn main() {}
