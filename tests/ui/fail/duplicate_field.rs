mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/duplicate_field.toml");
}

fn main() {}
