//! Modules built by hand after real corpus files, printed and compared byte for byte with
//! what each release's llvm-dis wrote for them (../shared/corpus-bytecode).

use std::path::PathBuf;

use super::{disassemble, Release};
use crate::bytecode::ir::{
    BlockId, ConstId, Constant, GlobalId, GlobalRef, InstId, Instruction, IntBits, Linkage, Module, Opcode,
    Type, TypeId, ValueRef,
};

fn corpus_file(release: Release, name: &str) -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus-bytecode")
        .join(release.folder())
        .join(format!("{name}.dis.ll"));
    std::fs::read_to_string(path).ok()
}

/// Prints `m` as `release` and compares it with the corpus, or reports a skip.
fn check(release: Release, name: &str, m: &Module) {
    let Some(expected) = corpus_file(release, name) else {
        println!("skipped: {}/{name}.dis.ll not found (../shared/corpus-bytecode missing)", release.folder());
        return;
    };
    let got = disassemble(m, release, &format!("{name}.bc"));
    if got != expected {
        let line = got.lines().zip(expected.lines()).position(|(a, b)| a != b);
        panic!(
            "{release:?} {name}: output differs (first differing line {line:?})\n--- got\n{got}\n--- expected\n{expected}"
        );
    }
}

/// The spellings that changed between eras.
#[derive(Clone, Copy)]
struct Era {
    release: Release,
}

impl Era {
    fn new_ints(self) -> bool {
        self.release == Release::V2_0Dev
    }
    fn int(self) -> Type {
        if self.new_ints() {
            Type::Integer(32)
        } else {
            Type::Int
        }
    }
    fn uint(self) -> Type {
        if self.new_ints() {
            Type::Integer(32)
        } else {
            Type::UInt
        }
    }
    fn long(self) -> Type {
        if self.new_ints() {
            Type::Integer(64)
        } else {
            Type::Long
        }
    }
    fn sbyte(self) -> Type {
        if self.new_ints() {
            Type::Integer(8)
        } else {
            Type::SByte
        }
    }
    fn bool(self) -> Type {
        if self.new_ints() {
            Type::Integer(1)
        } else {
            Type::Bool
        }
    }
    /// The type of structure indices in getelementptr.
    fn field_index(self) -> Type {
        match self.release {
            Release::V1_1 | Release::V1_2 => Type::UByte,
            Release::V2_0Dev => Type::Integer(32),
            _ => Type::UInt,
        }
    }
}

/// Small helpers to build modules by hand.
struct B {
    m: Module,
}

impl B {
    fn new(revision: u32) -> B {
        B { m: Module::new(revision) }
    }
    fn ty(&mut self, t: Type) -> TypeId {
        self.m.intern_type(t)
    }
    fn ptr(&mut self, t: TypeId) -> TypeId {
        self.m.pointer_to(t)
    }
    fn func_ty(&mut self, ret: TypeId, params: Vec<TypeId>, varargs: bool) -> TypeId {
        let f = self.ty(Type::Function { ret, params, varargs, param_attrs: vec![] });
        self.ptr(f)
    }
    fn array(&mut self, element: TypeId, len: u64) -> TypeId {
        self.ty(Type::Array { element, len })
    }
    fn strukt(&mut self, fields: Vec<TypeId>) -> TypeId {
        self.ty(Type::Struct { fields, packed: false })
    }
    /// A structure whose fields may refer to itself through `SELF`.
    fn recursive_struct(&mut self, fields: &[Option<TypeId>], self_ptr_fields: bool) -> TypeId {
        let s = self.m.push_type(Type::Opaque);
        let p = self.m.push_type(Type::Pointer { pointee: s });
        let fields = fields.iter().map(|f| f.unwrap_or(if self_ptr_fields { p } else { s })).collect();
        self.m.set_type(s, Type::Struct { fields, packed: false });
        s
    }
    fn int(&mut self, ty: TypeId, v: i64) -> ConstId {
        self.m.add_constant(Constant::Int { ty, value: (v as u64).into() })
    }
    fn double(&mut self, ty: TypeId, v: f64) -> ConstId {
        self.m.add_constant(Constant::Float { ty, bits: v.to_bits() })
    }
    fn c(&mut self, c: Constant) -> ConstId {
        self.m.add_constant(c)
    }
    fn gaddr(&mut self, g: GlobalId) -> ConstId {
        self.m.add_constant(Constant::GlobalAddr(GlobalRef::Var(g)))
    }
    fn expr(&mut self, opcode: Opcode, ty: TypeId, operands: Vec<ConstId>) -> ConstId {
        self.m.add_constant(Constant::Expr { ty, opcode, operands, predicate: 0 })
    }
    fn global(&mut self, name: Option<&str>, content: TypeId, init: ConstId) -> GlobalId {
        let ty = self.ptr(content);
        self.m.add_global(name, ty, false, Some(init))
    }
}

