//! Constants are printed by recursion into their operands, as AsmWriter does; a module
//! whose constants refer to themselves, or nest deeper than any real module, is an error
//! before printing starts rather than a stack overflow.

use bitcode_schema_runtime::{Error, Result};

use super::module::for_each_constant_operand;
use crate::llvm::module::{FunctionBody, Module, Value, ValueKind};

/// How deeply constant expressions may nest. Real modules stay far below it (a few
/// levels; long GEP chains of initializers some dozens).
const MAX_DEPTH: u32 = 256;

/// The nesting depth of each module-level constant; an error on a cycle or a nesting
/// beyond [`MAX_DEPTH`].
pub(super) fn module_depths(m: &Module<'_>) -> Result<Vec<u32>> {
    depths(&m.values, 0, &[], |p| m.constants_error(format!("the module's constants: {p}")))
}

/// Checks a body's constants, the module's having `module_depths`: no cycle, no nesting
/// beyond [`MAX_DEPTH`].
pub(super) fn check_body(
    m: &Module<'_>,
    ordinal: u32,
    b: &FunctionBody<'_>,
    module_depths: &[u32],
) -> Result<()> {
    depths(&b.values, b.first_local, module_depths, |p| m.body_error(ordinal, format!("its constants: {p}")))
        .map(|_| ())
}

/// A constant whose operands are being walked.
struct Frame {
    /// Its index in the values.
    node: usize,
    /// Where its operands not walked yet begin in the shared operand stack.
    operands: usize,
    /// The deepest nesting among its operands walked so far.
    deepest: u32,
}

/// The nesting depth of every value of `values` (ids from `first`), the values below
/// `first` having the depths `outer`; an error made by `fail` on a cycle or too deep a
/// nesting. Iterative (the input decides how deep the nesting is), with one stack of
/// operands for all the frames.
fn depths(
    values: &[Value<'_>],
    first: u32,
    outer: &[u32],
    fail: impl Fn(String) -> Error,
) -> Result<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    const OPEN: u32 = u32::MAX - 1;
    let mut depth = vec![UNSEEN; values.len()];
    let local = |id: u32| id.checked_sub(first).map(|i| i as usize).filter(|&i| i < values.len());
    let mut pending: Vec<u32> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Opens value `i`: its operands go on the shared stack (walked last to first).
    let open = |i: usize, depth: &mut [u32], pending: &mut Vec<u32>, stack: &mut Vec<Frame>| {
        set(depth, i, OPEN);
        stack.push(Frame { node: i, operands: pending.len(), deepest: 0 });
        if let Some(ValueKind::Constant(c)) = values.get(i).map(|v| &v.kind) {
            for_each_constant_operand(c, |op| pending.push(op));
        }
    };
    // A value that is not a constant has no operands here: depth 1, with no frame (most
    // of a body's values are instructions).
    let leaf = |i: usize| !matches!(values.get(i).map(|v| &v.kind), Some(ValueKind::Constant(_)));
    for start in 0..values.len() {
        if depth.get(start) != Some(&UNSEEN) {
            continue;
        }
        if leaf(start) {
            set(&mut depth, start, 1);
            continue;
        }
        open(start, &mut depth, &mut pending, &mut stack);
        while let Some(frame) = stack.last_mut() {
            if pending.len() == frame.operands {
                let d = frame.deepest + 1;
                if d > MAX_DEPTH {
                    return Err(fail(format!(
                        "value {} nests constant expressions over {MAX_DEPTH} levels deep",
                        frame.node as u32 + first
                    )));
                }
                set(&mut depth, frame.node, d);
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    parent.deepest = parent.deepest.max(d);
                }
                continue;
            }
            let Some(op) = pending.pop() else { break };
            let child = match local(op) {
                Some(i) => i,
                None => {
                    let d = outer.get(op as usize).copied().unwrap_or(0);
                    frame.deepest = frame.deepest.max(d);
                    continue;
                }
            };
            match depth.get(child).copied().unwrap_or(0) {
                OPEN => {
                    return Err(fail(format!("value {op} is an operand of itself (a cycle of constants)")))
                }
                UNSEEN => open(child, &mut depth, &mut pending, &mut stack),
                d => frame.deepest = frame.deepest.max(d),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llvm::module::Constant;

    fn aggregate(operands: &[u32]) -> Value<'static> {
        Value { ty: 0, kind: ValueKind::Constant(Constant::Aggregate(operands.to_vec())) }
    }

    fn int() -> Value<'static> {
        Value { ty: 0, kind: ValueKind::Constant(Constant::Int(7)) }
    }

    fn what(problem: String) -> Error {
        crate::llvm::module::invalid_error(format!("these constants: {problem}"))
    }

    #[test]
    fn depth_is_one_more_than_the_deepest_operand() {
        let values = [aggregate(&[1, 2]), int(), aggregate(&[1]), aggregate(&[0, 2])];
        assert_eq!(depths(&values, 0, &[], what).unwrap(), [3, 1, 2, 4]);
    }

    #[test]
    fn operands_below_first_take_the_outer_depths() {
        // Ids 10 and 11 are local; 3 is outer, of depth 5.
        let values = [aggregate(&[3]), aggregate(&[10, 3])];
        assert_eq!(depths(&values, 10, &[1, 1, 1, 5], what).unwrap(), [6, 7]);
    }

    #[test]
    fn a_cycle_is_an_error_naming_the_value() {
        let values = [int(), aggregate(&[2]), aggregate(&[0, 1])];
        let error = depths(&values, 0, &[], what).unwrap_err().to_string();
        assert!(error.contains("these constants: value 1 is an operand of itself"), "{error}");
    }

    #[test]
    fn nesting_beyond_the_limit_is_an_error() {
        let deep = MAX_DEPTH as usize;
        let chain = |n: usize| -> Vec<Value<'static>> {
            (0..n).map(|i| if i + 1 < n { aggregate(&[i as u32 + 1]) } else { int() }).collect()
        };
        assert_eq!(depths(&chain(deep), 0, &[], what).unwrap().first(), Some(&MAX_DEPTH));
        let error = depths(&chain(deep + 1), 0, &[], what).unwrap_err().to_string();
        assert!(error.contains("value 0 nests constant expressions over 256 levels deep"), "{error}");
    }
}
