//! The module, its globals, functions and basic blocks.

use super::instructions::function_calling_conv;
use super::names::{escape_bytes, llvm_name, Sigil};
use super::release::DeplibStyle;
use super::types::{param_attrs_text, sorted_type_names};
use super::Printer;
use crate::bytecode::ir::{
    BlockId, Constant, Endianness, Function, GlobalId, GlobalRef, GlobalVar, Linkage, PointerSize, Type,
    TypeId, ValueRef, Visibility,
};

impl<'m> Printer<'m> {
    /// `printModule`.
    pub(super) fn print_module(&mut self, module_id: &str) {
        self.print_header(module_id);
        for (name, ty) in sorted_type_names(self.m) {
            let spelled = self.types.one_level(ty);
            let name = llvm_name(&name, Sigil::Local, false);
            self.out.push_str(&format!("\t{name} = type {spelled}\n"));
        }
        for g in 0..self.m.globals.len() {
            self.print_global(GlobalId(u32::try_from(g).unwrap_or(u32::MAX)));
        }
        if !self.m.aliases.is_empty() {
            self.out.push('\n');
        }
        for a in 0..self.m.aliases.len() {
            self.print_alias(a);
        }
        if self.flavor.implementation_line {
            self.out.push_str("\nimplementation   ; Functions:\n");
        }
        let m = self.m;
        for f in &m.functions {
            self.print_function(f);
        }
    }

    fn print_header(&mut self, module_id: &str) {
        let m = self.m;
        if self.flavor.module_id && !module_id.is_empty() && !module_id.contains('\n') {
            self.out.push_str(&format!("; ModuleID = '{module_id}'\n"));
        }
        if self.flavor.data_layout && !m.data_layout.is_empty() {
            self.out.push_str(&format!("target datalayout = \"{}\"\n", m.data_layout));
        }
        if self.flavor.endian_pointersize {
            match m.endianness {
                Endianness::Little => self.out.push_str("target endian = little\n"),
                Endianness::Big => self.out.push_str("target endian = big\n"),
                Endianness::Any => {}
            }
            match m.pointer_size {
                PointerSize::Bits32 => self.out.push_str("target pointersize = 32\n"),
                PointerSize::Bits64 => self.out.push_str("target pointersize = 64\n"),
                PointerSize::Any => {}
            }
        }
        if self.flavor.deplibs != DeplibStyle::None && !m.target_triple.is_empty() {
            self.out.push_str(&format!("target triple = \"{}\"\n", m.target_triple));
        }
        if self.flavor.module_asm && !m.inline_asm.is_empty() {
            for line in m.inline_asm.split('\n') {
                self.out.push_str(&format!("module asm \"{}\"\n", escape_bytes(line.as_bytes())));
            }
        }
        self.print_deplibs();
    }

    fn print_deplibs(&mut self) {
        let libs = &self.m.deplibs;
        if libs.is_empty() {
            return;
        }
        let quoted: Vec<String> = libs.iter().map(|l| format!("\"{l}\"")).collect();
        match self.flavor.deplibs {
            DeplibStyle::None => {}
            DeplibStyle::OnePerLine => self.out.push_str(&format!("deplibs = [\n{} ]\n", quoted.join(",\n"))),
            DeplibStyle::Inline => self.out.push_str(&format!("deplibs = [ {} ]\n", quoted.join(", "))),
        }
    }

    /// `printGlobal`.
    fn print_global(&mut self, id: GlobalId) {
        let m = self.m;
        let Some(g) = m.globals.get(id.0 as usize) else { return };
        if let Some(name) = &g.name {
            self.out.push_str(&llvm_name(name, Sigil::Global, self.flavor.new_syntax));
            self.out.push_str(" = ");
        }
        self.print_global_linkage(g);
        if g.thread_local && self.flavor.new_syntax {
            self.out.push_str("thread_local ");
        }
        self.out.push_str(if g.constant { "constant " } else { "global " });
        let content = self.types.pointee(g.ty).unwrap_or(g.ty);
        let content = self.types.name(content);
        self.out.push_str(&content);
        if let Some(init) = g.initializer {
            self.out.push(' ');
            let text = self.constant_text(init);
            self.out.push_str(&text);
        }
        if self.flavor.sections {
            if let Some(section) = &g.section {
                self.out.push_str(&format!(", section \"{section}\""));
            }
            if g.align != 0 {
                self.out.push_str(&format!(", align {}", g.align));
            }
        }
        let slot = self.info.global_slots.get(id.0 as usize).copied().flatten();
        let uses = self.info.global_uses.get(id.0 as usize).copied().unwrap_or(0);
        self.info_comment(g.ty, g.name.is_some(), slot, uses);
        self.out.push('\n');
    }

