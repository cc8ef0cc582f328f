//! The type table of a module being built: the file's type ids (with the revision 0-1
//! numbering that counts the plane of types, 12), the module's and the current function's
//! type tables, a function's compaction types, and the structural identity of types that
//! keys the value planes (LLVM uniqued types, so a plane is one type, whatever its id).

use std::collections::HashMap;

use super::{bad, Result};
use crate::bytecode::equal_types::{parts, representatives, shape};
use crate::bytecode::ir::{Module, Type, TypeId};
use crate::bytecode::schema::{PrimitiveType, PrimitiveType7, TypeDef};
use crate::runtime::decode::TypeId as FileTypeId;

/// The raw id of the plane of types in revisions 0 and 1 (docs/llvm-bytecode.md §4.1): it
/// sits where later revisions put label, and every raw id above it is one higher.
const TYPE_PLANE: u64 = PrimitiveType::Label.code();

/// The model type of a primitive type of revisions 0-6.
fn old_primitive(p: PrimitiveType) -> Type {
    match p {
        PrimitiveType::Void => Type::Void,
        PrimitiveType::Bool => Type::Bool,
        PrimitiveType::Ubyte => Type::UByte,
        PrimitiveType::Sbyte => Type::SByte,
        PrimitiveType::Ushort => Type::UShort,
        PrimitiveType::Short => Type::Short,
        PrimitiveType::Uint => Type::UInt,
        PrimitiveType::Int => Type::Int,
        PrimitiveType::Ulong => Type::ULong,
        PrimitiveType::Long => Type::Long,
        PrimitiveType::Float => Type::Float,
        PrimitiveType::Double => Type::Double,
        PrimitiveType::Label => Type::Label,
    }
}

/// The model type of a primitive type of revision 7.
fn primitive7(p: PrimitiveType7) -> Type {
    match p {
        PrimitiveType7::Void => Type::Void,
        PrimitiveType7::Float => Type::Float,
        PrimitiveType7::Double => Type::Double,
        PrimitiveType7::Label => Type::Label,
    }
}

/// What a type id written in the file stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TypeRef {
    /// A type.
    Type(TypeId),
    /// The plane of types of revisions 0 and 1 (raw id 12).
    TypePlane,
}

/// The file's type numbering, mapped onto the model's type arena.
pub(super) struct TypeTable {
    revision: u32,
    /// The primitive types by their (normalized) id.
    primitives: Vec<TypeId>,
    /// The module's type table, entry k is id `first_derived + k`.
    module: Vec<TypeId>,
    /// The current function's own types, after the module's.
    function: Vec<TypeId>,
    /// The current function's compaction types (when it has some).
    compaction: Option<Vec<TypeId>>,
    /// The structural class of every type of the arena.
    classes: Vec<u32>,
    /// A pointer type per class of pointee.
    pointers: HashMap<u32, TypeId>,
}

impl TypeTable {
    /// The primitive types of `revision`, added to `m`.
    pub fn new(revision: u32, m: &mut Module) -> TypeTable {
        // The primitive types by id, 0 to label: entry k of the table is id k.
        let primitives: Vec<Type> = if revision >= 7 {
            (0..=PrimitiveType7::Label.code())
                .filter_map(|code| PrimitiveType7::try_from(code).ok().map(primitive7))
                .collect()
        } else {
            (0..=PrimitiveType::Label.code())
                .filter_map(|code| PrimitiveType::try_from(code).ok().map(old_primitive))
                .collect()
        };
        let primitives = primitives.into_iter().map(|t| m.push_type(t)).collect();
        let mut t = TypeTable {
            revision,
            primitives,
            module: Vec::new(),
            function: Vec::new(),
            compaction: None,
            classes: Vec::new(),
            pointers: HashMap::new(),
        };
        t.reclassify(m);
        t
    }

    /// The id of the first type of the type tables: the one after label.
    fn first_derived(&self) -> u64 {
        if self.revision >= 7 {
            PrimitiveType7::Label.code() + 1
        } else {
            PrimitiveType::Label.code() + 1
        }
    }

    /// The id as later revisions number it (revisions 0-1 count the plane of types).
    pub fn normalize(&self, raw: u64) -> Option<u64> {
        if self.revision <= 1 {
            match raw {
                TYPE_PLANE => None,
                r if r > TYPE_PLANE => Some(r - 1),
                r => Some(r),
            }
        } else {
            Some(raw)
        }
    }

