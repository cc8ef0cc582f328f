mod s {
    bitcode::schema!("tests/ui/fail/layouts_gap.toml");
}

fn main() {}
