//! Slot numbers of a function's unnamed values and blocks (SlotTracker::processFunction)
//! and each block's predecessors in use-list order.

use super::lists::Lists;
use super::module::for_each_successor;
use crate::llvm::module::FunctionBody;

/// No slot.
const NONE: u32 = u32::MAX;

/// The local numbering of one function.
#[derive(Debug, Default)]
pub struct LocalSlots {
    /// Slots of unnamed arguments and instructions, by local index (value id less the
    /// body's first local id); [`NONE`] for the others.
    values: Vec<u32>,
    /// The body's first local value id.
    first_local: u32,
    /// Slots of unnamed blocks, by block index.
    pub blocks: Vec<Option<u32>>,
    /// Predecessors of each block, as `; preds =` lists them, by block index.
    preds: Lists<u32>,
    /// Scratch of [`fill`](Self::fill), kept from one function to the next: the uses of
    /// each block, its users, and which blocks a blockaddress takes.
    uses: Vec<(u32, u32)>,
    users: Lists<u32>,
    addressed_seen: Vec<bool>,
}

impl LocalSlots {
    /// Numbers `body` (whose first argument has value id `body.first_local`).
    /// `addressed` lists the blocks a blockaddress constant takes: that constant's use is
    /// the block's oldest (it is made before the body is read) and counts in the use list
    /// a USELIST_BB record reorders, though `; preds =` skips it.
    pub fn new(
        body: &FunctionBody<'_>,
        params: usize,
        use_lists: &[(u32, Vec<u64>)],
        addressed: &[u32],
    ) -> Self {
        let mut slots = LocalSlots::default();
        slots.fill(body, params, use_lists, addressed);
        slots
    }

    /// Numbers `body` as [`new`](Self::new) does, in the vectors of the function before.
    pub fn fill(
        &mut self,
        body: &FunctionBody<'_>,
        params: usize,
        use_lists: &[(u32, Vec<u64>)],
        addressed: &[u32],
    ) {
        let mut next = 0u32;
        let values = &mut self.values;
        values.clear();
        values.resize(body.values.len(), NONE);
        let mut number = |id: u32, next: &mut u32| {
            if body.name(id).is_none() {
                if let Some(slot) = values.get_mut(id.wrapping_sub(body.first_local) as usize) {
                    *slot = *next;
                    *next += 1;
                }
            }
        };
        for i in 0..params as u32 {
            number(body.first_local + i, &mut next);
        }
        let blocks = &mut self.blocks;
        blocks.clear();
        for b in &body.blocks {
            if b.name.is_none() {
                blocks.push(Some(next));
                next += 1;
            } else {
                blocks.push(None);
            }
            for inst in body.instructions.get(b.start as usize..b.end as usize).unwrap_or_default() {
                if let Some(id) = inst.value {
                    number(id, &mut next);
                }
            }
        }
        // Uses of each block in the order the reader makes them, as (block, user) pairs;
        // the use list holds them newest first, unless a USELIST_BB record reorders it.
        // Only a block's last instruction, its terminator, names other blocks.
        let uses = &mut self.uses;
        uses.clear();
        let addressed_seen = &mut self.addressed_seen;
        addressed_seen.clear();
        addressed_seen.resize(body.blocks.len(), false);
        for &b in addressed {
            if let Some(seen) = addressed_seen.get_mut(b as usize) {
                if !*seen {
                    *seen = true;
                    uses.push((b, u32::MAX));
                }
            }
        }
        for (bi, b) in body.blocks.iter().enumerate() {
            let Some(last) = b.end.checked_sub(1).filter(|&l| l >= b.start) else { continue };
            let Some(inst) = body.instructions.get(last as usize) else { continue };
            for_each_successor(&inst.op, |dest| {
                if (dest as usize) < body.blocks.len() {
                    uses.push((dest, bi as u32));
                }
            });
        }
        // Grouped by block (a stable sort keeps the reader's order), each group newest first.
        uses.sort_by_key(|&(dest, _)| dest);
        let users = &mut self.users;
        users.clear();
        let mut rest = uses.as_slice();
        for block in 0..body.blocks.len() as u32 {
            let n = rest.iter().take_while(|&&(dest, _)| dest == block).count();
            let (group, after) = rest.split_at(n);
            users.extend(group.iter().rev().map(|&(_, user)| user));
            users.close();
            rest = after;
        }
        for (block, order) in use_lists {
            let list = users.get_mut(*block as usize);
            if order.len() != list.len() {
                continue;
            }
            let mut keyed: Vec<(u64, u32)> = order.iter().copied().zip(list.iter().copied()).collect();
            keyed.sort_by_key(|(k, _)| *k);
            for (slot, (_, user)) in list.iter_mut().zip(keyed) {
                *slot = user;
            }
        }
        // The blockaddress uses count in the order but are no predecessors.
        let preds = &mut self.preds;
        preds.clear();
        for block in 0..body.blocks.len() {
            preds.extend(users.get(block).iter().copied().filter(|&u| u != u32::MAX));
            preds.close();
        }
        self.first_local = body.first_local;
    }

    /// The predecessors of block `block`, as `; preds =` lists them.
    pub fn preds(&self, block: usize) -> &[u32] {
        self.preds.get(block)
    }

    /// The slot of an unnamed argument or instruction result.
    pub fn value(&self, id: u32) -> Option<u32> {
        self.values.get(id.checked_sub(self.first_local)? as usize).copied().filter(|&s| s != NONE)
    }
}
