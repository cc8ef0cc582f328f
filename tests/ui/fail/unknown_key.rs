mod s {
    bitcode::schema!("tests/ui/fail/unknown_key.toml");
}

fn main() {}
