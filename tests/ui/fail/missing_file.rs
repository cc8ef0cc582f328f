mod s {
    bitcode_schema::schema!("tests/ui/fail/no_such_schema.toml");
}

fn main() {}
