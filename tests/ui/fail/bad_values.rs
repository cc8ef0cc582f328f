mod s {
    bitcode_schema::schema!("tests/ui/fail/bad_values.toml");
}

fn main() {}
