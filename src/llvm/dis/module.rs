//! Printing a module: header, struct types, comdats, globals, aliases, ifuncs,
//! functions, attribute groups and metadata, in AsmWriter's order and numbering.

use std::collections::HashMap;
use std::fmt::Write;

use bitcode_schema_runtime::Result;

use super::attributes::AttrWriter;
use super::md::{MdPrinter, MdRef, MdSlots, Metadata, ValueWriter};
use super::names;
use super::slots::LocalSlots;
use super::types::{TypeFinder, TypePrinter};
use crate::llvm::ir::{self, CallingConv, DllStorage, Linkage, ThreadLocal, UnnamedAddr, Visibility};
use crate::llvm::module::{
    AttributeSet, Constant, FunctionBody, GlobalCommon, Module, Op, TypeRef, Value, ValueKind, ValueRef,
};

/// The state of printing one module.
pub(super) struct Printer<'m, 'a> {
    pub m: &'m Module<'a>,
    pub major: u32,
    pub tp: TypePrinter,
    /// Slots of unnamed global values, by value id.
    pub global_slots: HashMap<ValueRef, u32>,
    /// Attribute sets (as printed in a group) and their slots.
    pub attr_slots: HashMap<String, u32>,
    pub attr_order: Vec<String>,
    pub md: Metadata<'a>,
    pub md_slots: MdSlots,
    /// The function being printed.
    pub body: Option<&'m FunctionBody<'a>>,
    /// Every body, for blockaddress constants naming another function's blocks.
    pub bodies: &'m [FunctionBody<'a>],
    pub locals: LocalSlots,
    /// The `!dbg` location of each instruction of the function being printed (DEBUG_LOC
    /// records made into uniqued DILocations), by instruction index.
    pub dbg: Vec<Option<MdRef>>,
    /// Set while a shufflevector's mask is written: AsmWriter lists a mask's elements,
    /// never as a splat.
    pub in_mask: std::cell::Cell<bool>,
}

