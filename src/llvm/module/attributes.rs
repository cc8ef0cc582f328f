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

impl Attribute<'_> {
    /// Its kind, unless it is a string attribute.
    pub fn kind(&self) -> Option<AttributeKind> {
        match self {
            Attribute::Enum(k)
            | Attribute::Int(k, _)
            | Attribute::Type(k, _)
            | Attribute::Range(k, ..)
            | Attribute::RangeList(k, ..) => Some(*k),
            Attribute::String(..) => None,
        }
    }

    /// What one attribute of a set is per: its kind's code, or a string attribute's key.
    /// A set holds one attribute per key; kinds order before keys.
    pub fn key(&self) -> Result<u64, &[u8]> {
        match self {
            Attribute::String(key, _) => Err(key),
            // Every other attribute has a kind.
            _ => Ok(self.kind().map_or(0, |k| k.code())),
        }
    }
}

/// `attrs` as LLVM's reader makes them a set: one attribute per key, a later attribute of
/// a key already there taking its place, and the string attributes last, by key (a
/// producer writes each key once and in this order; the other attributes' order is the
/// version's order of kinds, kept as written). Sorted by key rather than searched: the
/// input decides how many there are.
pub(crate) fn as_a_set(attrs: Vec<Attribute<'_>>) -> Vec<Attribute<'_>> {
    if is_a_set(&attrs) {
        return attrs;
    }
    // By key, then position: each key's run starts at its first place and ends with the
    // attribute that stays.
    let mut keyed: Vec<(usize, Attribute<'_>)> = attrs.into_iter().enumerate().collect();
    keyed.sort_by(|(i, a), (j, b)| a.key().cmp(&b.key()).then(i.cmp(j)));
    let mut kept: Vec<(usize, Attribute<'_>)> = Vec::with_capacity(keyed.len());
    for (i, a) in keyed {
        match kept.last_mut() {
            Some((_, last)) if last.key() == a.key() => *last = a,
            _ => kept.push((i, a)),
        }
    }
    // The kinds come first (`Ok` before `Err`) and go back to where they were written;
    // the string attributes stay in key order.
    let kinds = kept.partition_point(|(_, a)| a.key().is_ok());
    if let Some(written) = kept.get_mut(..kinds) {
        written.sort_by_key(|(i, _)| *i);
    }
    kept.into_iter().map(|(_, a)| a).collect()
}

/// Whether `attrs` is a set already, as every group a producer writes is: no kind twice,
/// the string attributes last, each key after the one before.
fn is_a_set(attrs: &[Attribute<'_>]) -> bool {
    let mut kinds = [0u64; 4];
    let mut last_key: Option<&[u8]> = None;
    attrs.iter().all(|a| match a.key() {
        Ok(code) if last_key.is_none() => {
            let Some(word) = kinds.get_mut((code / 64) as usize) else { return false };
            let bit = 1u64 << (code % 64);
            let new = *word & bit == 0;
            *word |= bit;
            new
        }
        Ok(_) => false,
        Err(key) => {
            let after = last_key.is_none_or(|last| last < key);
            last_key = Some(key);
            after
        }
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_keeps_one_attribute_per_key_and_its_strings_last_by_key() {
        let s = |k: &'static str, v: &'static str| {
            Attribute::String(Bytes::from(k.as_bytes()), Some(Bytes::from(v.as_bytes())))
        };
        let attrs = vec![
            Attribute::Enum(AttributeKind::Nofree),
            Attribute::Int(AttributeKind::Align, 4),
            s("a", "1"),
            Attribute::Enum(AttributeKind::Nounwind),
            Attribute::Enum(AttributeKind::Nofree),
            s("a", "2"),
            Attribute::Int(AttributeKind::Align, 8),
            s("B", "3"),
        ];
        let kept = as_a_set(attrs);
        assert_eq!(
            kept,
            vec![
                Attribute::Enum(AttributeKind::Nofree),
                Attribute::Int(AttributeKind::Align, 8),
                Attribute::Enum(AttributeKind::Nounwind),
                s("B", "3"),
                s("a", "2"),
            ]
        );
    }
}
