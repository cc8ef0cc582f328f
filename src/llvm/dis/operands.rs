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
    // (operand, the type it is read as), for one instruction at a time.
    let mut typed: Vec<(ValueRef, TypeRef)> = Vec::new();
    for (index, inst) in b.instructions.iter().enumerate() {
        let fail = |problem: String| m.body_error(ordinal, format!("instruction {index}: {problem}"));
        let mut missing = None;
        let mut visit = |id: ValueRef| {
            if u64::from(id) >= defined && missing.is_none() {
                missing = Some(id);
            }
        };
        typed.clear();
        let mut of_type_of = |id: ValueRef, like: ValueRef| typed.extend(type_of(like).map(|t| (id, t)));
        match &inst.op {
            Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. } => {
                visit(call.callee);
                // A metadata parameter takes a metadata id, a label one a block.
                let params = types.function(call.function_type).map_or(&[][..], |(_, p, _)| p);
                for (i, &arg) in call.args.iter().enumerate() {
                    let param = params.get(i).copied();
                    if !matches!(param.and_then(|p| types.get(p)), Some(Type::Metadata | Type::Label)) {
                        visit(arg);
                        typed.extend(param.map(|p| (arg, p)));
                    }
                }
                for input in call.bundles.iter().flat_map(|(_, inputs)| inputs) {
                    if let Some(id) = input.value() {
                        visit(id);
                    }
                }
            }
            op => {
                for_each_operand(op, &mut visit);
                match op {
                    Op::Binary { lhs, rhs, .. } | Op::Compare { lhs, rhs, .. } => of_type_of(*rhs, *lhs),
                    Op::Select { true_value, false_value, .. } => of_type_of(*false_value, *true_value),
                    Op::ShuffleVector { vector1, vector2, .. } => of_type_of(*vector2, *vector1),
                    Op::CmpXchg { cmp, new, .. } => of_type_of(*new, *cmp),
                    Op::Switch { condition, cases, .. } => {
                        cases.iter().for_each(|&(case, _)| of_type_of(case, *condition))
                    }
                    Op::Phi { incoming, .. } => typed.extend(incoming.iter().map(|&(v, _)| (v, inst.ty))),
                    _ => {}
                }
            }
        }
        if let Some(id) = missing {
            return Err(fail(format!("it uses value {id}, which the body never defines (it has {defined})")));
        }
        for &(id, expected) in &typed {
            if let Some(ty) = type_of(id).filter(|&ty| !types.same(ty, expected)) {
                return Err(fail(format!("value {id} is of type {ty} where one of type {expected} is read")));
            }
        }
    }
    Ok(())
}