fn inst(op: Opcode, ty: TypeId, operands: Vec<ValueRef>, name: Option<&str>) -> Instruction {
    let mut i = Instruction::new(op, ty, operands);
    i.name = name.map(str::to_string);
    i
}

/// Transforms/CorrelatedExprs/2002-10-04-ForwardingBug.ll: named recursive types, a
/// string, a loop with a phi, getelementptr, a varargs call with a constant expression.
fn forwarding_bug(era: Era) -> Module {
    let mut b = B::new(0);
    let int = b.ty(era.int());
    let long = b.ty(era.long());
    let uint = b.ty(era.uint());
    let sbyte = b.ty(era.sbyte());
    let bool_ty = b.ty(era.bool());
    let idx = b.ty(era.field_index());
    let void = b.ty(Type::Void);
    let handle = b.recursive_struct(&[Some(int), None, None], true);
    let node = b.recursive_struct(&[Some(int), None, None], true);
    b.m.type_names.push(("struct.node".into(), node));
    b.m.type_names.push(("HANDLE".into(), handle));
    let handle_p = b.ptr(handle);
    let handle_pp = b.ptr(handle_p);
    let int_p = b.ptr(int);
    let str_ty = b.array(sbyte, 11);
    let sbyte_p = b.ptr(sbyte);
    let printf_ty = b.func_ty(int, vec![sbyte_p], true);
    let in_order_ty = b.func_ty(void, vec![handle_p], false);

    let elem = sbyte;
    let text = b.m.add_string(str_ty, elem, b"%d @ 0x%x\n\0");
    let lc0 = b.global(Some(".LC0"), str_ty, text);
    b.m.globals[0].linkage = Linkage::Internal;
    let in_order = b.m.add_function(Some("InOrder"), in_order_ty);
    let printf = b.m.add_function(Some("printf"), printf_ty);

    let null = b.c(Constant::Null { ty: handle_p });
    let zero_l = b.int(long, 0);
    let zero_u = b.int(uint, 0);
    let idx0 = b.int(idx, 0);
    let idx1 = b.int(idx, 1);
    let idx2 = b.int(idx, 2);
    let lc0_addr = b.gaddr(lc0);
    let gep = b.expr(Opcode::GetElementPtr, sbyte_p, vec![lc0_addr, zero_l, zero_l]);

    let f = &mut b.m.functions[in_order.0 as usize];
    f.args[0].name = Some("h".into());
    let [bb0, bb2, bb3, bb4] = ["bb0", "bb2", "bb3", "bb4"].map(|n| f.add_block(Some(n.into())));
    let (c, i, bl) = (ValueRef::Const, ValueRef::Inst, ValueRef::Block);
    f.push_inst(bb0, inst(Opcode::Br, void, vec![bl(bb2)], None));
    let phi = f.push_inst(
        bb2,
        inst(Opcode::Phi, handle_p, vec![i(InstId(7)), bl(bb3), ValueRef::Arg(0), bl(bb0)], Some("reg113")),
    );
    let mut cmp = inst(Opcode::SetEQ, bool_ty, vec![i(phi), c(null)], Some("cond217"));
    if era.new_ints() {
        cmp.opcode = Opcode::ICmp;
        cmp.predicate = 32;
    }
    let cond = f.push_inst(bb2, cmp);
    f.push_inst(bb2, inst(Opcode::Br, void, vec![bl(bb4), bl(bb3), i(cond)], None));
    let p221 = f.push_inst(
        bb3,
        inst(Opcode::GetElementPtr, handle_pp, vec![i(phi), c(zero_l), c(idx1)], Some("reg221")),
    );
    let r108 = f.push_inst(bb3, inst(Opcode::Load, handle_p, vec![i(p221)], Some("reg108")));
    let p226 = f.push_inst(
        bb3,
        inst(Opcode::GetElementPtr, handle_pp, vec![i(phi), c(zero_l), c(idx2)], Some("reg226")),
    );
    f.push_inst(bb3, inst(Opcode::Load, handle_p, vec![i(p226)], Some("reg109")));
    f.push_inst(bb3, inst(Opcode::Call, void, vec![ValueRef::Function(in_order), i(r108)], None));
    let p231 = f.push_inst(
        bb3,
        inst(Opcode::GetElementPtr, int_p, vec![i(phi), c(zero_l), c(idx0)], Some("cast231")),
    );
    let r111 = f.push_inst(bb3, inst(Opcode::Load, int, vec![i(p231)], Some("reg111")));
    let call_ops = vec![ValueRef::Function(printf), c(gep), i(r111), c(zero_u)];
    f.push_inst(bb3, inst(Opcode::Call, int, call_ops, Some("reg233")));
    f.push_inst(bb3, inst(Opcode::Br, void, vec![bl(bb2)], None));
    f.push_inst(bb4, inst(Opcode::Ret, void, vec![], None));
    b.m
}

