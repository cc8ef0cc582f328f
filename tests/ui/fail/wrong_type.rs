mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/wrong_type.toml");
}

fn main() {}
