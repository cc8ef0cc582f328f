mod s {
    bitcode_schema::schema!("tests/ui/fail/duplicate_field.toml");
}

fn main() {}