/// Prints module `m` as llvm-dis `major` does.
pub(super) fn print(mut m: Module<'_>, major: u32, module_id: &str) -> Result<String> {
    let count = m.bodies().count();
    let mut bodies = Vec::with_capacity(count);
    for n in 0..count {
        bodies.push(m.function_body(n)?);
    }
    let mut md = Metadata::new();
    for (id, name) in &m.md_kinds {
        md.add_kind(*id, name);
    }
    for r in std::mem::take(&mut m.metadata) {
        md.add_module_record(r).map_err(crate::llvm::module::invalid_error)?;
    }
    let m = &m;
    let bodies = &bodies;
    super::nesting::check_constants(m, bodies)?;
    let order = type_order(m, bodies, &md);
    let tp = TypePrinter::new(&m.types, &order, m.typed_pointers && major < 17);
    let mut p = Printer {
        m,
        major,
        tp,
        global_slots: HashMap::new(),
        attr_slots: HashMap::new(),
        attr_order: Vec::new(),
        md,
        md_slots: MdSlots::new(),
        body: None,
        bodies,
        locals: LocalSlots::default(),
        dbg: Vec::new(),
        in_mask: std::cell::Cell::new(false),
    };
    p.number_module();
    let mut out = String::new();
    let _ = writeln!(out, "; ModuleID = '{module_id}'");
    if let Some(s) = &m.source_filename {
        out.push_str("source_filename = \"");
        names::escaped(&mut out, s);
        out.push_str("\"\n");
    }
    if !m.datalayout.is_empty() {
        out.push_str("target datalayout = \"");
        out.push_str(&String::from_utf8_lossy(&m.datalayout));
        out.push_str("\"\n");
    }
    if !m.triple.is_empty() {
        out.push_str("target triple = \"");
        out.push_str(&String::from_utf8_lossy(&m.triple));
        out.push_str("\"\n");
    }
    if !m.asm.is_empty() {
        out.push('\n');
        let asm: &[u8] = &m.asm;
        let mut lines: Vec<&[u8]> = asm.split(|&b| b == b'\n').collect();
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        for line in lines {
            out.push_str("module asm \"");
            names::escaped(&mut out, line);
            out.push_str("\"\n");
        }
    }
    // Struct types.
    let mut numbered: Vec<TypeRef> = Vec::new();
    let mut named: Vec<TypeRef> = Vec::new();
    for &t in &order {
        if m.types.name(t).is_none_or(|n| n.is_empty()) {
            numbered.push(t);
        } else {
            named.push(t);
        }
    }
    if !order.is_empty() {
        out.push('\n');
    }
    for t in numbered.iter().chain(&named) {
        p.tp.write(&mut out, &m.types, *t);
        out.push_str(" = type ");
        p.tp.write_body(&mut out, &m.types, *t);
        out.push('\n');
    }
    // The comdats global objects use, functions first (AssemblyWriter's SetVector).
    let mut used: Vec<u32> = Vec::new();
    let mut seen = vec![false; m.comdats.len()];
    for cd in m.functions.iter().map(|f| f.comdat).chain(m.globals.iter().map(|g| g.comdat)).flatten() {
        if let Some(s) = seen.get_mut(cd as usize) {
            if !*s {
                *s = true;
                used.push(cd);
            }
        }
    }
    if !used.is_empty() {
        out.push('\n');
    }
    for (i, c) in used.iter().filter_map(|&i| m.comdats.get(i as usize)).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        names::name(&mut out, '$', &c.name);
        out.push_str(" = comdat ");
        out.push_str(match c.selection {
            ir::ComdatSelection::Any => "any",
            ir::ComdatSelection::Exactmatch => "exactmatch",
            ir::ComdatSelection::Largest => "largest",
            ir::ComdatSelection::Nodeduplicate => "nodeduplicate",
            ir::ComdatSelection::Samesize => "samesize",
        });
        out.push('\n');
    }
    if !m.globals.is_empty() {
        out.push('\n');
    }
    for (i, _) in m.globals.iter().enumerate() {
        p.print_global(&mut out, i);
        out.push('\n');
    }
    if !m.aliases.is_empty() {
        out.push('\n');
    }
    for i in 0..m.aliases.len() {
        p.print_indirect(&mut out, i, true);
    }
    if !m.ifuncs.is_empty() {
        out.push('\n');
    }
    for i in 0..m.ifuncs.len() {
        p.print_indirect(&mut out, i, false);
    }
    let mut bodies = bodies.iter().peekable();
    for f in 0..m.functions.len() {
        out.push('\n');
        let body = match bodies.peek() {
            Some(b) if b.function == f as u32 => bodies.next(),
            _ => None,
        };
        p.print_function(&mut out, f, body)?;
    }
    if !p.attr_order.is_empty() {
        out.push('\n');
        for (i, a) in p.attr_order.iter().enumerate() {
            let _ = writeln!(out, "attributes #{i} = {{ {a} }}");
        }
    }
    let values = GlobalValues { p: &p };
    let printer = MdPrinter::new(&p.md, &p.md_slots, p.major, &values);
    if p.md.named().next().is_some() {
        out.push('\n');
        printer.write_named(&mut out);
    }
    if !p.md_slots.nodes().is_empty() {
        out.push('\n');
        printer.write_nodes(&mut out);
    }
    super::summary::print(&mut out, m, module_id, major)?;
    Ok(out)
}

/// Writes module-level values for metadata.
struct GlobalValues<'p, 'm, 'a> {
    p: &'p Printer<'m, 'a>,
}

impl ValueWriter for GlobalValues<'_, '_, '_> {
    fn write_typed_value(&self, out: &mut String, ty: u32, value: u32, function: Option<u32>) {
        self.p.tp.write(out, &self.p.m.types, ty);
        out.push(' ');
        // A value of a function's metadata block printed after every function: one of
        // that body's constants (its arguments and instructions only appear inline, in
        // the body).
        match self.p.body_value(function, value) {
            Some(v) => match &v.kind {
                ValueKind::Constant(c) => self.p.write_constant(out, v.ty, c),
                _ => out.push_str("<badref>"),
            },
            None => self.p.write_value(out, value),
        }
    }

    fn constant_int(&self, _ty: u32, value: u32, function: Option<u32>) -> Option<i64> {
        self.p.constant_int(function, value)
    }
}

