//! Printing a module: header, struct types, comdats, globals, aliases, ifuncs,
//! functions, attribute groups and metadata, in AsmWriter's order and numbering.

use rustc_hash::FxHashMap;
use std::fmt::Write;
use std::sync::Arc;

use bitcode_schema_runtime::decode::Bytes;
use bitcode_schema_runtime::Result;

use super::attributes::AttrWriter;
use super::feed::{self, ReadBody};
use super::global_refs::GlobalRefs;
use super::lists::Lists;
use super::local_names::LocalNames;
use super::md::{MdPrinter, MdRef, MdSlots, Metadata, ValueWriter};
use super::names;
use super::output::{Sink, Waiting};
use super::slots::LocalSlots;
use super::type_order::{StructOrder, TypeOrder};
use super::types::TypePrinter;
use super::DisError;
use crate::llvm::ir::{self, CallingConv, DllStorage, Linkage, ThreadLocal, UnnamedAddr, Visibility};
use crate::llvm::module::metadata::Location;
use crate::llvm::module::{
    AttributeSet, Constant, FunctionBody, GlobalCommon, Module, Op, Type, TypeRef, Types, Value, ValueKind,
    ValueRef,
};

/// A block of another function as a blockaddress names it: its name or slot there.
pub(super) type BlockLabel<'a> = (Option<Bytes<'a>>, Option<u32>);

/// A value of a function's metadata, written while its body was there, for the metadata
/// printed after every function: its text and, for an integer, its value.
type LocalMdValue = (String, Option<i64>);

/// The state of printing one module.
pub(super) struct Printer<'m, 'a> {
    pub m: &'m Module<'a>,
    pub major: u32,
    /// The module's types and those its bodies added so far (the bodies are read with a
    /// copy of the table, whose additions come with each body).
    pub types: Types,
    pub tp: TypePrinter,
    /// The text of each parameter or return attribute set, by the address of its shared
    /// attributes (a module's calls use a few sets many times over), made in the set-up:
    /// every set is the module's, which outlives the printer.
    set_texts: FxHashMap<usize, Box<str>>,
    /// The slot of each function attribute set met so far, by the address of its shared
    /// attributes (without writing the set's text again to look it up).
    set_slots: FxHashMap<usize, u32>,
    /// Each attachment kind as it is printed (`!tbaa`), by kind id: the module's, and
    /// those the body being printed names (old files).
    kind_texts: FxHashMap<u32, Box<str>>,
    /// How each global value is referred to.
    global_refs: GlobalRefs,
    /// Attribute sets (as printed in a group) and their slots.
    pub attr_slots: FxHashMap<String, u32>,
    pub attr_order: Vec<String>,
    /// The slots of attribute lists' function attributes, by list id.
    function_attr_slots: FxHashMap<u32, Option<u32>>,
    pub md: Metadata<'a>,
    pub md_slots: MdSlots,
    /// The function being printed, and its ordinal among the bodies.
    pub body: Option<Arc<FunctionBody<'a>>>,
    pub ordinal: Option<u32>,
    pub locals: LocalSlots,
    /// The text of each local's reference, made from `locals`.
    pub local_names: LocalNames,
    /// The attachments of the instructions of the function being printed, as
    /// [`Printer::attachments`] gives them, by instruction index.
    attachments: Lists<(u32, MdRef)>,
    /// The blocks module-level blockaddress constants take, by function index.
    module_addressed: FxHashMap<u32, Vec<u32>>,
    /// The labels of the blocks of each function a blockaddress names, by function index.
    labels: FxHashMap<u32, Vec<BlockLabel<'a>>>,
    /// Values of function-level metadata, by body ordinal and value id.
    local_md_values: FxHashMap<(u32, u32), LocalMdValue>,
    /// The struct order: known before the bodies, or TypeFinder's walk as they are printed
    /// (the printer's, not the reader's: the printer waited for the reader more often than
    /// the reader for the printer).
    struct_order: StructOrder,
}