#[test]
fn forwarding_bug_matches_every_release() {
    for release in Release::ALL {
        check(
            release,
            "Transforms__CorrelatedExprs__2002-10-04-ForwardingBug",
            &forwarding_bug(Era { release }),
        );
    }
}

/// Feature/constexpr.ll: unnamed and named globals whose initializers are constant
/// expressions over other globals (use counts through ConstantPointerRef in 1.1/1.2),
/// strings, nested structures, floats.
fn constexpr_module(era: Era) -> Module {
    let mut b = B::new(0);
    let ulong = b.ty(Type::ULong);
    let long = b.ty(Type::Long);
    let int = b.ty(Type::Int);
    let uint = b.ty(Type::UInt);
    let float = b.ty(Type::Float);
    let sbyte = b.ty(Type::SByte);
    let ubyte = b.ty(Type::UByte);
    let idx = b.ty(era.field_index());
    let float_p = b.ptr(float);
    let int_p = b.ptr(int);
    let int_pp = b.ptr(int_p);
    let uint_p = b.ptr(uint);
    let uint_pp = b.ptr(uint_p);
    let int_ppp = b.ptr(int_pp);
    let ubyte_s = b.strukt(vec![ubyte]);
    let inner = b.strukt(vec![float, ubyte_s]);
    let stype = b.strukt(vec![int, inner, ulong]);
    let floats2 = b.array(float, 2);
    let inner_a = b.strukt(vec![floats2, ulong]);
    let satype = b.strukt(vec![int, inner_a]);
    b.m.type_names.push(("SType".into(), stype));
    b.m.type_names.push(("SAType".into(), satype));
    let sbyte_p = b.ptr(sbyte);
    let ubyte_p = b.ptr(ubyte);
    let stype_p = b.ptr(stype);
    let satype_p = b.ptr(satype);
    let stype_pp = b.ptr(stype_p);
    let float_pp = b.ptr(float_p);
    let ints2 = b.array(int, 2);
    let str_ty = b.array(sbyte, 11);

    let one = b.int(ulong, 1);
    b.global(None, ulong, one);
    let v = b.int(long, 74514);
    b.global(None, long, v);
    // Globals refer to later ones; their ids are known in advance.
    let g = |n: u32| GlobalId(n);
    let t1 = b.gaddr(g(4));
    b.global(Some("t2"), int_p, t1);
    let cast_t1 = b.expr(Opcode::Cast, uint_p, vec![t1]);
    b.global(Some("t3"), uint_p, cast_t1);
    let four = b.int(int, 4);
    b.global(Some("t1"), int, four);
    let t3 = b.gaddr(g(3));
    let cast_t3 = b.expr(Opcode::Cast, int_pp, vec![t3]);
    b.global(Some("t4"), int_pp, cast_t3);
    b.global(Some("t5"), uint_pp, t3);
    let t4 = b.gaddr(g(5));
    b.global(Some("t6"), int_ppp, t4);
    let big = b.int(int, 12345678);
    let cast_big = b.expr(Opcode::Cast, float_p, vec![big]);
    b.global(Some("t7"), float_p, cast_big);
    let eight = b.int(int, 8);
    b.global(Some("t9"), int, eight);
    let g12 = b.gaddr(g(12));
    let cast_g12 = b.expr(Opcode::Cast, int_p, vec![g12]);
    b.global(None, int_p, cast_g12);
    b.global(None, float_p, g12);
    let zero_f = b.double(float, 0.0);
    b.global(None, float, zero_f);

    let (i12, i52) = (b.int(int, 12), b.int(int, 52));
    let arr = b.c(Constant::Array { ty: ints2, elements: vec![i12, i52] });
    let array = b.global(Some("array"), ints2, arr);
    b.m.globals[array.0 as usize].constant = true;
    let (l0, l5, l8) = (b.int(long, 0), b.int(long, 5), b.int(long, 8));
    let array_addr = b.gaddr(array);
    let gep = b.expr(Opcode::GetElementPtr, int_p, vec![array_addr, l0, l0]);
    let array_ptr = b.global(Some("arrayPtr"), int_p, gep);
    let ap = b.gaddr(array_ptr);
    let gep5 = b.expr(Opcode::GetElementPtr, int_pp, vec![ap, l5]);
    b.global(Some("arrayPtr5"), int_pp, gep5);
    let hello = b.m.add_string(str_ty, sbyte, b"hello world");
    let somestr = b.global(Some("somestr"), str_ty, hello);
    b.m.globals[somestr.0 as usize].constant = true;
    let s = b.gaddr(somestr);
    let c5 = b.expr(Opcode::GetElementPtr, sbyte_p, vec![s, l0, l5]);
    b.global(Some("char5"), sbyte_p, c5);
    let c8 = b.expr(Opcode::GetElementPtr, sbyte_p, vec![s, l0, l8]);
    let c8i = b.expr(Opcode::Cast, int_p, vec![c8]);
    b.global(Some("char8a"), int_p, c8i);
    b.global(Some("char8b"), sbyte_p, c8);

    let null = b.c(Constant::Null { ty: stype_p });
    let s1 = b.global(Some("S1"), stype_p, null);
    let (i1, u3, ul4, f2, f3) =
        (b.int(int, 1), b.int(ubyte, 3), b.int(ulong, 4), b.double(float, 2.0), b.double(float, 3.0));
    let ub = b.c(Constant::Struct { ty: ubyte_s, fields: vec![u3] });
    let inner_c = b.c(Constant::Struct { ty: inner, fields: vec![f2, ub] });
    let s2c_init = b.c(Constant::Struct { ty: stype, fields: vec![i1, inner_c, ul4] });
    let s2c = b.global(Some("S2c"), stype, s2c_init);
    let fa = b.c(Constant::Array { ty: floats2, elements: vec![f2, f3] });
    let inner_ac = b.c(Constant::Struct { ty: inner_a, fields: vec![fa, ul4] });
    let s3c_init = b.c(Constant::Struct { ty: satype, fields: vec![i1, inner_ac] });
    let s3c = b.global(Some("S3c"), satype, s3c_init);
    for id in [s2c, s3c] {
        b.m.globals[id.0 as usize].constant = true;
    }
    let s1a = b.gaddr(s1);
    b.global(Some("S1ptr"), stype_pp, s1a);
    let s2a = b.gaddr(s2c);
    b.global(Some("S2"), stype_p, s2a);
    let s3a = b.gaddr(s3c);
    b.global(Some("S3"), satype_p, s3a);
    let (x0, x1) = (b.int(idx, 0), b.int(idx, 1));
    let fld = b.expr(Opcode::GetElementPtr, float_p, vec![s2a, l0, x1, x0]);
    b.global(Some("S1fld1a"), float_p, fld);
    let fld1b = b.global(Some("S1fld1b"), float_p, fld);
    let fa1b = b.gaddr(fld1b);
    b.global(Some("S1fld1bptr"), float_pp, fa1b);
    let fld3 = b.expr(Opcode::GetElementPtr, ubyte_p, vec![s2a, l0, x1, x1, x0]);
    b.global(Some("S2fld3"), ubyte_p, fld3);
    b.m
}

