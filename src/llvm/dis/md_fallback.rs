//! A small stand-in for the metadata model and printer (`module::metadata`,
//! `dis::metadata`) until they land: strings, tuples, values as metadata, named metadata
//! and kinds. A module with other metadata (debug info) is printed with `<unsupported>`
//! nodes. Its API follows the contract of the real one, so swapping it is local to
//! `dis::md`.

use std::collections::HashMap;
use std::fmt::Write;

use bitcode_schema_runtime::decode::Bytes;

use super::names;
use crate::llvm::ir::metadata_block::Record as M;
use crate::llvm::metadata_strings;

/// A node of the arena.
#[derive(Clone, Debug)]
enum Md<'a> {
    String(Bytes<'a>),
    Tuple {
        distinct: bool,
        operands: Vec<Option<u32>>,
    },
    /// A value as metadata: type, value id, function-local.
    Value {
        ty: u32,
        value: u32,
        local: bool,
    },
    /// A node kind this stand-in does not know.
    Unsupported,
}

/// A metadata node of the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MdRef(u32);

/// The module's metadata (stand-in).
#[derive(Debug, Default)]
pub struct Metadata<'a> {
    arena: Vec<Md<'a>>,
    kinds: HashMap<u32, Bytes<'a>>,
    named: Vec<(Bytes<'a>, Vec<MdRef>)>,
    pending_name: Option<Bytes<'a>>,
    global_attachments: HashMap<u32, Vec<(u32, MdRef)>>,
    /// How many ids the module-level block defined.
    module_ids: usize,
    /// For the current function: arena index of each function-level id.
    function_ids: Vec<u32>,
    in_function: bool,
    /// Where the current function's entries start in the arena.
    function_base: usize,
    /// Whether a node kind was met that this stand-in cannot print.
    pub unsupported: bool,
}

/// Prints a value as metadata (`i32 1`, `ptr @g`).
pub trait ValueWriter {
    /// Writes `type value`; `local` for a value of the function being printed.
    fn write_typed_value(&self, out: &mut String, ty: u32, value: u32, local: bool);
}

impl<'a> Metadata<'a> {
    /// A metadata kind.
    pub fn add_kind(&mut self, id: u32, name: Bytes<'a>) {
        self.kinds.insert(id, name);
    }

    /// The name of kind `kind`.
    pub fn kind_name(&self, kind: u32) -> Option<&[u8]> {
        self.kinds.get(&kind).map(|k| &k[..])
    }

    fn push(&mut self, md: Md<'a>) {
        let index = self.arena.len() as u32;
        self.arena.push(md);
        if self.in_function {
            self.function_ids.push(index);
        } else {
            self.module_ids += 1;
        }
    }

    /// A record of a METADATA_BLOCK (module or, between begin and end, function).
    pub fn add_record(&mut self, record: &M<'a>) -> Result<(), String> {
        match record {
            M::Strings(s) => {
                let strings = metadata_strings(s.count, s.offset, s.data).map_err(str::to_string)?;
                for st in strings {
                    self.push(Md::String(Bytes::borrowed(st)));
                }
            }
            M::StringOld(s) => self.push(Md::String(s.string.clone())),
            M::Value(v) => {
                let local = self.in_function;
                self.push(Md::Value { ty: v.r#type.0, value: v.value.0, local })
            }
            M::Node(n) => {
                let operands = n.operands.iter().map(|o| o.map(|o| self.arena_index(o))).collect();
                self.push(Md::Tuple { distinct: false, operands })
            }
            M::DistinctNode(n) => {
                let operands = n.operands.iter().map(|o| o.map(|o| self.arena_index(o))).collect();
                self.push(Md::Tuple { distinct: true, operands })
            }
            M::Name(n) => self.pending_name = Some(n.name.clone()),
            M::NamedNode(n) => {
                let name = self.pending_name.take().ok_or("NAMED_NODE without a NAME")?;
                let nodes = n
                    .nodes
                    .iter()
                    .map(|&id| self.get(u64::from(id)).ok_or("named metadata of an unknown node"));
                let nodes = nodes.collect::<Result<Vec<_>, _>>()?;
                self.named.push((name, nodes));
            }
            M::Kind(k) => self.add_kind(k.kind, k.name.clone()),
            M::GlobalDeclAttachment(g) => {
                let mut list = Vec::new();
                for a in &g.attachments {
                    let node = self.get(u64::from(a.node)).ok_or("an attachment of an unknown node")?;
                    list.push((a.kind, node));
                }
                self.global_attachments.insert(g.value.0, list);
            }
            M::IndexOffset(_) | M::Index(_) | M::Attachment(_) => {}
            _ => {
                self.unsupported = true;
                self.push(Md::Unsupported);
            }
        }
        Ok(())
    }

    /// A function's METADATA_BLOCK begins (ids continue after the module's).
    pub fn begin_function(&mut self) {
        self.in_function = true;
        self.function_ids.clear();
        self.function_base = self.arena.len();
    }

    /// Where bitcode id `id` of the current scope is (or will be) in the arena.
    fn arena_index(&self, id: u32) -> u32 {
        match (id as usize).checked_sub(self.module_ids) {
            Some(local) if self.in_function => (self.function_base + local) as u32,
            _ => id,
        }
    }

    /// The function's metadata ends.
    pub fn end_function(&mut self) {
        self.in_function = false;
        self.function_ids.clear();
    }

    /// Bitcode id `id` in the current scope.
    pub fn get(&self, id: u64) -> Option<MdRef> {
        let id = usize::try_from(id).ok()?;
        if id < self.module_ids {
            return Some(MdRef(id as u32));
        }
        self.function_ids.get(id - self.module_ids).map(|&i| MdRef(i))
    }

    /// A DILocation from a DEBUG_LOC record: not known to the stand-in.
    #[allow(dead_code)] // called once debug locations are numbered
    pub fn debug_loc(&mut self) -> MdRef {
        self.unsupported = true;
        let index = self.arena.len() as u32;
        self.arena.push(Md::Unsupported);
        MdRef(index)
    }

    /// Named metadata in order.
    pub fn named(&self) -> impl Iterator<Item = (&[u8], &[MdRef])> {
        self.named.iter().map(|(n, v)| (&n[..], &v[..]))
    }

    /// Attachments of global value `index` from GLOBAL_DECL_ATTACHMENT.
    pub fn global_attachments(&self, index: u32) -> &[(u32, MdRef)] {
        self.global_attachments.get(&index).map_or(&[], |v| &v[..])
    }

    /// Whether `node` is a node that gets a slot (not a string or value).
    fn is_node(&self, node: MdRef) -> bool {
        matches!(self.arena.get(node.0 as usize), Some(Md::Tuple { .. } | Md::Unsupported))
    }
}

/// Slot numbers of metadata nodes, in the order they are met.
#[derive(Debug, Default)]
pub struct MdSlots {
    slots: HashMap<MdRef, u32>,
    order: Vec<MdRef>,
}

impl MdSlots {
    /// No slots yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Gives `node` the next slot, then its node operands, depth first.
    pub fn number(&mut self, md: &Metadata<'_>, node: MdRef) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if !md.is_node(n) || self.slots.contains_key(&n) {
                continue;
            }
            self.slots.insert(n, self.order.len() as u32);
            self.order.push(n);
            if let Some(Md::Tuple { operands, .. }) = md.arena.get(n.0 as usize) {
                for op in operands.iter().rev().flatten() {
                    if let Some(r) = md.get_any(*op) {
                        stack.push(r);
                    }
                }
            }
        }
    }

