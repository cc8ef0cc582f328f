//! A module's global values — global variables, functions, aliases, ifuncs — with the
//! properties `ll-symbols` prints, read from the module's records alone: function bodies
//! and every other sub-block are skipped by their length.
//!
//! Names come from the string table (module version 2) or from the module-level value
//! symbol table (versions 0 and 1). A file may hold several modules (`llvm-cat`), each
//! named by the string table that follows it, as LLVM's reader pairs them: a top-level
//! STRTAB block serves every module before it that has none yet (`llvm-cat -b` writes one
//! after each module, `llvm-cat` one after all of them). The reader's upgrades of old records are applied: DLL
//! storage from the obsolete dllimport/dllexport linkages, default visibility and DLL
//! storage for local linkage, dso_local implied by linkage and visibility.

use bitcode_schema_runtime::decode::Bytes;
use bitcode_schema_runtime::{Bitstream, Entry, Result};

use super::ir::{module_block, strtab_block, value_symtab_block};
use super::ir::{CallingConv, DllStorage, Linkage, Preemption, ThreadLocal, UnnamedAddr, Visibility};
use super::LlvmContext;

/// What a global value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SymbolKind {
    /// An alias.
    Alias,
    /// A function (declared or defined).
    Function,
    /// A global variable.
    Global,
    /// An ifunc.
    Ifunc,
}

impl SymbolKind {
    /// The spelling `ll-symbols` uses.
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Alias => "alias",
            SymbolKind::Function => "function",
            SymbolKind::Global => "global",
            SymbolKind::Ifunc => "ifunc",
        }
    }
}

/// One global value and its properties. Fields that do not apply to a kind are `None`.
/// Names borrow the input's string table where they come from it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Symbol<'a> {
    /// What it is.
    pub kind: SymbolKind,
    /// Its name as bytes (empty for an unnamed value until [`module_symbols`] numbers it).
    pub name: Bytes<'a>,
    /// For functions and globals: a declaration (no body, no initializer).
    pub declaration: Option<bool>,
    /// Linkage.
    pub linkage: Linkage,
    /// Visibility (default for local linkage).
    pub visibility: Visibility,
    /// DLL storage class (default for local linkage).
    pub dll_storage: DllStorage,
    /// For functions: the calling convention.
    pub calling_conv: Option<CallingConv>,
    /// For globals and aliases: the thread-local mode.
    pub thread_local: Option<ThreadLocal>,
    /// unnamed_addr.
    pub unnamed_addr: UnnamedAddr,
    /// dso_local, written or implied.
    pub dso_local: bool,
    /// For globals: constant.
    pub constant: Option<bool>,
    /// For globals: externally initialized.
    pub externally_initialized: Option<bool>,
    /// For functions and globals: the section name.
    pub section: Option<Bytes<'a>>,
    /// For functions and globals: the alignment in bytes.
    pub alignment: Option<u64>,
    /// For functions: the garbage collector name.
    pub gc: Option<Bytes<'a>>,
}

impl Symbol<'_> {
    /// The name as `ll-symbols` prints it: the text when it is UTF-8, else LLVM's escaped
    /// form (printable ASCII but `"` and `\`, `\` as `\\`, other bytes as `\XX`).
    pub fn display_name(&self) -> String {
        display_bytes(&self.name)
    }
}

/// Bytes as `ll-symbols` shows a name or a string.
pub fn display_bytes(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let mut out = String::new();
            for &b in bytes {
                match b {
                    b'\\' => out.push_str("\\\\"),
                    0x20..=0x7e if b != b'"' => out.push(b as char),
                    _ => out.push_str(&format!("\\{b:02X}")),
                }
            }
            out
        }
    }
}

/// True when `bytes` are UTF-8 (ASCII, as most names are, is tested first: faster).
fn is_utf8(bytes: &[u8]) -> bool {
    bytes.is_ascii() || std::str::from_utf8(bytes).is_ok()
}

