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

#[test]
fn casts_are_valid_as_cast_is_valid_says() {
    use crate::llvm::ir::CastOpcode as C;
    let mut types = super::Types::default();
    let [i8, i32, i64, float, double] =
        [Type::Integer(8), Type::Integer(32), Type::Integer(64), Type::Float, Type::Double]
            .map(|t| types.intern(t));
    let ptr = types.intern(Type::Pointer { pointee: None, address_space: 0 });
    let ptr1 = types.intern(Type::Pointer { pointee: None, address_space: 1 });
    let v2i32 = types.intern(Type::Vector { len: 2, element: i32, scalable: false });
    let v2i64 = types.intern(Type::Vector { len: 2, element: i64, scalable: false });
    let nxv4i32 = types.intern(Type::Vector { len: 4, element: i32, scalable: true });
    let nxv2i64 = types.intern(Type::Vector { len: 2, element: i64, scalable: true });
    let valid = [
        (C::Trunc, i32, i8),
        (C::Zext, i8, i64),
        (C::Sext, v2i32, v2i64),
        (C::Fpext, float, double),
        (C::Fptrunc, double, float),
        (C::Sitofp, i32, double),
        (C::Fptoui, float, i64),
        (C::Ptrtoint, ptr, i64),
        (C::Inttoptr, i64, ptr1),
        (C::Bitcast, v2i32, i64),
        (C::Bitcast, i64, double),
        (C::Bitcast, nxv4i32, nxv2i64),
        (C::Bitcast, ptr, ptr),
        (C::Addrspacecast, ptr, ptr1),
    ];
    let invalid = [
        (C::Trunc, i8, i32),
        (C::Trunc, i32, i32),
        (C::Zext, v2i32, i64),
        (C::Fpext, double, float),
        (C::Fptosi, i64, float),
        (C::Sitofp, float, double),
        (C::Ptrtoint, i64, i64),
        (C::Bitcast, i32, i64),
        (C::Bitcast, ptr, i64),
        (C::Bitcast, ptr, ptr1),
        (C::Bitcast, v2i64, nxv2i64),
        (C::Addrspacecast, ptr, ptr),
        (C::Unknown(99), i32, i32),
    ];
    for (op, from, to) in valid {
        assert!(types.cast_is_valid(op, from, to), "{op} {from} to {to} is valid");
    }
    for (op, from, to) in invalid {
        assert!(!types.cast_is_valid(op, from, to), "{op} {from} to {to} is not");
    }
}
