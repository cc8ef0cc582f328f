mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/unknown_kind.toml");
}

fn main() {}
