mod s {
    bitcode_schema::schema!("tests/ui/fail/toml_duplicate_record.toml");
}

fn main() {}
