mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/duplicate_block_name.toml");
}

fn main() {}
