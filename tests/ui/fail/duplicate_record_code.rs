mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/duplicate_record_code.toml");
}

fn main() {}
