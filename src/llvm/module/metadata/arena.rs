//! The arena of metadata entries and the id maps and tables around it.

use rustc_hash::FxHashMap;
use std::borrow::Cow;

use super::di::{DiNode, Location};
use super::location::LocationMap;

/// A string, node or value-as-metadata in a [`Metadata`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MdRef(pub(crate) u32);

impl MdRef {
    /// The entry's index in its arena.
    pub fn index(self) -> u32 {
        self.0
    }
}

/// One entry of the arena.
#[derive(Clone, Debug, PartialEq)]
pub enum Md<'a> {
    /// An MDString.
    String(Cow<'a, [u8]>),
    /// A value wrapped as metadata: its type and value ids, and for a value of a
    /// function-level block the ordinal of that function (its ids are in the function's
    /// numbering, as for LocalAsMetadata).
    Value {
        /// The value's type id.
        ty: u32,
        /// The value id.
        value: u32,
        /// The function whose METADATA_BLOCK held the record (0 for the first body).
        function: Option<u32>,
    },
    /// A generic tuple `!{...}`; `None` operands print as `null`.
    Tuple {
        /// Whether it is `distinct`.
        distinct: bool,
        /// The operands.
        operands: Box<[Option<MdRef>]>,
    },
    /// A DILocation: most of the nodes of a module with debug info, so kept here rather
    /// than in a [`DiNode`] box sized for the largest node kind.
    Location {
        /// Whether it is `distinct`.
        distinct: bool,
        /// The location.
        location: Location,
    },
    /// A debug-info node.
    Di {
        /// Whether it is `distinct`.
        distinct: bool,
        /// The node.
        node: Box<DiNode>,
    },
}

/// A named metadata node: its name and operands.
pub(crate) type NamedNode = (Box<[u8]>, Box<[MdRef]>);

/// Every metadata entry of a module, and its kinds, named metadata and global
/// attachments.
#[derive(Debug, Default)]
pub struct Metadata<'a> {
    pub(crate) entries: Vec<Md<'a>>,
    /// How many ids the module-level block defined (fixed at the first function).
    pub(crate) module_ids: Option<u32>,
    /// Where the current function's ids start in the arena.
    pub(crate) function_base: u32,
    /// How many ids the current function block defined so far.
    pub(crate) function_ids: u32,
    /// The ordinal of the current function body, counting from 0.
    pub(crate) function: Option<u32>,
    pub(crate) functions_begun: u32,
    pub(crate) kinds: FxHashMap<u32, Box<[u8]>>,
    pub(crate) named: Vec<NamedNode>,
    /// The name of a NAME record waiting for its NAMED_NODE.
    pub(crate) pending_name: Option<Box<[u8]>>,
    pub(crate) global_attachments: FxHashMap<u32, Vec<(u32, MdRef)>>,
    pub(crate) locations: LocationMap,
}

impl<'a> Metadata<'a> {
    /// No metadata yet.
    pub fn new() -> Self {
        Metadata::default()
    }

    /// A metadata kind (METADATA_KIND record): `id` is what attachments use.
    pub fn add_kind(&mut self, id: u32, name: &[u8]) {
        self.kinds.insert(id, name.into());
    }

    /// The name of an attachment kind (`dbg`, `tbaa`...).
    pub fn kind_name(&self, kind: u32) -> Option<&[u8]> {
        self.kinds.get(&kind).map(|n| &n[..])
    }

    /// Starts a function-level METADATA_BLOCK scope: ids go on after the module's.
    pub fn begin_function(&mut self) {
        if self.module_ids.is_none() {
            self.module_ids = Some(self.entries.len() as u32);
        }
        self.function_base = self.entries.len() as u32;
        self.function_ids = 0;
        self.function = Some(self.functions_begun);
        self.functions_begun += 1;
    }

    /// The type and value ids of the current function block's values (in that function's
    /// numbering).
    pub fn function_values(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let from = if self.function.is_some() { self.function_base as usize } else { self.entries.len() };
        self.entries.get(from..).unwrap_or_default().iter().filter_map(|e| match e {
            Md::Value { ty, value, function: Some(_) } => Some((*ty, *value)),
            _ => None,
        })
    }

    /// Ends the function scope: its ids no longer resolve, its entries stay.
    pub fn end_function(&mut self) {
        self.function = None;
        self.function_ids = 0;
    }

    /// The arena entry a bitcode metadata id names in the current scope (it may not be
    /// defined yet: forward references map to where the entry will be).
    pub(crate) fn map_id(&self, id: u64) -> Option<MdRef> {
        let id = u32::try_from(id).ok()?;
        match (self.module_ids, self.function) {
            (Some(module), Some(_)) if id >= module => self.function_base.checked_add(id - module).map(MdRef),
            _ => Some(MdRef(id)),
        }
    }

    /// The entry for a bitcode metadata id in the current scope, if defined.
    pub fn get(&self, id: u64) -> Option<MdRef> {
        let md = self.map_id(id)?;
        self.entries.get(md.0 as usize).map(|_| md)
    }

    /// The entry behind a reference.
    pub fn entry(&self, md: MdRef) -> Option<&Md<'a>> {
        self.entries.get(md.0 as usize)
    }

    /// The bytes of a string entry (None for anything else).
    pub fn string(&self, md: MdRef) -> Option<&[u8]> {
        match self.entry(md)? {
            Md::String(s) => Some(s),
            _ => None,
        }
    }

    /// How many entries the arena holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Appends the node operands of `node` to `out`, in LLVM's operand order (strings
    /// included; nothing for a string or a value).
    pub fn push_operands(&self, node: MdRef, out: &mut Vec<MdRef>) {
        match self.entry(node) {
            Some(Md::Tuple { operands, .. }) => out.extend(operands.iter().flatten()),
            Some(Md::Di { node, .. }) => node.operands(|op| out.push(op)),
            Some(Md::Location { location, .. }) => location.operands(|op| out.push(op)),
            _ => {}
        }
    }

    /// Named metadata in order: names and their nodes.
    pub fn named(&self) -> impl Iterator<Item = (&[u8], &[MdRef])> {
        self.named.iter().map(|(n, ops)| (&n[..], &ops[..]))
    }

    /// Attachments of a global variable or function declaration (GLOBAL_DECL_ATTACHMENT),
    /// by its value index: (kind, node) pairs in record order.
    pub fn global_attachments(&self, global_value_index: u32) -> &[(u32, MdRef)] {
        self.global_attachments.get(&global_value_index).map_or(&[], |v| &v[..])
    }

    /// Defines the next id of the current block as `md`. Fails when the id is taken (a
    /// function-level record after the function's debug locations were made).
    pub(crate) fn push(&mut self, md: Md<'a>) -> Result<MdRef, String> {
        let at = match self.function {
            Some(_) => {
                let at = self.function_base + self.function_ids;
                self.function_ids += 1;
                at
            }
            None => self.entries.len() as u32,
        };
        if at as usize != self.entries.len() {
            return Err(format!("metadata id {} defined after other metadata of the function", at));
        }
        self.entries.push(md);
        Ok(MdRef(at))
    }
}
