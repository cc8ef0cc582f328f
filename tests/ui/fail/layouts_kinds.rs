mod s {
    bitcode::schema!("tests/ui/fail/layouts_kinds.toml");
}

fn main() {}
