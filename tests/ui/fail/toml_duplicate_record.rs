mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/toml_duplicate_record.toml");
}

fn main() {}
