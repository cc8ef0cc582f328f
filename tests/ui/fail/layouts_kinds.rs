mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/layouts_kinds.toml");
}

fn main() {}
