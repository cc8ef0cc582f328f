mod s {
    bitcode_schema::schema!("tests/ui/fail/reserved_names.toml");
}

fn main() {}
