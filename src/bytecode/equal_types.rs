//! Structural equality of the model's types, as LLVM's type uniquing saw it: two types are
//! one when their kinds and sizes are equal and their parts are pairwise one (recursive
//! types included); each opaque type is only itself. The slot layer keys value planes by
//! it, and the printer names types by it.

use std::collections::HashMap;

use super::ir::{Type, TypeId};

/// For each type, the index of the first type structurally equal to it (partition
/// refinement: start from the kinds, split classes by their parts' classes until no class
/// splits).
pub fn representatives(types: &[Type]) -> Vec<u32> {
    let mut class: Vec<u32> = number(types.iter().enumerate().map(|(i, t)| (shape(i, t), Vec::new())));
    loop {
        let refined = number(types.iter().enumerate().map(|(i, t)| {
            let parts: Vec<u32> =
                parts(t).iter().map(|c| class.get(c.0 as usize).copied().unwrap_or(u32::MAX)).collect();
            (class.get(i).copied().unwrap_or(0).to_string(), parts)
        }));
        let before = distinct(&class);
        class = refined;
        if distinct(&class) == before {
            break;
        }
    }
    let mut first: HashMap<u32, u32> = HashMap::new();
    class
        .iter()
        .enumerate()
        .map(|(i, c)| *first.entry(*c).or_insert(u32::try_from(i).unwrap_or(u32::MAX)))
        .collect()
}

/// Numbers keys by first appearance.
fn number(keys: impl Iterator<Item = (String, Vec<u32>)>) -> Vec<u32> {
    let mut ids: HashMap<(String, Vec<u32>), u32> = HashMap::new();
    keys.map(|k| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(k).or_insert(next)
    })
    .collect()
}

fn distinct(class: &[u32]) -> usize {
    let mut v = class.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// What a type is apart from its parts; opaque types carry their index (`index`) to stay
/// distinct.
pub fn shape(index: usize, ty: &Type) -> String {
    match ty {
        Type::Function { params, varargs, param_attrs, .. } => {
            format!("fn{}:{varargs}:{param_attrs:?}", params.len())
        }
        Type::Struct { fields, packed } => format!("struct{}:{packed}", fields.len()),
        Type::Array { len, .. } => format!("array{len}"),
        Type::Vector { len, .. } => format!("vector{len}"),
        Type::Pointer { .. } => "ptr".to_string(),
        Type::Opaque => format!("opaque{index}"),
        other => format!("{other:?}"),
    }
}

/// The types a type is made of.
pub fn parts(ty: &Type) -> Vec<TypeId> {
    match ty {
        Type::Function { ret, params, .. } => std::iter::once(*ret).chain(params.iter().copied()).collect(),
        Type::Struct { fields, .. } => fields.clone(),
        Type::Array { element, .. } | Type::Vector { element, .. } => vec![*element],
        Type::Pointer { pointee } => vec![*pointee],
        _ => Vec::new(),
    }
}
