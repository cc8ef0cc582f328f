mod s {
    bitcode_schema::schema!("tests/ui/fail/required_after_optional.toml");
}

fn main() {}
