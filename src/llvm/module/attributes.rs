//! Attributes: the groups of the PARAMATTR_GROUP_BLOCK and the lists of the
//! PARAMATTR_BLOCK that functions, calls and globals refer to.

use bitcode_schema_runtime::decode::Bytes;
use rustc_hash::FxHashMap;
use std::sync::Arc;

use super::types::TypeRef;
use crate::llvm::ir::AttributeKind;

/// One attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attribute<'a> {
    /// A kind alone.
    Enum(AttributeKind),
    /// A kind and an integer.
    Int(AttributeKind, u64),
    /// A type attribute (`byval(T)`), the type when written.
    Type(AttributeKind, Option<TypeRef>),
    /// `"key"` or `"key"="value"`.
    String(Bytes<'a>, Option<Bytes<'a>>),
    /// A constant range: bit width, lower and upper words.
    Range(AttributeKind, u32, Vec<u64>, Vec<u64>),
    /// A list of constant ranges.
    RangeList(AttributeKind, u32, Vec<(Vec<u64>, Vec<u64>)>),
}

/// The attributes of one position: a group's, shared by every list that names the group
/// (a module's lists name a few hundred groups thousands of times).
pub type AttributeSet<'a> = Arc<Vec<Attribute<'a>>>;

/// An attribute list: the sets of the function (index `u32::MAX`), the return value
/// (0) and each parameter (n + 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AttributeList<'a> {
    /// `(index, set)` pairs.
    pub sets: Vec<(u32, AttributeSet<'a>)>,
}

/// The index of the function's own attributes.
pub const FUNCTION_INDEX: u32 = u32::MAX;

impl<'a> AttributeList<'a> {
    /// The set at `index`, if any (empty sets count as none).
    pub fn at(&self, index: u32) -> Option<&AttributeSet<'a>> {
        self.sets.iter().find(|(i, s)| *i == index && !s.is_empty()).map(|(_, s)| s)
    }

    /// The function attributes.
    pub fn function(&self) -> Option<&AttributeSet<'a>> {
        self.at(FUNCTION_INDEX)
    }

    /// The return value's attributes.
    pub fn ret(&self) -> Option<&AttributeSet<'a>> {
        self.at(0)
    }

    /// Parameter `n`'s attributes.
    pub fn param(&self, n: u32) -> Option<&AttributeSet<'a>> {
        self.at(n.wrapping_add(1))
    }
}

/// The groups and lists of a module.
#[derive(Clone, Debug, Default)]
pub struct Attributes<'a> {
    /// Groups by id: their index and attributes (looked up for every list: hashed with
    /// FxHash, not SipHash).
    pub groups: FxHashMap<u32, (u32, AttributeSet<'a>)>,
    /// Lists, numbered from 1 in the bitcode (index 0 here).
    pub lists: Vec<AttributeList<'a>>,
}

impl<'a> Attributes<'a> {
    /// The list a reference names (the record's 1-based index, decoded to 0-based).
    pub fn list(&self, reference: Option<u32>) -> Option<&AttributeList<'a>> {
        self.lists.get(reference? as usize)
    }
}
