//! Basic blocks and instructions (printBasicBlock, printInstruction).

use std::fmt::Write;

use bitcode_schema_runtime::Result;

use super::constants::{binary_name, cast_name, predicate, write_binary_flags, write_gep_flags};
use super::md::{MdPrinter, ValueWriter};
use super::module::Printer;
use super::names;
use crate::llvm::ir::{AtomicOrdering, CallingConv, CastOpcode};
use crate::llvm::module::{
    Atomic, BundleInput, Call, FunctionBody, Instruction, Op, Type, TypeRef, ValueRef,
};

/// Fast-math flags as printed (` fast`, or ` reassoc nnan ...`).
fn write_fmf(out: &mut String, bits: u64) {
    if bits & 1 != 0 || bits & 0xFE == 0xFE {
        out.push_str(" fast");
        return;
    }
    for (bit, name) in
        [(7, "reassoc"), (1, "nnan"), (2, "ninf"), (3, "nsz"), (4, "arcp"), (5, "contract"), (6, "afn")]
    {
        if bits & (1 << bit) != 0 {
            out.push(' ');
            out.push_str(name);
        }
    }
}

fn ordering(o: AtomicOrdering) -> &'static str {
    o.name()
}

/// Pads to column 50 (at least one space) from the last newline.
fn pad_to_50(out: &mut String) {
    let line_start = out.rfind('\n').map_or(0, |i| i + 1);
    let column = out[line_start..].chars().count();
    let n = 50usize.saturating_sub(column).max(1);
    out.extend(std::iter::repeat_n(' ', n));
}

/// Writes values as metadata in a function (locals included).
struct LocalValues<'p, 'm, 'a> {
    p: &'p Printer<'m, 'a>,
}

impl ValueWriter for LocalValues<'_, '_, '_> {
    fn write_typed_value(&self, out: &mut String, ty: u32, value: u32, _function: Option<u32>) {
        // Inside a body, a value of its metadata is one of its own (or a module value).
        self.p.tp.write(out, &self.p.types, ty);
        out.push(' ');
        self.p.write_value(out, value);
    }

    fn constant_int(&self, _ty: u32, value: u32, _function: Option<u32>) -> Option<i64> {
        self.p.constant_int(None, value)
    }
}