#[test]
fn constexpr_matches_releases_1_1_to_1_9() {
    for release in Release::ALL.into_iter().filter(|r| *r != Release::V2_0Dev) {
        check(release, "Feature__constexpr", &constexpr_module(Era { release }));
    }
}

/// CodeGen/X86/2007-04-08-InlineAsmCrash.ll (2.0dev): data layout, triple, inline asm
/// call, tail calls, fastcc, sdiv.
fn inline_asm_crash() -> Module {
    let mut b = B::new(7);
    b.m.data_layout =
        "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:32:64-f32:32:32-f64:32:64-v64:64:64-v128:128:128-a0:0:64"
            .into();
    b.m.target_triple = "x86_64-unknown-linux-gnu".into();
    let (i8t, i32t, i64t, void) =
        (b.ty(Type::Integer(8)), b.ty(Type::Integer(32)), b.ty(Type::Integer(64)), b.ty(Type::Void));
    let cycle = b.strukt(vec![i64t, i64t]);
    let i8p = b.ptr(i8t);
    let bc = b.recursive_struct(
        &[Some(i32t), Some(i32t), Some(i32t), Some(i32t), None, Some(i8p), Some(i8p)],
        true,
    );
    b.m.type_names.push(("struct.CycleCount".into(), cycle));
    b.m.type_names.push(("struct.bc_struct".into(), bc));
    let bcp = b.ptr(bc);
    let bcpp = b.ptr(bcp);
    let i64p = b.ptr(i64t);
    let cycle_p = b.ptr(cycle);
    let start = b.m.add_global(Some("_programStartTime"), cycle_p, false, None);
    let divide_ty = b.func_ty(i32t, vec![bcp, bcp, bcpp, i32t], false);
    let mult_ty = b.func_ty(void, vec![i8p, i32t, i32t, i8p], false);
    let asm_ty = b.func_ty(i64t, vec![i64p], false);
    let divide = b.m.add_function(Some("bc_divide"), divide_ty);
    let mult = b.m.add_function(Some("_one_mult"), mult_ty);
    b.m.functions[mult.0 as usize].calling_conv = 8;
    let asm = b.c(Constant::InlineAsm {
        ty: asm_ty,
        asm: ".byte 0x0f,0x31".into(),
        constraints: "={dx},=*{ax},~{dirflag},~{fpsr},~{flags}".into(),
        side_effects: true,
    });
    let (z, one, ten) = (b.int(i32t, 0), b.int(i32t, 1), b.int(i32t, 10));
    let sa = b.gaddr(start);
    let gep = b.expr(Opcode::GetElementPtr, i64p, vec![sa, z, one]);
    let null = b.c(Constant::Null { ty: i8p });
    let f = &mut b.m.functions[divide.0 as usize];
    f.calling_conv = 8;
    for (a, n) in f.args.iter_mut().zip(["n1", "n2", "quot", "scale"]) {
        a.name = Some(n.into());
    }
    let entry = f.add_block(Some("entry".into()));
    let c = ValueRef::Const;
    let mut call = inst(Opcode::Call, i64t, vec![c(asm), c(gep)], Some("tmp7.i46"));
    call.tail = true;
    f.push_inst(entry, call);
    let div = f.push_inst(entry, inst(Opcode::SDiv, i32t, vec![c(ten), c(z)], Some("tmp221")));
    let mut call2 = inst(
        Opcode::Call,
        void,
        vec![ValueRef::Function(mult), c(null), c(z), ValueRef::Inst(div), c(null)],
        None,
    );
    call2.tail = true;
    call2.calling_conv = 8;
    f.push_inst(entry, call2);
    f.push_inst(entry, inst(Opcode::Ret, void, vec![c(z)], None));
    b.m
}

