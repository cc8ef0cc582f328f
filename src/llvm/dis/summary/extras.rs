//! The records that go with the function summary after them (LLVM's reader keeps them
//! pending until the next function record takes them): type tests and virtual calls,
//! printed as `typeIdInfo: (...)`, and parameter accesses, printed as `params: (...)`.

use std::fmt::Write as _;

use bitcode_schema_runtime::Result;

use super::{Index, S};

/// Whether record `r` goes with the next function summary.
pub(super) fn is_extra(r: &S<'_>) -> bool {
    matches!(
        r,
        S::TypeTests(_)
            | S::TypeTestAssumeVcalls(_)
            | S::TypeCheckedLoadVcalls(_)
            | S::TypeTestAssumeConstVcall(_)
            | S::TypeCheckedLoadConstVcall(_)
            | S::ParamAccess(_)
    )
}

/// `, typeIdInfo: (...)` when the function has type tests or virtual calls, as
/// AssemblyWriter::printTypeIdInfo: type tests, then the virtual calls checked with
/// llvm.assume and through llvm.type.checked.load, non-constant then constant ones. A
/// per-module index has no type id summaries, so type ids print as GUIDs.
pub(super) fn write_type_id_info(out: &mut String, extras: &[&S<'_>]) {
    let mut tests: Vec<u64> = Vec::new();
    let (mut assume, mut checked_load) = (Vec::new(), Vec::new());
    let (mut assume_const, mut checked_load_const) = (Vec::new(), Vec::new());
    for r in extras {
        match r {
            S::TypeTests(t) => tests.extend(t.type_ids.iter()),
            S::TypeTestAssumeVcalls(v) => assume.extend(v.vcalls.iter().map(|c| (c.type_id, c.offset))),
            S::TypeCheckedLoadVcalls(v) => {
                checked_load.extend(v.vcalls.iter().map(|c| (c.type_id, c.offset)))
            }
            S::TypeTestAssumeConstVcall(c) => assume_const.push((c.type_id, c.offset, &c.args[..])),
            S::TypeCheckedLoadConstVcall(c) => checked_load_const.push((c.type_id, c.offset, &c.args[..])),
            _ => {}
        }
    }
    if tests.is_empty()
        && assume.is_empty()
        && checked_load.is_empty()
        && assume_const.is_empty()
        && checked_load_const.is_empty()
    {
        return;
    }
    out.push_str(", typeIdInfo: (");
    let mut parts: Vec<String> = Vec::new();
    if !tests.is_empty() {
        parts.push(format!("typeTests: ({})", join(tests.iter().map(u64::to_string))));
    }
    for (tag, calls) in [("typeTestAssumeVCalls", &assume), ("typeCheckedLoadVCalls", &checked_load)] {
        if !calls.is_empty() {
            parts.push(format!("{tag}: ({})", join(calls.iter().map(|&(g, o)| vfunc_id(g, o)))));
        }
    }
    for (tag, calls) in
        [("typeTestAssumeConstVCalls", &assume_const), ("typeCheckedLoadConstVCalls", &checked_load_const)]
    {
        if !calls.is_empty() {
            let each = calls.iter().map(|&(g, o, args)| {
                let mut call = format!("({}", vfunc_id(g, o));
                if !args.is_empty() {
                    let _ = write!(call, ", args: ({})", join(args.iter().map(u64::to_string)));
                }
                call.push(')');
                call
            });
            parts.push(format!("{tag}: ({})", join(each)));
        }
    }
    out.push_str(&parts.join(", "));
    out.push(')');
}

/// `, params: (...)` when the function has parameter accesses (stack safety), as
/// AssemblyWriter::printFunctionSummary: each parameter's accessed offsets and the calls
/// it is passed to, ranges as `[signed min, signed max]`.
pub(super) fn write_param_accesses(out: &mut String, index: &Index<'_, '_>, extras: &[&S<'_>]) -> Result<()> {
    let mut params = Vec::new();
    for r in extras {
        if let S::ParamAccess(p) = r {
            params.extend(p.params.iter());
        }
    }
    if params.is_empty() {
        return Ok(());
    }
    out.push_str(", params: (");
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "(param: {}, offset: {}", p.param_no, range(p.use_lower, p.use_upper));
        if !p.calls.is_empty() {
            out.push_str(", calls: (");
            for (j, c) in p.calls.iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                let _ = write!(
                    out,
                    "(callee: ^{}, param: {}, offset: {})",
                    index.slot(c.callee)?,
                    c.param_no,
                    range(c.offsets_lower, c.offsets_upper)
                );
            }
            out.push(')');
        }
        out.push(')');
    }
    out.push(')');
    Ok(())
}

/// A virtual function slot with no type id summary: `vFuncId: (guid: G, offset: O)`.
fn vfunc_id(guid: u64, offset: u64) -> String {
    format!("vFuncId: (guid: {guid}, offset: {offset})")
}

/// The 64-bit range `[lower, upper)` as its signed minimum and maximum (the reader takes
/// only ranges that do not wrap around the signed maximum).
fn range(lower: i64, upper: i64) -> String {
    format!("[{lower}, {}]", upper.wrapping_sub(1))
}

/// Items joined by `, `.
fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}
