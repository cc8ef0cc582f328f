mod s {
    bitcode_schema::schema!("tests/ui/fail/undefined_enum.toml");
}

fn main() {}
