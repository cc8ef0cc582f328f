//! Constant pools: strings, plain constants, aggregates, expressions, `undef`, inline
//! asm, and the null values of planes. Entries may refer forward inside their pool, so a
//! pool is first laid out in its planes and then resolved.

use super::types::TypeRef;
use super::values::{Place, Slot};
use super::{bad, instructions, Builder, Result};
use crate::bytecode::ir::{ConstId, Constant, GlobalRef, IntBits, Type, TypeId, ValueRef};
use crate::bytecode::schema::{self, constant_pool, Entry, Plain, TypeDef};

/// Nesting beyond this is refused (hostile input).
const MAX_DEPTH: u32 = 2000;

/// One constant of the pool being resolved.
struct Pending<'p, 'a> {
    ty: TypeId,
    constant: &'p schema::Constant<'a>,
    place: Place,
}

/// The resolution state of a pool.
struct Pool<'p, 'a> {
    entries: Vec<Pending<'p, 'a>>,
    done: Vec<Option<ConstId>>,
    busy: Vec<bool>,
}

impl Builder {
    /// Reads a constant pool (the module's or the current function's).
    pub(super) fn read_constant_pool(&mut self, body: &constant_pool::Body<'_>) -> Result<()> {
        if let Some(defs) = &body.types {
            self.types.define(&mut self.m, defs, true)?;
        }
        let mut pool = Pool { entries: Vec::new(), done: Vec::new(), busy: Vec::new() };
        for plane in &body.planes {
            let raw = u64::from(plane.plane.0);
            let ty = match self.types.resolve_raw(raw)? {
                TypeRef::TypePlane => {
                    let defs: Vec<TypeDef> = plane
                        .entries
                        .iter()
                        .filter_map(|e| match e {
                            Entry::TypeDef { def } => Some(def.clone()),
                            _ => None,
                        })
                        .collect();
                    let in_function = self.current.is_some();
                    self.types.define(&mut self.m, &defs, in_function)?;
                    continue;
                }
                TypeRef::Type(t) => t,
            };
            for entry in &plane.entries {
                match entry {
                    Entry::TypeDef { .. } => return Err(bad("a type definition in a plane of values")),
                    Entry::String { string } => {
                        let array = self.types.file(string.string_type)?;
                        let element = match self.m.ty(array) {
                            Some(Type::Array { element, .. }) => *element,
                            _ => return Err(bad("a string constant whose type is no array")),
                        };
                        let id = self.m.add_string(array, element, string.bytes.as_bytes());
                        let class = self.types.class(array);
                        self.planes.push(class, Slot::Value(ValueRef::Const(id)));
                    }
                    Entry::Constant { constant } => {
                        let index = u32::try_from(pool.entries.len()).unwrap_or(u32::MAX);
                        let place = self.planes.push(self.types.class(ty), Slot::Pending(index));
                        pool.entries.push(Pending { ty, constant, place });
                    }
                }
            }
        }
        pool.done = vec![None; pool.entries.len()];
        pool.busy = vec![false; pool.entries.len()];
        for k in 0..pool.entries.len() {
            self.resolve_pending(&mut pool, k, 0)?;
        }
        Ok(())
    }

    fn resolve_pending(&mut self, pool: &mut Pool<'_, '_>, k: usize, depth: u32) -> Result<ConstId> {
        if let Some(Some(id)) = pool.done.get(k) {
            return Ok(*id);
        }
        if depth > MAX_DEPTH || pool.busy.get(k).copied().unwrap_or(true) {
            return Err(bad("a constant that refers to itself"));
        }
        if let Some(b) = pool.busy.get_mut(k) {
            *b = true;
        }
        let (ty, constant, place) = match pool.entries.get(k) {
            Some(p) => (p.ty, p.constant, p.place),
            None => return Err(bad("no such constant")),
        };
        let id = self.convert_constant(pool, ty, constant, depth)?;
        if let Some(d) = pool.done.get_mut(k) {
            *d = Some(id);
        }
        self.planes.set(place, Slot::Value(ValueRef::Const(id)));
        Ok(id)
    }

    fn convert_constant(
        &mut self,
        pool: &mut Pool<'_, '_>,
        ty: TypeId,
        constant: &schema::Constant<'_>,
        depth: u32,
    ) -> Result<ConstId> {
        let c = match constant {
            schema::Constant::Plain { value } => return self.plain(pool, ty, value, depth),
            schema::Constant::Undef => Constant::Undef { ty },
            schema::Constant::InlineAsm { asm, constraints, flags } => Constant::InlineAsm {
                ty,
                asm: asm.to_str_lossy().into_owned(),
                constraints: constraints.to_str_lossy().into_owned(),
                side_effects: flags & 1 != 0,
            },
            schema::Constant::Expression { opcode, operands } => {
                self.expression(pool, ty, u64::from(*opcode), operands, None, depth)?
            }
            schema::Constant::Expression5 { opcode, operands, predicate } => {
                self.expression(pool, ty, u64::from(*opcode), operands, *predicate, depth)?
            }
        };
        Ok(self.m.add_constant(c))
    }

