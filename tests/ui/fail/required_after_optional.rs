mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/required_after_optional.toml");
}

fn main() {}
