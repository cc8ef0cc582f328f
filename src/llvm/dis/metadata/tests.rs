//! The metadata printer over the corpus: a small driver walks a module, feeds its
//! metadata records, numbers the roots in SlotTracker's order and compares the `!...`
//! lines with `llvm-dis` of the producer's version (/tmp/ref).

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use bitcode_schema_runtime::Bitstream;

use crate::llvm::ir;
use crate::llvm::module::metadata::{Location, MdRef, Metadata};
use crate::llvm::{module_values, Walker, WalkerEvent};

use super::{MdPrinter, MdSlots, ValueWriter};

/// A constant of the test's value writer: (function body ordinal, value id).
type ConstantKey = (Option<u32>, u32);
/// Its type id, printed value and integer value.
type ConstantText = (u32, String, Option<i64>);
/// A body's own attachments and its instructions.
type BodyMetadata = (Vec<(u32, MdRef)>, Vec<Inst>);

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
const REF: &str = "/tmp/ref";

/// Types and module constants enough to print module flags and similar operands.
#[derive(Default)]
struct TestValues {
    types: Vec<String>,
    /// Constants by function body (None: module level) and value id: type id, text and
    /// integer value.
    constants: HashMap<ConstantKey, ConstantText>,
    globals: Vec<String>,
}

impl ValueWriter for TestValues {
    fn write_typed_value(&self, out: &mut String, ty: u32, value: u32, function: Option<u32>) {
        out.push_str(self.types.get(ty as usize).map_or("?", |s| s.as_str()));
        out.push(' ');
        let constant = self.constants.get(&(function, value)).or_else(|| self.constants.get(&(None, value)));
        if let Some(name) = self.globals.get(value as usize) {
            let _ = write!(out, "@{name}");
        } else if let Some((_, text, _)) = constant {
            out.push_str(text);
        } else {
            let _ = write!(out, "%local{value}");
        }
    }

    fn constant_int(&self, _ty: u32, value: u32, function: Option<u32>) -> Option<i64> {
        let constant = self.constants.get(&(function, value)).or_else(|| self.constants.get(&(None, value)));
        constant.and_then(|c| c.2)
    }
}

/// What one instruction gives SlotTracker, in its order.
#[derive(Default)]
struct Inst {
    records: Vec<MdRef>,
    operands: Vec<MdRef>,
    dbg: Option<MdRef>,
    attachments: Vec<(u32, MdRef)>,
}

