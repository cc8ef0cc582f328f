mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/kind_parameters.toml");
}

fn main() {}
