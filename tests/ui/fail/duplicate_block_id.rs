mod s {
    bitcode::schema!("tests/ui/fail/duplicate_block_id.toml");
}

fn main() {}
