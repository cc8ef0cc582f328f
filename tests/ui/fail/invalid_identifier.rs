mod s {
    bitcode_schema::schema!("tests/ui/fail/invalid_identifier.toml");
}

fn main() {}
