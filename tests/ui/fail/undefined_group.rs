mod s {
    bitcode::schema!("tests/ui/fail/undefined_group.toml");
}

fn main() {}