    /// What a raw type id stands for.
    pub fn resolve_raw(&self, raw: u64) -> Result<TypeRef> {
        match self.normalize(raw) {
            None => Ok(TypeRef::TypePlane),
            Some(id) => self.by_id(id).map(TypeRef::Type),
        }
    }

    /// The type of a raw type id; the plane of types is an error here.
    pub fn get(&self, raw: u64) -> Result<TypeId> {
        match self.resolve_raw(raw)? {
            TypeRef::Type(t) => Ok(t),
            TypeRef::TypePlane => Err(bad("the plane of types used as a type")),
        }
    }

    /// The type of a raw type id as the schema hands it.
    pub fn file(&self, id: FileTypeId) -> Result<TypeId> {
        self.get(u64::from(id.0))
    }

    /// The type of a normalized id, through the compaction table when there is one.
    fn by_id(&self, id: u64) -> Result<TypeId> {
        let first = self.first_derived();
        if id < first {
            return usize::try_from(id)
                .ok()
                .and_then(|i| self.primitives.get(i).copied())
                .ok_or_else(|| bad(format!("type id {id} is no primitive type")));
        }
        let k = usize::try_from(id - first).map_err(|_| bad("type id out of range"))?;
        if let Some(c) = &self.compaction {
            return c.get(k).copied().ok_or_else(|| bad(format!("type id {id} beyond the compaction table")));
        }
        self.module
            .get(k)
            .or_else(|| k.checked_sub(self.module.len()).and_then(|j| self.function.get(j)))
            .copied()
            .ok_or_else(|| bad(format!("type id {id} beyond the type table")))
    }

    /// The type of a normalized id of the module's table, ignoring any compaction table
    /// (the ids a compaction table lists).
    pub fn global(&self, raw: u64) -> Result<TypeId> {
        let id = self.normalize(raw).ok_or_else(|| bad("the plane of types in a compaction table"))?;
        let first = self.first_derived();
        if id < first {
            return self.by_id(id);
        }
        let k = usize::try_from(id - first).map_err(|_| bad("type id out of range"))?;
        self.module.get(k).copied().ok_or_else(|| bad(format!("compaction type {id} beyond the type table")))
    }

    /// A primitive type by its (normalized) id.
    fn primitive(&self, code: u64) -> TypeId {
        usize::try_from(code).ok().and_then(|i| self.primitives.get(i)).copied().unwrap_or(TypeId(0))
    }

    /// A primitive type of revisions 0-6 (an error in a revision 7 module, which has
    /// none of them but void, float, double and label).
    pub fn old(&self, p: PrimitiveType) -> Result<TypeId> {
        if self.revision >= 7 {
            return Err(bad(format!("no primitive type {p} in revision {}", self.revision)));
        }
        Ok(self.primitive(p.code()))
    }

    /// The void type.
    pub fn void(&self) -> TypeId {
        if self.revision >= 7 {
            self.primitive(PrimitiveType7::Void.code())
        } else {
            self.primitive(PrimitiveType::Void.code())
        }
    }

    /// The label type.
    pub fn label(&self) -> TypeId {
        if self.revision >= 7 {
            self.primitive(PrimitiveType7::Label.code())
        } else {
            self.primitive(PrimitiveType::Label.code())
        }
    }

    /// Defines a batch of types: the module's table or a function's own types.
    pub fn define(&mut self, m: &mut Module, defs: &[TypeDef], function: bool) -> Result<()> {
        let start: Vec<TypeId> = defs.iter().map(|_| m.push_type(Type::Opaque)).collect();
        if function {
            self.function.extend(start.iter().copied());
        } else {
            self.module.extend(start.iter().copied());
        }
        for (def, id) in defs.iter().zip(start) {
            let ty = self.convert(def)?;
            m.set_type(id, ty);
        }
        self.reclassify(m);
        Ok(())
    }

