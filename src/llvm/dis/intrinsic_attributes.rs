//! The attribute lists of intrinsic declarations. LLVM's bitcode reader gives every
//! intrinsic's declaration the intrinsic's own attribute list (UpgradeIntrinsicFunction
//! calls Intrinsic::getAttributes), whatever the file says, so llvm-dis prints those: in
//! an optimized C++ module, `llvm.eh.typeid.for` is written with the `nofree nosync` the
//! optimizer inferred and printed without them.
//!
//! The lists of LLVM 13, 14, 15, 16 and 19 are in data/intrinsic-attributes, made by
//! tools/intrinsic-attributes/make.sh; LLVM 22's, of its intrinsics that are not
//! overloaded, by tools/intrinsic-attributes/dump-c-api.py from rustup's libLLVM (an
//! overloaded one keeps the file's list). For other versions the file's lists are kept.

use std::collections::HashMap;

use bitcode_schema_runtime::{Bitstream, Result};

use crate::llvm::module::{read_modules, Attribute, Module};

/// Per LLVM version, its distinct lists: a module with one declaration per list, the
/// declaration named by the list's number.
const POOLS: &[(u32, &[u8])] = &[
    (13, include_bytes!("../../../data/intrinsic-attributes/llvm-13.bc")),
    (14, include_bytes!("../../../data/intrinsic-attributes/llvm-14.bc")),
    (15, include_bytes!("../../../data/intrinsic-attributes/llvm-15.bc")),
    (16, include_bytes!("../../../data/intrinsic-attributes/llvm-16.bc")),
    (19, include_bytes!("../../../data/intrinsic-attributes/llvm-19.bc")),
    (22, include_bytes!("../../../data/intrinsic-attributes/llvm-22.bc")),
];

/// The intrinsics' names and, per version, the number of each one's list (front-coded:
/// see tools/intrinsic-attributes/merge.py).
const NAMES: &str = include_str!("../../../data/intrinsic-attributes/names.txt");

/// Gives the intrinsic declarations of `m` the attribute lists LLVM `major`'s reader
/// gives them, where the tables hold that version.
pub(super) fn reset(m: &mut Module<'_>, major: u32) -> Result<()> {
    let Some(&(_, pool)) = POOLS.iter().find(|(version, _)| *version == major) else { return Ok(()) };
    let (declared, names): (Vec<usize>, Vec<&[u8]>) = m
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_proto && f.common.name.starts_with(b"llvm."))
        .map(|(i, f)| (i, &*f.common.name))
        .unzip();
    if declared.is_empty() {
        return Ok(());
    }
    let numbers = list_numbers(&names, major);
    if numbers.iter().all(Option::is_none) {
        return Ok(());
    }
    let stream = Bitstream::new(pool)?;
    let lists = read_modules(&stream)?;
    let Some(lists) = lists.first() else { return Ok(()) };
    // Each list of the pool taken once: its index among the module's lists.
    let mut taken: HashMap<u32, Option<Option<u32>>> = HashMap::new();
    for (&function, number) in declared.iter().zip(numbers) {
        let Some(number) = number else { continue };
        let index = *taken.entry(number).or_insert_with(|| {
            let declaration = lists.functions.get(number as usize)?;
            let Some(list) = lists.attributes.list(declaration.attributes) else { return Some(None) };
            // A type attribute would name a type of the pool's table, not of this module's.
            let typed = list
                .sets
                .iter()
                .flat_map(|(_, s)| s.iter())
                .any(|a| matches!(a, Attribute::Type(_, Some(_))));
            if typed {
                return None;
            }
            m.attributes.lists.push(list.clone());
            Some(Some(m.attributes.lists.len() as u32 - 1))
        });
        if let (Some(index), Some(f)) = (index, m.functions.get_mut(function)) {
            f.attributes = index;
        }
    }
    Ok(())
}