/// The identified structs in TypeFinder's order.
fn type_order(m: &Module<'_>, bodies: &[FunctionBody<'_>], _md: &Metadata<'_>) -> Vec<TypeRef> {
    let mut f = TypeFinder::new(m.types.len());
    let mut seen_constants: Vec<bool> = vec![false; m.values.len()];
    let mut seen_local: Vec<bool> = Vec::new();
    for g in &m.globals {
        f.incorporate(&m.types, if m.typed_pointers { g.common.ty } else { g.common.value_type });
        if let Some(init) = g.initializer {
            incorporate_value(m, None, init, &mut f, &mut seen_constants, &mut seen_local);
        }
    }
    for a in &m.aliases {
        f.incorporate(&m.types, if m.typed_pointers { a.common.ty } else { a.common.value_type });
        incorporate_value(m, None, a.target, &mut f, &mut seen_constants, &mut seen_local);
    }
    for i in &m.ifuncs {
        f.incorporate(&m.types, if m.typed_pointers { i.common.ty } else { i.common.value_type });
    }
    let mut bodies = bodies.iter().peekable();
    for (index, func) in m.functions.iter().enumerate() {
        f.incorporate(&m.types, if m.typed_pointers { func.common.ty } else { func.common.value_type });
        if !m.typed_pointers {
            incorporate_attributes(m, func.attributes, &mut f);
        }
        for v in [func.prefix, func.prologue, func.personality].into_iter().flatten() {
            incorporate_value(m, None, v, &mut f, &mut seen_constants, &mut seen_local);
        }
        let body = match bodies.peek() {
            Some(b) if b.function == index as u32 => bodies.next(),
            _ => None,
        };
        let Some(body) = body else { continue };
        seen_local.clear();
        seen_local.resize(body.values.len(), false);
        for inst in &body.instructions {
            f.incorporate(&m.types, inst.ty);
            for op in operands(&inst.op) {
                incorporate_value(m, Some(body), op, &mut f, &mut seen_constants, &mut seen_local);
            }
            match &inst.op {
                Op::Gep { source, .. } => f.incorporate(&m.types, *source),
                Op::Alloca { allocated, .. } => f.incorporate(&m.types, *allocated),
                Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. }
                    if !m.typed_pointers =>
                {
                    incorporate_attributes(m, call.attributes, &mut f)
                }
                _ => {}
            }
        }
    }
    f.structs
}

/// TypeFinder::incorporateAttributes: the types of type attributes (`byval(%T)`...).
fn incorporate_attributes(m: &Module<'_>, list: Option<u32>, f: &mut TypeFinder) {
    let Some(list) = m.attributes.list(list) else { return };
    for (_, set) in &list.sets {
        for a in set {
            if let crate::llvm::module::Attribute::Type(_, Some(t)) = a {
                f.incorporate(&m.types, *t);
            }
        }
    }
}

/// TypeFinder::incorporateValue: constants' types and operands, not globals or locals.
fn incorporate_value(
    m: &Module<'_>,
    body: Option<&FunctionBody<'_>>,
    id: ValueRef,
    f: &mut TypeFinder,
    seen: &mut [bool],
    seen_local: &mut [bool],
) {
    let mut work = vec![id];
    while let Some(id) = work.pop() {
        let (value, flag) = match body.and_then(|b| id.checked_sub(b.first_local).map(|l| (b, l))) {
            Some((b, l)) => (b.values.get(l as usize), seen_local.get_mut(l as usize)),
            None => (m.values.get(id as usize), seen.get_mut(id as usize)),
        };
        let (Some(value), Some(flag)) = (value, flag) else { continue };
        let ValueKind::Constant(c) = &value.kind else { continue };
        if *flag {
            continue;
        }
        *flag = true;
        f.incorporate(&m.types, value.ty);
        if let Constant::Gep { source, .. } = c {
            f.incorporate(&m.types, *source);
        }
        let ops = constant_operands(c);
        for op in ops.into_iter().rev() {
            work.push(op);
        }
    }
}

/// The value operands of a constant.
pub(super) fn constant_operands(c: &Constant<'_>) -> Vec<ValueRef> {
    match c {
        Constant::Aggregate(e) => e.clone(),
        Constant::Binary { lhs, rhs, .. } | Constant::Compare { lhs, rhs, .. } => vec![*lhs, *rhs],
        Constant::Unary { operand, .. } | Constant::Cast { operand, .. } => vec![*operand],
        Constant::Gep { operands, .. } => operands.clone(),
        Constant::Select(a, b, c) | Constant::InsertElement(a, b, c) | Constant::ShuffleVector(a, b, c) => {
            vec![*a, *b, *c]
        }
        Constant::ExtractElement(a, b) => vec![*a, *b],
        Constant::BlockAddress { function, .. } => vec![*function],
        Constant::DsoLocalEquivalent(v) | Constant::NoCfi(v) => vec![*v],
        Constant::PtrAuth(v) => v.clone(),
        _ => Vec::new(),
    }
}

