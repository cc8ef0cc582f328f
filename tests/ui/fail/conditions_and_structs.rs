mod s {
    bitcode_schema::schema!("tests/ui/fail/conditions_and_structs.toml");
}

fn main() {}
