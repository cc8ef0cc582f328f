mod minimal {
    bitcode_schema_derive::schema!("tests/ui/pass/minimal.toml");
}

fn main() {
    assert_eq!(minimal::FORMAT_NAME, "minimal");
    assert_eq!(&minimal::MAGIC, b"MINI");
    assert_eq!((minimal::b::ID, minimal::b::NAME), (8, "B"));
    let r = minimal::b::R { x: 3, extra_operands: Vec::new() };
    assert_eq!(r.x, 3);
    assert_eq!(minimal::b::R::CODE, 1);
    assert_eq!(minimal::record_name(8, 1), Some("R"));
}
