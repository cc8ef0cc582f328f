//! A value-defining instruction added to a copy of the LLVM IR schema, and nowhere else,
//! is numbered: the instructions after it refer to the right values. The same stream
//! numbered by the stock schema (which does not know the record) is off by one, so the
//! numbering comes from the schema, not from a list in the numbering layer.

use bitcode_schema::llvm::{ValueNumbering, Walker, WalkerEvent};
use bitcode_schema::runtime::decode::ValueId;
use bitcode_schema::runtime::writer::StreamWriter;
use bitcode_schema::runtime::Bitstream;
use schema_extension_check::{function_block, AnyRecord};

/// `i32 f(i32 %0) { %2 = example %0; %3 = add %2, %0; ret %3 }` with the made-up
/// INST_EXAMPLE (code 200) of the extended schema. Value 0 is the function, 1 its argument.
fn module() -> Vec<u8> {
    use schema_extension_check::{module_block, type_block};
    let mut w = StreamWriter::new(*b"BC\xC0\xDE");
    w.enter_block(module_block::ID, 3).unwrap();
    w.unabbreviated_record(module_block::Version::CODE, &[2]).unwrap();
    w.enter_block(type_block::ID, 4).unwrap();
    w.unabbreviated_record(type_block::NumEntry::CODE, &[2]).unwrap();
    w.unabbreviated_record(type_block::Integer::CODE, &[32]).unwrap(); // type 0: i32
    w.unabbreviated_record(type_block::Function::CODE, &[0, 0, 0]).unwrap(); // type 1: i32 (i32)
    w.end_block().unwrap();
    // strtab offset and size, type 1, ccc, a definition, external, no attributes, alignment,
    // section; default visibility.
    w.unabbreviated_record(module_block::Function::CODE, &[0, 1, 1, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    w.enter_block(function_block::ID, 4).unwrap();
    w.unabbreviated_record(function_block::Declareblocks::CODE, &[1]).unwrap();
    w.unabbreviated_record(function_block::InstExample::CODE, &[1]).unwrap(); // example %0
    w.unabbreviated_record(function_block::InstBinop::CODE, &[1, 2, 0]).unwrap(); // add %2, %0
    w.unabbreviated_record(function_block::InstRet::CODE, &[1]).unwrap(); // ret %3
    w.end_block().unwrap();
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// The value numbers the body's records get and the values they use, decoded with the
/// extended schema's decoders and numbered by `numbering`.
fn body(bytes: &[u8], numbering: ValueNumbering) -> Vec<String> {
    let stream = Bitstream::new(bytes).unwrap();
    let mut walker = Walker::with_numbering(&stream, numbering);
    let mut seen = Vec::new();
    while let Some(event) = walker.next_event().unwrap() {
        let WalkerEvent::Record { block, record, ctx } = event else { continue };
        if block != function_block::ID {
            continue;
        }
        let number = ctx.value_number;
        let typed = schema_extension_check::decode_record(block, &record, ctx).unwrap();
        let id = |v: ValueId| v.0;
        seen.push(match typed {
            AnyRecord::FunctionBlock(function_block::Record::InstExample(r)) => {
                format!("%{number} = example %{}", id(r.operand.id))
            }
            AnyRecord::FunctionBlock(function_block::Record::InstBinop(r)) => {
                format!("%{number} = add %{}, %{}", id(r.lhs.id), id(r.rhs))
            }
            AnyRecord::FunctionBlock(function_block::Record::InstRet(r)) => {
                format!("ret %{}", r.value.map_or(u32::MAX, |v| id(v.id)))
            }
            other => other.name().to_string(),
        });
    }
    seen
}

#[test]
fn the_extended_schema_numbers_its_new_instruction() {
    let numbering = ValueNumbering::for_schema(&schema_extension_check::NUMBERING);
    assert_eq!(body(&module(), numbering), ["DECLAREBLOCKS", "%2 = example %1", "%3 = add %2, %1", "ret %3"]);
}

#[test]
fn the_stock_schema_does_not_count_a_record_it_does_not_declare() {
    assert!(function_block::defines(function_block::InstExample::CODE).is_value());
    let stock = bitcode_schema::llvm::ir::function_block::defines(function_block::InstExample::CODE);
    assert_eq!(stock.name(), "nothing");
    // Numbered by the stock schema, the add takes the example's number: every later
    // relative operand is one off.
    assert_eq!(
        body(&module(), ValueNumbering::new()),
        ["DECLAREBLOCKS", "%2 = example %1", "%2 = add %1, %0", "ret %2"]
    );
}
