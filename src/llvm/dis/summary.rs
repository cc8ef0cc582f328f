//! The module summary (ThinLTO) that llvm-dis prints after the metadata when a module
//! has a GLOBALVAL_SUMMARY_BLOCK: `^0 = module: ...`, one `^N = gv: ...` per GUID in
//! GUID order, the type ids' compatible vtables, then `^N = blockcount: ...`.
//!
//! Slots follow LLVM's SlotTracker for an index: the module path is `^0`, GUIDs count
//! from 1 in GUID order, then each compatible-vtable type id (in name order) takes the
//! next slot; before LLVM 18 that slot replaced the slot of a global value with the same
//! GUID.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use bitcode_schema_runtime::decode::{SchemaFlags, ValueId};
use bitcode_schema_runtime::Result;
use md5::{Digest, Md5};
use rustc_hash::FxHashMap;

use super::output::Waiting;
use super::text::{push_int, push_tagged};

use crate::llvm::ir::globalval_summary_block::Record as S;
use crate::llvm::ir::{
    self, Linkage, SummaryFlags, SummaryFunctionFlags, SummaryHotnessInfo, SummaryVarFlags,
};
use crate::llvm::module::{invalid_error, Module, RecordPlace, ValueKind};

/// The GUID of a global identifier: the low 64 bits of its MD5, little-endian.
pub fn guid(identifier: &[u8]) -> u64 {
    let digest = Md5::digest(identifier);
    let mut low = [0u8; 8];
    for (to, from) in low.iter_mut().zip(digest.iter()) {
        *to = *from;
    }
    u64::from_le_bytes(low)
}

/// The global identifier of a value named `name` (GlobalValue::getGlobalIdentifier):
/// the name without a leading `\1`, prefixed by the file name and `delimiter` for
/// local linkage (`:` up to LLVM 18, `;` since LLVM 19 made the GUIDs of locals distinct
/// from names with a colon).
fn global_identifier(name: &[u8], linkage: Linkage, file: &[u8], delimiter: u8) -> Vec<u8> {
    let name = name.strip_prefix(b"\x01").unwrap_or(name);
    let mut id = Vec::with_capacity(name.len() + file.len() + 10);
    if matches!(linkage, Linkage::Internal | Linkage::Private) {
        id.extend_from_slice(if file.is_empty() { b"<unknown>" } else { file });
        id.push(delimiter);
    }
    id.extend_from_slice(name);
    id
}

/// One global value of the index: its name and the summary records about it, each with
/// the records that go with it (see [`extras`]).
#[derive(Default)]
struct Entry<'r, 'a> {
    name: Vec<u8>,
    summaries: Vec<(&'r Located<'a>, Vec<&'r S<'a>>)>,
}

/// A summary record and where it is, for the errors found in it later.
type Located<'a> = (S<'a>, RecordPlace);

/// The index of a module: entries by GUID and slots.
struct Index<'r, 'a> {
    /// GUID of each module-level value id that is a global value.
    guids: FxHashMap<u32, u64>,
    entries: BTreeMap<u64, Entry<'r, 'a>>,
    slots: FxHashMap<u64, u32>,
    /// Whether flags print `importType` (LLVM 19 and later).
    import_type: bool,
    /// Whether funcFlags go on past `alwaysInline` (LLVM 14 added `noUnwind`, `mayThrow`,
    /// `hasUnknownCall` and `mustBeUnreachable`; LLVM 13 prints only the first six).
    all_function_flags: bool,
}

impl Index<'_, '_> {
    /// The slot of a GUID (0 for one the index does not hold).
    fn slot_of_guid(&self, guid: u64) -> u32 {
        self.slots.get(&guid).copied().unwrap_or(0)
    }

    /// The slot of the global value with module value id `id`.
    fn slot(&self, id: ValueId) -> Result<u32> {
        let guid = self.guids.get(&id.0).ok_or_else(|| {
            invalid_error(format!("GLOBALVAL_SUMMARY_BLOCK: value id {} is not a global value", id.0))
        })?;
        Ok(self.slot_of_guid(*guid))
    }
}

/// The value id a summary record is about, if it is one of a global value.
fn subject(r: &S<'_>) -> Option<ValueId> {
    Some(match r {
        S::PerModule(f) => f.value_id,
        S::PerModuleProfile(f) => f.value_id,
        S::PerModuleRelBf(f) => f.value_id,
        S::PerModuleGlobalVarInitRefs(v) => v.value_id,
        S::PerModuleVTableGlobalVarInitRefs(v) => v.value_id,
        S::Alias(a) => a.value_id,
        _ => return None,
    })
}

