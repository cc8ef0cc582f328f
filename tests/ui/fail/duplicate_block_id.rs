mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/duplicate_block_id.toml");
}

fn main() {}
