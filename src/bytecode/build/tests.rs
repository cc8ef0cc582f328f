//! The same module (docs/llvm-bytecode.md section 11, from
//! `test/Transforms/InstCombine/2003-05-27-ConstExprCrash.ll`) in three revisions, built
//! and printed as each release's llvm-dis printed it (the corpus's `.dis.ll` files).

use super::*;

/// Revision 0, written by LLVM 1.1.
const REV0: &[u8] = &[
    0x6c, 0x6c, 0x76, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x90, 0x00, 0x00, 0x00, 0x0c, 0xab, 0xab, 0xab, 0x15,
    0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x03, 0x0c, 0x11, 0x07, 0x11, 0x10, 0x0e, 0x09, 0x00, 0xab,
    0xab, 0xab, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0xc2, 0x03, 0x00, 0x00, 0x0f, 0x00, 0xab,
    0xab, 0x12, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x07, 0x00, 0x0a, 0x11, 0x00, 0x00, 0x00,
    0x3c, 0x00, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x03, 0x09, 0x00, 0x02,
    0x00, 0x04, 0x01, 0x1b, 0x02, 0x0e, 0x01, 0x0e, 0x00, 0x01, 0xab, 0x32, 0x00, 0x00, 0x00, 0x0c, 0x00,
    0x00, 0x00, 0x1a, 0x09, 0x00, 0x01, 0x1a, 0x09, 0x02, 0x03, 0x05, 0x09, 0x40, 0x00, 0x13, 0x00, 0x00,
    0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x09, 0x03, 0x01, 0x43, 0x04, 0x01, 0x56, 0x13, 0x00, 0x00, 0x00,
    0x0d, 0x00, 0x00, 0x00, 0x01, 0x0e, 0x01, 0x01, 0x58, 0x01, 0x0f, 0x01, 0x04, 0x74, 0x65, 0x73, 0x74,
    0xab, 0xab, 0xab,
];

/// Revision 5, written by LLVM 1.5.
const REV5: &[u8] = &[
    0x6c, 0x6c, 0x76, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x5c, 0x06, 0x01, 0x00, 0x00,
    0x03, 0x10, 0x07, 0x10, 0x0f, 0x0d, 0x09, 0x00, 0x25, 0x01, 0x00, 0x00, 0xa2, 0x03, 0x01, 0x00, 0xc1,
    0x03, 0x00, 0x00, 0x00, 0xc3, 0x01, 0x00, 0x00, 0x01, 0x07, 0x00, 0x0a, 0x03, 0x09, 0x00, 0x02, 0x00,
    0x04, 0x02, 0x1c, 0x01, 0x0d, 0xc2, 0x03, 0x00, 0x00, 0x00, 0x87, 0x01, 0x00, 0x00, 0x1e, 0x09, 0x01,
    0x02, 0x1e, 0x09, 0x03, 0x04, 0x05, 0x09, 0x50, 0x00, 0x24, 0x01, 0x00, 0x00, 0x00, 0x02, 0x09, 0x04,
    0x01, 0x43, 0x05, 0x01, 0x56, 0xc4, 0x01, 0x00, 0x00, 0x00, 0x01, 0x0d, 0x01, 0x01, 0x58, 0x01, 0x0e,
    0x01, 0x04, 0x74, 0x65, 0x73, 0x74,
];

/// Revision 7, written by the 2.0 development tree.
const REV7: &[u8] = &[
    0x6c, 0x6c, 0x76, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x6d, 0x00, 0x00, 0x00, 0x07, 0x66, 0x02, 0x00, 0x00,
    0x08, 0x04, 0x01, 0x04, 0x08, 0x04, 0x10, 0x04, 0x20, 0x04, 0x40, 0x09, 0x07, 0x09, 0x0b, 0x05, 0x08,
    0x00, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xc2, 0x04, 0x01, 0x00, 0xc1, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0xc3, 0x01, 0x00, 0x00, 0x01, 0x07, 0x00, 0x05, 0x03, 0x08, 0x00, 0x01, 0x00, 0x02, 0x02,
    0x25, 0x01, 0x09, 0xa2, 0x03, 0x00, 0x00, 0x00, 0x87, 0x01, 0x00, 0x00, 0x1e, 0x08, 0x01, 0x02, 0x1e,
    0x08, 0x03, 0x04, 0x05, 0x08, 0x50, 0x00, 0x04, 0x01, 0x00, 0x00, 0x02, 0x08, 0x04, 0x01, 0x43, 0x05,
    0x01, 0x56, 0xa4, 0x01, 0x00, 0x00, 0x01, 0x09, 0x01, 0x01, 0x58, 0x01, 0x0a, 0x01, 0x04, 0x74, 0x65,
    0x73, 0x74,
];