    fn convert(&self, def: &TypeDef) -> Result<Type> {
        Ok(match def {
            TypeDef::Primitive | TypeDef::Primitive7 => return Err(bad("a primitive type in a type table")),
            TypeDef::Integer { width } => Type::Integer(*width),
            TypeDef::Function { result, params, attributes } => {
                let mut ps = params.iter().map(|p| self.file(*p)).collect::<Result<Vec<_>>>()?;
                let void = self.void();
                let varargs = ps.last() == Some(&void);
                if varargs {
                    ps.pop();
                }
                let mut param_attrs = Vec::new();
                for a in attributes.iter().flatten() {
                    let i = a.index as usize;
                    if i > ps.len() {
                        continue;
                    }
                    if param_attrs.is_empty() {
                        param_attrs = vec![0u16; ps.len() + 1];
                    }
                    if let Some(slot) = param_attrs.get_mut(i) {
                        *slot = u16::try_from(a.attributes).unwrap_or(u16::MAX);
                    }
                }
                if param_attrs.iter().all(|a| *a == 0) {
                    param_attrs.clear();
                }
                Type::Function { ret: self.file(*result)?, params: ps, varargs, param_attrs }
            }
            TypeDef::Struct { elements } => Type::Struct {
                fields: elements.iter().map(|e| self.file(*e)).collect::<Result<_>>()?,
                packed: false,
            },
            TypeDef::PackedStruct { elements } => Type::Struct {
                fields: elements.iter().map(|e| self.file(*e)).collect::<Result<_>>()?,
                packed: true,
            },
            TypeDef::Array { element, length } => {
                Type::Array { element: self.file(*element)?, len: u64::from(*length) }
            }
            TypeDef::Pointer { pointee } => Type::Pointer { pointee: self.file(*pointee)? },
            TypeDef::Opaque => Type::Opaque,
            TypeDef::Vector { element, length } => {
                Type::Vector { element: self.file(*element)?, len: u64::from(*length) }
            }
        })
    }

    /// Sets the compaction types of the current function (global type ids, raw).
    pub fn set_compaction(&mut self, raw_ids: &[u64]) -> Result<()> {
        let types = raw_ids.iter().map(|r| self.global(*r)).collect::<Result<Vec<_>>>()?;
        self.compaction = (!types.is_empty()).then_some(types);
        Ok(())
    }

    /// Adds compaction types (revision 1 writes them as a plane of the table).
    pub fn add_compaction(&mut self, raw_ids: &[u64]) -> Result<()> {
        let types = raw_ids.iter().map(|r| self.global(*r)).collect::<Result<Vec<_>>>()?;
        if !types.is_empty() {
            self.compaction.get_or_insert_with(Vec::new).extend(types);
        }
        Ok(())
    }

    /// Forgets the current function's types and compaction table.
    pub fn end_function(&mut self) {
        self.function.clear();
        self.compaction = None;
    }

    /// The structural class of a type: equal for structurally equal types.
    pub fn class(&self, t: TypeId) -> u32 {
        self.classes.get(t.0 as usize).copied().unwrap_or(u32::MAX)
    }

    /// The pointer type to `pointee`, from the tables or made.
    pub fn pointer_to(&mut self, m: &mut Module, pointee: TypeId) -> TypeId {
        if let Some(p) = self.pointers.get(&self.class(pointee)) {
            return *p;
        }
        let p = m.push_type(Type::Pointer { pointee });
        self.reclassify(m);
        p
    }

    /// A type structurally equal to `ty`, from the arena or made.
    pub fn find_or_make(&mut self, m: &mut Module, ty: Type) -> TypeId {
        let wanted = self.shape_key(&ty);
        let found = m.types.iter().enumerate().find(|(_, t)| self.shape_key(t) == wanted && wanted.is_some());
        if let Some((i, _)) = found {
            return TypeId(u32::try_from(i).unwrap_or(u32::MAX));
        }
        let id = m.push_type(ty);
        self.reclassify(m);
        id
    }

    /// A type's kind and its parts' classes (`None` for opaque types).
    fn shape_key(&self, t: &Type) -> Option<(String, Vec<u32>)> {
        if *t == Type::Opaque {
            return None;
        }
        Some((shape(0, t), parts(t).iter().map(|c| self.class(*c)).collect()))
    }

    /// Recomputes the classes after types were added.
    fn reclassify(&mut self, m: &Module) {
        self.classes = representatives(&m.types);
        self.pointers.clear();
        for (i, t) in m.types.iter().enumerate() {
            if let Type::Pointer { pointee } = t {
                let key = self.class(*pointee);
                self.pointers.entry(key).or_insert(TypeId(u32::try_from(i).unwrap_or(u32::MAX)));
            }
        }
    }
}
