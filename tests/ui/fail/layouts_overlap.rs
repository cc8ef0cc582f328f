mod s {
    bitcode::schema!("tests/ui/fail/layouts_overlap.toml");
}

fn main() {}
