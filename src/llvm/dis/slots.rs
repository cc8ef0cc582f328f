//! Slot numbers of a function's unnamed values and blocks (SlotTracker::processFunction)
//! and each block's predecessors in use-list order.

use crate::llvm::module::{FunctionBody, Op};

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
    /// Predecessors of each block, as `; preds =` lists them.
    pub preds: Vec<Vec<u32>>,
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
        let mut next = 0u32;
        let mut values = vec![NONE; body.values.len()];
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
        let mut blocks = Vec::with_capacity(body.blocks.len());
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
        // Uses of each block in the order the reader makes them; the use list holds them
        // newest first, unless a USELIST_BB record reorders it.
        let mut uses: Vec<Vec<u32>> = vec![Vec::new(); body.blocks.len()];
        for &b in addressed {
            if let Some(u) = uses.get_mut(b as usize) {
                if u.is_empty() {
                    u.push(u32::MAX);
                }
            }
        }
        for (bi, b) in body.blocks.iter().enumerate() {
            for inst in body.instructions.get(b.start as usize..b.end as usize).unwrap_or_default() {
                let mut add = |dest: u32| {
                    if let Some(u) = uses.get_mut(dest as usize) {
                        u.push(bi as u32);
                    }
                };
                match &inst.op {
                    Op::Br { dest, conditional } => {
                        add(*dest);
                        if let Some((_, f)) = conditional {
                            add(*f);
                        }
                    }
                    Op::Switch { default, cases, .. } => {
                        add(*default);
                        for (_, d) in cases {
                            add(*d);
                        }
                    }
                    Op::IndirectBr { dests, .. } => dests.iter().for_each(|d| add(*d)),
                    Op::Invoke { normal, unwind, .. } => {
                        add(*normal);
                        add(*unwind);
                    }
                    Op::CallBr { default, indirect, .. } => {
                        add(*default);
                        indirect.iter().for_each(|d| add(*d));
                    }
                    Op::CleanupRet { unwind: Some(u), .. } => add(*u),
                    Op::CatchRet { successor, .. } => add(*successor),
                    Op::CatchSwitch { handlers, unwind, .. } => {
                        if let Some(u) = unwind {
                            add(*u);
                        }
                        handlers.iter().for_each(|d| add(*d));
                    }
                    _ => {}
                }
            }
        }
        let mut preds: Vec<Vec<u32>> = uses.into_iter().map(|u| u.into_iter().rev().collect()).collect();
        for (block, order) in use_lists {
            let Some(list) = preds.get_mut(*block as usize) else { continue };
            if order.len() != list.len() {
                continue;
            }
            let mut keyed: Vec<(u64, u32)> = order.iter().copied().zip(list.iter().copied()).collect();
            keyed.sort_by_key(|(k, _)| *k);
            *list = keyed.into_iter().map(|(_, b)| b).collect();
        }
        for list in &mut preds {
            list.retain(|b| *b != u32::MAX);
        }
        LocalSlots { values, first_local: body.first_local, blocks, preds }
    }

    /// The slot of an unnamed argument or instruction result.
    pub fn value(&self, id: u32) -> Option<u32> {
        self.values.get(id.checked_sub(self.first_local)? as usize).copied().filter(|&s| s != NONE)
    }
}
