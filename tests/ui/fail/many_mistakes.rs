mod s {
    bitcode_schema::schema!("tests/ui/fail/many_mistakes.toml");
}

fn main() {}