/// For each name, the number of its intrinsic's list in version `major`, if it names an
/// intrinsic of that version. As Function::lookupIntrinsicID: the intrinsic whose name is
/// the longest match, whole or up to a `.`, when it is the whole name or the intrinsic is
/// overloaded (its name is a base name that type suffixes follow).
fn list_numbers(names: &[&[u8]], major: u32) -> Vec<Option<u32>> {
    // The names and their prefixes ending before a `.`: the intrinsics that may match.
    let mut candidates: HashMap<&[u8], Option<(u32, bool)>> = HashMap::new();
    for name in names {
        candidates.insert(name, None);
        for prefix in dotted_prefixes(name) {
            candidates.insert(prefix, None);
        }
    }
    let (header, table) = NAMES.split_once('\n').unwrap_or((NAMES, ""));
    let column = header
        .strip_prefix("versions ")
        .and_then(|versions| versions.split(' ').position(|v| v.parse() == Ok(major)));
    let Some(column) = column else { return vec![None; names.len()] };
    // The table's names are in byte order: the candidates, sorted, are met in turn, and the
    // table is left once the last is passed (each line's cells are read only for those).
    let mut wanted: Vec<&[u8]> = candidates.keys().copied().collect();
    wanted.sort_unstable();
    let mut next = 0;
    let mut name: Vec<u8> = Vec::new();
    // While the name is below the next candidate, differing first at byte `k`, a line
    // that keeps more than `k` bytes of it is below too: read no further than its count.
    let mut below = usize::MAX;
    let table = table.as_bytes();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', table).chain(std::iter::once(table.len())) {
        let line = table.get(start..end).unwrap_or_default();
        start = end + 1;
        let Some(&want) = wanted.get(next) else { break };
        // `shared rest cells...`: the name shares `shared` bytes with the one before.
        let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
        let shared = line
            .get(..digits)
            .unwrap_or_default()
            .iter()
            .fold(0usize, |n, d| n.saturating_mul(10).saturating_add(usize::from(d - b'0')));
        if shared >= below {
            continue;
        }
        let rest = line.get(digits + 1..).unwrap_or_default();
        let (rest, cells) = match memchr::memchr(b' ', rest) {
            Some(at) => (rest.get(..at).unwrap_or_default(), rest.get(at + 1..).unwrap_or_default()),
            None => (rest, &[][..]),
        };
        if shared > name.len() {
            continue;
        }
        name.truncate(shared);
        name.extend_from_slice(rest);
        if want > name.as_slice() {
            below = 1 + name.iter().zip(want).take_while(|(a, b)| a == b).count();
            continue;
        }
        below = usize::MAX;
        next += wanted.iter().skip(next).take_while(|w| **w < name.as_slice()).count();
        if wanted.get(next) != Some(&name.as_slice()) {
            continue;
        }
        next += 1;
        let Some(found) = candidates.get_mut(name.as_slice()) else { continue };
        let Some(cell) = cells.split(|&b| b == b' ').nth(column) else { continue };
        let Ok(cell) = std::str::from_utf8(cell) else { continue };
        let overloaded = cell.ends_with('o');
        *found = cell.trim_end_matches('o').parse().ok().map(|number| (number, overloaded));
    }
    names
        .iter()
        .map(|name| {
            let prefixes: Vec<&[u8]> = dotted_prefixes(name).collect();
            let longest = std::iter::once(*name).chain(prefixes.into_iter().rev()).find_map(|candidate| {
                let found = candidates.get(candidate).copied().flatten()?;
                Some((candidate.len(), found))
            })?;
            let (len, (number, overloaded)) = longest;
            (len == name.len() || overloaded).then_some(number)
        })
        .collect()
}

/// The prefixes of `name` that end before a `.`, shortest first.
fn dotted_prefixes(name: &[u8]) -> impl Iterator<Item = &[u8]> {
    name.iter().enumerate().filter(|(_, &b)| b == b'.').filter_map(|(at, _)| name.get(..at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_as_llvm_looks_intrinsics_up() {
        let names: [&[u8]; 5] = [
            b"llvm.eh.typeid.for",
            b"llvm.memcpy.p0i8.p0i8.i64",
            b"llvm.memcpy",
            b"llvm.eh.typeid.for.p0",
            b"llvm.not.an.intrinsic",
        ];
        let got = list_numbers(&names, 14);
        // Exact and overloaded names match; a suffix on one that is not overloaded (in 14)
        // and an unknown name do not.
        assert!(got[0].is_some());
        assert!(got[1].is_some());
        assert_eq!(got[1], got[2]);
        assert_eq!(got[3], None);
        assert_eq!(got[4], None);
        // LLVM 19 overloads llvm.eh.typeid.for on its pointer type.
        let got = list_numbers(&names, 19);
        assert!(got[3].is_some());
        // LLVM 22's table has the intrinsics that are not overloaded only.
        assert_eq!(list_numbers(&names, 22), vec![None; 5]);
        let got = list_numbers(&[b"llvm.trap", b"llvm.assume", b"llvm.trap.x"], 22);
        assert!(got[0].is_some() && got[1].is_some() && got[0] != got[1], "{got:?}");
        assert_eq!(got[2], None);
        assert_eq!(list_numbers(&[b"llvm.trap"], 21), vec![None]);
    }
}
