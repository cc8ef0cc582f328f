mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/layouts_gap.toml");
}

fn main() {}
