mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/out_of_range.toml");
}

fn main() {}
