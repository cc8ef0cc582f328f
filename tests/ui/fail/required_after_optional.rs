mod s {
    bitcode::schema!("tests/ui/fail/required_after_optional.toml");
}

fn main() {}
