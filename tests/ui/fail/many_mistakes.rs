mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/many_mistakes.toml");
}

fn main() {}
