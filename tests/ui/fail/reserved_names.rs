mod s {
    bitcode::schema!("tests/ui/fail/reserved_names.toml");
}

fn main() {}
