mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/no_such_schema.toml");
}

fn main() {}