    /// Whether no node has a slot.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The slot of `node`.
    pub fn slot(&self, node: MdRef) -> Option<u32> {
        self.slots.get(&node).copied()
    }
}

impl Metadata<'_> {
    /// A node operand (a module-level id: tuples of function blocks are not expected).
    fn get_any(&self, id: u32) -> Option<MdRef> {
        ((id as usize) < self.arena.len()).then_some(MdRef(id))
    }
}

/// Prints metadata.
pub struct MdPrinter<'m, 'a> {
    /// The metadata.
    pub md: &'m Metadata<'a>,
    /// Its slots.
    pub slots: &'m MdSlots,
    /// Prints values.
    pub values: &'m dyn ValueWriter,
}

impl MdPrinter<'_, '_> {
    /// Metadata as an operand: `!5`, `!"str"`, `i32 1`.
    pub fn write_operand(&self, out: &mut String, node: MdRef) {
        match self.md.arena.get(node.0 as usize) {
            Some(Md::String(s)) => {
                out.push_str("!\"");
                names::escaped(out, s);
                out.push('"');
            }
            Some(Md::Value { ty, value, local }) => self.values.write_typed_value(out, *ty, *value, *local),
            Some(Md::Tuple { .. }) | Some(Md::Unsupported) => match self.slots.slot(node) {
                Some(s) => {
                    let _ = write!(out, "!{s}");
                }
                None => out.push_str("<badref>"),
            },
            None => out.push_str("<badref>"),
        }
    }

    /// The `!name = !{...}` lines.
    pub fn write_named(&self, out: &mut String) {
        for (name, nodes) in self.md.named() {
            out.push('!');
            metadata_identifier(out, name);
            out.push_str(" = !{");
            for (i, n) in nodes.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                self.write_operand(out, *n);
            }
            out.push_str("}\n");
        }
    }

    /// The `!N = ...` lines in slot order.
    pub fn write_nodes(&self, out: &mut String) {
        for (slot, node) in self.slots.order.iter().enumerate() {
            let _ = write!(out, "!{slot} = ");
            match self.md.arena.get(node.0 as usize) {
                Some(Md::Tuple { distinct, operands }) => {
                    if *distinct {
                        out.push_str("distinct ");
                    }
                    out.push_str("!{");
                    for (i, op) in operands.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        match op.and_then(|o| self.md.get_any(o)) {
                            Some(r) => self.write_operand(out, r),
                            None => out.push_str("null"),
                        }
                    }
                    out.push('}');
                }
                _ => out.push_str("<unsupported>"),
            }
            out.push('\n');
        }
    }
}

/// A metadata name (`!llvm.module.flags`), escaped where it has other characters.
pub fn metadata_identifier(out: &mut String, name: &[u8]) {
    for (i, &c) in name.iter().enumerate() {
        let ok = c.is_ascii_alphabetic()
            || matches!(c, b'-' | b'$' | b'.' | b'_')
            || (i > 0 && c.is_ascii_digit());
        if ok {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\{c:02X}");
        }
    }
}