/// Appends the module's summary, if it has one, as llvm-dis `major` prints it.
pub(super) fn print(text: &mut Waiting, m: &Module<'_>, module_id: &str, major: u32) -> Result<()> {
    if !m.has_summary() {
        return Ok(());
    }
    let records = m.summary_records().located().collect::<Result<Vec<_>>>()?;
    let file: &[u8] = m.source_filename.as_deref().unwrap_or(&[]);
    let delimiter = if major >= 19 { b';' } else { b':' };
    let mut index = Index {
        guids: FxHashMap::default(),
        entries: BTreeMap::new(),
        slots: FxHashMap::default(),
        import_type: major >= 19,
        all_function_flags: major >= 14,
    };
    for (id, v) in m.values.iter().enumerate() {
        // The summary reader takes variables, functions and aliases; ifuncs are not in it.
        if !matches!(v.kind, ValueKind::Global(_) | ValueKind::Function(_) | ValueKind::Alias(_)) {
            continue;
        }
        let id = id as u32;
        let Some(c) = m.common(id) else { continue };
        let g = guid(&global_identifier(&c.name, c.linkage, file, delimiter));
        index.guids.insert(id, g);
        index.entries.entry(g).or_insert_with(|| Entry { name: c.name.to_vec(), summaries: Vec::new() });
    }
    let mut pending = Vec::new();
    for located in &records {
        let (r, place) = located;
        if extras::is_extra(r) {
            pending.push(r);
            continue;
        }
        let Some(id) = subject(r) else { continue };
        let g = index.guids.get(&id.0).ok_or_else(|| {
            place.invalid(format!(
                "GLOBALVAL_SUMMARY_BLOCK: a summary of value id {}, not a global value",
                id.0
            ))
        })?;
        // Only a function summary takes the pending records.
        let is_function = matches!(r, S::PerModule(_) | S::PerModuleProfile(_) | S::PerModuleRelBf(_));
        let extras = if is_function { std::mem::take(&mut pending) } else { Vec::new() };
        if let Some(e) = index.entries.get_mut(g) {
            e.summaries.push((located, extras));
        }
    }
    let mut next = 1u32;
    for g in index.entries.keys() {
        index.slots.insert(*g, next);
        next += 1;
    }
    // Type ids with compatible vtables, by name.
    let mut type_ids: BTreeMap<&[u8], Vec<(&ir::SummaryTypeIdVtable, RecordPlace)>> = BTreeMap::new();
    let mut block_count = 0;
    let mut index_flags = 0;
    for (r, place) in &records {
        match r {
            S::TypeIdMetadata(t) => {
                let name = strtab_slice(m.strtab, t.type_id_strtab_offset, t.type_id_strtab_size)
                    .map_err(|e| place.locate(e))?;
                type_ids.entry(name).or_default().extend(t.vtables.iter().map(|v| (v, *place)));
            }
            S::BlockCount(b) => block_count = b.block_count,
            S::Flags(f) => index_flags = f.flags.bits(),
            _ => {}
        }
    }
    // Before LLVM 18 a type id's slot went into the GUIDs' map, replacing that of a global
    // value with the same GUID (a class's type info name, `_ZTS...`, is both); since then
    // (llvm-project#73997) type ids number apart, and the global value keeps its slot.
    let first_type_id = next;
    for name in type_ids.keys() {
        if major < 18 {
            index.slots.insert(guid(name), next);
        }
        next += 1;
    }

    let out = text.text();
    out.push_str("\n^0 = module: (path: \"");
    out.push_str(module_id);
    out.push_str("\", hash: (");
    let words = m.hash.as_deref().unwrap_or(&[0; 5]);
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_int(out, *w);
    }
    out.push_str("))\n");
    for (g, e) in &index.entries {
        let out = text.text();
        // A value without a name (`@0`) shows its GUID instead, with no comment.
        push_tagged(out, "^", index.slot_of_guid(*g));
        out.push_str(" = gv: (");
        if e.name.is_empty() {
            push_tagged(out, "guid: ", *g);
        } else {
            out.push_str("name: \"");
            out.push_str(&String::from_utf8_lossy(&e.name));
            out.push('"');
        }
        if !e.summaries.is_empty() {
            out.push_str(", summaries: (");
            for (i, ((s, place), extras)) in e.summaries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                summary(out, &index, s, extras).map_err(|e| place.locate(e))?;
            }
            out.push(')');
        }
        out.push(')');
        if !e.name.is_empty() {
            push_tagged(out, " ; guid = ", *g);
        }
        out.push('\n');
    }
    let out = text.text();
    for ((name, vtables), slot) in type_ids.iter().zip(first_type_id..) {
        let g = guid(name);
        let _ = write!(out, "^{slot} = typeidCompatibleVTable: (name: \"");
        out.push_str(&String::from_utf8_lossy(name));
        out.push_str("\", summary: (");
        for (i, (v, place)) in vtables.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let slot = index.slot(v.vtable).map_err(|e| place.locate(e))?;
            let _ = write!(out, "(offset: {}, ^{slot})", v.address_point_offset);
        }
        let _ = writeln!(out, ")) ; guid = {g}");
    }
    // The index flags only when some is set (a full-LTO module's split-LTO-unit bit).
    if index_flags != 0 {
        let _ = writeln!(out, "^{next} = flags: {index_flags}");
        next += 1;
    }
    let _ = writeln!(out, "^{next} = blockcount: {block_count}");
    Ok(())
}

