// A schema with mistakes in several places: a field of an undefined enum, an enum value, a
// flag and a group variant with invalid numbers, two records with one code, a block with
// an invalid id. The schema's errors are the only ones: every type is still generated (the
// field of the undefined enum as a raw u64, the others with placeholder numbers), so the
// code below, which uses them all, compiles without follow-on errors.
mod s {
    bitcode_schema_derive::schema!("tests/ui/fail/no_cascade.toml");
}

use s::module_block::{Function, Globalvar, Record};
use s::{function_block, Attr, Linkage, VarFlags};

fn describe(r: &Record<'_>) -> String {
    match r {
        Record::Globalvar(Globalvar { size, visibility, flags, linkage, attrs, .. }) => {
            let VarFlags { is_const, huge, .. } = *flags;
            let kinds: Vec<u64> = attrs.iter().map(|Attr::Plain { kind }| *kind).collect();
            format!("{size} {visibility} {is_const} {huge} {linkage} {kinds:?}")
        }
        Record::Function(Function { r#type, .. }) => format!("{type:?}", type = r#type),
        Record::Unknown(raw) => format!("{raw:?}"),
    }
}

fn main() {
    assert_eq!(s::module_block::ID, 8);
    assert_eq!(Globalvar::CODE, 7);
    let _ = (Function::CODE, function_block::ID, function_block::Ret::CODE);
    let _ = (Linkage::External, Linkage::Internal);
    let _ = describe;
    let _ = s::decode_record::<bitcode_schema_runtime::decode::BasicContext>;
}