const OLD_TEXT: &str = "%X = global int 5\t\t; <int*> [#uses=1]\n\nimplementation   ; Functions:\n\n\
long %test() {\n\t%C = add long 1, 2\t\t; <long> [#uses=1]\n\
\t%V = add long cast (int* %X to long), %C\t\t; <long> [#uses=1]\n\tret long %V\n}\n";

#[test]
fn revision_0_prints_as_1_1() {
    assert_eq!(release_of(REV0).ok(), Some(Release::V1_1));
    assert_eq!(disassemble_bytes(REV0, "x.bc").ok().as_deref(), Some(OLD_TEXT));
}

#[test]
fn revision_5_prints_as_1_5() {
    assert_eq!(release_of(REV5).ok(), Some(Release::V1_5));
    let expected = format!("; ModuleID = 'x.bc'\n{OLD_TEXT}");
    assert_eq!(disassemble_bytes(REV5, "x.bc").ok(), Some(expected));
}

#[test]
fn revision_7_prints_as_2_0dev() {
    assert_eq!(release_of(REV7).ok(), Some(Release::V2_0Dev));
    let expected = "; ModuleID = 'x.bc'\n@X = global i32 5\t\t; <i32*> [#uses=1]\n\n\
define i64 @test() {\n\t%C = add i64 1, 2\t\t; <i64> [#uses=1]\n\
\t%V = add i64 ptrtoint (i32* @X to i64), %C\t\t; <i64> [#uses=1]\n\tret i64 %V\n}\n";
    assert_eq!(disassemble_bytes(REV7, "x.bc").ok().as_deref(), Some(expected));
}

#[test]
fn the_model_has_the_slots_resolved() {
    let m = build(REV7).ok();
    let m = m.as_ref();
    assert_eq!(m.map(|m| m.globals.len()), Some(1));
    assert_eq!(m.and_then(|m| m.globals.first()).and_then(|g| g.name.as_deref()), Some("X"));
    let f = m.and_then(|m| m.functions.first());
    assert_eq!(f.map(|f| f.insts.len()), Some(3));
    // `%V = add %cast, %C`: the second operand is the first instruction.
    let v = f.and_then(|f| f.insts.get(1));
    assert_eq!(v.and_then(|v| v.operands.get(1)).copied(), Some(ValueRef::Inst(ir::InstId(0))));
}

#[test]
fn damaged_files_fail_without_panicking() {
    for len in 0..REV7.len() {
        let _ = disassemble_bytes(REV7.get(..len).unwrap_or_default(), "x.bc");
    }
    for at in 12..REV5.len() {
        for bit in 0..8 {
            let mut b = REV5.to_vec();
            if let Some(x) = b.get_mut(at) {
                *x ^= 1 << bit;
            }
            let _ = disassemble_bytes(&b, "x.bc");
        }
    }
}

#[test]
fn the_1_9_data_layout_is_made_of_the_header_flags() {
    assert_eq!(data_layout_of(Endianness::Little, PointerSize::Bits32), "e-p:32:32");
    assert_eq!(data_layout_of(Endianness::Big, PointerSize::Any), "E");
    assert_eq!(data_layout_of(Endianness::Any, PointerSize::Bits64), "p:64:64");
}

/// A block: its header (`size << 5 | id`, a little-endian word, as revision 5 writes it)
/// and its body.
fn block(id: u32, body: &[u8]) -> Vec<u8> {
    let mut b = ((body.len() as u32) << 5 | id).to_le_bytes().to_vec();
    b.extend(body);
    b
}

