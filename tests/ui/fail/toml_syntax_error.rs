mod s {
    bitcode_schema::schema!("tests/ui/fail/toml_syntax_error.toml");
}

fn main() {}
