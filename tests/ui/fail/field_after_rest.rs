mod s {
    bitcode::schema!("tests/ui/fail/field_after_rest.toml");
}

fn main() {}
