//! Constants are printed by recursion into their operands, as AsmWriter does; a module
//! whose constants refer to themselves, or nest deeper than any real module, is an error
//! before printing starts rather than a stack overflow.

use bitcode_schema_runtime::Result;

use super::module::constant_operands;
use crate::llvm::module::{FunctionBody, Module, Value, ValueKind};

/// How deeply constant expressions may nest. Real modules stay far below it (a few
/// levels; long GEP chains of initializers some dozens).
const MAX_DEPTH: u32 = 256;

/// The nesting depth of each module-level constant; an error on a cycle or a nesting
/// beyond [`MAX_DEPTH`].
pub(super) fn module_depths(m: &Module<'_>) -> Result<Vec<u32>> {
    depths(&m.values, 0, &[], "the module's constants")
}

/// Checks a body's constants, the module's having `module_depths`: no cycle, no nesting
/// beyond [`MAX_DEPTH`].
pub(super) fn check_body(b: &FunctionBody<'_>, module_depths: &[u32]) -> Result<()> {
    let name = format!("the constants of function #{}", b.function);
    depths(&b.values, b.first_local, module_depths, &name).map(|_| ())
}

/// The nesting depth of every value of `values` (ids from `first`), the values below
/// `first` having the depths `outer`; an error names `what` on a cycle or too deep a
/// nesting. Iterative: the input decides how deep the nesting is.
fn depths(values: &[Value<'_>], first: u32, outer: &[u32], what: &str) -> Result<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    const OPEN: u32 = u32::MAX - 1;
    let mut depth = vec![UNSEEN; values.len()];
    let local = |id: u32| id.checked_sub(first).map(|i| i as usize).filter(|&i| i < values.len());
    let operands = |i: usize| match values.get(i).map(|v| &v.kind) {
        Some(ValueKind::Constant(c)) => constant_operands(c),
        _ => Vec::new(),
    };
    let mut stack: Vec<(usize, Vec<u32>, u32)> = Vec::new();
    for start in 0..values.len() {
        if depth.get(start) != Some(&UNSEEN) {
            continue;
        }
        set(&mut depth, start, OPEN);
        stack.push((start, operands(start), 0));
        while let Some((node, ops, deepest)) = stack.last_mut() {
            let Some(op) = ops.pop() else {
                let d = *deepest + 1;
                if d > MAX_DEPTH {
                    return Err(crate::llvm::module::invalid_error(format!(
                        "{what}: value {} nests constant expressions over {MAX_DEPTH} levels deep",
                        *node as u32 + first
                    )));
                }
                set(&mut depth, *node, d);
                stack.pop();
                if let Some((_, _, parent)) = stack.last_mut() {
                    *parent = (*parent).max(d);
                }
                continue;
            };
            let child = match local(op) {
                Some(i) => i,
                None => {
                    let d = outer.get(op as usize).copied().unwrap_or(0);
                    *deepest = (*deepest).max(d);
                    continue;
                }
            };
            match depth.get(child).copied().unwrap_or(0) {
                OPEN => {
                    return Err(crate::llvm::module::invalid_error(format!(
                        "{what}: value {op} is an operand of itself (a cycle of constants)"
                    )))
                }
                UNSEEN => {
                    set(&mut depth, child, OPEN);
                    let child_ops = operands(child);
                    stack.push((child, child_ops, 0));
                }
                d => *deepest = (*deepest).max(d),
            }
        }
    }
    Ok(depth)
}

/// `depth[i] = d` (indices come from `0..len`).
fn set(depth: &mut [u32], i: usize, d: u32) {
    if let Some(slot) = depth.get_mut(i) {
        *slot = d;
    }
}
