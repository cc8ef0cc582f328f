mod s {
    bitcode::schema!("tests/ui/fail/wrong_type.toml");
}

fn main() {}
