mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/reserved_names.toml");
}

fn main() {}
