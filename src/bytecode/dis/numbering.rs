//! Slot numbers of unnamed values, use counts, predecessor lists and the local renaming
//! of 1.5-1.9, computed once before printing.

use std::collections::{HashMap, HashSet};

use super::release::{Flavor, SlotStyle};
use super::types::Types;
use crate::bytecode::ir::{BlockId, ConstId, Constant, Function, GlobalRef, Module, TypeId, ValueRef};

/// Module-wide facts: slots of unnamed globals and functions, and use counts of globals.
pub(crate) struct ModuleInfo {
    /// Slot of each global variable (`None` when named).
    pub global_slots: Vec<Option<u32>>,
    /// Slot of each function (`None` when named).
    pub function_slots: Vec<Option<u32>>,
    /// `[#uses=N]` of each global variable.
    pub global_uses: Vec<u32>,
    /// `[#uses=N]` of each alias.
    pub alias_uses: Vec<u32>,
    /// How many module-level slots each type plane holds (per-type numbering).
    plane_sizes: HashMap<u32, u32>,
    /// The static counter of renameLocalSymbols, shared by all functions.
    rename_counter: u32,
}

/// Facts about one function body.
pub(crate) struct FunctionInfo {
    /// Slot of each argument (`None` when named).
    pub arg_slots: Vec<Option<u32>>,
    /// Slot of each block (`None` when named).
    pub block_slots: Vec<Option<u32>>,
    /// Slot of each instruction (`None` when named or void).
    pub inst_slots: Vec<Option<u32>>,
    /// `[#uses=N]` of each instruction.
    pub inst_uses: Vec<u32>,
    /// Whether anything refers to each block.
    pub block_used: Vec<bool>,
    /// Predecessors of each block, in the order llvm-dis listed them.
    pub preds: Vec<Vec<BlockId>>,
    /// Argument names after renaming.
    pub arg_names: Vec<Option<String>>,
    /// Instruction names after renaming.
    pub inst_names: Vec<Option<String>>,
}

/// Hands out slot numbers, per type plane or from one counter.
struct SlotCounter<'t> {
    types: &'t Types,
    style: SlotStyle,
    next: HashMap<u32, u32>,
}

impl SlotCounter<'_> {
    fn take(&mut self, ty: TypeId) -> u32 {
        let plane = match self.style {
            SlotStyle::PerType => self.types.key(ty),
            SlotStyle::Unified => 0,
        };
        let slot = self.next.entry(plane).or_insert(0);
        let taken = *slot;
        *slot += 1;
        taken
    }
}

impl ModuleInfo {
    /// Numbers unnamed globals and functions and counts the uses of globals.
    pub fn new(module: &Module, types: &Types, flavor: &Flavor) -> ModuleInfo {
        let mut counter = SlotCounter { types, style: flavor.slots, next: HashMap::new() };
        let global_slots = module
            .globals
            .iter()
            .map(|g| if g.name.is_none() { Some(counter.take(g.ty)) } else { None })
            .collect();
        let function_slots = module
            .functions
            .iter()
            .map(|f| if f.name.is_none() { Some(counter.take(f.ty)) } else { None })
            .collect();
        let plane_sizes = match flavor.slots {
            SlotStyle::PerType => counter.next,
            SlotStyle::Unified => HashMap::new(),
        };
        let (global_uses, alias_uses) = count_global_uses(module, flavor);
        ModuleInfo { global_slots, function_slots, global_uses, alias_uses, plane_sizes, rename_counter: 0 }
    }

    /// Numbers a function's unnamed values and counts their uses.
    pub fn function(
        &mut self,
        module: &Module,
        f: &Function,
        types: &Types,
        flavor: &Flavor,
    ) -> FunctionInfo {
        let (arg_names, inst_names) = if flavor.rename_locals {
            self.rename_locals(module, f, types)
        } else {
            (
                f.args.iter().map(|a| a.name.clone()).collect(),
                f.insts.iter().map(|i| i.name.clone()).collect(),
            )
        };
        let mut counter = SlotCounter { types, style: flavor.slots, next: self.plane_sizes.clone() };
        let arg_slots =
            f.args.iter().map(|a| if a.name.is_none() { Some(counter.take(a.ty)) } else { None }).collect();
        let mut block_slots = vec![None; f.blocks.len()];
        let mut inst_slots = vec![None; f.insts.len()];
        for (b, block) in f.blocks.iter().enumerate() {
            if let (None, Some(slot)) = (&block.name, block_slots.get_mut(b)) {
                *slot = Some(counter.take(types.label()));
            }
            for id in &block.insts {
                let Some(inst) = f.inst(*id) else { continue };
                if inst.name.is_none() && !types.is_void(inst.ty) {
                    if let Some(slot) = inst_slots.get_mut(id.0 as usize) {
                        *slot = Some(counter.take(inst.ty));
                    }
                }
            }
        }
        let (inst_uses, block_used) = count_local_uses(f);
        let preds = predecessors(f, flavor.preds_reversed);
        FunctionInfo {
            arg_slots,
            block_slots,
            inst_slots,
            inst_uses,
            block_used,
            preds,
            arg_names,
            inst_names,
        }
    }

