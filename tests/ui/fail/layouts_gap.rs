mod s {
    bitcode_schema::schema!("tests/ui/fail/layouts_gap.toml");
}

fn main() {}
