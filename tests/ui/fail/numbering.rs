mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/numbering.toml");
}

fn main() {}
