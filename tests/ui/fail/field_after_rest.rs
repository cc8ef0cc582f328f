mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/field_after_rest.toml");
}

fn main() {}
