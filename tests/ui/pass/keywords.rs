// Schema names that are Rust keywords compile and are usable: `type` as `r#type`, `self`
// (which has no raw form) as `self_`; a `-` in a name is a word break (`a-b` is `a_b`).
mod keywords {
    bitcode_schema_derive::schema!("tests/ui/pass/keywords.toml");
}

use bitcode_schema_runtime::decode::TypeId;
use keywords::{r#match, self_, Fn, Impl, Type};

fn main() {
    let r = r#match::Struct {
        r#type: TypeId(1),
        r#match: Type::Loop,
        self_: 2,
        r#async: Impl { r#const: true, self_: false, r#where: Type::Match, other_bits: 0 },
        crate_: 3,
        r#gen: 4,
        a_b: 5,
        r#fn: [Fn::Move { r#ref: 6, super_: 7 }].into_iter().collect(),
    };
    assert_eq!(r.r#type, TypeId(1));
    assert_eq!(r.r#match.to_string(), "loop");
    assert_eq!(Type::Self_.name(), "Self");
    assert_eq!(r.r#async.bits(), 0b1001);
    assert_eq!(r#match::ID, 8);
    assert_eq!(self_::NAME, "self");
    assert_eq!(self_::Self_::NAME, "Self");
    let s = self_::Self_ { r#dyn: 1, extra_operands: Vec::new() };
    assert_eq!(s.r#dyn, 1);
    assert_eq!(keywords::record_name(9, 1), Some("Self"));
    let _: Option<r#match::Record<'static>> = Some(r#match::Record::Struct(r));
}