#[test]
fn inline_asm_crash_matches_2_0dev() {
    check(Release::V2_0Dev, "CodeGen__X86__2007-04-08-InlineAsmCrash", &inline_asm_crash());
}

/// CodeGen/Generic/2005-04-09-GlobalInPHI.ll (1.5-1.9): a cast of a global in a phi.
fn global_in_phi() -> Module {
    let mut b = B::new(5);
    let (uint, sbyte, ubyte, int, void, bool_ty) = (
        b.ty(Type::UInt),
        b.ty(Type::SByte),
        b.ty(Type::UByte),
        b.ty(Type::Int),
        b.ty(Type::Void),
        b.ty(Type::Bool),
    );
    let typ = b.m.push_type(Type::Opaque);
    let typ_p = b.ptr(typ);
    let typ_pp = b.ptr(typ_p);
    let s3 = b.array(sbyte, 3);
    b.m.set_type(typ, Type::Struct { fields: vec![uint, typ_pp, s3, ubyte], packed: false });
    b.m.type_names.push(("struct.TypHeader".into(), typ));
    let (a4, a17) = (b.array(sbyte, 4), b.array(sbyte, 17));
    let (a4p, a17p, sbyte_p) = (b.ptr(a4), b.ptr(a17), b.ptr(sbyte));
    let s67 = b.m.add_global(Some(".str_67"), a4p, false, None);
    let s87 = b.m.add_global(Some(".str_87"), a17p, false, None);
    let prb = b.func_ty(void, vec![], false);
    let pr_ty = b.func_ty(void, vec![sbyte_p, int, int], false);
    let prbinop = b.m.add_function(Some("PrBinop"), prb);
    let pr = b.m.add_function(Some("Pr"), pr_ty);
    let (fals, i0) = (b.c(Constant::Int { ty: bool_ty, value: 0.into() }), b.int(int, 0));
    let (a87, a67) = (b.gaddr(s87), b.gaddr(s67));
    let cast = b.expr(Opcode::Cast, int, vec![a87]);
    let gep = b.expr(Opcode::GetElementPtr, sbyte_p, vec![a67, i0, i0]);
    let f = &mut b.m.functions[prbinop.0 as usize];
    let [entry, t, e] = ["entry", "cond_true", "else.0"].map(|n| f.add_block(Some(n.into())));
    let (c, bl) = (ValueRef::Const, ValueRef::Block);
    f.push_inst(entry, inst(Opcode::Br, void, vec![bl(t), bl(e), c(fals)], None));
    f.push_inst(t, inst(Opcode::Br, void, vec![bl(e)], None));
    f.push_inst(e, inst(Opcode::Phi, int, vec![c(cast), bl(entry), c(i0), bl(t)], Some("tmp.167.1")));
    f.push_inst(e, inst(Opcode::Call, void, vec![ValueRef::Function(pr), c(gep), c(i0), c(i0)], None));
    f.push_inst(e, inst(Opcode::Ret, void, vec![], None));
    b.m
}

