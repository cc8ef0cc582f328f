mod s {
    bitcode::schema!("tests/ui/fail/duplicate_enum_value.toml");
}

fn main() {}
