//! Operands that name no value. A body may refer to a value defined later in it; LLVM's
//! reader refuses one whose reference is never defined ("Never resolved value found in
//! function"), which printed would be `<badref>`.

use bitcode_schema_runtime::Result;

use super::module::for_each_operand;
use crate::llvm::module::{FunctionBody, Module, Op, Type, Types, ValueRef};

/// Checks that every value operand of body `ordinal` (`b`, its types in `types`) names a
/// value of the module or of the body.
pub(super) fn check_body(m: &Module<'_>, ordinal: u32, b: &FunctionBody<'_>, types: &Types) -> Result<()> {
    let defined = u64::from(b.first_local) + b.values.len() as u64;
    for (index, inst) in b.instructions.iter().enumerate() {
        let mut missing = None;
        let mut visit = |id: ValueRef| {
            if u64::from(id) >= defined && missing.is_none() {
                missing = Some(id);
            }
        };
        match &inst.op {
            Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. } => {
                visit(call.callee);
                // A metadata parameter takes a metadata id, a label one a block.
                let params = types.function(call.function_type).map_or(&[][..], |(_, p, _)| p);
                for (i, &arg) in call.args.iter().enumerate() {
                    let param = params.get(i).and_then(|&p| types.get(p));
                    if !matches!(param, Some(Type::Metadata | Type::Label)) {
                        visit(arg);
                    }
                }
                for input in call.bundles.iter().flat_map(|(_, inputs)| inputs) {
                    if let Some(id) = input.value() {
                        visit(id);
                    }
                }
            }
            op => for_each_operand(op, &mut visit),
        }
        if let Some(id) = missing {
            return Err(m.body_error(
                ordinal,
                format!(
                    "instruction {index} uses value {id}, which the body never defines (it has {defined})"
                ),
            ));
        }
    }
    Ok(())
}