/// Prints module `m` as llvm-dis `major` does, to `sink`. Into a file the text goes out
/// as it is made, the header first with its struct types in table order, put right once
/// the bodies have decided them; into any other writer the functions' text waits for the
/// header, so that nothing is written before every body has been read.
pub(super) fn print(
    mut m: Module<'_>,
    major: u32,
    module_id: &str,
    mut sink: Sink<'_>,
) -> std::result::Result<(), DisError> {
    super::intrinsic_attributes::reset(&mut m, major)?;
    let module = m;
    let m = &module;
    // Bodies name numbered structs by number, which the whole module's order gives: with
    // such structs the bodies are read once for the order before they are printed.
    let known_order = if has_numbered_structs(&m.types) { Some(struct_order(m)?) } else { None };
    // The printer's set-up (module metadata, slots) runs while the first bodies are read.
    let prepare = || -> Result<Printer<'_, '_>> {
        let md = module_metadata(m)?;
        let struct_order = match known_order {
            Some(order) => StructOrder::Known(order),
            None => StructOrder::Walking(TypeOrder::new(m)),
        };
        let tp = TypePrinter::new(&m.types, struct_order.known(), m.typed_pointers && major < 17);
        let mut p = Printer {
            m,
            major,
            struct_order,
            types: m.types.clone(),
            tp,
            set_texts: FxHashMap::default(),
            set_slots: FxHashMap::default(),
            kind_texts: FxHashMap::default(),
            global_refs: GlobalRefs::default(),
            attr_slots: FxHashMap::default(),
            attr_order: Vec::new(),
            function_attr_slots: FxHashMap::default(),
            md,
            md_slots: MdSlots::new(),
            body: None,
            ordinal: None,
            locals: LocalSlots::default(),
            local_names: LocalNames::default(),
            attachments: Lists::default(),
            module_addressed: module_addressed(m),
            labels: FxHashMap::default(),
            local_md_values: FxHashMap::default(),
        };
        p.tp.cache(&p.types);
        p.name_kinds(m.md_kinds.iter().map(|(id, _)| *id));
        p.write_param_sets();
        p.number_module();
        Ok(p)
    };
    // The functions, each body printed and dropped in turn: their text goes out after the
    // header, or waits for it.
    let header_first = sink.can_replace();
    let mut header: Option<StructTypes> = None;
    let mut text = String::new();
    let mut functions = Waiting::default();
    let mut next = 0;
    let finished = with_summary(m, module_id, major, |start_summary, summary| {
        let printed = feed::each_body(m, prepare, start_summary, |p, read| {
            p.types.add_from_copy(&read.added_types);
            p.tp.cache(&p.types);
            if header_first && header.is_none() {
                header = Some(p.write_header(module_id, &mut text, &mut sink)?);
            }
            let out = if header_first { &mut text } else { functions.text() };
            let index = read.body.function as usize;
            while next < index {
                out.push('\n');
                p.print_function(out, next, None)?;
                next += 1;
            }
            out.push('\n');
            let spent = p.print_function(out, index, Some(read))?;
            next = index + 1;
            if header_first {
                sink.spill(&mut text);
            }
            Ok(spent)
        });
        printed.map_err(DisError::from).and_then(|mut p| {
            if header_first && header.is_none() {
                header = Some(p.write_header(module_id, &mut text, &mut sink)?);
            }
            let out = if header_first { &mut text } else { functions.text() };
            while next < m.functions.len() {
                out.push('\n');
                p.print_function(out, next, None)?;
                next += 1;
            }
            let order = p.struct_order.take(m, &p.types, &p.md);
            let waiting = match header {
                Some(written) => {
                    let types = p.struct_types_text(&order);
                    if types != written.text {
                        sink.write(&mut text);
                        sink.replace(written.at, written.text.len() as u64, &types);
                    }
                    None
                }
                None => {
                    p.labels_for_globals()?;
                    p.write_header_with(module_id, &mut text, &mut sink, &order);
                    Some(functions)
                }
            };
            write_tail(p, text, waiting, &mut sink, summary)
        })
    });
    if finished.is_err() {
        sink.discard();
    }
    finished?;
    free_beside(module, || sink.finish().map_err(DisError::Output))
}

/// Runs `f` while `value` is dropped: with the `parallel` feature, on another thread. The
/// text is complete by then, and freeing a large module and its printer (the metadata
/// arena, the tables of slots and names) took a millisecond and more after it.
fn free_beside<T: Send, R>(value: T, f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "parallel")]
    return std::thread::scope(|scope| {
        scope.spawn(move || drop(value));
        f()
    });
    #[cfg(not(feature = "parallel"))]
    {
        drop(value);
        f()
    }
}

/// Where the struct types went in the text written, and their text.
struct StructTypes {
    /// Their offset from the first byte written.
    at: u64,
    /// Their text.
    text: String,
}

