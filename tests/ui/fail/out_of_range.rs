mod s {
    bitcode_schema::schema!("tests/ui/fail/out_of_range.toml");
}

fn main() {}
