mod s {
    bitcode_schema::schema!("tests/ui/fail/duplicate_record_name.toml");
}

fn main() {}
