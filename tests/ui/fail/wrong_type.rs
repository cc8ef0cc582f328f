mod s {
    bitcode_schema::schema!("tests/ui/fail/wrong_type.toml");
}

fn main() {}
