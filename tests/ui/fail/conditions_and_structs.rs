mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/conditions_and_structs.toml");
}

fn main() {}
