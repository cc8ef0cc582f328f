mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/bytes_framing.toml");
}

fn main() {}
