//! Instructions: opcode spellings and the operand layouts of `printInstruction`.

use super::release::{CallingConvNames, Flavor};
use super::types::param_attrs_text;
use super::Printer;
use crate::bytecode::ir::{Constant, InstId, Instruction, Opcode, Type, TypeId, ValueRef};

/// The spelling of an opcode in `release`.
pub(super) fn opcode_name(op: Opcode, flavor: &Flavor) -> &'static str {
    match op {
        Opcode::Ret => "ret",
        Opcode::Br => "br",
        Opcode::Switch => "switch",
        Opcode::Invoke => "invoke",
        Opcode::Unwind => "unwind",
        Opcode::Unreachable => "unreachable",
        Opcode::Add => "add",
        Opcode::Sub => "sub",
        Opcode::Mul => "mul",
        Opcode::Div => "div",
        Opcode::UDiv => "udiv",
        Opcode::SDiv => "sdiv",
        Opcode::FDiv => "fdiv",
        Opcode::Rem => "rem",
        Opcode::URem => "urem",
        Opcode::SRem => "srem",
        Opcode::FRem => "frem",
        Opcode::And => "and",
        Opcode::Or => "or",
        Opcode::Xor => "xor",
        Opcode::SetEQ => "seteq",
        Opcode::SetNE => "setne",
        Opcode::SetLE => "setle",
        Opcode::SetGE => "setge",
        Opcode::SetLT => "setlt",
        Opcode::SetGT => "setgt",
        Opcode::ICmp => "icmp",
        Opcode::FCmp => "fcmp",
        Opcode::Malloc => "malloc",
        Opcode::Free => "free",
        Opcode::Alloca => "alloca",
        Opcode::Load => "load",
        Opcode::Store => "store",
        Opcode::GetElementPtr => "getelementptr",
        Opcode::Phi => "phi",
        Opcode::Cast => "cast",
        Opcode::Trunc => "trunc",
        Opcode::ZExt => "zext",
        Opcode::SExt => "sext",
        Opcode::FPTrunc => "fptrunc",
        Opcode::FPExt => "fpext",
        Opcode::FPToUI => "fptoui",
        Opcode::FPToSI => "fptosi",
        Opcode::UIToFP => "uitofp",
        Opcode::SIToFP => "sitofp",
        Opcode::IntToPtr => "inttoptr",
        Opcode::PtrToInt => "ptrtoint",
        Opcode::BitCast => "bitcast",
        Opcode::Select => "select",
        Opcode::Call => "call",
        Opcode::Shl => "shl",
        Opcode::Shr => "shr",
        Opcode::LShr => "lshr",
        Opcode::AShr => "ashr",
        Opcode::VaArg if flavor.va_arg_underscore => "va_arg",
        Opcode::VaArg => "vaarg",
        Opcode::VaNext => "vanext",
        Opcode::ExtractElement => "extractelement",
        Opcode::InsertElement => "insertelement",
        Opcode::ShuffleVector => "shufflevector",
    }
}

/// The predicate word of `icmp`/`fcmp` (LLVM 2.0 numbering), `None` for other opcodes.
pub(super) fn predicate_text(op: Opcode, predicate: u16) -> Option<&'static str> {
    const FCMP: [&str; 16] = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule",
        "une", "true",
    ];
    const ICMP: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
    let known = match op {
        Opcode::FCmp => FCMP.get(usize::from(predicate)),
        Opcode::ICmp => usize::from(predicate).checked_sub(32).and_then(|i| ICMP.get(i)),
        _ => return None,
    };
    Some(known.copied().unwrap_or("unknown"))
}

/// A calling convention's text on a function header (`fastcc `) or after `call`
/// (` fastcc`; the x86 ones kept the header spelling there, a bug of 1.9 and 2.0dev).
fn calling_conv_text(cc: u32, names: CallingConvNames, call_site: bool) -> String {
    let word = match cc {
        0 => return String::new(),
        1 if names.csret => "csretcc",
        8 => "fastcc",
        9 => "coldcc",
        64 if names.x86 => return "x86_stdcallcc ".to_string(),
        65 if names.x86 => return "x86_fastcallcc ".to_string(),
        _ => return if call_site { format!(" cc{cc}") } else { format!("cc{cc} ") },
    };
    if call_site {
        format!(" {word}")
    } else {
        format!("{word} ")
    }
}

pub(super) fn function_calling_conv(cc: u32, flavor: &Flavor) -> String {
    if flavor.calling_convs.printed {
        calling_conv_text(cc, flavor.calling_convs, false)
    } else {
        String::new()
    }
}

