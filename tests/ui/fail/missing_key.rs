mod s {
    bitcode_schema::schema!("tests/ui/fail/missing_key.toml");
}

fn main() {}
