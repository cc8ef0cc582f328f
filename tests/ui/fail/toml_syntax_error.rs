mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/toml_syntax_error.toml");
}

fn main() {}
