mod s {
    bitcode_schema::schema!("tests/ui/fail/layouts_kinds.toml");
}

fn main() {}
