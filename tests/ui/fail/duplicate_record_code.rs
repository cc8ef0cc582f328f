mod s {
    bitcode_schema::schema!("tests/ui/fail/duplicate_record_code.toml");
}

fn main() {}