#[test]
fn global_in_phi_matches_1_5_to_1_9() {
    for release in [Release::V1_5, Release::V1_8, Release::V1_9] {
        check(release, "CodeGen__Generic__2005-04-09-GlobalInPHI", &global_in_phi());
    }
}

#[test]
fn malformed_models_print_without_panicking() {
    let mut m = Module::new(3);
    let int = m.push_type(Type::Int);
    let bad = TypeId(99);
    let p = m.push_type(Type::Pointer { pointee: bad });
    m.add_global(None, p, false, Some(ConstId(42)));
    let f = m.add_function(Some("f"), bad);
    if let Some(func) = m.function_mut(f) {
        let bb = func.add_block(None);
        func.push_inst(bb, Instruction::new(Opcode::Call, int, vec![ValueRef::Inst(InstId(7))]));
        func.push_inst(
            bb,
            Instruction::new(Opcode::Br, int, vec![ValueRef::Block(BlockId(9)), ValueRef::Arg(3)]),
        );
        func.push_inst(bb, Instruction::new(Opcode::Phi, int, vec![ValueRef::Arg(0)]));
        func.push_inst(bb, Instruction::new(Opcode::Switch, int, vec![]));
    }
    for release in Release::ALL {
        let text = disassemble(&m, release, "x.bc");
        assert!(!text.is_empty());
    }
}

/// Feature/properties.ll: target lines and dependent libraries, no globals or functions.
fn properties(release: Release) -> Module {
    let mut m = Module::new(3);
    m.endianness = crate::bytecode::ir::Endianness::Little;
    m.pointer_size = crate::bytecode::ir::PointerSize::Bits32;
    m.target_triple = "proc-vend-sys".into();
    m.deplibs = vec!["m".into(), "c".into()];
    if matches!(release, Release::V1_9 | Release::V2_0Dev) {
        m.data_layout = "e-p:32:32".into();
    }
    m
}

#[test]
fn properties_match_releases_1_3_to_2_0dev() {
    for release in Release::ALL.into_iter().skip(2) {
        check(release, "Feature__properties", &properties(release));
    }
}