/// Runs `f` with two functions: one that starts printing the summary of `m`, and one that
/// gives its text (empty without a summary). With the `parallel` feature a module with a
/// summary has it printed on a thread of its own, started by the first (the reader's
/// thread calls it once it has read the last body: its core is free from then on); else
/// the text is made when it is asked for.
fn with_summary<R>(
    m: &Module<'_>,
    module_id: &str,
    major: u32,
    f: impl FnOnce(&(dyn Fn() + Sync), &mut dyn FnMut() -> Result<Waiting>) -> R,
) -> R {
    if !m.has_summary() {
        return f(&|| {}, &mut || Ok(Waiting::default()));
    }
    let print = || -> Result<Waiting> {
        let mut text = Waiting::default();
        super::summary::print(&mut text, m, module_id, major)?;
        Ok(text)
    };
    #[cfg(feature = "parallel")]
    return std::thread::scope(|scope| {
        let (go, wait) = std::sync::mpsc::channel::<()>();
        // Never started (an error stopped the reading): nothing to print.
        let job = scope.spawn(move || if wait.recv().is_ok() { print() } else { Ok(Waiting::default()) });
        let start = move || {
            let _ = go.send(());
        };
        let mut job = Some(job);
        f(&start, &mut || {
            start();
            job.take().map_or(Ok(Waiting::default()), |job| {
                job.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        })
    });
    #[cfg(not(feature = "parallel"))]
    {
        let mut print = Some(print);
        f(&|| {}, &mut || print.take().map_or(Ok(Waiting::default()), |print| print()))
    }
}

/// Writes what follows the functions: the `waiting` functions' text (if they waited),
/// attribute groups, named metadata, numbered nodes and the summary `summary` gives.
fn write_tail(
    printer: Printer<'_, '_>,
    mut out: String,
    waiting: Option<Waiting>,
    sink: &mut Sink<'_>,
    summary: &mut dyn FnMut() -> Result<Waiting>,
) -> std::result::Result<(), DisError> {
    let out = &mut out;
    // The functions' text, attribute groups and named metadata go out while the second
    // half of the numbered nodes is written (with many nodes and the `parallel` feature).
    let p = &printer;
    p.write_nodes(out, sink, |out, sink| {
        sink.write(out);
        if let Some(functions) = waiting {
            functions.write_to(sink);
        }
        if !p.attr_order.is_empty() {
            out.push('\n');
            for (i, a) in p.attr_order.iter().enumerate() {
                let _ = writeln!(out, "attributes #{i} = {{ {a} }}");
            }
        }
        if p.md.named().next().is_some() {
            out.push('\n');
            let values = GlobalValues { p };
            MdPrinter::new(&p.md, &p.md_slots, p.major, &values).write_named(out);
        }
        if !p.md_slots.nodes().is_empty() {
            out.push('\n');
        }
    });
    // The printer is freed while the summary's thread ends and the tail goes out.
    free_beside(printer, || {
        sink.write(out);
        summary()?.write_to(sink);
        Ok(())
    })
}

impl Printer<'_, '_> {
    /// Writes the header before the functions, with the struct types in the order known
    /// or, while the bodies decide it, in table order (the same lines, when every
    /// identified struct turns up); where those went and their text.
    fn write_header(
        &mut self,
        module_id: &str,
        out: &mut String,
        sink: &mut Sink<'_>,
    ) -> Result<StructTypes> {
        self.labels_for_globals()?;
        let order: Vec<TypeRef> = match &self.struct_order {
            StructOrder::Known(order) => order.clone(),
            StructOrder::Walking(_) => (0..self.m.types.len() as TypeRef)
                .filter(|&t| matches!(self.m.types.get(t), Some(Type::Struct { identified: Some(_), .. })))
                .collect(),
        };
        Ok(self.write_header_with(module_id, out, sink, &order))
    }

    /// Writes the header: module id, source file, data layout, triple, module asm, the
    /// struct types in `order`, comdats, globals, aliases and ifuncs; where the struct types
    /// went and their text.
    fn write_header_with(
        &mut self,
        module_id: &str,
        out: &mut String,
        sink: &mut Sink<'_>,
        order: &[TypeRef],
    ) -> StructTypes {
        let m = self.m;
        let _ = writeln!(out, "; ModuleID = '{module_id}'");
        if let Some(s) = &m.source_filename {
            out.push_str("source_filename = \"");
            names::escaped(out, s);
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
                names::escaped(out, line);
                out.push_str("\"\n");
            }
        }
        sink.write(out);
        let types = StructTypes { at: sink.written(), text: self.struct_types_text(order) };
        sink.write_str(&types.text);
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
            names::name(out, '$', &c.name);
            out.push_str(" = comdat ");
            out.push_str(match c.selection {
                ir::ComdatSelection::Any => "any",
                ir::ComdatSelection::Exactmatch => "exactmatch",
                ir::ComdatSelection::Largest => "largest",
                ir::ComdatSelection::Nodeduplicate => "nodeduplicate",
                ir::ComdatSelection::Samesize => "samesize",
            });
            out.push('\n');
            sink.spill(out);
        }
        if !m.globals.is_empty() {
            out.push('\n');
        }
        for i in 0..m.globals.len() {
            self.print_global(out, i);
            out.push('\n');
            sink.spill(out);
        }
        if !m.aliases.is_empty() {
            out.push('\n');
        }
        for i in 0..m.aliases.len() {
            self.print_indirect(out, i, true);
            sink.spill(out);
        }
        if !m.ifuncs.is_empty() {
            out.push('\n');
        }
        for i in 0..m.ifuncs.len() {
            self.print_indirect(out, i, false);
            sink.spill(out);
        }
        types
    }

    /// The struct type definitions, in `order` but the numbered ones first.
    fn struct_types_text(&self, order: &[TypeRef]) -> String {
        let mut out = String::new();
        if !order.is_empty() {
            out.push('\n');
        }
        let numbered = |t: &TypeRef| self.types.name(*t).is_none_or(|n| n.is_empty());
        let (first, then): (Vec<TypeRef>, Vec<TypeRef>) = order.iter().copied().partition(numbered);
        for t in first.iter().chain(&then) {
            self.tp.write(&mut out, &self.types, *t);
            out.push_str(" = type ");
            self.tp.write_body(&mut out, &self.types, *t);
            out.push('\n');
        }
        out
    }
}

/// Modules with fewer numbered metadata nodes print them on one thread.
#[cfg(feature = "parallel")]
const NODES_TO_SPLIT: usize = 5_000;

