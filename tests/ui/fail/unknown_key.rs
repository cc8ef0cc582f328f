mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/unknown_key.toml");
}

fn main() {}
