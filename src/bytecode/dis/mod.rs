//! A printer of [`Module`]s that writes exactly what each LLVM 1.x release's `llvm-dis`
//! wrote (their `lib/VMCore/AsmWriter.cpp`). The per-release differences are the switches
//! of `release::Flavor`; the slot numbering and use counting the output depends on are
//! in `numbering`.

mod constants;
mod instructions;
mod module;
mod names;
mod numbering;
pub mod release;
mod types;

#[cfg(test)]
mod tests;

pub use release::Release;

use crate::bytecode::ir::{Constant, Function, GlobalRef, Module, TypeId, ValueRef};
use names::{llvm_name, Sigil};
use numbering::{FunctionInfo, ModuleInfo};
use release::{Flavor, SlotStyle};
use types::Types;

/// Prints `module` as `release`'s `llvm-dis` did; `module_id` is the name the file was
/// given to llvm-dis (printed by 1.5 and later as `; ModuleID = '...'`).
pub fn disassemble(module: &Module, release: Release, module_id: &str) -> String {
    let flavor = Flavor::of(release);
    let types = Types::new(module, &flavor);
    let info = ModuleInfo::new(module, &types, &flavor);
    let mut printer =
        Printer { m: module, flavor, types, info, out: String::new(), indent: "\n".to_string(), func: None };
    printer.print_module(module_id);
    printer.out
}

/// The state of one printing run.
struct Printer<'m> {
    m: &'m Module,
    flavor: Flavor,
    types: Types,
    info: ModuleInfo,
    out: String,
    /// The line start of multi-line structure constants (a static in LLVM 1.8+).
    indent: String,
    /// The function being printed, with its numbering.
    func: Option<(&'m Function, FunctionInfo)>,
}

impl Printer<'_> {
    /// The type of a value.
    fn value_type(&self, v: ValueRef) -> TypeId {
        let missing = TypeId(u32::MAX);
        match v {
            ValueRef::Global(g) => self.m.globals.get(g.0 as usize).map_or(missing, |g| g.ty),
            ValueRef::Function(f) => self.m.functions.get(f.0 as usize).map_or(missing, |f| f.ty),
            ValueRef::Alias(a) => self.m.aliases.get(a.0 as usize).map_or(missing, |a| a.ty),
            ValueRef::Const(c) => self.m.constant(c).map_or(missing, |c| self.constant_type(c)),
            ValueRef::Arg(i) => {
                self.func.as_ref().and_then(|(f, _)| f.args.get(i as usize)).map_or(missing, |a| a.ty)
            }
            ValueRef::Inst(i) => self.func.as_ref().and_then(|(f, _)| f.inst(i)).map_or(missing, |x| x.ty),
            ValueRef::Block(_) => self.types.label(),
        }
    }

    /// The type of a constant.
    fn constant_type(&self, c: &Constant) -> TypeId {
        match c {
            Constant::Int { ty, .. }
            | Constant::Float { ty, .. }
            | Constant::Null { ty }
            | Constant::Undef { ty }
            | Constant::Array { ty, .. }
            | Constant::Struct { ty, .. }
            | Constant::Vector { ty, .. }
            | Constant::Expr { ty, .. }
            | Constant::InlineAsm { ty, .. } => *ty,
            Constant::GlobalAddr(r) => self.value_type(global_value(*r)),
        }
    }

    /// `writeOperand`: a space, the type if asked, a space and the value.
    fn write_operand(&mut self, v: ValueRef, with_type: bool) {
        if with_type {
            self.out.push(' ');
            let ty = self.value_type(v);
            let name = self.types.name(ty);
            self.out.push_str(&name);
        }
        self.out.push(' ');
        let text = self.operand_text(v);
        self.out.push_str(&text);
    }

    /// A value as an operand, without type: its name, slot or constant text.
    fn operand_text(&mut self, v: ValueRef) -> String {
        match v {
            ValueRef::Global(_) | ValueRef::Function(_) | ValueRef::Alias(_) => self.global_text(v),
            ValueRef::Const(c) => self.constant_text(c),
            ValueRef::Arg(_) | ValueRef::Inst(_) | ValueRef::Block(_) => self.local_text(v),
        }
    }

    /// A global value by name or slot.
    fn global_text(&self, v: ValueRef) -> String {
        let (name, slot) = match v {
            ValueRef::Global(g) => (
                self.m.globals.get(g.0 as usize).and_then(|g| g.name.as_deref()),
                self.info.global_slots.get(g.0 as usize).copied().flatten(),
            ),
            ValueRef::Function(f) => (
                self.m.functions.get(f.0 as usize).and_then(|f| f.name.as_deref()),
                self.info.function_slots.get(f.0 as usize).copied().flatten(),
            ),
            ValueRef::Alias(a) => (self.m.aliases.get(a.0 as usize).and_then(|a| a.name.as_deref()), None),
            _ => (None, None),
        };
        match (name, slot) {
            (Some(n), _) => llvm_name(n, Sigil::Global, self.flavor.new_syntax),
            (None, Some(s)) => format!("{}{s}", self.global_sigil()),
            (None, None) => "<badref>".to_string(),
        }
    }

    fn global_sigil(&self) -> char {
        if self.flavor.slots == SlotStyle::Unified {
            '@'
        } else {
            '%'
        }
    }

    /// An argument, instruction or block of the current function by name or slot.
    fn local_text(&self, v: ValueRef) -> String {
        match self.local_name_and_slot(v) {
            (Some(n), _) => llvm_name(&n, Sigil::Local, self.flavor.new_syntax),
            (None, Some(s)) => format!("%{s}"),
            (None, None) => "<badref>".to_string(),
        }
    }

    /// The (possibly renamed) name and the slot of a local value.
    fn local_name_and_slot(&self, v: ValueRef) -> (Option<String>, Option<u32>) {
        let Some((f, info)) = self.func.as_ref() else { return (None, None) };
        let pick = |names: &[Option<String>], slots: &[Option<u32>], i: usize| {
            (names.get(i).cloned().flatten(), slots.get(i).copied().flatten())
        };
        match v {
            ValueRef::Arg(i) => pick(&info.arg_names, &info.arg_slots, i as usize),
            ValueRef::Inst(i) => pick(&info.inst_names, &info.inst_slots, i.0 as usize),
            ValueRef::Block(b) => {
                let name = f.blocks.get(b.0 as usize).and_then(|b| b.name.clone());
                (name, info.block_slots.get(b.0 as usize).copied().flatten())
            }
            _ => (None, None),
        }
    }

    /// `printInfoComment`: `\t\t; <type>:slot [#uses=N]` for values that are not void.
    fn info_comment(&mut self, ty: TypeId, named: bool, slot: Option<u32>, uses: u32) {
        if self.types.is_void(ty) {
            return;
        }
        let ty_name = self.types.name(ty);
        self.out.push_str("\t\t; <");
        self.out.push_str(&ty_name);
        self.out.push('>');
        if !named {
            match slot {
                Some(s) => self.out.push_str(&format!(":{s}")),
                None => self.out.push_str(":<badref>"),
            }
        }
        self.out.push_str(&format!(" [#uses={uses}]"));
    }
}

/// The operand that a global reference inside a constant stands for.
fn global_value(r: GlobalRef) -> ValueRef {
    match r {
        GlobalRef::Var(g) => ValueRef::Global(g),
        GlobalRef::Function(f) => ValueRef::Function(f),
        GlobalRef::Alias(a) => ValueRef::Alias(a),
    }
}
