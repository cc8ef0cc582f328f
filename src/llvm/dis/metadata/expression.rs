//! `!DIExpression(...)`: the operations by name with their operands, or, for an
//! expression LLVM finds invalid, its elements as bare numbers.

use std::fmt::Write;

use crate::llvm::ir::Diencoding;

use super::dwarf::operation;

/// Whether every operation is one a valid DIExpression holds, with all its operands.
fn is_valid(elements: &[u64]) -> bool {
    let mut rest = elements;
    while let Some((&op, tail)) = rest.split_first() {
        let Some((_, args)) = operation(op) else { return false };
        if tail.len() < args {
            return false;
        }
        // A fragment ends the expression.
        if op == 0x1000 && tail.len() != args {
            return false;
        }
        rest = tail.get(args..).unwrap_or(&[]);
    }
    true
}

/// Writes `!DIExpression(...)`.
pub(super) fn write_expression(out: &mut String, elements: &[u64]) {
    out.push_str("!DIExpression(");
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !first {
            out.push_str(", ");
        }
        first = false;
    };
    if is_valid(elements) {
        let mut rest = elements;
        while let Some((&op, tail)) = rest.split_first() {
            let Some((name, args)) = operation(op) else { break };
            sep(out);
            out.push_str(name);
            let (operands, after) = tail.split_at(args.min(tail.len()));
            for (i, &a) in operands.iter().enumerate() {
                sep(out);
                // DW_OP_LLVM_convert's second operand is an encoding.
                if op == 0x1001 && i == 1 {
                    match <Diencoding as bitcode_schema_runtime::decode::SchemaEnum>::from_code(a) {
                        Some(e) if !matches!(e, Diencoding::Unknown(_)) && a != 0 => out.push_str(e.name()),
                        _ => {
                            let _ = write!(out, "{a}");
                        }
                    }
                } else {
                    let _ = write!(out, "{a}");
                }
            }
            rest = after;
        }
    } else {
        for &e in elements {
            sep(out);
            let _ = write!(out, "{e}");
        }
    }
    out.push(')');
}
