mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/duplicate_enum_value.toml");
}

fn main() {}
