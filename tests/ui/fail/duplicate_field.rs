mod s {
    bitcode::schema!("tests/ui/fail/duplicate_field.toml");
}

fn main() {}
