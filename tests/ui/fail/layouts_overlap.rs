mod s {
    bitcode_schema::schema!("tests/ui/fail/layouts_overlap.toml");
}

fn main() {}
