mod s {
    bitcode_schema::schema!("tests/ui/fail/kind_parameters.toml");
}

fn main() {}
