mod s {
    bitcode_schema::schema!("tests/ui/fail/duplicate_block_name.toml");
}

fn main() {}
