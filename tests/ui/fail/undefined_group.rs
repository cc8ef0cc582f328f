mod s {
    bitcode_schema::schema!("tests/ui/fail/undefined_group.toml");
}

fn main() {}