/// `strtab[offset..offset + size]`, or an error naming the record.
fn strtab_slice(strtab: &[u8], offset: u64, size: u64) -> Result<&[u8]> {
    let a = usize::try_from(offset).ok();
    let z = a.and_then(|a| a.checked_add(usize::try_from(size).ok()?));
    a.zip(z).and_then(|(a, z)| strtab.get(a..z)).ok_or_else(|| {
        invalid_error(format!(
            "GLOBALVAL_SUMMARY_BLOCK TYPE_ID_METADATA: type id at {offset}+{size} is outside the string table"
        ))
    })
}

/// A reference: the value and whether it is read-only or write-only.
type Ref = (ValueId, &'static str);

/// Splits a function's references off the front of `ids` and marks the read-only and
/// write-only ones (the last `wo` are write-only, the `ro` before them read-only).
fn function_refs(ids: &[ValueId], num: u32, ro: u32, wo: u32) -> Result<Vec<Ref>> {
    let num = num as usize;
    let (ro, wo) = (ro as usize, wo as usize);
    let refs = ids.get(..num).ok_or_else(|| {
        invalid_error(format!("GLOBALVAL_SUMMARY_BLOCK: {num} references but {} operands", ids.len()))
    })?;
    let wo_from = num.saturating_sub(wo);
    let ro_from = wo_from.saturating_sub(ro);
    Ok(refs
        .iter()
        .enumerate()
        .map(|(i, id)| {
            (
                *id,
                if i >= wo_from {
                    "writeonly "
                } else if i >= ro_from {
                    "readonly "
                } else {
                    ""
                },
            )
        })
        .collect())
}

/// One call edge: callee, hotness (unless unknown), tail call.
struct Call {
    callee: ValueId,
    hotness: Option<&'static str>,
    relbf: u64,
    tail: bool,
}

/// Writes one summary: `function: (...)`, `variable: (...)` or `alias: (...)`.
fn summary(out: &mut String, index: &Index<'_, '_>, s: &S<'_>, extras: &[&S<'_>]) -> Result<()> {
    match s {
        S::PerModule(f) => {
            let (refs, calls): (Vec<Ref>, Vec<Call>) = match (&f.refs_and_calls, &f.refs, &f.calls) {
                (Some(all), _, _) => {
                    let num = f.num_refs.unwrap_or(0);
                    let refs =
                        function_refs(all, num, f.ro_ref_count.unwrap_or(0), f.wo_ref_count.unwrap_or(0))?;
                    let calls = all.get(num as usize..).unwrap_or(&[]);
                    (refs, calls.iter().map(|c| plain_call(*c)).collect())
                }
                (None, refs, calls) => (
                    refs.as_deref().unwrap_or(&[]).iter().map(|r| (*r, "")).collect(),
                    calls.as_deref().unwrap_or(&[]).iter().map(|c| plain_call(*c)).collect(),
                ),
            };
            function(out, index, &f.flags, f.inst_count, f.fn_flags.as_ref(), &calls, &refs, extras)
        }
        S::PerModuleProfile(f) => {
            let refs;
            let mut calls = Vec::new();
            if let Some(all) = &f.refs_and_calls {
                let num = f.num_refs.unwrap_or(0) as usize;
                let ids: Vec<ValueId> = all.iter().take(num).map(|v| ValueId(*v as u32)).collect();
                refs = function_refs(
                    &ids,
                    num as u32,
                    f.ro_ref_count.unwrap_or(0),
                    f.wo_ref_count.unwrap_or(0),
                )?;
                for pair in all.get(num..).unwrap_or(&[]).chunks(2) {
                    let [callee, info] = pair else {
                        return Err(invalid_error(
                            "GLOBALVAL_SUMMARY_BLOCK PERMODULE_PROFILE: a call edge without its hotness"
                                .into(),
                        ));
                    };
                    let info = SummaryHotnessInfo::from_bits(*info).map_err(|(field, v)| {
                        invalid_error(format!("GLOBALVAL_SUMMARY_BLOCK PERMODULE_PROFILE: bad {field} {v}"))
                    })?;
                    calls.push(profile_call(ValueId(*callee as u32), &info));
                }
            } else {
                refs = f.refs.as_deref().unwrap_or(&[]).iter().map(|r| (*r, "")).collect();
                for c in f.calls.as_deref().unwrap_or(&[]) {
                    calls.push(profile_call(c.callee, &c.info));
                }
            }
            function(out, index, &f.flags, f.inst_count, f.fn_flags.as_ref(), &calls, &refs, extras)
        }
        S::PerModuleRelBf(f) => {
            let (refs, calls) = match (&f.refs_and_calls, &f.refs) {
                (Some(all), _) => {
                    let num = f.num_refs.unwrap_or(0) as usize;
                    let ids: Vec<ValueId> = all.iter().take(num).map(|v| ValueId(*v as u32)).collect();
                    let refs = function_refs(
                        &ids,
                        num as u32,
                        f.ro_ref_count.unwrap_or(0),
                        f.wo_ref_count.unwrap_or(0),
                    )?;
                    let mut calls = Vec::new();
                    for pair in all.get(num..).unwrap_or(&[]).chunks(2) {
                        let [callee, info] = pair else {
                            return Err(invalid_error(
                                "GLOBALVAL_SUMMARY_BLOCK PERMODULE_RELBF: a call edge without its frequency"
                                    .into(),
                            ));
                        };
                        let info = ir::SummaryRelBfInfo::from_bits(*info).map_err(|(field, v)| {
                            invalid_error(format!("GLOBALVAL_SUMMARY_BLOCK PERMODULE_RELBF: bad {field} {v}"))
                        })?;
                        let callee = ValueId(*callee as u32);
                        calls.push(Call {
                            callee,
                            hotness: None,
                            relbf: info.rel_block_freq,
                            tail: info.has_tail_call,
                        });
                    }
                    (refs, calls)
                }
                (None, refs) => {
                    (refs.as_deref().unwrap_or(&[]).iter().map(|r| (*r, "")).collect(), Vec::new())
                }
            };
            function(out, index, &f.flags, f.inst_count, f.fn_flags.as_ref(), &calls, &refs, extras)
        }
        S::PerModuleGlobalVarInitRefs(v) => {
            let refs: Vec<Ref> = v.refs.as_deref().unwrap_or(&[]).iter().map(|r| (*r, "")).collect();
            variable(out, index, &v.flags, v.var_flags.as_ref(), &[], &refs)
        }
        S::PerModuleVTableGlobalVarInitRefs(v) => {
            let refs: Vec<Ref> = v.refs.iter().map(|r| (*r, "")).collect();
            let funcs: Vec<(ValueId, u64)> = v.vtable_funcs.iter().map(|f| (f.function, f.offset)).collect();
            variable(out, index, &v.flags, Some(&v.var_flags), &funcs, &refs)
        }
        S::Alias(a) => {
            out.push_str("alias: ");
            flags(out, index, &a.flags);
            let _ = write!(out, ", aliasee: ^{})", index.slot(a.aliasee_id)?);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A call edge of a record without profile data.
fn plain_call(callee: ValueId) -> Call {
    Call { callee, hotness: None, relbf: 0, tail: false }
}

/// A call edge of PERMODULE_PROFILE: hotness printed unless unknown, tail call.
fn profile_call(callee: ValueId, info: &SummaryHotnessInfo) -> Call {
    let hotness = info.hotness.name();
    Call { callee, hotness: (hotness != "unknown").then_some(hotness), relbf: 0, tail: info.has_tail_call }
}

/// `(module: ^0, flags: (...)` of every summary.
fn flags(out: &mut String, index: &Index<'_, '_>, f: &SummaryFlags) {
    out.push_str("(module: ^0, flags: (linkage: ");
    out.push_str(f.linkage.name());
    out.push_str(", visibility: ");
    out.push_str(f.visibility.name());
    push_tagged(out, ", notEligibleToImport: ", u8::from(f.not_eligible_to_import));
    push_tagged(out, ", live: ", u8::from(f.live));
    push_tagged(out, ", dsoLocal: ", u8::from(f.dso_local));
    push_tagged(out, ", canAutoHide: ", u8::from(f.can_auto_hide));
    if index.import_type {
        out.push_str(", importType: ");
        out.push_str(f.import_type.name());
    }
    out.push(')');
}

/// `function: (...)`: flags, insts, funcFlags when any is set, calls, type id info,
/// parameter accesses (those two from `extras`), refs.
#[allow(clippy::too_many_arguments)]
fn function(
    out: &mut String,
    index: &Index<'_, '_>,
    f: &SummaryFlags,
    insts: u32,
    ff: Option<&SummaryFunctionFlags>,
    calls: &[Call],
    refs: &[Ref],
    extras: &[&S<'_>],
) -> Result<()> {
    out.push_str("function: ");
    flags(out, index, f);
    push_tagged(out, ", insts: ", insts);
    // The flags the version knows, printed when one of them is set.
    let known = if index.all_function_flags { 0x3ff } else { 0x3f };
    if let Some(ff) = ff.filter(|ff| ff.bits() & known != 0) {
        let b = |v: bool| u8::from(v);
        let _ = write!(
            out,
            ", funcFlags: (readNone: {}, readOnly: {}, noRecurse: {}, returnDoesNotAlias: {}, noInline: {}, alwaysInline: {}",
            b(ff.read_none),
            b(ff.read_only),
            b(ff.no_recurse),
            b(ff.return_does_not_alias),
            b(ff.no_inline),
            b(ff.always_inline),
        );
        if index.all_function_flags {
            let _ = write!(
                out,
                ", noUnwind: {}, mayThrow: {}, hasUnknownCall: {}, mustBeUnreachable: {}",
                b(ff.no_unwind),
                b(ff.may_throw),
                b(ff.has_unknown_call),
                b(ff.must_be_unreachable),
            );
        }
        out.push(')');
    }
    if !calls.is_empty() {
        out.push_str(", calls: (");
        for (i, c) in calls.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push_tagged(out, "(callee: ^", index.slot(c.callee)?);
            if let Some(h) = c.hotness {
                out.push_str(", hotness: ");
                out.push_str(h);
            } else if c.relbf != 0 {
                push_tagged(out, ", relbf: ", c.relbf);
            }
            if c.tail {
                out.push_str(", tail: 1");
            }
            out.push(')');
        }
        out.push(')');
    }
    extras::write_type_id_info(out, extras);
    extras::write_param_accesses(out, index, extras)?;
    write_refs(out, index, refs)?;
    out.push(')');
    Ok(())
}

/// `variable: (...)`: flags, varFlags (vcall_visibility and vTableFuncs for vtables), refs.
fn variable(
    out: &mut String,
    index: &Index<'_, '_>,
    f: &SummaryFlags,
    vf: Option<&SummaryVarFlags>,
    vtable_funcs: &[(ValueId, u64)],
    refs: &[Ref],
) -> Result<()> {
    out.push_str("variable: ");
    flags(out, index, f);
    let (ro, wo, constant, vis) = vf.map_or((false, false, false, 0), |v| {
        (v.maybe_read_only, v.maybe_write_only, v.constant, v.vcall_visibility.code())
    });
    let _ = write!(
        out,
        ", varFlags: (readonly: {}, writeonly: {}, constant: {}",
        u8::from(ro),
        u8::from(wo),
        u8::from(constant)
    );
    if !vtable_funcs.is_empty() {
        let _ = write!(out, ", vcall_visibility: {vis}), vTableFuncs: (");
        for (i, (func, offset)) in vtable_funcs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "(virtFunc: ^{}, offset: {offset})", index.slot(*func)?);
        }
    }
    out.push(')');
    write_refs(out, index, refs)?;
    out.push(')');
    Ok(())
}

/// `, refs: (...)` unless there are none; read-only and write-only ones say so.
fn write_refs(out: &mut String, index: &Index<'_, '_>, refs: &[Ref]) -> Result<()> {
    if refs.is_empty() {
        return Ok(());
    }
    out.push_str(", refs: (");
    for (i, (id, kind)) in refs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(kind);
        push_tagged(out, "^", index.slot(*id)?);
    }
    out.push(')');
    Ok(())
}

mod extras;
#[cfg(test)]
mod tests;