/// The module being read.
#[derive(Default)]
struct ModuleState<'a> {
    /// The global values in record order, named in `finish`.
    values: Vec<Symbol<'a>>,
    /// Where each value's name is in the string table (version 2 modules).
    strtab_names: Vec<Option<(u64, u64)>>,
    sections: Vec<Bytes<'a>>,
    gcs: Vec<Bytes<'a>>,
    /// Names from the module-level value symbol table, by value id.
    vst_names: Vec<(u64, Bytes<'a>)>,
    /// The string table that names the module (version 2): the first non-empty one after
    /// it (see [`module_symbols`]); empty until that is read.
    strtab: &'a [u8],
}

/// The global values of every module in `stream`, module by module, sorted by kind and
/// name as `ll-symbols` sorts them; unnamed values are named by their slot number. Each
/// module of a multi-module file (`llvm-cat`, `llvm-cat -b`) is named by its own string
/// table: the first top-level STRTAB block after it, as LLVM's reader pairs them.
pub fn module_symbols<'a>(stream: &Bitstream<'a>) -> Result<Vec<Vec<Symbol<'a>>>> {
    Ok(read_modules(stream)?.into_iter().map(|m| sorted(m.named())).collect())
}

/// The global values of every module in `stream` as [`module_symbols`] gives them, but in
/// value order (the order of their records: the module-level value ids 0, 1, ...), as
/// code that edits or numbers the records needs them.
pub fn module_values<'a>(stream: &Bitstream<'a>) -> Result<Vec<Vec<Symbol<'a>>>> {
    Ok(read_modules(stream)?.into_iter().map(ModuleState::named).collect())
}

/// Every module's global values as their records give them, names not yet given.
fn read_modules<'a>(stream: &Bitstream<'a>) -> Result<Vec<ModuleState<'a>>> {
    // A cursor rather than a `Walker`: the records read here need the module's version
    // and nothing else of the value numbering.
    let mut cursor = stream.cursor();
    // Function bodies are skipped by their lengths: hold the lengths to the blocks.
    cursor.check_block_lengths(true);
    let mut ctx = LlvmContext::default();
    let mut modules: Vec<ModuleState> = Vec::new();
    // The blob of the top-level STRTAB block being read (the last one in it counts, as in
    // LLVM's reader), borrowed from the input like every blob.
    let mut strtab: &'a [u8] = &[];
    loop {
        let depth = cursor.depth();
        let block = cursor.current_block();
        let entry = match cursor.next_entry()? {
            Some(entry) => entry,
            None => break,
        };
        let record = match entry {
            Entry::Block(header) => {
                let keep = match (depth + 1, header.id) {
                    (1, module_block::ID) => {
                        modules.push(ModuleState::default());
                        ctx.version = 0;
                        true
                    }
                    (1, strtab_block::ID) => {
                        strtab = &[];
                        true
                    }
                    // Names of version 0 and 1 modules; BLOCKINFO is read by skipping.
                    (2, value_symtab_block::ID) => ctx.version < 2,
                    _ => false,
                };
                if !keep {
                    cursor.skip_block()?;
                }
                continue;
            }
            Entry::EndBlock(strtab_block::ID) if depth == 1 => {
                // The table names every module before it that has none yet: the ones
                // since the last table (LLVM's getBitcodeFileContents pairs them so).
                if !strtab.is_empty() {
                    for module in modules.iter_mut().rev().take_while(|m| m.strtab.is_empty()) {
                        module.strtab = strtab;
                    }
                }
                continue;
            }
            Entry::EndBlock(_) => continue,
            Entry::Record(record) => record,
        };
        let decoded = match block {
            Some(module_block::ID) => {
                let Some(module) = modules.last_mut() else { continue };
                let typed = module_block::Record::decode(&record, &mut ctx);
                // The version the records after it are read with, as the value numbering takes it.
                if let Ok(module_block::Record::Version(v)) = &typed {
                    ctx.version = v.version;
                }
                typed.map(|typed| module.add(typed))
            }
            Some(value_symtab_block::ID) => {
                let Some(module) = modules.last_mut() else { continue };
                value_symtab_block::Record::decode(&record, &mut ctx).map(|typed| match typed {
                    value_symtab_block::Record::Entry(e) => module.vst_names.push((e.value.0.into(), e.name)),
                    value_symtab_block::Record::Fnentry(e) => {
                        module.vst_names.push((e.value.0.into(), e.name))
                    }
                    _ => {}
                })
            }
            Some(strtab_block::ID) => strtab_block::Record::decode(&record, &mut ctx).map(|typed| {
                if let strtab_block::Record::Blob(b) = typed {
                    strtab = b.strtab;
                }
            }),
            _ => Ok(()),
        };
        // A decoder's error names its record's blocks itself.
        decoded?;
    }
    Ok(modules)
}