impl<'m, 'a> Printer<'m, 'a> {
    /// Prints block `bi` of `b`.
    pub(super) fn print_block(&mut self, out: &mut String, b: &FunctionBody<'a>, bi: usize) -> Result<()> {
        let Some(block) = b.blocks.get(bi) else { return Ok(()) };
        if block.name.is_some() || bi != 0 {
            out.push('\n');
            // The label is the reference without its `%`.
            match self.local_names.block(bi as u32).and_then(|r| r.get(1..)) {
                Some(label) => out.push_str(label),
                None => out.push_str("<badref>"),
            }
            out.push(':');
        }
        if bi != 0 {
            pad_to_50(out);
            out.push(';');
            match self.locals.preds(bi) {
                preds if !preds.is_empty() => {
                    out.push_str(" preds = ");
                    for (i, p) in preds.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.write_block_ref(out, *p);
                    }
                }
                _ => out.push_str(" No predecessors!"),
            }
        }
        out.push('\n');
        let start = block.start as usize;
        for (k, inst) in b.instructions.get(start..block.end as usize).unwrap_or_default().iter().enumerate()
        {
            if !inst.debug_records.is_empty() {
                let values = LocalValues { p: self };
                for record in &inst.debug_records {
                    self.print_debug_record(out, record, &values);
                }
            }
            self.print_instruction(out, b, start + k, inst)?;
            out.push('\n');
        }
        Ok(())
    }

    /// `%name` or `%N` of a block.
    fn write_block_ref(&self, out: &mut String, bi: u32) {
        out.push_str(self.local_names.block(bi).unwrap_or("<badref>"));
    }

    fn write_label(&self, out: &mut String, bi: u32) {
        out.push_str("label ");
        self.write_block_ref(out, bi);
    }

    fn ty(&self, id: ValueRef) -> Option<TypeRef> {
        self.value(id).map(|v| v.ty)
    }

    fn is_float_value(&self, id: ValueRef) -> bool {
        let mut t = self.ty(id).and_then(|t| self.types.get(t));
        if let Some(Type::Vector { element, .. }) = t {
            t = self.types.get(*element);
        }
        t.is_some_and(|t| t.is_float())
    }

    fn write_atomic(&self, out: &mut String, a: Atomic) {
        self.write_scope(out, a.scope);
        out.push(' ');
        out.push_str(ordering(a.ordering));
    }

    fn write_scope(&self, out: &mut String, scope: u32) {
        let name: Option<&[u8]> = match self.m.sync_scopes.get(scope as usize) {
            Some(n) => Some(n),
            None if scope == 0 => Some(b"singlethread"),
            None => None,
        };
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            out.push_str(" syncscope(\"");
            names::escaped(out, n);
            out.push_str("\")");
        }
    }

    fn print_instruction(
        &mut self,
        out: &mut String,
        b: &FunctionBody<'a>,
        index: usize,
        inst: &Instruction,
    ) -> Result<()> {
        let types = &self.types;
        out.push_str("  ");
        if let Some(id) = inst.value {
            self.write_local_name(out, id);
            out.push_str(" = ");
        }
        match &inst.op {
            Op::Binary { opcode, flags, lhs, rhs } => {
                let float = self.is_float_value(*lhs);
                out.push_str(binary_name(*opcode, float));
                if float {
                    write_fmf(out, *flags);
                } else {
                    write_binary_flags(out, *opcode, *flags);
                }
                self.write_same_typed(out, &[*lhs, *rhs]);
            }
            Op::Unary { flags, operand, .. } => {
                out.push_str("fneg");
                write_fmf(out, *flags);
                self.write_same_typed(out, &[*operand]);
            }
            Op::Cast { opcode, flags, operand } => {
                out.push_str(cast_name(*opcode));
                match opcode {
                    CastOpcode::Zext | CastOpcode::Uitofp if flags & 1 != 0 => out.push_str(" nneg"),
                    CastOpcode::Trunc => {
                        if flags & 1 != 0 {
                            out.push_str(" nuw");
                        }
                        if flags & 2 != 0 {
                            out.push_str(" nsw");
                        }
                    }
                    CastOpcode::Fptrunc | CastOpcode::Fpext => write_fmf(out, *flags),
                    _ => {}
                }
                out.push(' ');
                self.write_typed(out, *operand);
                out.push_str(" to ");
                self.tp.write(out, types, inst.ty);
            }
            Op::Gep { source, flags, operands } => {
                out.push_str("getelementptr");
                write_gep_flags(out, *flags);
                out.push(' ');
                self.tp.write(out, types, *source);
                out.push(',');
                self.write_same_typed(out, operands);
            }
            Op::Select { condition, true_value, false_value, flags } => {
                out.push_str("select");
                write_fmf(out, *flags);
                self.write_all_typed(out, &[*condition, *true_value, *false_value]);
            }
            Op::ExtractElement { vector, index } => {
                out.push_str("extractelement");
                self.write_same_typed(out, &[*vector, *index]);
            }
            Op::InsertElement { vector, element, index } => {
                out.push_str("insertelement");
                self.write_same_typed(out, &[*vector, *element, *index]);
            }
            Op::ShuffleVector { vector1, vector2, mask } => {
                out.push_str("shufflevector");
                self.write_all_typed(out, &[*vector1, *vector2]);
                out.push_str(", ");
                self.write_mask(out, *mask);
            }
            Op::Compare { predicate: p, flags, lhs, rhs } => {
                let (name, float) = predicate(*p);
                out.push_str(if float { "fcmp" } else { "icmp" });
                if float {
                    write_fmf(out, *flags);
                } else if flags & 1 != 0 {
                    out.push_str(" samesign");
                }
                out.push(' ');
                out.push_str(name);
                self.write_same_typed(out, &[*lhs, *rhs]);
            }
            Op::Ret(v) => {
                out.push_str("ret");
                match v {
                    Some(v) => self.write_all_typed(out, &[*v]),
                    None => out.push_str(" void"),
                }
            }
            Op::Br { dest, conditional } => {
                out.push_str("br ");
                match conditional {
                    Some((c, f)) => {
                        self.write_typed(out, *c);
                        out.push_str(", ");
                        self.write_label(out, *dest);
                        out.push_str(", ");
                        self.write_label(out, *f);
                    }
                    None => self.write_label(out, *dest),
                }
            }
            Op::Switch { condition, default, cases } => {
                out.push_str("switch ");
                self.write_typed(out, *condition);
                out.push_str(", ");
                self.write_label(out, *default);
                out.push_str(" [");
                for (v, d) in cases {
                    out.push_str("\n    ");
                    self.write_typed(out, *v);
                    out.push_str(", ");
                    self.write_label(out, *d);
                }
                out.push_str("\n  ]");
            }
            Op::IndirectBr { address, dests } => {
                out.push_str("indirectbr ");
                self.write_typed(out, *address);
                out.push_str(", [");
                for (i, d) in dests.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_label(out, *d);
                }
                out.push(']');
            }
            Op::Invoke { call, normal, unwind } => {
                out.push_str("invoke");
                self.write_call(out, call, false, b);
                out.push_str("\n          to ");
                self.write_label(out, *normal);
                out.push_str(" unwind ");
                self.write_label(out, *unwind);
            }
            Op::CallBr { call, default, indirect } => {
                out.push_str("callbr");
                self.write_call(out, call, false, b);
                out.push_str("\n          to ");
                self.write_label(out, *default);
                out.push_str(" [");
                for (i, d) in indirect.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_label(out, *d);
                }
                out.push(']');
            }
            Op::Call { call, tail, flags } => {
                out.push_str(match tail {
                    1 => "tail ",
                    2 => "musttail ",
                    3 => "notail ",
                    _ => "",
                });
                out.push_str("call");
                write_fmf(out, *flags);
                self.write_call(out, call, *tail == 2, b);
            }
            Op::Unreachable => out.push_str("unreachable"),
            Op::Phi { incoming, flags } => {
                out.push_str("phi");
                write_fmf(out, *flags);
                out.push(' ');
                self.tp.write(out, types, inst.ty);
                out.push(' ');
                for (i, (v, bb)) in incoming.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str("[ ");
                    self.write_value(out, *v);
                    out.push_str(", ");
                    self.write_block_ref(out, *bb);
                    out.push_str(" ]");
                }
            }
            Op::Alloca { allocated, size, align, inalloca, swifterror, address_space } => {
                out.push_str("alloca ");
                if *inalloca {
                    out.push_str("inalloca ");
                }
                if *swifterror {
                    out.push_str("swifterror ");
                }
                self.tp.write(out, types, *allocated);
                let one_i32 = matches!(self.ty(*size).and_then(|t| types.get(t)), Some(Type::Integer(32)))
                    && matches!(
                        self.value(*size).map(|v| &v.kind),
                        Some(crate::llvm::module::ValueKind::Constant(crate::llvm::module::Constant::Int(1)))
                    );
                if !one_i32 {
                    out.push_str(", ");
                    self.write_typed(out, *size);
                }
                if let Some(a) = align {
                    super::text::push_tagged(out, ", align ", *a);
                }
                if *address_space != 0 {
                    let _ = write!(out, ", addrspace({address_space})");
                }
            }
            Op::Load { ptr, align, volatile, atomic } => {
                out.push_str("load");
                if atomic.is_some() {
                    out.push_str(" atomic");
                }
                if *volatile {
                    out.push_str(" volatile");
                }
                out.push(' ');
                self.tp.write(out, types, inst.ty);
                out.push_str(", ");
                self.write_typed(out, *ptr);
                if let Some(a) = atomic {
                    self.write_atomic(out, *a);
                }
                if let Some(a) = align {
                    super::text::push_tagged(out, ", align ", *a);
                }
            }
            Op::Store { ptr, value, align, volatile, atomic } => {
                out.push_str("store");
                if atomic.is_some() {
                    out.push_str(" atomic");
                }
                if *volatile {
                    out.push_str(" volatile");
                }
                self.write_all_typed(out, &[*value, *ptr]);
                if let Some(a) = atomic {
                    self.write_atomic(out, *a);
                }
                if let Some(a) = align {
                    super::text::push_tagged(out, ", align ", *a);
                }
            }
            Op::VaArg { list } => {
                out.push_str("va_arg ");
                self.write_typed(out, *list);
                out.push_str(", ");
                self.tp.write(out, types, inst.ty);
            }
            Op::ExtractValue { aggregate, indices } => {
                out.push_str("extractvalue ");
                self.write_typed(out, *aggregate);
                for i in indices {
                    super::text::push_tagged(out, ", ", *i);
                }
            }
            Op::InsertValue { aggregate, value, indices } => {
                out.push_str("insertvalue ");
                self.write_typed(out, *aggregate);
                out.push_str(", ");
                self.write_typed(out, *value);
                for i in indices {
                    super::text::push_tagged(out, ", ", *i);
                }
            }
            Op::Fence(a) => {
                out.push_str("fence");
                self.write_atomic(out, *a);
            }
            Op::CmpXchg { ptr, cmp, new, volatile, weak, success, failure, align } => {
                out.push_str("cmpxchg");
                if *weak {
                    out.push_str(" weak");
                }
                if *volatile {
                    out.push_str(" volatile");
                }
                self.write_all_typed(out, &[*ptr, *cmp, *new]);
                self.write_scope(out, success.scope);
                let _ = write!(out, " {} {}", ordering(success.ordering), ordering(*failure));
                let a = align.unwrap_or_else(|| self.store_size(self.ty(*cmp)));
                super::text::push_tagged(out, ", align ", a);
            }
            Op::AtomicRmw { operation, ptr, value, volatile, atomic, align } => {
                out.push_str("atomicrmw");
                if *volatile {
                    out.push_str(" volatile");
                }
                out.push(' ');
                out.push_str(operation.name());
                self.write_all_typed(out, &[*ptr, *value]);
                self.write_atomic(out, *atomic);
                let a = align.unwrap_or_else(|| self.store_size(self.ty(*value)));
                super::text::push_tagged(out, ", align ", a);
            }
            Op::Resume(v) => {
                out.push_str("resume");
                self.write_all_typed(out, &[*v]);
            }
            Op::LandingPad { cleanup, clauses } => {
                out.push_str("landingpad ");
                self.tp.write(out, types, inst.ty);
                if *cleanup || !clauses.is_empty() {
                    out.push('\n');
                }
                if *cleanup {
                    out.push_str("          cleanup");
                }
                for (i, (catch, v)) in clauses.iter().enumerate() {
                    if i != 0 || *cleanup {
                        out.push('\n');
                    }
                    out.push_str(if *catch { "          catch " } else { "          filter " });
                    self.write_typed(out, *v);
                }
            }
            Op::CleanupRet { pad, unwind } => {
                out.push_str("cleanupret from ");
                self.write_value(out, *pad);
                out.push_str(" unwind ");
                match unwind {
                    Some(u) => self.write_label(out, *u),
                    None => out.push_str("to caller"),
                }
            }
            Op::CatchRet { pad, successor } => {
                out.push_str("catchret from ");
                self.write_value(out, *pad);
                out.push_str(" to ");
                self.write_label(out, *successor);
            }
            Op::Pad { cleanup, parent, args } => {
                out.push_str(if *cleanup { "cleanuppad within " } else { "catchpad within " });
                self.write_value(out, *parent);
                out.push_str(" [");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_typed(out, *a);
                }
                out.push(']');
            }
            Op::CatchSwitch { parent, handlers, unwind } => {
                out.push_str("catchswitch within ");
                self.write_value(out, *parent);
                out.push_str(" [");
                for (i, h) in handlers.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_label(out, *h);
                }
                out.push_str("] unwind ");
                match unwind {
                    Some(u) => self.write_label(out, *u),
                    None => out.push_str("to caller"),
                }
            }
            Op::Freeze(v) => {
                out.push_str("freeze");
                self.write_same_typed(out, &[*v]);
            }
        }
        self.write_attachments(out, self.attachments(index), ", ");
        if let Op::Call { call, .. } | Op::Invoke { call, .. } = &inst.op {
            self.write_relocate_comment(out, b, call);
        }
        Ok(())
    }

    /// printInfoComment of a gc.relocate: ` ; (base, derived)` as the statepoint names them.
    fn write_relocate_comment(&self, out: &mut String, b: &FunctionBody<'_>, call: &Call) {
        let is_relocate =
            self.m.global_name(call.callee).is_some_and(|n| n.starts_with(b"llvm.experimental.gc.relocate"));
        let (Some(&token), Some(&base), Some(&derived)) =
            (call.args.first(), call.args.get(1), call.args.get(2))
        else {
            return;
        };
        if !is_relocate {
            return;
        }
        let index = |id: ValueRef| match self.value(id).map(|v| &v.kind) {
            Some(crate::llvm::module::ValueKind::Constant(crate::llvm::module::Constant::Int(k))) => {
                Some(*k as usize)
            }
            Some(crate::llvm::module::ValueKind::Constant(crate::llvm::module::Constant::Null)) => Some(0),
            _ => None,
        };
        let statepoint = match self.value(token).map(|v| &v.kind) {
            Some(crate::llvm::module::ValueKind::Instruction(i)) => b.instructions.get(*i as usize),
            _ => None,
        };
        let Some(Op::Call { call: sp, .. } | Op::Invoke { call: sp, .. }) = statepoint.map(|s| &s.op) else {
            return;
        };
        let live = sp
            .bundles
            .iter()
            .find(|(tag, _)| self.m.bundle_tags.get(*tag as usize).is_some_and(|t| &t[..] == b"gc-live"));
        let live_values: Vec<ValueRef>;
        let operands: &[ValueRef] = match live {
            Some((_, inputs)) => {
                live_values = inputs.iter().filter_map(|i| i.value()).collect();
                &live_values
            }
            None => &sp.args,
        };
        let (Some(bi), Some(di)) = (index(base), index(derived)) else { return };
        let (Some(&bv), Some(&dv)) = (operands.get(bi), operands.get(di)) else { return };
        out.push_str(" ; (");
        self.write_value(out, bv);
        out.push_str(", ");
        self.write_value(out, dv);
        out.push(')');
    }

    /// The store size of a type in bytes (for cmpxchg/atomicrmw without an alignment).
    fn store_size(&self, ty: Option<TypeRef>) -> u64 {
        match ty.and_then(|t| self.types.get(t)) {
            Some(Type::Integer(w)) => u64::from(w.div_ceil(8)),
            Some(Type::Float) => 4,
            Some(Type::Double) => 8,
            Some(Type::Half | Type::BFloat) => 2,
            _ => 8,
        }
    }

    /// Operands all of one type print it once; else each with its own.
    fn write_same_typed(&self, out: &mut String, ids: &[ValueRef]) {
        let first = ids.first().and_then(|i| self.ty(*i));
        let same = ids.iter().all(|i| self.ty(*i) == first);
        if !same {
            return self.write_all_typed(out, ids);
        }
        if let Some(t) = first {
            out.push(' ');
            self.tp.write(out, &self.types, t);
        }
        out.push(' ');
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write_value(out, *id);
        }
    }

    fn write_all_typed(&self, out: &mut String, ids: &[ValueRef]) {
        out.push(' ');
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write_typed(out, *id);
        }
    }

    /// A metadata operand of a call (an argument or a bundle input) by its metadata id in
    /// the function's numbering.
    fn write_metadata_operand(&self, out: &mut String, id: u32) {
        let values = LocalValues { p: self };
        let printer = MdPrinter::new(&self.md, &self.md_slots, self.major, &values);
        match self.md.get(u64::from(id)) {
            Some(n) => printer.write_operand(out, n),
            None => out.push_str("<badref>"),
        }
    }

    /// The part of a call, invoke or callbr after its opcode.
    fn write_call(&mut self, out: &mut String, call: &Call, musttail: bool, b: &FunctionBody<'a>) {
        let m = self.m;
        let types = &self.types;
        if call.calling_conv != CallingConv::Ccc {
            out.push(' ');
            Self::write_cc(out, call.calling_conv);
        }
        let attrs = m.attributes.list(call.attributes);
        if let Some(set) = attrs.and_then(|l| l.ret()) {
            out.push(' ');
            self.write_param_attrs(out, set);
        }
        let callee_as = self.ty(call.callee).map_or(0, |t| types.address_space(t));
        if callee_as != 0 {
            let _ = write!(out, " addrspace({callee_as})");
        }
        let Some((ret, params, vararg)) = types.function(call.function_type) else { return };
        out.push(' ');
        self.tp.write(out, types, if vararg { call.function_type } else { ret });
        out.push(' ');
        self.write_value(out, call.callee);
        out.push('(');
        for (i, arg) in call.args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let param_ty = params.get(i).copied();
            let is_md = param_ty.is_some_and(|t| types.is_metadata(t));
            if is_md {
                out.push_str("metadata");
            } else {
                match self.ty(*arg) {
                    Some(t) => self.tp.write(out, types, t),
                    None => out.push_str("<badref>"),
                }
            }
            if let Some(set) = attrs.and_then(|l| l.param(i as u32)) {
                out.push(' ');
                self.write_param_attrs(out, set);
            }
            out.push(' ');
            if is_md {
                self.write_metadata_operand(out, *arg);
            } else {
                self.write_value(out, *arg);
            }
        }
        if musttail
            && self
                .types
                .function(m.functions.get(b.function as usize).map_or(0, |f| f.common.value_type))
                .is_some_and(|f| f.2)
        {
            if !call.args.is_empty() {
                out.push_str(", ");
            }
            out.push_str("...");
        }
        out.push(')');
        if let Some(s) = self.function_attr_slot(call.attributes) {
            super::text::push_tagged(out, " #", s);
        }
        if !call.bundles.is_empty() {
            out.push_str(" [ ");
            for (i, (tag, inputs)) in call.bundles.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('"');
                names::escaped(out, m.bundle_tags.get(*tag as usize).map_or(&b""[..], |t| &t[..]));
                out.push_str("\"(");
                for (j, input) in inputs.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    match *input {
                        BundleInput::Value(v) => self.write_typed(out, v),
                        BundleInput::Metadata(id) => {
                            out.push_str("metadata ");
                            self.write_metadata_operand(out, id);
                        }
                    }
                }
                out.push(')');
            }
            out.push_str(" ]");
        }
    }
}
