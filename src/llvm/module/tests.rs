//! Tests of the module reader on a corpus file.

use super::{read_modules, Op, Type, ValueKind};

#[test]
fn hello_reads_into_globals_functions_and_a_body() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/clang14__hello__O2.bc");
    let Ok(bytes) = std::fs::read(path) else {
        assert!(std::env::var_os("CI").is_none(), "{path} is missing (CI: a failure, not a skip)");
        println!("SKIPPED: no {path}");
        return;
    };
    let input = crate::Input::parse(&bytes).unwrap();
    let streams = input.streams().unwrap();
    let mut modules = read_modules(&streams[0]).unwrap();
    assert_eq!(modules.len(), 1);
    let m = &mut modules[0];
    assert_eq!(&m.triple[..], b"x86_64-pc-linux-gnu");
    assert!(m.typed_pointers);
    let names: Vec<&[u8]> = m.globals.iter().map(|g| &g.common.name[..]).collect();
    assert_eq!(names, [&b".str"[..], b".str.1"]);
    let functions: Vec<&[u8]> = m.functions.iter().map(|f| &f.common.name[..]).collect();
    assert_eq!(functions, [&b"main"[..], b"printf"]);
    assert!(matches!(m.values[0].kind, ValueKind::Global(0)));
    assert_eq!(m.bodies().collect::<Vec<_>>(), [0]);
    let body = m.function_body(0).unwrap();
    assert_eq!(body.blocks.len(), 3);
    assert!(matches!(body.instructions.last().map(|i| &i.op), Some(Op::Ret(Some(_)))));
    let phi = body.instructions.iter().find(|i| matches!(i.op, Op::Phi { .. })).unwrap();
    assert!(matches!(m.types.get(phi.ty), Some(Type::Pointer { pointee: Some(_), .. })));
    // A body that is not there is an error, not a panic.
    assert!(m.function_body(1).is_err());
}

#[test]
fn types_truncated_are_as_they_were() {
    let mut types = super::Types::default();
    let i32 = types.push(Type::Integer(32), None);
    let before = types.len();
    let i1 = types.intern(Type::Integer(1));
    let pair = types.intern(Type::Struct { identified: None, packed: false, elements: Some(vec![i32, i1]) });
    assert_eq!((i1, pair), (1, 2));
    types.truncate(before);
    assert_eq!(types.len(), before);
    assert!(types.get(i1).is_none());
    // The table's own types are still found; the ones taken back are new again.
    assert_eq!(types.intern(Type::Integer(32)), i32);
    assert_eq!(types.intern(Type::Integer(8)), 1);
    assert_eq!(types.intern(Type::Integer(1)), 2);
}
