mod s {
    bitcode::schema!("tests/ui/fail/unknown_kind.toml");
}

fn main() {}
