mod s {
    bitcode::schema!("tests/ui/fail/toml_duplicate_record.toml");
}

fn main() {}
