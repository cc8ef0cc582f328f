mod s {
    bitcode::schema!("tests/ui/fail/undefined_enum.toml");
}

fn main() {}
