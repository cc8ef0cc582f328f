mod s {
    bitcode::schema!("tests/ui/fail/duplicate_record_code.toml");
}

fn main() {}