/// DLL storage as LLVM's reader leaves it: the record's, or where it has none, what the
/// obsolete dllimport and dllexport linkages imply.
fn upgraded_dll_storage(field: Option<DllStorage>, linkage: Linkage) -> DllStorage {
    match (field, linkage) {
        (Some(d), _) => d,
        (None, Linkage::DllimportOld) => DllStorage::Dllimport,
        (None, Linkage::DllexportOld) => DllStorage::Dllexport,
        (None, _) => DllStorage::Default,
    }
}

fn is_local(linkage: Linkage) -> bool {
    matches!(linkage, Linkage::Private | Linkage::Internal)
}

/// dso_local as LLVM's reader sets it: written, or implied by local linkage or by a
/// non-default visibility (but for extern_weak).
fn dso_local(preemption: Preemption, linkage: Linkage, visibility: Visibility) -> bool {
    preemption == Preemption::DsoLocal
        || is_local(linkage)
        || (visibility != Visibility::Default && linkage != Linkage::ExternWeak)
}

impl<'a> Symbol<'a> {
    /// What every global value has: linkage, visibility and DLL storage as LLVM's reader
    /// leaves them (obsolete linkages folded, visibility and DLL storage default for local
    /// linkage), dso_local written or implied. The name comes later; the kind's own fields
    /// are unset.
    fn global_value(
        kind: SymbolKind,
        written: Linkage,
        visibility: Visibility,
        dll_storage: Option<DllStorage>,
        preemption: Preemption,
    ) -> Symbol<'a> {
        let dll_storage = upgraded_dll_storage(dll_storage, written);
        let linkage = written.folded();
        let local = is_local(linkage);
        let visibility = if local { Visibility::Default } else { visibility };
        Symbol {
            kind,
            name: Bytes::default(),
            declaration: None,
            linkage,
            visibility,
            dll_storage: if local { DllStorage::Default } else { dll_storage },
            calling_conv: None,
            thread_local: None,
            unnamed_addr: UnnamedAddr::None,
            dso_local: dso_local(preemption, linkage, visibility),
            constant: None,
            externally_initialized: None,
            section: None,
            alignment: None,
            gc: None,
        }
    }
}