    /// `printAlias` (2.0dev).
    fn print_alias(&mut self, index: usize) {
        let m = self.m;
        let Some(a) = m.aliases.get(index) else { return };
        if let Some(name) = &a.name {
            self.out.push_str(&llvm_name(name, Sigil::Global, self.flavor.new_syntax));
        }
        self.out.push_str(" = alias ");
        self.out.push_str(match a.linkage {
            Linkage::Weak => "weak ",
            Linkage::Internal => "internal ",
            _ => "",
        });
        match a.aliasee.and_then(|c| m.constant(c)) {
            Some(Constant::GlobalAddr(GlobalRef::Var(g))) => {
                let ty = m.globals.get(g.0 as usize).map_or(TypeId(u32::MAX), |g| g.ty);
                let ty = self.types.name(ty);
                self.out.push_str(&ty);
                self.out.push(' ');
                let name = self.global_text(ValueRef::Global(*g));
                self.out.push_str(&name);
            }
            Some(Constant::GlobalAddr(GlobalRef::Function(f))) => {
                let ty = m.functions.get(f.0 as usize).map_or(TypeId(u32::MAX), |f| f.ty);
                let fn_ty = self.types.pointee(ty).unwrap_or(ty);
                let fn_ty = self.types.name(fn_ty);
                self.out.push_str(&fn_ty);
                self.out.push_str("* ");
                match m.functions.get(f.0 as usize).and_then(|f| f.name.as_deref()) {
                    Some(n) => self.out.push_str(&llvm_name(n, Sigil::Global, self.flavor.new_syntax)),
                    None => self.out.push_str("@\"\""),
                }
            }
            Some(_) => {
                if let Some(c) = a.aliasee {
                    self.write_operand(ValueRef::Const(c), false);
                }
            }
            None => {}
        }
        let uses = self.info.alias_uses.get(index).copied().unwrap_or(0);
        self.info_comment(a.ty, a.name.is_some(), None, uses);
        self.out.push('\n');
    }

    fn print_global_linkage(&mut self, g: &GlobalVar) {
        if g.initializer.is_none() {
            let word = match g.linkage {
                Linkage::DllImport => "dllimport ",
                Linkage::ExternWeak => "extern_weak ",
                _ => "external ",
            };
            self.out.push_str(word);
            return;
        }
        self.out.push_str(linkage_word(g.linkage));
        if self.flavor.new_syntax {
            self.out.push_str(visibility_word(g.visibility));
        }
    }

    /// `printFunction`.
    fn print_function(&mut self, f: &'m Function) {
        let info = self.info.function(self.m, f, &self.types, &self.flavor);
        self.func = Some((f, info));
        self.out.push('\n');
        self.print_function_prefix(f);
        let (ret, params, varargs, attrs) =
            match self.types.pointee(f.ty).and_then(|p| self.types.get(p)).cloned() {
                Some(Type::Function { ret, params, varargs, param_attrs }) => {
                    (ret, params, varargs, param_attrs)
                }
                _ => (self.types.void(), Vec::new(), false, Vec::new()),
            };
        let ret = self.types.name(ret);
        self.out.push_str(&ret);
        self.out.push(' ');
        let name = match &f.name {
            Some(n) => llvm_name(n, Sigil::Global, self.flavor.new_syntax),
            None if self.flavor.new_syntax => "@\"\"".to_string(),
            None => "\"\"".to_string(),
        };
        self.out.push_str(&name);
        self.out.push('(');
        if self.flavor.new_syntax && f.is_declaration() {
            self.print_param_types(&params, &attrs);
        } else {
            self.print_arguments(f, &attrs);
        }
        if varargs {
            if !params.is_empty() {
                self.out.push_str(", ");
            }
            self.out.push_str("...");
        }
        self.out.push(')');
        self.push_attrs(&attrs, 0);
        if self.flavor.sections {
            if let Some(section) = &f.section {
                self.out.push_str(&format!(" section \"{section}\""));
            }
            if f.align != 0 {
                self.out.push_str(&format!(" align {}", f.align));
            }
        }
        if f.is_declaration() {
            self.out.push('\n');
        } else {
            self.out.push_str(" {");
            for b in 0..f.blocks.len() {
                self.print_block(f, BlockId(u32::try_from(b).unwrap_or(u32::MAX)));
            }
            self.out.push_str("}\n");
        }
        self.func = None;
    }

