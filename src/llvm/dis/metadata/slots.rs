//! Slot numbers of metadata nodes, as AsmWriter's SlotTracker gives them.

use crate::llvm::module::metadata::{DiNode, Md, MdRef, Metadata};

/// The `!N` numbers of the nodes printed so far, in the order they were first seen.
#[derive(Debug, Default)]
pub struct MdSlots {
    /// By arena index: the slot, or `NONE`.
    slots: Vec<u32>,
    order: Vec<MdRef>,
    stack: Vec<(MdRef, usize)>,
    operands: Vec<MdRef>,
}

/// No slot.
const NONE: u32 = u32::MAX;

impl MdSlots {
    /// No node numbered yet.
    pub fn new() -> Self {
        MdSlots::default()
    }

    /// Numbers `node` if it is a node not numbered yet, then its node operands, depth
    /// first in operand order (SlotTracker::CreateMetadataSlot). Strings, values,
    /// DIExpressions and DIArgLists get no number: they print inline.
    pub fn number(&mut self, md: &Metadata<'_>, node: MdRef) {
        if !self.wants_slot(md, node) {
            return;
        }
        self.assign(node);
        // Iterative, as metadata graphs can be deep: (node, next operand index) pairs, the
        // operands of each node gathered once into `operands`.
        let start = self.operands.len();
        md.push_operands(node, &mut self.operands);
        self.stack.push((node, start));
        while let Some(&mut (_, ref mut next)) = self.stack.last_mut() {
            let Some(&op) = self.operands.get(*next) else {
                let (_, start) = self.stack.pop().unwrap_or((node, 0));
                self.operands.truncate(start);
                continue;
            };
            *next += 1;
            if self.wants_slot(md, op) {
                self.assign(op);
                let start = self.operands.len();
                md.push_operands(op, &mut self.operands);
                // The new node's operands come after the end of its parent's list: its
                // cursor starts there.
                self.stack.push((op, start));
            }
        }
    }

    /// Whether `node` is a node without a slot that gets one.
    fn wants_slot(&self, md: &Metadata<'_>, node: MdRef) -> bool {
        // Most nodes met are numbered already: the slot table is looked at before the
        // arena.
        self.slot(node).is_none()
            && match md.entry(node) {
                Some(Md::Tuple { .. } | Md::Location { .. }) => true,
                Some(Md::Di { node, .. }) => !matches!(**node, DiNode::Expression(_) | DiNode::ArgList(_)),
                _ => false,
            }
    }

    fn assign(&mut self, node: MdRef) {
        let at = node.index() as usize;
        if self.slots.len() <= at {
            // Only entries of the arena get here: the table grows to the arena's size.
            self.slots.resize(at + 1, NONE);
        }
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = self.order.len() as u32;
        }
        self.order.push(node);
    }

    /// The slot of a numbered node.
    pub fn slot(&self, node: MdRef) -> Option<u32> {
        self.slots.get(node.index() as usize).copied().filter(|&s| s != NONE)
    }

    /// The numbered nodes in slot order.
    pub fn nodes(&self) -> &[MdRef] {
        &self.order
    }
}
