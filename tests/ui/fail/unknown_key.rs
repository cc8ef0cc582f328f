mod s {
    bitcode_schema::schema!("tests/ui/fail/unknown_key.toml");
}

fn main() {}
