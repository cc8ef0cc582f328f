mod s {
    bitcode::schema!("tests/ui/fail/kind_parameters.toml");
}

fn main() {}
