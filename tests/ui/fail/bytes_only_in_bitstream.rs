mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/bytes_only_in_bitstream.toml");
}

fn main() {}