/// The value operands of an instruction in LLVM's operand order.
pub(super) fn operands(op: &Op) -> Vec<ValueRef> {
    match op {
        Op::Binary { lhs, rhs, .. } | Op::Compare { lhs, rhs, .. } => vec![*lhs, *rhs],
        Op::Unary { operand, .. } | Op::Cast { operand, .. } => vec![*operand],
        Op::Gep { operands, .. } => operands.clone(),
        Op::Select { condition, true_value, false_value, .. } => vec![*condition, *true_value, *false_value],
        Op::ExtractElement { vector, index } => vec![*vector, *index],
        Op::InsertElement { vector, element, index } => vec![*vector, *element, *index],
        Op::ShuffleVector { vector1, vector2, mask } => vec![*vector1, *vector2, *mask],
        Op::Ret(v) => v.iter().copied().collect(),
        Op::Br { conditional: Some((c, _)), .. } => vec![*c],
        Op::Switch { condition, cases, .. } => {
            std::iter::once(*condition).chain(cases.iter().map(|(v, _)| *v)).collect()
        }
        Op::IndirectBr { address, .. } => vec![*address],
        Op::Invoke { call, .. } | Op::CallBr { call, .. } | Op::Call { call, .. } => {
            let mut v = call.args.clone();
            v.push(call.callee);
            v
        }
        Op::Phi { incoming, .. } => incoming.iter().map(|(v, _)| *v).collect(),
        Op::Alloca { size, .. } => vec![*size],
        Op::Load { ptr, .. } => vec![*ptr],
        Op::Store { ptr, value, .. } => vec![*value, *ptr],
        Op::VaArg { list } => vec![*list],
        Op::ExtractValue { aggregate, .. } => vec![*aggregate],
        Op::InsertValue { aggregate, value, .. } => vec![*aggregate, *value],
        Op::CmpXchg { ptr, cmp, new, .. } => vec![*ptr, *cmp, *new],
        Op::AtomicRmw { ptr, value, .. } => vec![*ptr, *value],
        Op::Resume(v) | Op::Freeze(v) => vec![*v],
        Op::LandingPad { clauses, .. } => clauses.iter().map(|(_, v)| *v).collect(),
        Op::CleanupRet { pad, .. } | Op::CatchRet { pad, .. } => vec![*pad],
        Op::Pad { parent, args, .. } => std::iter::once(*parent).chain(args.iter().copied()).collect(),
        Op::CatchSwitch { parent, .. } => vec![*parent],
        _ => Vec::new(),
    }
}

/// `getLinkageNameWithSpace`.
pub(super) fn linkage(l: Linkage) -> &'static str {
    match l.folded() {
        Linkage::Private => "private ",
        Linkage::Internal => "internal ",
        Linkage::AvailableExternally => "available_externally ",
        Linkage::Linkonce => "linkonce ",
        Linkage::LinkonceOdr => "linkonce_odr ",
        Linkage::Weak => "weak ",
        Linkage::WeakOdr => "weak_odr ",
        Linkage::Common => "common ",
        Linkage::Appending => "appending ",
        Linkage::ExternWeak => "extern_weak ",
        _ => "",
    }
}

impl<'m, 'a> Printer<'m, 'a> {
    /// SlotTracker::processModule: unnamed globals, global attachments, named metadata,
    /// function attributes.
    fn number_module(&mut self) {
        let m = self.m;
        let mut next = 0;
        for (i, g) in m.globals.iter().enumerate() {
            if g.common.name.is_empty() {
                self.global_slots.insert(value_of(m, ValueKind::Global(i as u32)), next);
                next += 1;
            }
            for (_, node) in self.md.global_attachments(value_of(m, ValueKind::Global(i as u32))).to_vec() {
                self.md_slots.number(&self.md, node);
            }
            if let Some(list) = m.attributes.list(g.attributes) {
                if let Some(set) = list.function().or_else(|| list.sets.first().map(|(_, s)| s)) {
                    self.attr_slot(set);
                }
            }
        }
        for (i, a) in m.aliases.iter().enumerate() {
            if a.common.name.is_empty() {
                self.global_slots.insert(value_of(m, ValueKind::Alias(i as u32)), next);
                next += 1;
            }
        }
        for (i, a) in m.ifuncs.iter().enumerate() {
            if a.common.name.is_empty() {
                self.global_slots.insert(value_of(m, ValueKind::Ifunc(i as u32)), next);
                next += 1;
            }
        }
        let named: Vec<MdRef> = self.md.named().flat_map(|(_, n)| n.to_vec()).collect();
        for n in named {
            self.md_slots.number(&self.md, n);
        }
        for (i, f) in m.functions.iter().enumerate() {
            if f.common.name.is_empty() {
                self.global_slots.insert(value_of(m, ValueKind::Function(i as u32)), next);
                next += 1;
            }
            if let Some(set) = m.attributes.list(f.attributes).and_then(|l| l.function()) {
                self.attr_slot(set);
            }
        }
    }

