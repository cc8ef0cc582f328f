//! Symbol tables: names of types, of values by plane and slot, and of basic blocks.

use super::types::TypeRef;
use super::values::Slot;
use super::{Builder, Result};
use crate::bytecode::ir::{TypeId, ValueRef};
use crate::bytecode::schema::{NamePlane, TypeName};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Builder {
    /// Names types (module or function level).
    pub(super) fn name_types(&mut self, names: &[TypeName<'_>]) -> Result<()> {
        for n in names {
            let ty = self.types.file(n.type_id)?;
            self.add_type_name(text(&n.name), ty);
        }
        Ok(())
    }

    fn add_type_name(&mut self, name: String, ty: TypeId) {
        match self.current.and_then(|f| self.m.function_mut(f)) {
            Some(f) => f.type_names.push((name, ty)),
            None => self.m.type_names.push((name, ty)),
        }
    }

    /// Names values (and, in revisions 0-1, types) plane by plane.
    pub(super) fn name_values(&mut self, planes: &[NamePlane<'_>]) -> Result<()> {
        let label = self.types.label();
        for plane in planes {
            let ty = match self.types.resolve_raw(u64::from(plane.plane.0))? {
                TypeRef::TypePlane => {
                    for n in &plane.names {
                        let ty = self.types.get(u64::from(n.slot))?;
                        self.add_type_name(text(&n.name), ty);
                    }
                    continue;
                }
                TypeRef::Type(t) => t,
            };
            for n in &plane.names {
                let name = Some(text(&n.name));
                if ty == label {
                    let block = self
                        .current
                        .and_then(|f| self.m.function_mut(f))
                        .and_then(|f| f.blocks.get_mut(n.slot as usize));
                    if let Some(b) = block {
                        b.name = name;
                    }
                    continue;
                }
                let Slot::Value(v) = self.slot(ty, n.slot)? else { continue };
                self.set_name(v, name);
            }
        }
        Ok(())
    }

    fn set_name(&mut self, v: ValueRef, name: Option<String>) {
        match v {
            ValueRef::Global(g) => {
                if let Some(g) = self.m.globals.get_mut(g.0 as usize) {
                    g.name = name;
                }
            }
            ValueRef::Function(f) => {
                if let Some(f) = self.m.function_mut(f) {
                    f.name = name;
                }
            }
            ValueRef::Alias(a) => {
                if let Some(a) = self.m.aliases.get_mut(a.0 as usize) {
                    a.name = name;
                }
            }
            ValueRef::Arg(i) => {
                if let Some(a) =
                    self.current.and_then(|f| self.m.function_mut(f)).and_then(|f| f.args.get_mut(i as usize))
                {
                    a.name = name;
                }
            }
            ValueRef::Inst(i) => {
                if let Some(x) = self
                    .current
                    .and_then(|f| self.m.function_mut(f))
                    .and_then(|f| f.insts.get_mut(i.0 as usize))
                {
                    x.name = name;
                }
            }
            ValueRef::Const(_) | ValueRef::Block(_) => {}
        }
    }
}
