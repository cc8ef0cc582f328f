mod s {
    bitcode::schema!("tests/ui/fail/duplicate_record_name.toml");
}

fn main() {}
