mod s {
    bitcode_schema::schema!("tests/ui/fail/field_after_rest.toml");
}

fn main() {}