    /// renameLocalSymbols: a local name equal to a global's name in the same type plane
    /// becomes `name_N`, N from one counter for the whole module.
    fn rename_locals(
        &mut self,
        module: &Module,
        f: &Function,
        types: &Types,
    ) -> (Vec<Option<String>>, Vec<Option<String>>) {
        let mut arg_names: Vec<Option<String>> = f.args.iter().map(|a| a.name.clone()).collect();
        let mut inst_names: Vec<Option<String>> = f.insts.iter().map(|i| i.name.clone()).collect();
        let globals = global_names_by_plane(module, types);
        let mut locals: Vec<(u32, String, Local)> = Vec::new();
        for (i, a) in f.args.iter().enumerate() {
            if let Some(n) = &a.name {
                locals.push((types.key(a.ty), n.clone(), Local::Arg(i)));
            }
        }
        for (i, inst) in f.insts.iter().enumerate() {
            if let Some(n) = &inst.name {
                locals.push((types.key(inst.ty), n.clone(), Local::Inst(i)));
            }
        }
        locals.sort_by(|a, b| (a.0, a.1.as_bytes()).cmp(&(b.0, b.1.as_bytes())));
        let mut taken: HashSet<(u32, String)> = locals.iter().map(|(k, n, _)| (*k, n.clone())).collect();
        for (key, name, which) in locals {
            if types.pointee(type_of_local(f, which)).is_none() || !globals.contains(&(key, name.clone())) {
                continue;
            }
            let new_name = loop {
                self.rename_counter += 1;
                let candidate = format!("{name}_{}", self.rename_counter);
                if !globals.contains(&(key, candidate.clone())) && !taken.contains(&(key, candidate.clone()))
                {
                    break candidate;
                }
            };
            taken.insert((key, new_name.clone()));
            let slot = match which {
                Local::Arg(i) => arg_names.get_mut(i),
                Local::Inst(i) => inst_names.get_mut(i),
            };
            if let Some(slot) = slot {
                *slot = Some(new_name);
            }
        }
        (arg_names, inst_names)
    }
}

#[derive(Clone, Copy)]
enum Local {
    Arg(usize),
    Inst(usize),
}

fn type_of_local(f: &Function, which: Local) -> TypeId {
    match which {
        Local::Arg(i) => f.args.get(i).map(|a| a.ty),
        Local::Inst(i) => f.insts.get(i).map(|x| x.ty),
    }
    .unwrap_or(TypeId(u32::MAX))
}

fn global_names_by_plane(module: &Module, types: &Types) -> HashSet<(u32, String)> {
    let globals = module.globals.iter().filter_map(|g| g.name.clone().map(|n| (types.key(g.ty), n)));
    let functions = module.functions.iter().filter_map(|f| f.name.clone().map(|n| (types.key(f.ty), n)));
    globals.chain(functions).collect()
}

