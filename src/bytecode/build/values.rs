//! Value planes: a value's slot is its position in the plane of its type. Module planes
//! (globals, functions, module constants) and, inside a function, its own planes
//! (arguments, function constants, instruction results), which continue after the module
//! plane or after a compaction table's plane; slot 0 is the type's null value where the
//! revision says so.

use std::collections::HashMap;

use crate::bytecode::ir::{Type, TypeId, ValueRef};

/// What a slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// The null value of the type (not made until used).
    Null(TypeId),
    /// A value of the model.
    Value(ValueRef),
    /// A constant of the pool being read, not resolved yet (index into the pool's entries).
    Pending(u32),
}

/// Where a value was put: module or function plane, class, position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Place {
    local: bool,
    class: u32,
    index: usize,
}

/// The value planes of the module and of the function being read.
#[derive(Default)]
pub(super) struct Planes {
    /// Whether primitive planes have no implicit null (revision 0).
    explicit_primitive_zeros: bool,
    module: HashMap<u32, Vec<Slot>>,
    /// Planes a compaction table redefined: slot 0 (the null value) included.
    compacted: HashMap<u32, Vec<Slot>>,
    local: HashMap<u32, Vec<Slot>>,
    /// Inside a function.
    in_function: bool,
}

impl Planes {
    /// Empty planes for `revision`.
    pub fn new(revision: u32) -> Planes {
        Planes { explicit_primitive_zeros: revision == 0, ..Planes::default() }
    }

    /// Whether slot 0 of the plane of `ty` is its null value (outside compaction).
    pub fn has_null(&self, ty: &Type) -> bool {
        match ty {
            Type::Void | Type::Label | Type::Opaque => false,
            Type::Function { .. }
            | Type::Struct { .. }
            | Type::Array { .. }
            | Type::Pointer { .. }
            | Type::Vector { .. } => true,
            Type::Integer(_) => true,
            _ => !self.explicit_primitive_zeros,
        }
    }

    /// Appends a value to the module plane or, inside a function, the function's plane.
    pub fn push(&mut self, class: u32, slot: Slot) -> Place {
        let local = self.in_function;
        let plane = if local { &mut self.local } else { &mut self.module }.entry(class).or_default();
        plane.push(slot);
        Place { local, class, index: plane.len() - 1 }
    }

    /// Replaces what a place holds.
    pub fn set(&mut self, place: Place, slot: Slot) {
        let planes = if place.local { &mut self.local } else { &mut self.module };
        if let Some(s) = planes.get_mut(&place.class).and_then(|p| p.get_mut(place.index)) {
            *s = slot;
        }
    }

    /// The value at `slot` of the plane of `ty` (class `class`).
    pub fn get(&self, class: u32, ty: TypeId, null: bool, slot: u32) -> Option<Slot> {
        let mut n = slot as usize;
        if let Some(c) = self.compacted.get(&class) {
            if let Some(s) = c.get(n) {
                return Some(*s);
            }
            n -= c.len();
        } else {
            if null {
                if n == 0 {
                    return Some(Slot::Null(ty));
                }
                n -= 1;
            }
            if let Some(m) = self.module.get(&class) {
                if let Some(s) = m.get(n) {
                    return Some(*s);
                }
                n -= m.len();
            }
        }
        if !self.in_function {
            return None;
        }
        self.local.get(&class).and_then(|l| l.get(n)).copied()
    }

    /// The module value at `slot` of a plane (compaction tables list these; 0 is null).
    pub fn module_value(&self, class: u32, ty: TypeId, slot: u32) -> Option<Slot> {
        if slot == 0 {
            return Some(Slot::Null(ty));
        }
        self.module.get(&class).and_then(|m| m.get(slot as usize - 1)).copied()
    }

    /// Redefines a plane for the current function (a compaction table's plane).
    pub fn compact(&mut self, class: u32, slots: Vec<Slot>) {
        self.compacted.insert(class, slots);
    }

    /// Starts a function: its planes are empty.
    pub fn begin_function(&mut self) {
        self.in_function = true;
        self.local.clear();
        self.compacted.clear();
    }

    /// Ends a function: its planes are forgotten.
    pub fn end_function(&mut self) {
        self.in_function = false;
        self.local.clear();
        self.compacted.clear();
    }
}
