mod s {
    bitcode_schema::schema!("tests/ui/fail/duplicate_variant.toml");
}

fn main() {}
