mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/invalid_identifier.toml");
}

fn main() {}
