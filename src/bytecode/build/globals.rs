//! The module global info block: global variables, function entries (three encodings),
//! dependent libraries, target triple, data layout, sections and module asm.

use super::values::Slot;
use super::{bad, Builder, Result};
use crate::bytecode::ir::{Alias, AliasId, Linkage, Type, ValueRef, Visibility};
use crate::bytecode::schema::{self, global_info};

/// A linkage code of globals and function blocks (unknown codes: external).
pub(super) fn linkage(code: u64) -> Linkage {
    match schema::Linkage::try_from(code) {
        Ok(schema::Linkage::Weak) => Linkage::Weak,
        Ok(schema::Linkage::Appending) => Linkage::Appending,
        Ok(schema::Linkage::Internal) => Linkage::Internal,
        Ok(schema::Linkage::Linkonce) => Linkage::LinkOnce,
        Ok(schema::Linkage::Dllimport) => Linkage::DllImport,
        Ok(schema::Linkage::Dllexport) => Linkage::DllExport,
        Ok(schema::Linkage::ExternWeak) => Linkage::ExternWeak,
        Ok(schema::Linkage::External) | Err(_) => Linkage::External,
    }
}

/// An alias's linkage (code 3, on which LLVM's reader asserted: external).
fn alias_linkage(l: schema::AliasLinkage) -> Linkage {
    match l {
        schema::AliasLinkage::Internal => Linkage::Internal,
        schema::AliasLinkage::Weak => Linkage::Weak,
        schema::AliasLinkage::External | schema::AliasLinkage::Unknown(_) => Linkage::External,
    }
}

/// A visibility code (revision 7; unknown codes: default).
pub(super) fn visibility(code: u64) -> Visibility {
    match schema::Visibility::try_from(code) {
        Ok(schema::Visibility::Hidden) => Visibility::Hidden,
        Ok(schema::Visibility::Protected) => Visibility::Protected,
        Ok(schema::Visibility::Default) | Err(_) => Visibility::Default,
    }
}

/// An alignment stored as log2 + 1.
fn align(log2_plus_one: u64) -> u32 {
    match log2_plus_one {
        0 => 0,
        v if v <= 32 => (1u64 << (v - 1)) as u32,
        _ => 0,
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Builder {
    /// Reads the module global info block.
    pub(super) fn read_global_info(&mut self, body: &global_info::Body<'_>) -> Result<()> {
        let sections: Vec<String> = body.sections.iter().flatten().map(|s| text(s)).collect();
        self.new_writer = body.sections.is_some() || body.inline_asm.is_some();
        for g in &body.globals {
            let (constant, has_init, link, type_id, thread_local) = match (&g.word, &g.word7) {
                (Some(w), _) => (w.constant, w.has_initializer, w.linkage, w.type_id, false),
                (None, Some(w)) => (w.constant, w.has_initializer, w.linkage, w.type_id, w.thread_local),
                (None, None) => return Err(bad("a global without its word")),
            };
            let ty = self.types.get(type_id)?;
            let element = match self.m.ty(ty) {
                Some(Type::Pointer { pointee }) => *pointee,
                _ => return Err(bad("a global whose type is no pointer")),
            };
            let id = self.m.add_global(None, ty, constant, None);
            let (mut link, mut has_init, mut vis, mut al) = (link, has_init, 0, 0);
            if let Some(ext) = &g.extension {
                link = ext.linkage;
                has_init = ext.has_initializer;
                vis = ext.visibility;
                al = align(ext.align_log2);
            }
            if let Some(gv) = self.m.globals.get_mut(id.0 as usize) {
                gv.linkage = linkage(link);
                gv.visibility = visibility(vis);
                gv.align = al;
                gv.thread_local = thread_local;
                gv.section = g
                    .section
                    .and_then(|s| (s as usize).checked_sub(1))
                    .and_then(|i| sections.get(i))
                    .cloned();
            }
            if let (true, Some(slot)) = (has_init, g.initializer) {
                self.initializers.push((id, element, slot));
            }
            self.planes.push(self.types.class(ty), Slot::Value(ValueRef::Global(id)));
        }
        for f in body.old_functions.iter().flatten() {
            let ty = self.types.file(f.type_id)?;
            let id = self.m.add_function(None, ty);
            self.bodies.push(id);
            self.planes.push(self.types.class(ty), Slot::Value(ValueRef::Function(id)));
        }
        for f in body.functions.iter().flatten() {
            let ty = self.types.get(f.word.type_id)?;
            let id = self.m.add_function(None, ty);
            let mut cc_plus_one = f.word.cc_plus_one;
            let mut cc = None;
            if let Some(ext) = &f.extension {
                cc_plus_one |= ext.cc_plus_one_high << 4;
                if let Some(func) = self.m.function_mut(id) {
                    func.align = align(ext.align_log2);
                    func.linkage = match ext.declaration_linkage {
                        1 => Linkage::DllImport,
                        2 => Linkage::ExternWeak,
                        _ => Linkage::External,
                    };
                    func.section = f
                        .section
                        .and_then(|s| (s as usize).checked_sub(1))
                        .and_then(|i| sections.get(i))
                        .cloned();
                }
            } else if let Some(explicit) = f.calling_conv {
                cc = Some(explicit);
            }
            let cc = cc.unwrap_or_else(|| u32::try_from(cc_plus_one.saturating_sub(1)).unwrap_or(0));
            if let Some(func) = self.m.function_mut(id) {
                func.calling_conv = cc;
            }
            if !f.word.external {
                self.bodies.push(id);
            }
            self.planes.push(self.types.class(ty), Slot::Value(ValueRef::Function(id)));
        }
        for a in body.aliases.iter().flatten() {
            let ty = self.types.get(a.word.type_id)?;
            let link = alias_linkage(a.word.linkage);
            let id = AliasId(u32::try_from(self.m.aliases.len()).unwrap_or(u32::MAX));
            self.m.aliases.push(Alias { name: None, ty, linkage: link, aliasee: None });
            self.aliasees.push((id, ty, a.aliasee));
            self.planes.push(self.types.class(ty), Slot::Value(ValueRef::Alias(id)));
        }
        self.m.deplibs = body.libraries.iter().flatten().map(|l| text(l)).collect();
        self.m.target_triple = body.triple.as_deref().map(text).unwrap_or_default();
        self.m.data_layout = body.data_layout.as_deref().map(text).unwrap_or_default();
        self.m.inline_asm = body.inline_asm.as_deref().map(text).unwrap_or_default();
        Ok(())
    }

    /// Sets the initializers of globals, once every constant is known.
    pub(super) fn resolve_initializers(&mut self) -> Result<()> {
        for (g, element, slot) in std::mem::take(&mut self.initializers) {
            let s = self.slot(element, slot)?;
            let c = self.slot_constant(s)?;
            if let Some(gv) = self.m.globals.get_mut(g.0 as usize) {
                gv.initializer = Some(c);
            }
        }
        for (a, ty, slot) in std::mem::take(&mut self.aliasees) {
            let s = self.slot(ty, slot)?;
            let c = self.slot_constant(s)?;
            if let Some(alias) = self.m.aliases.get_mut(a.0 as usize) {
                alias.aliasee = Some(c);
            }
        }
        Ok(())
    }
}
