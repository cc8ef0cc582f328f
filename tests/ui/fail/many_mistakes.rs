mod s {
    bitcode::schema!("tests/ui/fail/many_mistakes.toml");
}

fn main() {}
