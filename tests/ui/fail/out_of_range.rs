mod s {
    bitcode::schema!("tests/ui/fail/out_of_range.toml");
}

fn main() {}