impl<'m> Printer<'m> {
    /// `printInstruction`: one line (two for invoke, more for switch).
    pub(super) fn print_instruction(&mut self, id: InstId) {
        let Some(f) = self.func.as_ref().map(|(f, _)| *f) else { return };
        let Some(inst) = f.inst(id) else { return };
        self.out.push('\t');
        let (name, slot) = self.local_name_and_slot(ValueRef::Inst(id));
        if name.is_some() {
            let text = self.local_text(ValueRef::Inst(id));
            self.out.push_str(&text);
            self.out.push_str(" = ");
        }
        if matches!(inst.opcode, Opcode::Load | Opcode::Store) && inst.volatile {
            self.out.push_str("volatile ");
        } else if inst.opcode == Opcode::Call && inst.tail && self.flavor.tail_calls {
            self.out.push_str("tail ");
        }
        self.out.push_str(opcode_name(inst.opcode, &self.flavor));
        if let Some(p) = predicate_text(inst.opcode, inst.predicate) {
            self.out.push(' ');
            self.out.push_str(p);
        }
        self.print_operands(inst);
        if self.flavor.load_store_align
            && matches!(inst.opcode, Opcode::Load | Opcode::Store)
            && inst.align != 0
        {
            self.out.push_str(&format!(", align {}", inst.align));
        }
        let uses =
            self.func.as_ref().and_then(|(_, info)| info.inst_uses.get(id.0 as usize).copied()).unwrap_or(0);
        self.info_comment(inst.ty, name.is_some(), slot, uses);
        self.out.push('\n');
    }

    fn print_operands(&mut self, inst: &'m Instruction) {
        let ops = &inst.operands;
        match inst.opcode {
            Opcode::Br if ops.len() > 1 => self.print_cond_br(ops),
            Opcode::Switch => self.print_switch(ops),
            Opcode::Phi => self.print_phi(inst),
            Opcode::Ret if ops.is_empty() => self.out.push_str(" void"),
            Opcode::Call => self.print_call(inst, 1),
            Opcode::Invoke => self.print_call(inst, 3),
            Opcode::Malloc | Opcode::Alloca => self.print_allocation(inst),
            op if op.is_cast() => self.print_with_type_after(ops, " to ", inst.ty),
            Opcode::VaArg => self.print_with_type_after(ops, ", ", inst.ty),
            Opcode::VaNext => {
                let arg_ty = inst.vanext_type.unwrap_or(TypeId(u32::MAX));
                self.print_with_type_after(ops, ", ", arg_ty);
            }
            _ => self.print_plain(inst),
        }
    }

