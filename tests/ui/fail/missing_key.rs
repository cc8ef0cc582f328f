mod s {
    bitcode::schema!("tests/ui/fail/missing_key.toml");
}

fn main() {}