/// Uses of globals and aliases: by instructions, by initializers, by aliases and by
/// constants. Constants are uniqued, so a constant that refers to a global counts once
/// however often it is used; in 1.1/1.2 every constant reference went through one
/// ConstantPointerRef per global.
fn count_global_uses(module: &Module, flavor: &Flavor) -> (Vec<u32>, Vec<u32>) {
    let mut uses = vec![0u32; module.globals.len()];
    let mut alias_uses = vec![0u32; module.aliases.len()];
    let mut add = |r: GlobalRef| {
        let n = match r {
            GlobalRef::Var(g) => uses.get_mut(g.0 as usize),
            GlobalRef::Alias(a) => alias_uses.get_mut(a.0 as usize),
            GlobalRef::Function(_) => None,
        };
        if let Some(n) = n {
            *n += 1;
        }
    };
    let global_addr = |c: ConstId| match module.constant(c) {
        Some(Constant::GlobalAddr(r)) => Some(*r),
        _ => None,
    };
    for f in &module.functions {
        for inst in &f.insts {
            for op in &inst.operands {
                match op {
                    ValueRef::Global(g) => add(GlobalRef::Var(*g)),
                    ValueRef::Alias(a) => add(GlobalRef::Alias(*a)),
                    ValueRef::Const(c) if !flavor.pointer_refs => {
                        global_addr(*c).into_iter().for_each(&mut add)
                    }
                    _ => {}
                }
            }
        }
    }
    for c in &module.constants {
        match c {
            Constant::GlobalAddr(r) if flavor.pointer_refs => add(*r),
            _ if !flavor.pointer_refs => {
                constant_operands(c).iter().filter_map(|o| global_addr(*o)).for_each(&mut add)
            }
            _ => {}
        }
    }
    if !flavor.pointer_refs {
        module.globals.iter().filter_map(|g| g.initializer.and_then(global_addr)).for_each(&mut add);
        module.aliases.iter().filter_map(|a| a.aliasee.and_then(global_addr)).for_each(&mut add);
    }
    (uses, alias_uses)
}

/// The constants a constant is built from.
pub(crate) fn constant_operands(c: &Constant) -> &[ConstId] {
    match c {
        Constant::Array { elements, .. } | Constant::Vector { elements, .. } => elements,
        Constant::Struct { fields, .. } => fields,
        Constant::Expr { operands, .. } => operands,
        _ => &[],
    }
}

fn count_local_uses(f: &Function) -> (Vec<u32>, Vec<bool>) {
    let mut inst_uses = vec![0u32; f.insts.len()];
    let mut block_used = vec![false; f.blocks.len()];
    for inst in &f.insts {
        for op in &inst.operands {
            match op {
                ValueRef::Inst(i) => {
                    if let Some(n) = inst_uses.get_mut(i.0 as usize) {
                        *n += 1;
                    }
                }
                ValueRef::Block(b) => {
                    if let Some(u) = block_used.get_mut(b.0 as usize) {
                        *u = true;
                    }
                }
                _ => {}
            }
        }
    }
    (inst_uses, block_used)
}

/// Each block's predecessors: the blocks whose terminator names it, once per mention,
/// in creation order of those uses (reversed where uses were prepended).
fn predecessors(f: &Function, reversed: bool) -> Vec<Vec<BlockId>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for (b, block) in f.blocks.iter().enumerate() {
        let from = BlockId(u32::try_from(b).unwrap_or(u32::MAX));
        for inst in block.insts.iter().filter_map(|i| f.inst(*i)).filter(|i| i.opcode.is_terminator()) {
            for op in &inst.operands {
                if let ValueRef::Block(to) = op {
                    if let Some(list) = preds.get_mut(to.0 as usize) {
                        list.push(from);
                    }
                }
            }
        }
    }
    if reversed {
        preds.iter_mut().for_each(|p| p.reverse());
    }
    preds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::dis::release::Release;
    use crate::bytecode::ir::{Instruction, Opcode, Type};

    #[test]
    fn per_type_slots_continue_module_planes_and_unified_do_not() {
        let mut m = Module::new(5);
        let int = m.push_type(Type::Int);
        let pint = m.push_type(Type::Pointer { pointee: int });
        let void = m.push_type(Type::Void);
        let fty = m.push_type(Type::Function {
            ret: void,
            params: vec![pint],
            varargs: false,
            param_attrs: vec![],
        });
        let pf = m.push_type(Type::Pointer { pointee: fty });
        let zero = m.add_constant(Constant::Int { ty: int, value: 0.into() });
        m.add_global(None, pint, false, Some(zero));
        let f = m.add_function(Some("f"), pf);
        if let Some(func) = m.function_mut(f) {
            let b = func.add_block(None);
            func.push_inst(b, Instruction::new(Opcode::Ret, void, vec![]));
        }
        for (release, expected) in [(Release::V1_5, Some(1)), (Release::V2_0Dev, Some(0))] {
            let flavor = Flavor::of(release);
            let types = Types::new(&m, &flavor);
            let mut info = ModuleInfo::new(&m, &types, &flavor);
            let fi = info.function(&m, &m.functions[0], &types, &flavor);
            assert_eq!(fi.arg_slots[0], expected, "{release:?}");
        }
    }
}