    fn expression(
        &mut self,
        pool: &mut Pool<'_, '_>,
        ty: TypeId,
        opcode: u64,
        operands: &[schema::Operand],
        predicate: Option<u32>,
        depth: u32,
    ) -> Result<Constant> {
        let opcode = instructions::expression_opcode(self.revision, opcode)
            .ok_or_else(|| bad(format!("constant expression opcode {opcode}")))?;
        let mut ops = Vec::with_capacity(operands.len());
        for o in operands {
            let t = self.types.file(o.type_id)?;
            ops.push(self.constant_operand(pool, t, o.slot, depth)?);
        }
        let predicate = predicate.map_or(0, |p| u16::try_from(p).unwrap_or(u16::MAX));
        Ok(Constant::Expr { ty, opcode, operands: ops, predicate })
    }

    fn plain(&mut self, pool: &mut Pool<'_, '_>, ty: TypeId, value: &Plain, depth: u32) -> Result<ConstId> {
        let c = match value {
            Plain::Small { value } => Constant::Int { ty, value: u64::from(*value).into() },
            Plain::Large { value } => Constant::Int { ty, value: (*value).into() },
            Plain::Signed { value } => Constant::Int { ty, value: (*value as u64).into() },
            Plain::Float { value } => Constant::float_from_f32_bits(ty, value.to_bits()),
            Plain::Double { value } => Constant::float_from_f64_bits(ty, value.to_bits()),
            Plain::Words { words } => {
                let width = self
                    .m
                    .ty(ty)
                    .and_then(Type::int_width)
                    .ok_or_else(|| bad("a wide integer constant of a type that is no integer"))?;
                Constant::Int { ty, value: IntBits::from_words(words, width) }
            }
            Plain::Global { slot } => {
                let id = self.constant_operand(pool, ty, *slot, depth)?;
                return Ok(id);
            }
            Plain::Aggregate { slots } => {
                let shape = self.m.ty(ty).cloned();
                let part_types: Vec<TypeId> = match &shape {
                    Some(Type::Struct { fields, .. }) => fields.clone(),
                    Some(Type::Array { element, .. }) | Some(Type::Vector { element, .. }) => {
                        vec![*element; slots.len()]
                    }
                    _ => return Err(bad("an aggregate constant of a type that is none")),
                };
                let mut parts = Vec::with_capacity(slots.len());
                for (slot, t) in slots.iter().zip(part_types) {
                    parts.push(self.constant_operand(pool, t, *slot, depth)?);
                }
                match shape {
                    Some(Type::Struct { .. }) => Constant::Struct { ty, fields: parts },
                    Some(Type::Vector { .. }) => Constant::Vector { ty, elements: parts },
                    _ => Constant::Array { ty, elements: parts },
                }
            }
        };
        Ok(self.m.add_constant(c))
    }

    /// The constant at `slot` of the plane of `ty`, resolving pool entries on the way.
    fn constant_operand(
        &mut self,
        pool: &mut Pool<'_, '_>,
        ty: TypeId,
        slot: u32,
        depth: u32,
    ) -> Result<ConstId> {
        match self.slot(ty, slot)? {
            Slot::Pending(j) => self.resolve_pending(pool, j as usize, depth + 1),
            other => self.slot_constant(other),
        }
    }

    /// A resolved slot used inside a constant.
    pub(super) fn slot_constant(&mut self, slot: Slot) -> Result<ConstId> {
        match slot {
            Slot::Null(t) => Ok(self.null_constant(t, 0)),
            Slot::Value(ValueRef::Const(c)) => Ok(c),
            Slot::Value(ValueRef::Global(g)) => {
                Ok(self.m.add_constant(Constant::GlobalAddr(GlobalRef::Var(g))))
            }
            Slot::Value(ValueRef::Function(f)) => {
                Ok(self.m.add_constant(Constant::GlobalAddr(GlobalRef::Function(f))))
            }
            Slot::Value(ValueRef::Alias(a)) => {
                Ok(self.m.add_constant(Constant::GlobalAddr(GlobalRef::Alias(a))))
            }
            Slot::Value(_) => Err(bad("a constant refers to a local value")),
            Slot::Pending(_) => Err(bad("a constant of another pool that is not resolved")),
        }
    }

    /// The null value of a type: zero, `null`, or (1.1, which had no aggregate zero) an
    /// aggregate of nulls.
    pub(super) fn null_constant(&mut self, ty: TypeId, depth: u32) -> ConstId {
        let c = match self.m.ty(ty).cloned() {
            Some(Type::Float | Type::Double) => Constant::Float { ty, bits: 0 },
            Some(t) if t.int_width().is_some() => Constant::Int { ty, value: IntBits::ZERO },
            // 1.1 prints aggregates of more than five nulls as zeroinitializer anyway.
            Some(Type::Struct { fields, .. }) if self.revision == 0 && depth < 64 && fields.len() <= 5 => {
                let fields = fields.iter().map(|f| self.null_constant(*f, depth + 1)).collect();
                Constant::Struct { ty, fields }
            }
            Some(Type::Array { element, len }) if self.revision == 0 && depth < 64 && len <= 5 => {
                let e = self.null_constant(element, depth + 1);
                Constant::Array { ty, elements: vec![e; usize::try_from(len).unwrap_or(0)] }
            }
            _ => Constant::Null { ty },
        };
        self.m.add_constant(c)
    }
}