    fn print_function_prefix(&mut self, f: &Function) {
        if f.is_declaration() {
            self.out.push_str("declare ");
            if matches!(f.linkage, Linkage::DllImport | Linkage::ExternWeak) {
                self.out.push_str(linkage_word(f.linkage));
            }
        } else {
            if self.flavor.new_syntax {
                self.out.push_str("define ");
            }
            self.out.push_str(linkage_word(f.linkage));
            if self.flavor.new_syntax {
                self.out.push_str(visibility_word(f.visibility));
            }
        }
        self.out.push_str(&function_calling_conv(f.calling_conv, &self.flavor));
    }

    fn print_param_types(&mut self, params: &[crate::bytecode::ir::TypeId], attrs: &[u16]) {
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let name = self.types.name(*p);
            self.out.push_str(&name);
            self.push_attrs(attrs, i + 1);
        }
    }

    fn print_arguments(&mut self, f: &Function, attrs: &[u16]) {
        for (i, arg) in f.args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let ty = self.types.name(arg.ty);
            self.out.push_str(&ty);
            self.push_attrs(attrs, i + 1);
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            if let (Some(name), _) = self.local_name_and_slot(ValueRef::Arg(index)) {
                self.out.push(' ');
                self.out.push_str(&llvm_name(&name, Sigil::Local, self.flavor.new_syntax));
            }
        }
    }

    fn push_attrs(&mut self, attrs: &[u16], index: usize) {
        if let Some(a) = attrs.get(index).copied().filter(|a| *a != 0) {
            self.out.push(' ');
            self.out.push_str(&param_attrs_text(a));
        }
    }

    /// `printBasicBlock`: the label (or `; <label>:N` when unnamed but used), the
    /// predecessors of every block but the entry, then the instructions.
    fn print_block(&mut self, f: &'m Function, id: BlockId) {
        let Some(block) = f.blocks.get(id.0 as usize) else { return };
        if let Some(name) = &block.name {
            let label =
                if self.flavor.quote_labels { llvm_name(name, Sigil::Label, false) } else { name.clone() };
            self.out.push_str(&format!("\n{label}:"));
        } else if self.block_info(id).0 {
            let slot = self.local_name_and_slot(ValueRef::Block(id)).1;
            self.out
                .push_str(&slot.map_or("\n; <label>:<badref>".to_string(), |s| format!("\n; <label>:{s}")));
        }
        if id.0 != 0 {
            let preds = self.block_info(id).1;
            if preds.is_empty() {
                self.out.push_str("\t\t; No predecessors!");
            } else {
                self.out.push_str("\t\t; preds =");
                for (i, p) in preds.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.write_operand(ValueRef::Block(*p), false);
                }
            }
        }
        self.out.push('\n');
        for inst in &block.insts {
            self.print_instruction(*inst);
        }
    }

    fn block_info(&self, id: BlockId) -> (bool, Vec<BlockId>) {
        let Some((_, info)) = self.func.as_ref() else { return (false, Vec::new()) };
        let used = info.block_used.get(id.0 as usize).copied().unwrap_or(false);
        (used, info.preds.get(id.0 as usize).cloned().unwrap_or_default())
    }
}

fn linkage_word(linkage: Linkage) -> &'static str {
    match linkage {
        Linkage::External => "",
        Linkage::Internal => "internal ",
        Linkage::LinkOnce => "linkonce ",
        Linkage::Weak => "weak ",
        Linkage::Appending => "appending ",
        Linkage::DllImport => "dllimport ",
        Linkage::DllExport => "dllexport ",
        Linkage::ExternWeak => "extern_weak ",
    }
}

fn visibility_word(visibility: Visibility) -> &'static str {
    match visibility {
        Visibility::Default => "",
        Visibility::Hidden => "hidden ",
        Visibility::Protected => "protected ",
    }
}