/// CodeGen/Generic/2003-05-27-useboolinotherbb.ll (1.1): big-endian 64-bit target, an
/// internal function, a hex floating-point zero, a self loop.
fn use_bool_in_other_bb() -> Module {
    let mut b = B::new(0);
    b.m.endianness = crate::bytecode::ir::Endianness::Big;
    b.m.pointer_size = crate::bytecode::ir::PointerSize::Bits64;
    let (double, bool_ty, void) = (b.ty(Type::Double), b.ty(Type::Bool), b.ty(Type::Void));
    let fty = b.func_ty(void, vec![double], false);
    let f = b.m.add_function(Some("QRiterate"), fty);
    let zero = b.double(double, 0.0);
    let func = &mut b.m.functions[f.0 as usize];
    func.linkage = Linkage::Internal;
    func.args[0].name = Some("tmp.212".into());
    let [entry, next, exit] = ["entry", "shortcirc_next.1", "exit.1"].map(|n| func.add_block(Some(n.into())));
    let bl = ValueRef::Block;
    let ops = vec![ValueRef::Arg(0), ValueRef::Const(zero)];
    let cond = func.push_inst(entry, inst(Opcode::SetNE, bool_ty, ops, Some("tmp.213")));
    func.push_inst(entry, inst(Opcode::Br, void, vec![bl(next)], None));
    func.push_inst(next, inst(Opcode::Br, void, vec![bl(next), bl(exit), ValueRef::Inst(cond)], None));
    func.push_inst(exit, inst(Opcode::Ret, void, vec![], None));
    b.m
}

#[test]
fn use_bool_in_other_bb_matches_1_1() {
    check(Release::V1_1, "CodeGen__Generic__2003-05-27-useboolinotherbb", &use_bool_in_other_bb());
}

/// ExecutionEngine/2003-01-04-PhiTest.ll: an unnamed entry block that a phi refers to.
fn phi_test(era: Era) -> Module {
    let mut b = B::new(0);
    let (int, bool_ty, void) = (b.ty(era.int()), b.ty(era.bool()), b.ty(Type::Void));
    let fty = b.func_ty(int, vec![], false);
    let f = b.m.add_function(Some("main"), fty);
    let (zero, one, yes) = (b.int(int, 0), b.int(int, 1), b.int(bool_ty, 1));
    let func = &mut b.m.functions[f.0 as usize];
    let entry = func.add_block(None);
    let [lp, out] = ["Loop", "Out"].map(|n| func.add_block(Some(n.into())));
    let (c, bl) = (ValueRef::Const, ValueRef::Block);
    func.push_inst(entry, inst(Opcode::Br, void, vec![bl(lp)], None));
    let x = func.push_inst(lp, inst(Opcode::Phi, int, vec![c(zero), bl(entry), c(one), bl(lp)], Some("X")));
    func.push_inst(lp, inst(Opcode::Br, void, vec![bl(out), bl(lp), c(yes)], None));
    func.push_inst(out, inst(Opcode::Ret, void, vec![ValueRef::Inst(x)], None));
    b.m
}

#[test]
fn phi_test_matches_every_release() {
    for release in Release::ALL {
        check(release, "ExecutionEngine__2003-01-04-PhiTest", &phi_test(Era { release }));
    }
}

/// Integers wider than 64 bits print as 2.0dev's llvm-dis printed them: the signed decimal
/// of the value as a two's complement number of the type's width.
#[test]
fn wide_integers_print_signed_at_their_width() {
    const M: u64 = u64::MAX;
    let cases: [(u32, &[u64], &str); 7] = [
        (65, &[0, 1], "-18446744073709551616"),
        (65, &[M, 0], "18446744073709551615"),
        (128, &[M, M], "-1"),
        (128, &[M, M >> 1], "170141183460469231731687303715884105727"),
        (200, &[0, 0, 0, 0x80], "-803469022129495137770981046170581301261101496891396417650688"),
        (
            200,
            &[0xb564_0000_0000_0000, 0x9266_87d2_c405_34fd, 0x44_6c3b_15f9],
            "100000000000000000000000000000000000000000000000000",
        ),
        (200, &[7], "7"),
    ];
    let mut b = B::new(7);
    let mut expected = Vec::new();
    for (i, (width, words, text)) in cases.iter().enumerate() {
        let ty = b.ty(Type::Integer(*width));
        let init = b.c(Constant::Int { ty, value: IntBits::from_words(words, *width) });
        b.global(Some(&format!("g{i}")), ty, init);
        expected.push(format!("@g{i} = global i{width} {text}\t\t; <i{width}*> [#uses=0]\n"));
    }
    let text = disassemble(&b.m, Release::V2_0Dev, "wide.bc");
    for line in expected {
        assert!(text.contains(&line), "{line:?} not in\n{text}");
    }
}
