mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/duplicate_variant.toml");
}

fn main() {}
