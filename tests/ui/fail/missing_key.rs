mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/missing_key.toml");
}

fn main() {}
