mod s {
    bitcode_schema::schema!("tests/ui/fail/duplicate_enum_value.toml");
}

fn main() {}
