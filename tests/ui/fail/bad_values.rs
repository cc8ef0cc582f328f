mod s {
    bitcode::schema!("tests/ui/fail/bad_values.toml");
}

fn main() {}