    /// The slot of an attribute set, given the next one when new.
    pub fn attr_slot(&mut self, set: &AttributeSet<'_>) -> u32 {
        let mut text = String::new();
        self.attr_writer().write_set(&mut text, set, true);
        if let Some(&s) = self.attr_slots.get(&text) {
            return s;
        }
        let s = self.attr_order.len() as u32;
        self.attr_slots.insert(text.clone(), s);
        self.attr_order.push(text);
        s
    }

    /// The attribute writer.
    pub fn attr_writer(&self) -> AttrWriter<'_> {
        AttrWriter { types: &self.m.types, printer: &self.tp, major: self.major }
    }

    /// Writes the common prefix of global values: dso_local, visibility, DLL storage.
    fn write_preemption(&self, out: &mut String, c: &GlobalCommon<'_>) {
        if c.dso_local && !c.implicit_dso_local() {
            out.push_str("dso_local ");
        }
        match c.visibility {
            Visibility::Hidden => out.push_str("hidden "),
            Visibility::Protected => out.push_str("protected "),
            _ => {}
        }
        match c.dll_storage {
            DllStorage::Dllimport => out.push_str("dllimport "),
            DllStorage::Dllexport => out.push_str("dllexport "),
            _ => {}
        }
    }

    fn write_thread_local(&self, out: &mut String, t: ThreadLocal) {
        match t {
            ThreadLocal::NotThreadLocal => {}
            ThreadLocal::Generaldynamic => out.push_str("thread_local "),
            ThreadLocal::Localdynamic => out.push_str("thread_local(localdynamic) "),
            ThreadLocal::Initialexec => out.push_str("thread_local(initialexec) "),
            ThreadLocal::Localexec => out.push_str("thread_local(localexec) "),
        }
    }

    fn unnamed_addr(u: UnnamedAddr) -> &'static str {
        match u {
            UnnamedAddr::UnnamedAddr => "unnamed_addr",
            UnnamedAddr::LocalUnnamedAddr => "local_unnamed_addr",
            _ => "",
        }
    }

    fn print_global(&mut self, out: &mut String, i: usize) {
        let m = self.m;
        let Some(g) = m.globals.get(i) else { return };
        let c = &g.common;
        self.write_global_name(out, value_of(m, ValueKind::Global(i as u32)));
        out.push_str(" = ");
        if g.initializer.is_none() && c.linkage == Linkage::External {
            out.push_str("external ");
        }
        out.push_str(linkage(c.linkage));
        self.write_preemption(out, c);
        self.write_thread_local(out, c.thread_local);
        let ua = Self::unnamed_addr(c.unnamed_addr);
        if !ua.is_empty() {
            out.push_str(ua);
            out.push(' ');
        }
        if c.address_space != 0 {
            let _ = write!(out, "addrspace({}) ", c.address_space);
        }
        if g.externally_initialized {
            out.push_str("externally_initialized ");
        }
        out.push_str(if g.constant { "constant " } else { "global " });
        self.tp.write(out, &m.types, c.value_type);
        if let Some(init) = g.initializer {
            out.push(' ');
            self.write_value(out, init);
        }
        if let Some(s) = &g.section {
            out.push_str(", section \"");
            names::escaped(out, s);
            out.push('"');
        }
        if !c.partition.is_empty() {
            out.push_str(", partition \"");
            names::escaped(out, &c.partition);
            out.push('"');
        }
        if self.major >= 18 && g.code_model != ir::CodeModel::None {
            let _ = write!(out, ", code_model \"{}\"", g.code_model.name());
        }
        if self.major >= 15 && g.sanitizer != 0 {
            for (bit, name) in [
                (1, "no_sanitize_address"),
                (2, "no_sanitize_hwaddress"),
                (4, "sanitize_memtag"),
                (8, "sanitize_address_dyninit"),
            ] {
                if g.sanitizer & bit != 0 {
                    let _ = write!(out, ", {name}");
                }
            }
        }
        if let Some(cd) = g.comdat {
            self.write_comdat(out, cd, &c.name, true);
        }
        if let Some(a) = g.align {
            let _ = write!(out, ", align {a}");
        }
        let attachments = self.md.global_attachments(value_of(m, ValueKind::Global(i as u32))).to_vec();
        self.write_attachments(out, &attachments, ", ");
        if let Some(list) = m.attributes.list(g.attributes) {
            if let Some(set) = list.function().or_else(|| list.sets.first().map(|(_, s)| s)) {
                let s = self.attr_slot(set);
                let _ = write!(out, " #{s}");
            }
        }
    }

    fn write_comdat(&self, out: &mut String, index: u32, own_name: &[u8], comma: bool) {
        let Some(c) = self.m.comdats.get(index as usize) else { return };
        if comma {
            out.push(',');
        }
        out.push_str(" comdat");
        if &c.name[..] != own_name {
            out.push('(');
            names::name(out, '$', &c.name);
            out.push(')');
        }
    }

    /// `, !kind !N` for each attachment (the separator first).
    pub fn write_attachments(&self, out: &mut String, list: &[(u32, MdRef)], sep: &str) {
        let values = GlobalValues { p: self };
        let printer = MdPrinter::new(&self.md, &self.md_slots, self.major, &values);
        for (kind, node) in list {
            out.push_str(sep);
            printer.write_kind(out, *kind);
            out.push(' ');
            printer.write_operand(out, *node);
        }
    }

    fn print_indirect(&mut self, out: &mut String, i: usize, alias: bool) {
        let m = self.m;
        let (x, kind) = if alias {
            (m.aliases.get(i), ValueKind::Alias(i as u32))
        } else {
            (m.ifuncs.get(i), ValueKind::Ifunc(i as u32))
        };
        let Some(x) = x else { return };
        let c = &x.common;
        self.write_global_name(out, value_of(m, kind));
        out.push_str(" = ");
        out.push_str(linkage(c.linkage));
        self.write_preemption(out, c);
        self.write_thread_local(out, c.thread_local);
        let ua = Self::unnamed_addr(c.unnamed_addr);
        if !ua.is_empty() {
            out.push_str(ua);
            out.push(' ');
        }
        out.push_str(if alias { "alias " } else { "ifunc " });
        self.tp.write(out, &m.types, c.value_type);
        out.push_str(", ");
        // A constant expression is written without its type (AsmWriter's printAlias).
        let expression = matches!(
            self.value(x.target).map(|v| &v.kind),
            Some(ValueKind::Constant(c)) if !matches!(
                c,
                Constant::Null | Constant::Undef | Constant::Poison | Constant::Int(_) | Constant::WideInt(_)
                    | Constant::Float(..) | Constant::Aggregate(_) | Constant::String { .. } | Constant::Data(_)
            )
        );
        if expression {
            self.write_value(out, x.target);
        } else {
            self.write_typed(out, x.target);
        }
        if !c.partition.is_empty() {
            out.push_str(", partition \"");
            names::escaped(out, &c.partition);
            out.push('"');
        }
        out.push('\n');
    }

    /// `@name` or `@N` of a global value.
    pub fn write_global_name(&self, out: &mut String, id: ValueRef) {
        match self.m.global_name(id) {
            Some(n) if !n.is_empty() => names::name(out, '@', n),
            _ => match self.global_slots.get(&id) {
                Some(s) => {
                    let _ = write!(out, "@{s}");
                }
                None => out.push_str("@<badref>"),
            },
        }
    }

    /// Writes a calling convention keyword (or `cc N`).
    pub fn write_cc(out: &mut String, cc: CallingConv) {
        match cc {
            // The old WebKit JS convention kept its keyword in the versions of the corpus.
            CallingConv::Unknown(12) => out.push_str("webkit_jscc"),
            CallingConv::Unknown(n) => {
                let _ = write!(out, "cc {n}");
            }
            other => out.push_str(other.name()),
        }
    }

    fn print_function(
        &mut self,
        out: &mut String,
        index: usize,
        body: Option<&'m FunctionBody<'a>>,
    ) -> Result<()> {
        let m = self.m;
        let Some(f) = m.functions.get(index) else { return Ok(()) };
        let c = &f.common;
        let attrs = m.attributes.list(f.attributes);
        let fn_attrs = attrs.and_then(|l| l.function());
        if let Some(set) = fn_attrs {
            let mut text = String::new();
            let aw = self.attr_writer();
            for a in set.iter().filter(|a| !matches!(a, crate::llvm::module::Attribute::String(..))) {
                if !text.is_empty() {
                    text.push(' ');
                }
                aw.write(&mut text, a, false);
            }
            if !text.is_empty() {
                let _ = writeln!(out, "; Function Attrs: {text}");
            }
        }
        // SlotTracker::processFunction.
        let fid = value_of(m, ValueKind::Function(index as u32));
        let attachments: Vec<(u32, MdRef)> = match body {
            Some(b) => {
                self.md.begin_function();
                for (id, name) in &b.kinds {
                    self.md.add_kind(*id, name);
                }
                for r in &b.metadata {
                    self.md.add_function_record(r.clone()).map_err(crate::llvm::module::invalid_error)?;
                }
                b.attachments.iter().filter_map(|(k, n)| Some((*k, self.md.get(u64::from(*n))?))).collect()
            }
            None => self.md.global_attachments(fid).to_vec(),
        };
        for (_, n) in &attachments {
            self.md_slots.number(&self.md, *n);
        }
        let Some((ret, params, vararg)) = m.types.function(c.value_type).map(|(r, p, v)| (r, p.to_vec(), v))
        else {
            return Ok(());
        };
        self.body = body;
        if let Some(b) = body {
            let addressed = self.addressed_blocks(fid, b);
            self.locals = LocalSlots::new(b, params.len(), &b.use_lists, &addressed);
            self.number_body_extras(b);
        }
        if f.is_proto {
            out.push_str("declare");
            self.write_attachments(out, &attachments, " ");
            out.push(' ');
        } else {
            out.push_str("define ");
        }
        out.push_str(linkage(c.linkage));
        self.write_preemption(out, c);
        if f.calling_conv != CallingConv::Ccc {
            Self::write_cc(out, f.calling_conv);
            out.push(' ');
        }
        if let Some(set) = attrs.and_then(|l| l.ret()) {
            self.attr_writer().write_set(out, set, false);
            out.push(' ');
        }
        self.tp.write(out, &m.types, ret);
        out.push(' ');
        self.write_global_name(out, fid);
        out.push('(');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.tp.write(out, &m.types, *p);
            if let Some(set) = attrs.and_then(|l| l.param(i as u32)) {
                out.push(' ');
                self.attr_writer().write_set(out, set, false);
            }
            if let Some(b) = body {
                out.push(' ');
                self.write_local_name(out, b.first_local + i as u32);
            }
        }
        if vararg {
            if !params.is_empty() {
                out.push_str(", ");
            }
            out.push_str("...");
        }
        out.push(')');
        let ua = Self::unnamed_addr(c.unnamed_addr);
        if !ua.is_empty() {
            out.push(' ');
            out.push_str(ua);
        }
        if c.address_space != 0 {
            let _ = write!(out, " addrspace({})", c.address_space);
        }
        if let Some(set) = fn_attrs {
            let s = self.attr_slot(set);
            let _ = write!(out, " #{s}");
        }
        if let Some(s) = &f.section {
            out.push_str(" section \"");
            names::escaped(out, s);
            out.push('"');
        }
        if !c.partition.is_empty() {
            out.push_str(" partition \"");
            names::escaped(out, &c.partition);
            out.push('"');
        }
        if let Some(cd) = f.comdat {
            self.write_comdat(out, cd, &c.name, false);
        }
        if let Some(a) = f.align {
            let _ = write!(out, " align {a}");
        }
        if let Some(gc) = &f.gc {
            out.push_str(" gc \"");
            out.push_str(&String::from_utf8_lossy(gc));
            out.push('"');
        }
        if let Some(v) = f.prefix {
            out.push_str(" prefix ");
            self.write_typed(out, v);
        }
        if let Some(v) = f.prologue {
            out.push_str(" prologue ");
            self.write_typed(out, v);
        }
        if let Some(v) = f.personality {
            out.push_str(" personality ");
            self.write_typed(out, v);
        }
        match body {
            None => out.push('\n'),
            Some(b) => {
                self.write_attachments(out, &attachments, " ");
                out.push_str(" {");
                for bi in 0..b.blocks.len() {
                    self.print_block(out, b, bi)?;
                }
                out.push_str("}\n");
                self.md.end_function();
            }
        }
        self.body = None;
        Ok(())
    }

    /// The blocks of the function `fid` (body `b`) that blockaddress constants take.
    pub fn addressed_blocks(&self, fid: ValueRef, b: &FunctionBody<'_>) -> Vec<u32> {
        self.m
            .values
            .iter()
            .chain(&b.values)
            .filter_map(|v| match &v.kind {
                ValueKind::Constant(Constant::BlockAddress { function, block }) if *function == fid => {
                    Some(*block)
                }
                _ => None,
            })
            .collect()
    }

    /// Call-site attribute slots and instruction metadata slots, in instruction order
    /// (SlotTracker::processFunctionMetadata and processFunction): per instruction, the
    /// nodes of its debug records, the node operands of an intrinsic call, its `!dbg`
    /// location, then its other attachments by kind.
    fn number_body_extras(&mut self, b: &FunctionBody<'a>) {
        self.dbg.clear();
        for inst in &b.instructions {
            let dbg = inst.debug_loc.and_then(|loc| {
                let scope = self.md.get(u64::from(loc.scope?))?;
                let inlined_at = loc.inlined_at.and_then(|i| self.md.get(u64::from(i)));
                Some(self.md.debug_loc(loc.line, loc.column, scope, inlined_at, loc.implicit))
            });
            self.dbg.push(dbg);
            for record in &inst.debug_records {
                for node in super::debug_records::numbered_operands(record) {
                    if let Some(n) = self.md.get(u64::from(node)) {
                        self.md_slots.number(&self.md, n);
                    }
                }
            }
            if let Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. } = &inst.op {
                if let Some(set) = self.m.attributes.list(call.attributes).and_then(|l| l.function()) {
                    self.attr_slot(set);
                }
                // Metadata operands of intrinsic calls.
                if self.m.global_name(call.callee).is_some_and(|n| n.starts_with(b"llvm.")) {
                    if let Some((_, params, _)) = self.m.types.function(call.function_type) {
                        for (arg, p) in call.args.iter().zip(params) {
                            if matches!(self.m.types.get(*p), Some(crate::llvm::module::Type::Metadata)) {
                                if let Some(n) = self.md.get(u64::from(*arg)) {
                                    self.md_slots.number(&self.md, n);
                                }
                            }
                        }
                    }
                }
            }
            let index = self.dbg.len() - 1;
            for (_, n) in self.sorted_attachments(index, inst) {
                self.md_slots.number(&self.md, n);
            }
        }
    }

    /// The attachments of instruction `index` of the body: `!dbg` first (kind 0, its
    /// debug location), then the others by kind id.
    pub fn sorted_attachments(
        &self,
        index: usize,
        inst: &crate::llvm::module::Instruction,
    ) -> Vec<(u32, MdRef)> {
        let mut list: Vec<(u32, MdRef)> =
            inst.attachments.iter().filter_map(|(k, n)| Some((*k, self.md.get(u64::from(*n))?))).collect();
        list.sort_by_key(|(k, _)| *k);
        if let Some(dbg) = self.dbg.get(index).copied().flatten() {
            list.insert(0, (DBG_KIND, dbg));
        }
        list
    }

    /// Value `value` of the body with ordinal `function` (its constants, arguments and
    /// instructions), when `function` names a body and `value` is one of its locals.
    pub fn body_value(&self, function: Option<u32>, value: u32) -> Option<&'m Value<'a>> {
        let body = self.bodies.get(function? as usize)?;
        body.values.get(value.checked_sub(body.first_local)? as usize)
    }

    /// The value of integer constant `value` (of body `function`'s numbering, or of the
    /// body being printed when `None`), sign-extended from its width.
    pub fn constant_int(&self, function: Option<u32>, value: u32) -> Option<i64> {
        let v = match function {
            Some(_) => self.body_value(function, value).or_else(|| self.m.values.get(value as usize))?,
            None => self.value(value)?,
        };
        // A zero is written as a null constant.
        let bits = match &v.kind {
            ValueKind::Constant(Constant::Int(bits)) => bits,
            ValueKind::Constant(Constant::Null) => &0,
            _ => return None,
        };
        let width = match self.m.types.get(v.ty) {
            Some(crate::llvm::module::Type::Integer(w)) => *w,
            _ => return None,
        };
        let bits = *bits;
        Some(if (1..64).contains(&width) { (bits << (64 - width)) >> (64 - width) } else { bits })
    }

    /// `%name` or `%N` of a local value.
    pub fn write_local_name(&self, out: &mut String, id: ValueRef) {
        if let Some(n) = self.body.and_then(|b| b.names.get(&id)) {
            names::name(out, '%', n);
        } else if let Some(s) = self.locals.values.get(&id) {
            let _ = write!(out, "%{s}");
        } else {
            out.push_str("<badref>");
        }
    }

    /// The value with id `id` in the current scope.
    pub fn value(&self, id: ValueRef) -> Option<&'m Value<'a>> {
        match self.body.and_then(|b| id.checked_sub(b.first_local).map(|l| (b, l))) {
            Some((b, l)) => b.values.get(l as usize),
            None => self.m.values.get(id as usize),
        }
    }
}

/// The fixed kind id of `!dbg` attachments (LLVM's MD_dbg).
const DBG_KIND: u32 = 0;

/// The value id of a global value.
fn value_of(m: &Module<'_>, kind: ValueKind<'_>) -> ValueRef {
    let common = match kind {
        ValueKind::Global(i) => m.globals.get(i as usize).map(|g| &g.common),
        ValueKind::Function(i) => m.functions.get(i as usize).map(|g| &g.common),
        ValueKind::Alias(i) => m.aliases.get(i as usize).map(|g| &g.common),
        ValueKind::Ifunc(i) => m.ifuncs.get(i as usize).map(|g| &g.common),
        _ => None,
    };
    common.map_or(u32::MAX, |c| c.value_id)
}