impl<'a> ModuleState<'a> {
    fn add(&mut self, record: module_block::Record<'a>) {
        use module_block::Record as R;
        let strtab = |offset: Option<u64>, size: Option<u64>| offset.zip(size);
        let (symbol, strtab) = match record {
            R::Sectionname(s) => return self.sections.push(s.name),
            R::Gcname(g) => return self.gcs.push(g.name),
            R::GlobalVar(g) => {
                let base = Symbol::global_value(
                    SymbolKind::Global,
                    g.linkage,
                    g.visibility,
                    g.dll_storage,
                    g.preemption,
                );
                let symbol = Symbol {
                    declaration: Some(g.initializer.is_none()),
                    thread_local: Some(g.thread_local),
                    unnamed_addr: g.unnamed_addr,
                    constant: Some(g.flags.is_const),
                    externally_initialized: Some(g.externally_initialized),
                    section: self.section(g.section),
                    alignment: g.align.map(|a| a.bytes()),
                    ..base
                };
                (symbol, strtab(g.strtab_offset, g.strtab_size))
            }
            R::Function(f) => {
                let base = Symbol::global_value(
                    SymbolKind::Function,
                    f.linkage,
                    f.visibility,
                    f.dll_storage,
                    f.preemption,
                );
                let symbol = Symbol {
                    declaration: Some(f.is_proto),
                    calling_conv: Some(f.calling_conv),
                    unnamed_addr: f.unnamed_addr,
                    section: self.section(f.section),
                    alignment: f.align.map(|a| a.bytes()),
                    gc: f.gc.and_then(|i| self.gcs.get(i as usize).cloned()),
                    ..base
                };
                (symbol, strtab(f.strtab_offset, f.strtab_size))
            }
            R::Alias(a) => {
                let base = Symbol::global_value(
                    SymbolKind::Alias,
                    a.linkage,
                    a.visibility,
                    a.dll_storage,
                    a.preemption,
                );
                let symbol =
                    Symbol { thread_local: Some(a.thread_local), unnamed_addr: a.unnamed_addr, ..base };
                (symbol, strtab(a.strtab_offset, a.strtab_size))
            }
            R::AliasOld(a) => {
                let base = Symbol::global_value(
                    SymbolKind::Alias,
                    a.linkage,
                    a.visibility,
                    a.dll_storage,
                    a.preemption,
                );
                let symbol =
                    Symbol { thread_local: Some(a.thread_local), unnamed_addr: a.unnamed_addr, ..base };
                (symbol, strtab(a.strtab_offset, a.strtab_size))
            }
            R::Ifunc(i) => {
                let symbol =
                    Symbol::global_value(SymbolKind::Ifunc, i.linkage, i.visibility, None, i.preemption);
                (symbol, strtab(i.strtab_offset, i.strtab_size))
            }
            _ => return,
        };
        self.values.push(symbol);
        self.strtab_names.push(strtab);
    }

    fn section(&self, index: Option<u32>) -> Option<Bytes<'a>> {
        index.and_then(|i| self.sections.get(i as usize).cloned())
    }

    /// The values in value order, each named (the unnamed ones by their slot numbers).
    // In place: the values of a large module take a megabyte, and every fresh copy of them
    // was as many page faults as pages.
    fn named(self) -> Vec<Symbol<'a>> {
        let ModuleState { mut values, strtab_names, vst_names, strtab, .. } = self;
        // The first name the value symbol table gives each value.
        let mut vst: std::collections::HashMap<u64, Bytes<'a>> = std::collections::HashMap::new();
        for (value, name) in vst_names {
            vst.entry(value).or_insert(name);
        }
        for (id, (symbol, at)) in values.iter_mut().zip(strtab_names).enumerate() {
            symbol.name = match at {
                Some((offset, size)) => usize::try_from(offset)
                    .ok()
                    .zip(usize::try_from(offset.saturating_add(size)).ok())
                    .and_then(|(a, z)| strtab.get(a..z))
                    .map(Bytes::borrowed)
                    .unwrap_or_default(),
                None => vst.remove(&(id as u64)).unwrap_or_default(),
            };
        }
        // Unnamed values get the slots LLVM's writer gives them: globals, aliases, ifuncs,
        // then functions, each in module order.
        let mut slot = 0;
        for kind in [SymbolKind::Global, SymbolKind::Alias, SymbolKind::Ifunc, SymbolKind::Function] {
            for s in values.iter_mut().filter(|s| s.kind == kind && s.name.is_empty()) {
                s.name = slot.to_string().bytes().collect();
                slot += 1;
            }
        }
        values
    }
}

/// `values` sorted as `ll-symbols` sorts them.
fn sorted(mut values: Vec<Symbol<'_>>) -> Vec<Symbol<'_>> {
    // Sorted by kind and shown name. The kinds' derived order is their spellings'
    // (alphabetical), and a UTF-8 name is shown as it is, so its bytes sort as its text;
    // only a name that is not UTF-8 is escaped into a string of its own. The keys
    // borrow the names, and their leading bytes settle most comparisons.
    let escaped: Vec<(usize, String)> = values
        .iter()
        .enumerate()
        .filter(|(_, s)| !is_utf8(&s.name))
        .map(|(i, s)| (i, display_bytes(&s.name)))
        .collect();
    let mut escaped_names = escaped.iter().peekable();
    let mut keyed: Vec<(SymbolKind, u128, &[u8], usize)> = values
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let shown = match escaped_names.next_if(|(at, _)| *at == i) {
                Some((_, text)) => text.as_bytes(),
                None => &s.name,
            };
            (s.kind, leading_bytes(shown), shown, i)
        })
        .collect();
    keyed.sort_unstable();
    let mut order: Vec<usize> = keyed.into_iter().map(|(_, _, _, i)| i).collect();
    apply_order(&mut values, &mut order);
    values
}

