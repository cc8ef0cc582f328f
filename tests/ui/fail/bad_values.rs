mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/bad_values.toml");
}

fn main() {}
