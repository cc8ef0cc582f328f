mod s {
    bitcode::schema!("tests/ui/fail/duplicate_block_name.toml");
}

fn main() {}
