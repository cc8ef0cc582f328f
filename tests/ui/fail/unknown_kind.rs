mod s {
    bitcode_schema::schema!("tests/ui/fail/unknown_kind.toml");
}

fn main() {}
