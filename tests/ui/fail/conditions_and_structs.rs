mod s {
    bitcode::schema!("tests/ui/fail/conditions_and_structs.toml");
}

fn main() {}