    fn print_cond_br(&mut self, ops: &[ValueRef]) {
        for (i, idx) in [2usize, 0, 1].into_iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            if let Some(op) = ops.get(idx) {
                self.write_operand(*op, true);
            }
        }
    }

    fn print_switch(&mut self, ops: &[ValueRef]) {
        for (i, op) in ops.iter().take(2).enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.write_operand(*op, true);
        }
        self.out.push_str(" [");
        for case in ops.get(2..).unwrap_or(&[]).chunks(2) {
            self.out.push_str("\n\t\t");
            for (i, op) in case.iter().enumerate() {
                if i > 0 {
                    self.out.push(',');
                }
                self.write_operand(*op, true);
            }
        }
        self.out.push_str("\n\t]");
    }

    fn print_phi(&mut self, inst: &Instruction) {
        self.out.push(' ');
        let ty = self.types.name(inst.ty);
        self.out.push_str(&ty);
        self.out.push(' ');
        for (i, pair) in inst.operands.chunks(2).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push('[');
            for (j, op) in pair.iter().enumerate() {
                if j > 0 {
                    self.out.push(',');
                }
                self.write_operand(*op, false);
            }
            self.out.push_str(" ]");
        }
    }

    /// call (arguments from operand 1) and invoke (from operand 3).
    fn print_call(&mut self, inst: &Instruction, first_arg: usize) {
        if self.flavor.calling_convs.printed {
            self.out.push_str(&calling_conv_text(inst.calling_conv, self.flavor.calling_convs, true));
        }
        let Some(callee) = inst.operands.first().copied() else { return };
        let callee_ty = self.value_type(callee);
        let fn_ty = self.types.pointee(callee_ty).and_then(|p| self.types.get(p)).cloned();
        let (ret, varargs, attrs) = match fn_ty {
            Some(Type::Function { ret, varargs, param_attrs, .. }) => (Some(ret), varargs, param_attrs),
            _ => (None, true, Vec::new()),
        };
        match ret {
            Some(ret) if !varargs && !self.is_pointer_to_function(ret) => {
                self.out.push(' ');
                let name = self.types.name(ret);
                self.out.push_str(&name);
                self.write_operand(callee, false);
            }
            _ => self.write_operand(callee, true),
        }
        self.out.push('(');
        let args = inst.operands.get(first_arg..).unwrap_or(&[]);
        for (i, arg) in args.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.write_operand(*arg, true);
            self.push_param_attrs(&attrs, i + 1);
        }
        self.out.push_str(" )");
        self.push_param_attrs(&attrs, 0);
        if inst.opcode == Opcode::Invoke {
            self.out.push_str("\n\t\t\tto");
            if let Some(normal) = inst.operands.get(1) {
                self.write_operand(*normal, true);
            }
            self.out.push_str(if self.flavor.invoke_unwind_word { " unwind" } else { " except" });
            if let Some(unwind) = inst.operands.get(2) {
                self.write_operand(*unwind, true);
            }
        }
    }

    fn push_param_attrs(&mut self, attrs: &[u16], index: usize) {
        if let Some(a) = attrs.get(index).copied().filter(|a| *a != 0) {
            self.out.push(' ');
            self.out.push_str(&param_attrs_text(a));
        }
    }

    fn is_pointer_to_function(&self, ty: TypeId) -> bool {
        matches!(self.types.pointee(ty).and_then(|p| self.types.get(p)), Some(Type::Function { .. }))
    }

    fn print_allocation(&mut self, inst: &Instruction) {
        self.out.push(' ');
        let allocated = self.types.pointee(inst.ty).unwrap_or(TypeId(u32::MAX));
        let name = self.types.name(allocated);
        self.out.push_str(&name);
        if let Some(count) = inst.operands.first().copied().filter(|c| !self.is_unit_count(*c)) {
            self.out.push(',');
            self.write_operand(count, true);
        }
        if self.flavor.alloc_align && inst.align != 0 {
            self.out.push_str(&format!(", align {}", inst.align));
        }
    }

    /// Whether an allocation's count is the implicit 1 (only `uint 1` before 1.9).
    fn is_unit_count(&self, count: ValueRef) -> bool {
        let ValueRef::Const(c) = count else { return false };
        let Some(Constant::Int { ty, value }) = self.m.constant(c) else { return false };
        let Some(t) = self.types.get(*ty) else { return false };
        let width = t.int_width().unwrap_or(64);
        value.value_in(width) == Some(1) && (self.flavor.any_int_one_is_unit || *t == Type::UInt)
    }

    fn print_with_type_after(&mut self, ops: &[ValueRef], separator: &str, ty: TypeId) {
        if let Some(op) = ops.first() {
            self.write_operand(*op, true);
        }
        self.out.push_str(separator);
        let name = self.types.name(ty);
        self.out.push_str(&name);
    }

    /// Everything else: one type then the operands when all operand types agree, else
    /// every operand with its type.
    fn print_plain(&mut self, inst: &Instruction) {
        let Some(first) = inst.operands.first().copied() else { return };
        let first_ty = self.value_type(first);
        let all_types = self.always_prints_all_types(inst.opcode)
            || inst.operands.iter().skip(1).any(|op| !self.types.same(self.value_type(*op), first_ty));
        if !all_types {
            self.out.push(' ');
            let name = self.types.name(first_ty);
            self.out.push_str(&name);
        }
        for (i, op) in inst.operands.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.write_operand(*op, all_types);
        }
    }

    fn always_prints_all_types(&self, op: Opcode) -> bool {
        let f = &self.flavor;
        (op.is_shift() && f.shift_all_types)
            || (op == Opcode::Select && f.select_all_types)
            || (op == Opcode::Store && f.store_all_types)
            || (op == Opcode::ShuffleVector && f.shuffle_all_types)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::dis::release::Release;

    #[test]
    fn spellings_follow_the_release() {
        assert_eq!(opcode_name(Opcode::VaArg, &Flavor::of(Release::V1_5)), "vaarg");
        assert_eq!(opcode_name(Opcode::VaArg, &Flavor::of(Release::V1_8)), "va_arg");
        assert_eq!(predicate_text(Opcode::ICmp, 41), Some("sle"));
        assert_eq!(predicate_text(Opcode::FCmp, 1), Some("oeq"));
        let names = Flavor::of(Release::V1_9).calling_convs;
        assert_eq!(calling_conv_text(8, names, true), " fastcc");
        assert_eq!(calling_conv_text(64, names, true), "x86_stdcallcc ");
        assert_eq!(calling_conv_text(1, Flavor::of(Release::V2_0Dev).calling_convs, false), "cc1 ");
    }
}