/// The first sixteen bytes of `bytes` as a big-endian number, zero-padded: ordered as the
/// bytes are (a shorter name never compares above a longer one it starts), so comparing it
/// first settles most comparisons of a sort without reading the names themselves. (Eight
/// bytes were too few: C names share prefixes such as `sqlite3_`.)
fn leading_bytes(bytes: &[u8]) -> u128 {
    if let Some(first) = bytes.first_chunk::<16>() {
        return u128::from_be_bytes(*first);
    }
    let mut first = [0u8; 16];
    for (to, &from) in first.iter_mut().zip(bytes) {
        *to = from;
    }
    u128::from_be_bytes(first)
}

/// Reorders `items` so that the item at `order[i]` comes `i`th, by swaps along the
/// permutation's cycles (`order` is consumed: every entry ends up as its own index).
fn apply_order<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        // Each cycle is followed once, from its smallest index.
        let mut at = start;
        while let Some(&from) = order.get(at) {
            if from == start {
                break;
            }
            items.swap(at, from);
            if let Some(slot) = order.get_mut(at) {
                *slot = at;
            }
            at = from;
        }
        if let Some(slot) = order.get_mut(at) {
            *slot = at;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_sort_as_their_spellings() {
        let mut kinds = [SymbolKind::Ifunc, SymbolKind::Global, SymbolKind::Function, SymbolKind::Alias];
        let mut spellings = kinds.map(SymbolKind::as_str);
        kinds.sort();
        spellings.sort();
        assert_eq!(kinds.map(SymbolKind::as_str), spellings);
    }

    #[test]
    fn apply_order_puts_each_item_where_the_order_says() {
        // Every permutation of five items.
        let mut perm: Vec<usize> = (0..5).collect();
        let mut count = 0;
        loop {
            let mut items: Vec<char> = "abcde".chars().collect();
            let expected: Vec<char> = perm.iter().map(|&i| items[i]).collect();
            let mut order = perm.clone();
            apply_order(&mut items, &mut order);
            assert_eq!(items, expected, "{perm:?}");
            count += 1;
            // The next permutation in lexicographic order.
            let Some(i) = (0..4).rev().find(|&i| perm[i] < perm[i + 1]) else { break };
            let j = (i + 1..5).rev().find(|&j| perm[j] > perm[i]).unwrap();
            perm.swap(i, j);
            perm[i + 1..].reverse();
        }
        assert_eq!(count, 120);
    }

    /// An external, default-visibility value of `kind`, not yet named.
    fn external(kind: SymbolKind) -> Symbol<'static> {
        let (linkage, visibility) = (Linkage::External, Visibility::Default);
        Symbol::global_value(kind, linkage, visibility, None, Preemption::DsoPreemptable)
    }

    /// A module of `values` named by a module-level value symbol table, value id by value id.
    fn named_by_vst<'a>(values: Vec<Symbol<'a>>, names: &[&'a [u8]]) -> ModuleState<'a> {
        let vst_names = names.iter().enumerate().map(|(id, &n)| (id as u64, Bytes::borrowed(n))).collect();
        ModuleState { strtab_names: vec![None; names.len()], values, vst_names, ..Default::default() }
    }

    #[test]
    fn names_sort_as_they_are_shown() {
        assert!(is_utf8(b"main") && is_utf8("main.\u{3bb}".as_bytes()) && !is_utf8(b"a\xffb"));
        // A name that is not UTF-8 sorts by its escaped form, the others by their bytes;
        // functions come before globals whatever their names.
        let names: [&[u8]; 6] = [b"b", "\u{3bb}".as_bytes(), b"\xff", b"a\\", b"a", b"z"];
        let mut values: Vec<Symbol<'_>> = names.iter().map(|_| external(SymbolKind::Global)).collect();
        values[5] = external(SymbolKind::Function);
        let module = named_by_vst(values, &names);
        let shown: Vec<String> = sorted(module.named()).iter().map(Symbol::display_name).collect();
        // As bytes, 0xff would come last.
        assert_eq!(shown, ["z", "\\FF", "a", "a\\", "b", "\u{3bb}"]);
    }

    #[test]
    fn long_names_sort_past_their_leading_bytes() {
        // Names that agree on the sixteen bytes of the sort key, or differ only by a
        // trailing zero byte (the key pads with zeros), sort as their bytes do.
        let names: [&[u8]; 7] = [
            b"sqlite3_vdbe_exec_b",
            b"sqlite3_vdbe_exec_a",
            b"sqlite3_vdbe_exe",
            b"ab\0",
            b"ab",
            b"sqlite3_vdbe_exec",
            b"sqlite3_vdbe_exec\0",
        ];
        let values = names.iter().map(|_| external(SymbolKind::Global)).collect();
        let module = named_by_vst(values, &names);
        let sorted: Vec<Vec<u8>> = sorted(module.named()).iter().map(|s| s.name.to_vec()).collect();
        let mut expected: Vec<Vec<u8>> = names.iter().map(|n| n.to_vec()).collect();
        expected.sort();
        assert_eq!(sorted, expected);
    }

    /// The (kind, name) pairs of each module of a fixture of tests/data/multimodule.
    fn names_by_module(bytes: &[u8]) -> Vec<Vec<(&'static str, String)>> {
        let stream = Bitstream::new(bytes).expect("a bitstream");
        let modules = module_symbols(&stream).expect("the fixture reads");
        modules.iter().map(|m| m.iter().map(|s| (s.kind.as_str(), s.display_name())).collect()).collect()
    }

    /// What alpha.ll, beta.ll and gamma.ll of tests/data/multimodule define, as
    /// `ll-symbols` lists them.
    fn fixture_modules() -> [Vec<(&'static str, String)>; 3] {
        let list = |pairs: &[(&'static str, &str)]| pairs.iter().map(|&(k, n)| (k, n.to_string())).collect();
        [
            list(&[
                ("function", "alpha_fn"),
                ("function", "helper"),
                ("function", "puts"),
                ("global", ".str"),
                ("global", "alpha_var"),
                ("global", "shared"),
            ]),
            list(&[
                ("alias", "beta_alias"),
                ("function", "beta_function_with_a_long_name"),
                ("function", "helper"),
                ("global", "0"),
                ("global", "a_variable_with_a_longer_name"),
                ("global", "shared"),
            ]),
            list(&[
                ("function", "gamma"),
                ("function", "gamma_resolver"),
                ("global", "gamma_tls"),
                ("ifunc", "gamma_ifunc"),
            ]),
        ]
    }

    #[test]
    fn each_module_of_llvm_cat_b_is_named_by_its_own_string_table() {
        // Issue 18: every module was named from the file's last STRTAB, so alpha's names
        // were slices of beta's table.
        let [alpha, beta, _] = fixture_modules();
        let bytes = include_bytes!("../../tests/data/multimodule/alpha+beta.bc");
        assert_eq!(names_by_module(bytes), [alpha, beta]);
    }

    #[test]
    fn one_string_table_after_several_modules_names_them_all() {
        // `llvm-cat` without -b: both modules, then one STRTAB.
        let [alpha, beta, _] = fixture_modules();
        let bytes = include_bytes!("../../tests/data/multimodule/alpha+beta.shared.bc");
        assert_eq!(names_by_module(bytes), [alpha, beta]);
    }

    #[test]
    fn llvm_cat_b_of_a_multi_module_file_pairs_every_module() {
        // The shared table copied after each of the first two modules, gamma's own last.
        let bytes = include_bytes!("../../tests/data/multimodule/alpha+beta+gamma.bc");
        assert_eq!(names_by_module(bytes), fixture_modules());
    }
}
