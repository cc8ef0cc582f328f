mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/undefined_enum.toml");
}

fn main() {}