impl Printer<'_, '_> {
    /// The numbered metadata nodes, after the text `before` writes: with the `parallel`
    /// feature and many nodes, the second half is written on another thread meanwhile
    /// (its text waits for the first half).
    fn write_nodes(
        &self,
        out: &mut String,
        sink: &mut Sink<'_>,
        before: impl FnOnce(&mut String, &mut Sink<'_>),
    ) {
        let count = self.md_slots.nodes().len();
        let values = GlobalValues { p: self };
        let printer = MdPrinter::new(&self.md, &self.md_slots, self.major, &values);
        #[cfg(feature = "parallel")]
        if count >= NODES_TO_SPLIT {
            let half = count / 2;
            let second = std::thread::scope(|scope| {
                let second = scope.spawn(|| {
                    let values = GlobalValues { p: self };
                    let printer = MdPrinter::new(&self.md, &self.md_slots, self.major, &values);
                    // In chunks: one string grown to the size of half the nodes' text was
                    // copied again at every doubling.
                    let mut chunks = Waiting::default();
                    let mut text = String::new();
                    printer.write_nodes(&mut text, half..count, &mut |text| chunks.take_full(text));
                    chunks.end_with(text);
                    chunks
                });
                before(out, sink);
                printer.write_nodes(out, 0..half, &mut |text| sink.spill(text));
                second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            sink.write(out);
            second.write_to(sink);
            return;
        }
        before(out, sink);
        printer.write_nodes(out, 0..count, &mut |text| sink.spill(text));
    }
}

/// The module-level metadata of `m`: its kinds and its METADATA_BLOCKs' entries.
fn module_metadata<'a>(m: &Module<'a>) -> Result<Metadata<'a>> {
    let mut md = Metadata::new();
    for (id, name) in &m.md_kinds {
        md.add_kind(*id, name);
    }
    for r in m.metadata_records().located() {
        let (r, place) = r?;
        md.add_module_record(r).map_err(|e| place.invalid(e))?;
    }
    Ok(md)
}

/// The order of the struct definitions, found by reading every body of `m` before any
/// is printed.
fn struct_order(m: &Module<'_>) -> Result<Vec<TypeRef>> {
    let mut md = module_metadata(m)?;
    let mut order = TypeOrder::new(m);
    let mut types = m.types.clone();
    let mut next = 0;
    let mut failed = None;
    feed::read_all(m, |mut read| {
        types.add_from_copy(&read.added_types);
        let index = read.body.function as usize;
        while next < index {
            order.function(m, &types, &md, next, None);
            next += 1;
        }
        if let Err(e) = md.begin_body(std::mem::take(&mut read.body.metadata)) {
            failed = Some(m.body_error(read.ordinal, e));
            return false;
        }
        order.function(m, &types, &md, index, Some(&read.body));
        md.end_function();
        next = index + 1;
        true
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    while next < m.functions.len() {
        order.function(m, &types, &md, next, None);
        next += 1;
    }
    Ok(order.finish(m, &types, &md))
}

/// Whether the type table has an identified struct without a name.
fn has_numbered_structs(types: &Types) -> bool {
    (0..types.len() as TypeRef).any(|t| {
        matches!(types.get(t), Some(Type::Struct { identified: Some(_), .. }))
            && types.name(t).is_none_or(|n| n.is_empty())
    })
}

/// The blocks module-level blockaddress constants take, by function index.
fn module_addressed(m: &Module<'_>) -> FxHashMap<u32, Vec<u32>> {
    let mut addressed: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for v in &m.values {
        if let ValueKind::Constant(Constant::BlockAddress { function, block }) = &v.kind {
            if let Some(ValueKind::Function(f)) = m.values.get(*function as usize).map(|v| &v.kind) {
                addressed.entry(*f).or_default().push(*block);
            }
        }
    }
    addressed
}

/// Writes module-level values for metadata.
struct GlobalValues<'p, 'm, 'a> {
    p: &'p Printer<'m, 'a>,
}

impl ValueWriter for GlobalValues<'_, '_, '_> {
    fn write_typed_value(&self, out: &mut String, ty: u32, value: u32, function: Option<u32>) {
        self.p.tp.write(out, &self.p.types, ty);
        out.push(' ');
        // A value of a function's metadata block printed after every function: one of
        // that body's constants (its arguments and instructions only appear inline, in
        // the body).
        match self.p.local_md_value(function, value) {
            Some(LocalMd::Here(v)) => match &v.kind {
                ValueKind::Constant(c) => self.p.write_constant(out, v.ty, c),
                _ => out.push_str("<badref>"),
            },
            Some(LocalMd::Written((text, _))) => out.push_str(text),
            None => self.p.write_value(out, value),
        }
    }

    fn constant_int(&self, _ty: u32, value: u32, function: Option<u32>) -> Option<i64> {
        self.p.constant_int(function, value)
    }
}

/// Visits the value operands of a constant in order.
pub(super) fn for_each_constant_operand(c: &Constant<'_>, mut visit: impl FnMut(ValueRef)) {
    let mut all = |ids: &[ValueRef]| ids.iter().for_each(|&id| visit(id));
    match c {
        Constant::Aggregate(e) => all(e),
        Constant::Binary { lhs, rhs, .. } | Constant::Compare { lhs, rhs, .. } => all(&[*lhs, *rhs]),
        Constant::Unary { operand, .. } | Constant::Cast { operand, .. } => all(&[*operand]),
        Constant::Gep { operands, .. } => all(operands),
        Constant::Select(a, b, c) | Constant::InsertElement(a, b, c) | Constant::ShuffleVector(a, b, c) => {
            all(&[*a, *b, *c])
        }
        Constant::ExtractElement(a, b) => all(&[*a, *b]),
        Constant::BlockAddress { function, .. } => all(&[*function]),
        Constant::DsoLocalEquivalent(v) | Constant::NoCfi(v) => all(&[*v]),
        Constant::PtrAuth(v) => all(v),
        _ => {}
    }
}

/// Visits the value operands of an instruction in LLVM's operand order.
pub(super) fn for_each_operand(op: &Op, mut visit: impl FnMut(ValueRef)) {
    let mut all = |ids: &[ValueRef]| ids.iter().for_each(|&id| visit(id));
    match op {
        Op::Binary { lhs, rhs, .. } | Op::Compare { lhs, rhs, .. } => all(&[*lhs, *rhs]),
        Op::Unary { operand, .. } | Op::Cast { operand, .. } => all(&[*operand]),
        Op::Gep { operands, .. } => all(operands),
        Op::Select { condition, true_value, false_value, .. } => {
            all(&[*condition, *true_value, *false_value])
        }
        Op::ExtractElement { vector, index } => all(&[*vector, *index]),
        Op::InsertElement { vector, element, index } => all(&[*vector, *element, *index]),
        Op::ShuffleVector { vector1, vector2, mask } => all(&[*vector1, *vector2, *mask]),
        Op::Ret(v) => all(v.as_slice()),
        Op::Br { conditional: Some((c, _)), .. } => all(&[*c]),
        Op::Switch { condition, cases, .. } => {
            all(&[*condition]);
            cases.iter().for_each(|(v, _)| all(&[*v]));
        }
        Op::IndirectBr { address, .. } => all(&[*address]),
        Op::Invoke { call, .. } | Op::CallBr { call, .. } | Op::Call { call, .. } => {
            all(&call.args);
            all(&[call.callee]);
        }
        Op::Phi { incoming, .. } => incoming.iter().for_each(|(v, _)| all(&[*v])),
        Op::Alloca { size, .. } => all(&[*size]),
        Op::Load { ptr, .. } => all(&[*ptr]),
        Op::Store { ptr, value, .. } => all(&[*value, *ptr]),
        Op::VaArg { list } => all(&[*list]),
        Op::ExtractValue { aggregate, .. } => all(&[*aggregate]),
        Op::InsertValue { aggregate, value, .. } => all(&[*aggregate, *value]),
        Op::CmpXchg { ptr, cmp, new, .. } => all(&[*ptr, *cmp, *new]),
        Op::AtomicRmw { ptr, value, .. } => all(&[*ptr, *value]),
        Op::Resume(v) | Op::Freeze(v) => all(&[*v]),
        Op::LandingPad { clauses, .. } => clauses.iter().for_each(|(_, v)| all(&[*v])),
        Op::CleanupRet { pad, .. } | Op::CatchRet { pad, .. } => all(&[*pad]),
        Op::Pad { parent, args, .. } => {
            all(&[*parent]);
            all(args);
        }
        Op::CatchSwitch { parent, .. } => all(&[*parent]),
        _ => {}
    }
}

/// Visits the blocks a terminator may pass control to, in operand order (the blocks of a
/// callbr's or catchswitch's list after its default or unwind destination).
pub(super) fn for_each_successor(op: &Op, mut visit: impl FnMut(u32)) {
    let mut all = |blocks: &[u32]| blocks.iter().for_each(|&b| visit(b));
    match op {
        Op::Br { dest, conditional } => {
            all(&[*dest]);
            if let Some((_, f)) = conditional {
                all(&[*f]);
            }
        }
        Op::Switch { default, cases, .. } => {
            all(&[*default]);
            cases.iter().for_each(|(_, d)| all(&[*d]));
        }
        Op::IndirectBr { dests, .. } => all(dests),
        Op::Invoke { normal, unwind, .. } => all(&[*normal, *unwind]),
        Op::CallBr { default, indirect, .. } => {
            all(&[*default]);
            all(indirect);
        }
        Op::CleanupRet { unwind: Some(u), .. } => all(&[*u]),
        Op::CatchRet { successor, .. } => all(&[*successor]),
        Op::CatchSwitch { handlers, unwind, .. } => {
            all(unwind.as_slice());
            all(handlers);
        }
        _ => {}
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
        // Unnamed globals are numbered by GlobalRefs, in this same order.
        self.global_refs = GlobalRefs::new(m);
        for (i, g) in m.globals.iter().enumerate() {
            for (_, node) in self.md.global_attachments(value_of(m, ValueKind::Global(i as u32))).to_vec() {
                self.md_slots.number(&self.md, node);
            }
            if let Some(list) = m.attributes.list(g.attributes) {
                if let Some(set) = list.function().or_else(|| list.sets.first().map(|(_, s)| s)) {
                    self.attr_slot(set);
                }
            }
        }
        let named: Vec<MdRef> = self.md.named().flat_map(|(_, n)| n.to_vec()).collect();
        for n in named {
            self.md_slots.number(&self.md, n);
        }
        for f in &m.functions {
            if let Some(set) = m.attributes.list(f.attributes).and_then(|l| l.function()) {
                self.attr_slot(set);
            }
        }
    }

    /// The slot of an attribute set, given the next one when new.
    pub fn attr_slot(&mut self, set: &AttributeSet<'_>) -> u32 {
        let key = Arc::as_ptr(set) as usize;
        if let Some(&s) = self.set_slots.get(&key) {
            return s;
        }
        let mut text = String::new();
        self.attr_writer().write_set(&mut text, set, true);
        let s = match self.attr_slots.get(&text) {
            Some(&s) => s,
            None => {
                let s = self.attr_order.len() as u32;
                self.attr_slots.insert(text.clone(), s);
                self.attr_order.push(text);
                s
            }
        };
        self.set_slots.insert(key, s);
        s
    }

    /// The slot of the function attributes of attribute list `list`, if it has any;
    /// remembered by list, as every call with the list asks again.
    pub fn function_attr_slot(&mut self, list: Option<u32>) -> Option<u32> {
        let id = list?;
        if let Some(&slot) = self.function_attr_slots.get(&id) {
            return slot;
        }
        let m = self.m;
        let slot = m.attributes.list(list).and_then(|l| l.function()).map(|set| self.attr_slot(set));
        self.function_attr_slots.insert(id, slot);
        slot
    }

    /// Writes the text of attachment kinds `kinds` (as the metadata printer writes them)
    /// into the table attachments are written from.
    fn name_kinds(&mut self, kinds: impl Iterator<Item = u32>) {
        let values = GlobalValues { p: self };
        let printer = MdPrinter::new(&self.md, &self.md_slots, self.major, &values);
        let mut texts = Vec::new();
        for kind in kinds {
            let mut text = String::new();
            printer.write_kind(&mut text, kind);
            texts.push((kind, text.into_boxed_str()));
        }
        self.kind_texts.extend(texts);
    }

    /// Writes the text of every parameter and return attribute set of the module's lists.
    fn write_param_sets(&mut self) {
        let mut texts = FxHashMap::default();
        for list in &self.m.attributes.lists {
            for (index, set) in &list.sets {
                if *index == crate::llvm::module::attributes::FUNCTION_INDEX {
                    continue;
                }
                texts.entry(Arc::as_ptr(set) as usize).or_insert_with(|| {
                    let mut text = String::new();
                    self.attr_writer().write_set(&mut text, set, false);
                    text.into_boxed_str()
                });
            }
        }
        self.set_texts = texts;
    }

    /// Writes a parameter or return attribute set (as [`AttrWriter::write_set`] does
    /// outside a group), from its text made in the set-up.
    pub fn write_param_attrs(&self, out: &mut String, set: &AttributeSet<'_>) {
        match self.set_texts.get(&(Arc::as_ptr(set) as usize)) {
            Some(text) => out.push_str(text),
            None => self.attr_writer().write_set(out, set, false),
        }
    }

    /// The attribute writer.
    pub fn attr_writer(&self) -> AttrWriter<'_> {
        AttrWriter { types: &self.types, printer: &self.tp, major: self.major }
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

    /// What a global variable, alias or ifunc has before its kind: linkage, preemption,
    /// visibility, DLL storage, thread-local mode and unnamed_addr.
    fn write_global_prefix(&self, out: &mut String, c: &GlobalCommon<'_>) {
        out.push_str(linkage(c.linkage));
        self.write_preemption(out, c);
        self.write_thread_local(out, c.thread_local);
        let ua = Self::unnamed_addr(c.unnamed_addr);
        if !ua.is_empty() {
            out.push_str(ua);
            out.push(' ');
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
        self.write_global_prefix(out, c);
        if c.address_space != 0 {
            let _ = write!(out, "addrspace({}) ", c.address_space);
        }
        if g.externally_initialized {
            out.push_str("externally_initialized ");
        }
        out.push_str(if g.constant { "constant " } else { "global " });
        self.tp.write(out, &self.types, c.value_type);
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
                    out.push_str(", ");
                    out.push_str(name);
                }
            }
        }
        if let Some(cd) = g.comdat {
            self.write_comdat(out, cd, &c.name, true);
        }
        if let Some(a) = g.align {
            super::text::push_tagged(out, ", align ", a);
        }
        let attachments = self.md.global_attachments(value_of(m, ValueKind::Global(i as u32))).to_vec();
        self.write_attachments(out, &attachments, ", ");
        if let Some(list) = m.attributes.list(g.attributes) {
            if let Some(set) = list.function().or_else(|| list.sets.first().map(|(_, s)| s)) {
                let s = self.attr_slot(set);
                super::text::push_tagged(out, " #", s);
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
            match self.kind_texts.get(kind) {
                Some(text) => out.push_str(text),
                None => printer.write_kind(out, *kind),
            }
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
        self.write_global_prefix(out, c);
        out.push_str(if alias { "alias " } else { "ifunc " });
        self.tp.write(out, &self.types, c.value_type);
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
        self.global_refs.write(out, id);
    }

    /// Writes a calling convention keyword (or `ccN`).
    pub fn write_cc(out: &mut String, cc: CallingConv) {
        match cc {
            // The old WebKit JS convention kept its keyword in the versions of the corpus.
            CallingConv::Unknown(12) => out.push_str("webkit_jscc"),
            CallingConv::Unknown(n) => {
                super::text::push_tagged(out, "cc", n);
            }
            // AsmWriter spells these two with a space after, and then adds its own.
            CallingConv::AvrIntrcc | CallingConv::AvrSignalcc => {
                out.push_str(cc.name());
                out.push(' ');
            }
            other => out.push_str(other.name()),
        }
    }

    /// Prints function `index`, with its body if `read` holds it; gives the body back once
    /// printed (for the reader's thread to free: see [`feed::each_body`]).
    fn print_function(
        &mut self,
        out: &mut String,
        index: usize,
        read: Option<ReadBody<'a>>,
    ) -> Result<Option<FunctionBody<'a>>> {
        let m = self.m;
        let Some(f) = m.functions.get(index) else { return Ok(None) };
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
        let shared: Option<Arc<FunctionBody<'a>>> = match read {
            Some(mut read) => {
                // Taken: what a record holds becomes the arena's.
                let records = std::mem::take(&mut read.body.metadata);
                self.md.begin_body(records).map_err(|e| m.body_error(read.ordinal, e))?;
                self.ordinal = Some(read.ordinal);
                Some(Arc::new(read.body))
            }
            None => None,
        };
        self.body = shared.clone();
        let body = shared.as_deref();
        // TypeFinder's walk, with the body's metadata in scope.
        self.struct_order.function(m, &self.types, &self.md, index, body);
        let attachments: Vec<(u32, MdRef)> = match body {
            Some(b) => {
                b.attachments.iter().filter_map(|(k, n)| Some((*k, self.md.get(u64::from(*n))?))).collect()
            }
            None => self.md.global_attachments(fid).to_vec(),
        };
        for (_, n) in &attachments {
            self.md_slots.number(&self.md, *n);
        }
        let Some((ret, params, vararg)) =
            self.types.function(c.value_type).map(|(r, p, v)| (r, p.to_vec(), v))
        else {
            return Ok(None);
        };
        if let Some(b) = body {
            let addressed = self.addressed_blocks(index as u32, b);
            self.locals.fill(b, params.len(), &b.use_lists, &addressed);
            self.local_names.fill(b, &self.locals);
            self.number_body_extras(b);
            self.find_labels(index as u32, b)?;
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
            self.write_param_attrs(out, set);
            out.push(' ');
        }
        self.tp.write(out, &self.types, ret);
        out.push(' ');
        self.write_global_name(out, fid);
        out.push('(');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.tp.write(out, &self.types, *p);
            if let Some(set) = attrs.and_then(|l| l.param(i as u32)) {
                out.push(' ');
                self.write_param_attrs(out, set);
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
            super::text::push_tagged(out, " #", s);
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
            super::text::push_tagged(out, " align ", a);
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
                self.keep_local_md_values();
                self.md.end_function();
            }
        }
        self.body = None;
        self.ordinal = None;
        Ok(shared.and_then(|b| Arc::try_unwrap(b).ok()))
    }

    /// Writes the values of the current function's metadata that are its own constants,
    /// for the metadata printed after the functions, when the body is gone.
    fn keep_local_md_values(&mut self) {
        let (Some(b), Some(ordinal)) = (self.body.clone(), self.ordinal) else { return };
        let values = GlobalValues { p: self };
        let mut kept = Vec::new();
        for (ty, value) in self.md.function_values() {
            let Some(v) = value.checked_sub(b.first_local).and_then(|l| b.values.get(l as usize)) else {
                continue;
            };
            let mut text = String::new();
            match &v.kind {
                ValueKind::Constant(c) => self.write_constant(&mut text, v.ty, c),
                _ => text.push_str("<badref>"),
            }
            kept.push(((ordinal, value), (text, values.constant_int(ty, value, Some(ordinal)))));
        }
        self.local_md_values.extend(kept);
    }

    /// Finds the labels of the blocks the blockaddress constants of body `b` (of function
    /// `index`) and of the module take, for the functions whose labels are not known yet:
    /// its own from the slots just numbered, another's by reading that body again (with a
    /// copy of the type table, whose additions are dropped).
    fn find_labels(&mut self, index: u32, b: &FunctionBody<'a>) -> Result<()> {
        let mut wanted: Vec<u32> = self.module_addressed.keys().copied().collect();
        wanted.extend(b.values.iter().filter_map(|v| match &v.kind {
            ValueKind::Constant(Constant::BlockAddress { function, .. }) => {
                match self.m.values.get(*function as usize).map(|v| &v.kind) {
                    Some(ValueKind::Function(f)) => Some(*f),
                    _ => None,
                }
            }
            _ => None,
        }));
        if wanted.contains(&index) {
            let own =
                b.blocks.iter().zip(&self.locals.blocks).map(|(block, slot)| (block.name.clone(), *slot));
            self.labels.insert(index, own.collect());
        }
        self.read_missing_labels(wanted)
    }

    /// Finds the labels of the functions module-level blockaddress constants name, for
    /// the global initializers printed after the functions.
    fn labels_for_globals(&mut self) -> Result<()> {
        self.read_missing_labels(self.module_addressed.keys().copied().collect())
    }

    /// Reads the labels of each function of `functions` whose labels are not known yet.
    fn read_missing_labels(&mut self, functions: Vec<u32>) -> Result<()> {
        for f in functions {
            if !self.labels.contains_key(&f) {
                self.read_labels(f)?;
            }
        }
        Ok(())
    }

    /// Reads the body of function `f` again for its block labels.
    fn read_labels(&mut self, f: u32) -> Result<()> {
        let labels = match self.m.bodies().position(|g| g == f) {
            Some(n) => {
                let mut scratch = self.types.clone();
                let body = self.m.read_body(n, &mut scratch)?;
                self.block_labels(&body)
            }
            None => Vec::new(),
        };
        self.labels.insert(f, labels);
        Ok(())
    }

    /// Each block's name or slot.
    fn block_labels(&self, b: &FunctionBody<'a>) -> Vec<BlockLabel<'a>> {
        let params = self
            .m
            .functions
            .get(b.function as usize)
            .and_then(|f| self.types.function(f.common.value_type))
            .map_or(0, |f| f.1.len());
        let slots = LocalSlots::new(b, params, &[], &[]);
        b.blocks
            .iter()
            .enumerate()
            .map(|(i, block)| (block.name.clone(), slots.blocks.get(i).copied().flatten()))
            .collect()
    }

    /// The label of block `block` of the function with value id `function`.
    pub fn block_label(&self, function: ValueRef, block: u32) -> Option<&BlockLabel<'a>> {
        match self.m.values.get(function as usize).map(|v| &v.kind) {
            Some(ValueKind::Function(f)) => self.labels.get(f)?.get(block as usize),
            _ => None,
        }
    }

    /// The blocks of function `index` (body `b`) that blockaddress constants take.
    pub fn addressed_blocks(&self, index: u32, b: &FunctionBody<'_>) -> Vec<u32> {
        let fid = value_of(self.m, ValueKind::Function(index));
        let mut blocks = self.module_addressed.get(&index).cloned().unwrap_or_default();
        blocks.extend(b.values.iter().filter_map(|v| match &v.kind {
            ValueKind::Constant(Constant::BlockAddress { function, block }) if *function == fid => {
                Some(*block)
            }
            _ => None,
        }));
        blocks
    }

    /// Call-site attribute slots and instruction metadata slots, in instruction order
    /// (SlotTracker::processFunctionMetadata and processFunction): per instruction, the
    /// nodes of its debug records, the node operands of an intrinsic call, its `!dbg`
    /// location, then its other attachments by kind.
    fn number_body_extras(&mut self, b: &FunctionBody<'a>) {
        self.attachments.clear();
        // Runs of instructions share a location (DEBUG_LOC_AGAIN): the last one's node
        // spares a look-up in the module-wide table.
        let mut last: Option<(crate::llvm::module::DebugLoc, Option<MdRef>)> = None;
        for inst in &b.instructions {
            let dbg = match (inst.debug_loc, last) {
                (None, _) => None,
                (Some(loc), Some((seen, node))) if loc == seen => node,
                (Some(loc), _) => {
                    let node = loc.scope.and_then(|scope| {
                        let scope = self.md.get(u64::from(scope))?;
                        let inlined_at = loc.inlined_at.and_then(|i| self.md.get(u64::from(i)));
                        Some(self.md.debug_loc(Location {
                            line: loc.line,
                            column: loc.column,
                            scope: Some(scope),
                            inlined_at,
                            implicit_code: loc.implicit,
                            atom_group: loc.atom_group,
                            atom_rank: loc.atom_rank,
                        }))
                    });
                    last = Some((loc, node));
                    node
                }
            };
            for record in &inst.debug_records {
                for node in super::debug_records::numbered_operands(record) {
                    if let Some(n) = self.md.get(u64::from(node)) {
                        self.md_slots.number(&self.md, n);
                    }
                }
            }
            if let Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. } = &inst.op {
                self.function_attr_slot(call.attributes);
                // Metadata operands of intrinsic calls.
                if self.m.global_name(call.callee).is_some_and(|n| n.starts_with(b"llvm.")) {
                    if let Some((_, params, _)) = self.types.function(call.function_type) {
                        for (arg, p) in call.args.iter().zip(params) {
                            if self.types.is_metadata(*p) {
                                if let Some(n) = self.md.get(u64::from(*arg)) {
                                    self.md_slots.number(&self.md, n);
                                }
                            }
                        }
                    }
                }
            }
            // `!dbg` first (kind 0), then the others by kind id.
            self.attachments.extend(dbg.map(|node| (DBG_KIND, node)));
            let md = &self.md;
            self.attachments
                .extend(inst.attachments.iter().filter_map(|(k, n)| Some((*k, md.get(u64::from(*n))?))));
            let others = usize::from(dbg.is_some());
            if let Some(rest) = self.attachments.open().get_mut(others..) {
                rest.sort_by_key(|(k, _)| *k);
            }
            for &(_, n) in self.attachments.open().iter() {
                self.md_slots.number(&self.md, n);
            }
            self.attachments.close();
        }
    }

    /// The attachments of instruction `index` of the function being printed: `!dbg` first
    /// (kind 0, its debug location), then the others by kind id.
    pub fn attachments(&self, index: usize) -> &[(u32, MdRef)] {
        self.attachments.get(index)
    }

    /// A value of function-level metadata: `value` of the body with ordinal `function`,
    /// when `function` names a body and `value` is one of its locals: the value itself
    /// while the body is printed, its text after.
    pub fn local_md_value(&self, function: Option<u32>, value: u32) -> Option<LocalMd<'_, 'a>> {
        let function = function?;
        if self.ordinal == Some(function) {
            let b = self.body.as_deref()?;
            return b.values.get(value.checked_sub(b.first_local)? as usize).map(LocalMd::Here);
        }
        self.local_md_values.get(&(function, value)).map(LocalMd::Written)
    }

    /// The value of integer constant `value` (of body `function`'s numbering, or of the
    /// body being printed when `None`), sign-extended from its width.
    pub fn constant_int(&self, function: Option<u32>, value: u32) -> Option<i64> {
        let v = match self.local_md_value(function, value) {
            Some(LocalMd::Here(v)) => v,
            Some(LocalMd::Written((_, int))) => return *int,
            None if function.is_some() => self.m.values.get(value as usize)?,
            None => self.value(value)?,
        };
        // A zero is written as a null constant.
        let bits = match &v.kind {
            ValueKind::Constant(Constant::Int(bits)) => bits,
            ValueKind::Constant(Constant::Null) => &0,
            _ => return None,
        };
        let width = match self.types.get(v.ty) {
            Some(crate::llvm::module::Type::Integer(w)) => *w,
            _ => return None,
        };
        let bits = *bits;
        Some(if (1..64).contains(&width) { (bits << (64 - width)) >> (64 - width) } else { bits })
    }

    /// `%name` or `%N` of a local value.
    pub fn write_local_name(&self, out: &mut String, id: ValueRef) {
        out.push_str(self.local_names.value(id).unwrap_or("<badref>"));
    }

    /// The value with id `id` in the current scope.
    pub fn value(&self, id: ValueRef) -> Option<&Value<'a>> {
        match self.body.as_deref().and_then(|b| id.checked_sub(b.first_local).map(|l| (b, l))) {
            Some((b, l)) => b.values.get(l as usize),
            None => self.m.values.get(id as usize),
        }
    }
}

/// A value of function-level metadata (see [`Printer::local_md_value`]).
pub(super) enum LocalMd<'p, 'a> {
    /// The value, of the body being printed.
    Here(&'p Value<'a>),
    /// Its text and integer value, written while its body was printed.
    Written(&'p LocalMdValue),
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