/// A revision 5 module (no target dependence) made of `blocks` (headers included).
fn module(blocks: &[Vec<u8>]) -> Vec<u8> {
    let body: Vec<u8> = std::iter::once(0x5c).chain(blocks.iter().flatten().copied()).collect();
    let mut m = b"llvm\x01\0\0\0".to_vec();
    m.extend((body.len() as u32).to_le_bytes());
    m.extend(body);
    m
}

/// The module types: type 13 `int*`, type 14 `int ()`, type 15 `int ()*`.
const TYPES: &[u8] = &[0x03, 0x10, 0x07, 0x0d, 0x07, 0x00, 0x10, 0x0e];

/// A semantic error: where it is and what it says.
fn failure(bytes: &[u8]) -> Option<(Option<u64>, Vec<u32>, String)> {
    build(bytes).err().map(|e| (e.byte_offset(), e.block_path().to_vec(), e.to_string()))
}

#[test]
fn a_slot_that_does_not_resolve_is_an_error_at_its_block() {
    // `ret int` of slot 3 of plane int, which holds only its null value (slot 0).
    let ret = block(7, &[0x05, 0x07, 0x30, 0x00]);
    let function: Vec<u8> = std::iter::once(0).chain(ret).collect();
    let m = module(&[
        block(6, TYPES),
        // No globals; one function of type 15 with a body (C calling convention); no
        // libraries; no triple.
        block(5, &[0x00, 0xe1, 0x03, 0x00, 0x00, 0x00]),
        block(2, &function),
    ]);
    // 12 the module body, 13 the type pool, 25 the global info, 35 the function, its
    // linkage, 40 the instruction list.
    let expected = "bytecode: no value at slot 3 of type 7 (at byte 40, block path 1/2/7)";
    assert_eq!(failure(&m), Some((Some(40), vec![1, 2, 7], expected.to_string())));
}

#[test]
fn an_initializer_that_does_not_resolve_is_an_error_at_the_global_info_block() {
    // A global of type 13 (`int*`) whose initializer is slot 5 of plane int, which holds
    // only its null value: found once every block is read.
    let m = module(&[block(6, TYPES), block(5, &[0xa2, 0x03, 0x05, 0x00, 0x00, 0x00, 0x00])]);
    let expected = "bytecode: no value at slot 5 of type 7 (at byte 25, block path 1/5)";
    assert_eq!(failure(&m), Some((Some(25), vec![1, 5], expected.to_string())));
}

#[test]
fn an_alias_word_gives_linkage_type_and_aliasee() {
    // REV7 with `weak alias i32* @X` added to the module global info block: word
    // 9 << 3 | 2 (type 9, a global aliasee, weak), aliasee slot 1 of plane 9 (@X).
    let mut m = REV7.to_vec();
    // The block's header (id 5, size 13), its last byte the end of the aliases.
    let at = 0x24;
    assert_eq!(m.get(at..at + 4), Some(&[0xa5, 0x01, 0x00, 0x00][..]));
    assert_eq!(m.get(at + 4 + 12), Some(&0));
    m.splice(at..at + 4, [0xe5, 0x01, 0x00, 0x00]);
    m.splice(at + 4 + 12..at + 4 + 12, [0x4a, 0x01]);
    m.splice(8..12, 0x6fu32.to_le_bytes());
    let built = build(&m).ok();
    let alias = built.as_ref().and_then(|m| m.aliases.first());
    assert_eq!(alias.map(|a| a.linkage), Some(ir::Linkage::Weak));
    let pointer = built.as_ref().and_then(|m| m.globals.first()).map(|g| g.ty);
    assert_eq!(alias.map(|a| a.ty), pointer);
    let aliasee = alias.and_then(|a| a.aliasee).and_then(|c| built.as_ref()?.constant(c).cloned());
    assert_eq!(aliasee, Some(ir::Constant::GlobalAddr(ir::GlobalRef::Var(GlobalId(0)))));
}
