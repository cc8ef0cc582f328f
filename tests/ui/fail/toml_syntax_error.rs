mod s {
    bitcode::schema!("tests/ui/fail/toml_syntax_error.toml");
}

fn main() {}
