mod s {
    bitcode::schema!("tests/ui/fail/no_such_schema.toml");
}

fn main() {}
