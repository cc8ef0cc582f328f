//! Operands LLVM's reader refuses. A body may refer to a value defined later in it, but
//! not to one it never defines ("Never resolved value found in function"; printed, it
//! would be `<badref>`), and where the reader reads an operand as of a known type (an
//! add's right operand as of its left one's, a phi's incoming values as of the phi's, a
//! call's arguments as of the parameters') a value of another type is "Invalid record".

use bitcode_schema_runtime::Result;

use super::module::for_each_operand;
use crate::llvm::module::{FunctionBody, Module, Op, Type, TypeRef, Types, ValueRef};

/// Checks the value operands of body `ordinal` (`b`, its types in `types`): each names a
/// value of the module or of the body, of the type the reader reads it as.
pub(super) fn check_body(m: &Module<'_>, ordinal: u32, b: &FunctionBody<'_>, types: &Types) -> Result<()> {
    let defined = u64::from(b.first_local) + b.values.len() as u64;
    let type_of = |id: ValueRef| match id.checked_sub(b.first_local) {
        None => m.values.get(id as usize).map(|v| v.ty),
        Some(local) => b.values.get(local as usize).map(|v| v.ty),
    };
    // `id` is read as of type `expected`: the first that is not, if any.
    let wrong = |id: ValueRef, expected: Option<TypeRef>| {
        let (ty, expected) = (type_of(id)?, expected?);
        (!types.same(ty, expected))
            .then(|| format!("value {id} is of type {ty} where one of type {expected} is read"))
    };
    for (index, inst) in b.instructions.iter().enumerate() {
        // The largest value id among the operands: the body must define it.
        let mut largest = 0;
        let mut mistyped = None;
        match &inst.op {
            Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. } => {
                largest = call.callee;
                // A metadata parameter takes a metadata id, a label one a block.
                let params = types.function(call.function_type).map_or(&[][..], |(_, p, _)| p);
                for (i, &arg) in call.args.iter().enumerate() {
                    let param = params.get(i).copied();
                    if !matches!(param.and_then(|p| types.get(p)), Some(Type::Metadata | Type::Label)) {
                        largest = largest.max(arg);
                        mistyped = mistyped.or_else(|| wrong(arg, param));
                    }
                }
                for input in call.bundles.iter().flat_map(|(_, inputs)| inputs) {
                    largest = largest.max(input.value().unwrap_or(0));
                }
            }
            op => {
                for_each_operand(op, |id| largest = largest.max(id));
                mistyped = match op {
                    Op::Binary { lhs, rhs, .. } | Op::Compare { lhs, rhs, .. } => wrong(*rhs, type_of(*lhs)),
                    Op::Select { true_value, false_value, .. } => wrong(*false_value, type_of(*true_value)),
                    Op::ShuffleVector { vector1, vector2, .. } => wrong(*vector2, type_of(*vector1)),
                    Op::CmpXchg { cmp, new, .. } => wrong(*new, type_of(*cmp)),
                    Op::Switch { condition, cases, .. } => {
                        cases.iter().find_map(|&(case, _)| wrong(case, type_of(*condition)))
                    }
                    // LLVM's reader looks each incoming block up as it reads the phi.
                    Op::Phi { incoming, .. } => incoming.iter().find_map(|&(v, block)| {
                        if block as usize >= b.blocks.len() {
                            let has = b.blocks.len();
                            Some(format!(
                                "a phi comes from block {block}, which the body does not have (it has {has})"
                            ))
                        } else {
                            wrong(v, Some(inst.ty))
                        }
                    }),
                    _ => None,
                };
            }
        }
        let problem = if u64::from(largest) >= defined {
            Some(format!("it uses value {largest}, which the body never defines (it has {defined})"))
        } else {
            mistyped
        };
        if let Some(problem) = problem {
            return Err(m.body_error(ordinal, format!("instruction {index}: {problem}")));
        }
    }
    Ok(())
}