/// Reads the first module of `bytes` and prints its metadata lines.
fn metadata_lines(bytes: &[u8], major: u32) -> Result<String, String> {
    let stream = Bitstream::new(bytes).map_err(|e| e.to_string())?;
    let globals_list = module_values(&stream).map_err(|e| e.to_string())?;
    let symbols = globals_list.first().ok_or("no module")?;
    let mut values = TestValues {
        globals: symbols.iter().map(|s| String::from_utf8_lossy(s.name.as_bytes()).into_owned()).collect(),
        ..TestValues::default()
    };
    let mut md = Metadata::new();
    let mut walker = Walker::new(&stream);
    let mut global_vars: Vec<u32> = Vec::new();
    // Functions in module order: value id, has a body.
    let mut functions: Vec<(u32, bool)> = Vec::new();
    let mut fn_types: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut metadata_type = None;
    let mut bodies: Vec<BodyMetadata> = Vec::new();
    let mut current_type = 0u32;
    let mut depth_fn = false;
    let mut in_fn_constants = false;
    let mut last_loc: Option<MdRef> = None;
    let mut module_depth = 0;
    while let Some(event) = walker.next_event().map_err(|e| e.to_string())? {
        match event {
            WalkerEvent::Block(h) => {
                if h.id == ir::module_block::ID {
                    module_depth += 1;
                    if module_depth > 1 {
                        break;
                    }
                }
                if h.id == ir::function_block::ID {
                    md.begin_function();
                    depth_fn = true;
                    bodies.push((Vec::new(), Vec::new()));
                    last_loc = None;
                }
                if h.id == ir::constants_block::ID && depth_fn {
                    in_fn_constants = true;
                }
            }
            WalkerEvent::EndBlock(id) => {
                if id == ir::function_block::ID {
                    md.end_function();
                    depth_fn = false;
                }
                if id == ir::constants_block::ID {
                    in_fn_constants = false;
                }
                if id == ir::module_block::ID {
                    break;
                }
            }
            WalkerEvent::Deferred { .. } => {}
            WalkerEvent::Record { block, record, ctx } => match block {
                b if b == ir::metadata_block::ID => {
                    let rec = ir::metadata_block::Record::decode(&record, ctx).map_err(|e| e.to_string())?;
                    if depth_fn {
                        md.add_function_record(rec)?;
                    } else {
                        md.add_module_record(rec)?;
                    }
                }
                b if b == ir::metadata_kind_block::ID => {
                    let k = ir::metadata_kind_block::Kind::decode(&record, ctx).map_err(|e| e.to_string())?;
                    md.add_kind(k.kind_id, k.name.as_bytes());
                }
                b if b == ir::type_block::ID => {
                    let ops = record.ops;
                    let text = match record.code {
                        1 | 19 => continue,
                        2 => "void".to_string(),
                        3 => "float".into(),
                        4 => "double".into(),
                        5 => "label".into(),
                        7 => format!("i{}", ops.first().copied().unwrap_or(0)),
                        8 => {
                            let pointee = ops.first().and_then(|&p| values.types.get(p as usize)).cloned();
                            format!("{}*", pointee.unwrap_or_default())
                        }
                        25 => "ptr".into(),
                        16 => {
                            metadata_type = Some(values.types.len() as u32);
                            "metadata".into()
                        }
                        21 => {
                            fn_types.insert(
                                values.types.len() as u32,
                                ops.iter().skip(2).map(|&t| t as u32).collect(),
                            );
                            "fn".into()
                        }
                        _ => "?".into(),
                    };
                    values.types.push(text);
                }
                b if b == ir::module_block::ID => match record.code {
                    7 => global_vars.push(ctx.value_number),
                    8 => {
                        // With a string table (version 2) two name operands come first.
                        let proto = if ctx.version >= 2 { 4 } else { 2 };
                        functions.push((ctx.value_number, record.ops.get(proto).copied().unwrap_or(1) == 0))
                    }
                    _ => {}
                },
                b if b == ir::constants_block::ID => {
                    let scope = in_fn_constants.then(|| bodies.len() as u32 - 1);
                    let id = ctx.value_number;
                    let ty = current_type;
                    let is_ptr =
                        values.types.get(ty as usize).is_some_and(|t| t == "ptr" || t.ends_with('*'));
                    let entry = match record.code {
                        1 => {
                            current_type = record.ops.first().copied().unwrap_or(0) as u32;
                            continue;
                        }
                        2 => {
                            let is_int = values.types.get(ty as usize).is_some_and(|t| t.starts_with('i'));
                            let is_bool = values.types.get(ty as usize).is_some_and(|t| t == "i1");
                            let text = if is_ptr {
                                "null"
                            } else if is_bool {
                                "false"
                            } else if is_int {
                                "0"
                            } else {
                                "zeroinitializer"
                            };
                            (ty, text.into(), Some(0))
                        }
                        3 => (ty, "undef".into(), None),
                        26 => (ty, "poison".into(), None),
                        4 => {
                            let v = record.ops.first().copied().unwrap_or(0);
                            let v = match (v & 1, (v >> 1) as i64) {
                                (1, 0) => i64::MIN,
                                (1, m) => -m,
                                (_, m) => m,
                            };
                            let text = if values.types.get(ty as usize).is_some_and(|t| t == "i1") {
                                (if v != 0 { "true" } else { "false" }).to_string()
                            } else {
                                v.to_string()
                            };
                            (ty, text, Some(v))
                        }
                        _ => (ty, "<const>".into(), None),
                    };
                    values.constants.insert((scope, id), entry);
                }
                b if b == ir::metadata_attachment_block::ID => {
                    let ops = record.ops;
                    let Some((fn_attach, insts)) = bodies.last_mut() else { continue };
                    let pairs = |ops: &[u64]| -> Vec<(u32, MdRef)> {
                        ops.chunks(2)
                            .filter_map(|p| match p {
                                [k, n] => md.get(*n).map(|n| (*k as u32, n)),
                                _ => None,
                            })
                            .collect()
                    };
                    if ops.len() % 2 == 0 {
                        fn_attach.extend(pairs(ops));
                    } else if let Some(inst) = insts.get_mut(ops[0] as usize) {
                        inst.attachments.extend(pairs(&ops[1..]));
                    }
                }
                b if b == ir::function_block::ID => {
                    let Some((_, insts)) = bodies.last_mut() else { continue };
                    let ops = record.ops;
                    match record.code {
                        1 | 55 | 60 => {}
                        35 => {
                            let (line, col) =
                                (ops.first().copied().unwrap_or(0), ops.get(1).copied().unwrap_or(0));
                            let scope = ops.get(2).copied().unwrap_or(0);
                            let ia = ops.get(3).copied().unwrap_or(0);
                            let implicit = ops.get(4).copied().unwrap_or(0) != 0;
                            let Some(scope) = scope.checked_sub(1).and_then(|s| md.get(s)) else { continue };
                            let ia = ia.checked_sub(1).and_then(|s| md.get(s));
                            let (atom_group, atom_rank) = match (ops.get(5), ops.get(6)) {
                                (Some(&group), Some(&rank)) => (group, rank as u8),
                                _ => (0, 0),
                            };
                            let loc = md.debug_loc(Location {
                                line: line as u32,
                                column: col as u32,
                                scope: Some(scope),
                                inlined_at: ia,
                                implicit_code: implicit,
                                atom_group,
                                atom_rank,
                            });
                            last_loc = Some(loc);
                            if let Some(inst) = insts.last_mut() {
                                inst.dbg = Some(loc);
                            }
                        }
                        33 => {
                            if let Some(inst) = insts.last_mut() {
                                inst.dbg = last_loc;
                            }
                        }
                        61..=66 => {
                            let Some(inst) = insts.last_mut() else { continue };
                            let get = |i: usize| ops.get(i).and_then(|&id| md.get(id));
                            // Location, variable, (assign id), then the DILocation.
                            let mut seq = Vec::new();
                            match record.code {
                                65 => seq.push(get(1)),
                                64 => seq.push(get(1)),
                                63 => {
                                    seq.push(get(3));
                                    seq.push(get(1));
                                    seq.push(get(4));
                                    seq.push(get(6));
                                }
                                _ => {
                                    seq.push(get(3));
                                    seq.push(get(1));
                                }
                            }
                            seq.push(get(0));
                            inst.records.extend(seq.into_iter().flatten());
                        }
                        34 => {
                            let mut inst = Inst::default();
                            let cc = ops.get(1).copied().unwrap_or(0);
                            let mut at = 2 + usize::from(cc & (1 << 17) != 0);
                            let fnty = if cc & (1 << 15) != 0 {
                                at += 1;
                                ops.get(at - 1).map(|&t| t as u32)
                            } else {
                                None
                            };
                            let callee = ops.get(at).map(|&c| ctx.value_number.wrapping_sub(c as u32));
                            at += 1;
                            let intrinsic = callee
                                .and_then(|c| values.globals.get(c as usize))
                                .is_some_and(|n| n.starts_with("llvm."));
                            if intrinsic {
                                if let Some(params) = fnty.and_then(|t| fn_types.get(&t)) {
                                    for (i, &p) in params.iter().enumerate() {
                                        if Some(p) == metadata_type {
                                            if let Some(&op) = ops.get(at + i) {
                                                let id = ctx.value_number.wrapping_sub(op as u32);
                                                if let Some(m) = md.get(u64::from(id)) {
                                                    inst.operands.push(m);
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                            insts.push(inst);
                        }
                        _ => insts.push(Inst::default()),
                    }
                }
                _ => {}
            },
        }
    }
    let read = std::time::Instant::now();
    // SlotTracker's order.
    let mut slots = MdSlots::new();
    for &g in &global_vars {
        for &(_, n) in md.global_attachments(g) {
            slots.number(&md, n);
        }
    }
    let named: Vec<MdRef> = md.named().flat_map(|(_, ops)| ops.iter().copied()).collect();
    for n in named {
        slots.number(&md, n);
    }
    let mut bodies = bodies.into_iter();
    for &(f, has_body) in &functions {
        let mut attach: Vec<(u32, MdRef)> = md.global_attachments(f).to_vec();
        let mut insts = Vec::new();
        if has_body {
            if let Some((fa, is)) = bodies.next() {
                attach.extend(fa);
                insts = is;
            }
        }
        attach.sort_by_key(|a| a.0);
        for (_, n) in attach {
            slots.number(&md, n);
        }
        for mut inst in insts {
            for n in inst.records.iter().chain(&inst.operands) {
                slots.number(&md, *n);
            }
            if let Some(d) = inst.dbg {
                slots.number(&md, d);
            }
            inst.attachments.sort_by_key(|a| a.0);
            for (k, n) in &inst.attachments {
                if *k != 0 || inst.dbg.is_none() {
                    slots.number(&md, *n);
                }
            }
        }
    }
    let numbered = std::time::Instant::now();
    let printer = MdPrinter::new(&md, &slots, major, &values);
    let mut out = String::new();
    printer.write_named(&mut out);
    printer.write_nodes(&mut out, 0..slots.nodes().len(), &mut |_| {});
    if std::env::var("MD_TIME").is_ok() {
        println!("  numbering {:?}, printing {:?}", numbered - read, numbered.elapsed());
    }
    Ok(out)
}

/// The LLVM version that wrote a corpus file, from its producer prefix.
fn major_of(name: &str) -> u32 {
    let p = name.split("__").next().unwrap_or("");
    if p.starts_with("clang13") {
        13
    } else if p.starts_with("clang14") || p.starts_with("llvmas14") {
        14
    } else if p.starts_with("clang19") {
        19
    } else if p.starts_with("rustc") {
        22
    } else {
        16
    }
}

/// The reference `.ll` text of a corpus file (decompressed when stored as .xz).
fn reference(name: &str) -> Option<String> {
    let plain = Path::new(REF).join(format!("{name}.bc.ll"));
    if let Ok(text) = std::fs::read_to_string(&plain) {
        return Some(text);
    }
    let xz = Path::new(CORPUS).join(format!("{name}.ll.xz"));
    let out = std::process::Command::new("xz").arg("-dc").arg(xz).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compares one file; returns (equal, total) metadata lines and the first differences.
fn compare(name: &str) -> Option<(usize, usize, Vec<String>)> {
    let bytes = std::fs::read(Path::new(CORPUS).join(format!("{name}.bc"))).ok()?;
    let reference = reference(name)?;
    let want: Vec<&str> = reference.lines().filter(|l| l.starts_with('!')).collect();
    let start = std::time::Instant::now();
    let printed = metadata_lines(&bytes, major_of(name));
    if std::env::var("MD_TIME").is_ok() {
        println!("{name}: read, numbered and printed in {:?}", start.elapsed());
    }
    let got = match printed {
        Ok(text) => text,
        Err(e) => return Some((0, want.len(), vec![format!("error: {e}")])),
    };
    let got: Vec<&str> = got.lines().collect();
    let mut equal = 0;
    let mut diffs = Vec::new();
    for i in 0..want.len().max(got.len()) {
        let (w, g) = (want.get(i), got.get(i));
        if w.is_some() && w == g {
            equal += 1;
        } else if diffs.len() < 6 {
            diffs.push(format!("  want: {}\n  got:  {}", w.unwrap_or(&"<none>"), g.unwrap_or(&"<none>")));
        }
    }
    Some((equal, want.len(), diffs))
}

/// Every single-module corpus file: the metadata lines, per file.
#[test]
#[ignore = "needs references in /tmp/ref (llvm-dis of each corpus module); tests/it/llvm_dis is the CI test"]
fn corpus_metadata_lines() {
    let Ok(dir) = std::fs::read_dir(CORPUS) else {
        println!("SKIPPED: no corpus at {CORPUS}");
        return;
    };
    let mut names: Vec<String> = dir
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".bc").map(str::to_owned))
        .filter(|n| !n.starts_with("llvmcat"))
        .collect();
    names.sort();
    let only = std::env::var("MD_ONLY").ok();
    let (mut files_equal, mut files) = (0, 0);
    for name in &names {
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let Some((equal, total, diffs)) = compare(name) else { continue };
        files += 1;
        if equal == total && diffs.is_empty() {
            files_equal += 1;
        }
        println!("{name}: equal metadata lines {equal}/{total}");
        if std::env::var("MD_VERBOSE").is_ok() {
            for d in diffs {
                println!("{d}");
            }
        }
    }
    println!("files with every metadata line equal: {files_equal}/{files}");
}

#[test]
fn escapes_as_asmwriter() {
    let mut out = String::new();
    crate::llvm::dis::names::escaped(&mut out, b"a\"b\\c\n\x7f");
    assert_eq!(out, "a\\22b\\\\c\\0A\\7F");
}

/// The nodes of every_kind.ll (most DI kinds, with their optional fields set), assembled
/// by `llvm-as-V` and printed back by `llvm-dis-V`, for each V installed (13, 14, 16, 19).
#[test]
fn every_kind_round_trips() {
    let source = include_str!("every_kind.ll");
    let dir = std::env::temp_dir().join(format!("md-every-kind-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        println!("SKIPPED: no temporary directory");
        return;
    }
    for major in [13u32, 14, 16, 19] {
        // LLVM 14 has no targetFuncName, LLVM 13 no annotations either.
        let mut text = source.to_string();
        if major < 15 {
            text = text.replace(", targetFuncName: \"tgt\"", "");
        }
        if major < 14 {
            text = text.replace(", annotations: !53", "");
        }
        let ll = dir.join(format!("k{major}.ll"));
        let bc = dir.join(format!("k{major}.bc"));
        if std::fs::write(&ll, text).is_err() {
            continue;
        }
        let assembled =
            std::process::Command::new(format!("llvm-as-{major}")).arg(&ll).arg("-o").arg(&bc).status();
        if !assembled.is_ok_and(|s| s.success()) {
            // CI installs LLVM 13, 14, 16 and 19 (.ci/run): there, a missing tool fails.
            assert!(std::env::var_os("CI").is_none(), "llvm-as-{major} failed or is missing");
            println!("SKIPPED: llvm-as-{major}");
            continue;
        }
        let Ok(dis) =
            std::process::Command::new(format!("llvm-dis-{major}")).arg(&bc).arg("-o").arg("-").output()
        else {
            println!("SKIPPED: llvm-dis-{major}");
            continue;
        };
        let reference = String::from_utf8_lossy(&dis.stdout);
        let want: Vec<&str> = reference.lines().filter(|l| l.starts_with('!')).collect();
        let bytes = std::fs::read(&bc).unwrap_or_default();
        let got = metadata_lines(&bytes, major).unwrap_or_else(|e| e);
        let got: Vec<&str> = got.lines().collect();
        let diffs: Vec<String> = (0..want.len().max(got.len()))
            .filter(|&i| want.get(i) != got.get(i))
            .map(|i| format!("want: {}\ngot:  {}", want.get(i).unwrap_or(&""), got.get(i).unwrap_or(&"")))
            .collect();
        assert!(diffs.is_empty(), "LLVM {major}:\n{}", diffs.join("\n"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
