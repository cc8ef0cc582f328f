//! The BLOCKINFO block's contents: abbreviations and names for blocks by id, shared by
//! every later block with that id.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::abbrev::Abbrev;

/// BLOCKINFO record codes.
pub mod codes {
    /// SETBID: \[block id\] — later records describe this block id.
    pub const SETBID: u32 = 1;
    /// BLOCKNAME: \[name bytes...\]
    pub const BLOCKNAME: u32 = 2;
    /// SETRECORDNAME: \[record code, name bytes...\]
    pub const SETRECORDNAME: u32 = 3;
}

/// What BLOCKINFO says about one block id.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct BlockInfo {
    /// The block's name (BLOCKNAME), if given.
    pub name: Option<String>,
    /// Record names (SETRECORDNAME) by code; the first name given for a code wins.
    pub record_names: BTreeMap<u32, String>,
    /// Abbreviations every block with this id starts with (ids 4, 5, ...).
    pub abbrevs: Arc<[Abbrev]>,
}

/// Ids below this are looked up in an array; others (rare) in a map.
const DENSE_IDS: usize = 64;

/// Everything one BLOCKINFO block declared. A later BLOCKINFO block replaces it entirely,
/// as in LLVM's reader.
#[derive(Clone, Debug, Default)]
pub struct BlockInfoStore {
    dense: Vec<Option<BlockInfo>>,
    sparse: BTreeMap<u32, BlockInfo>,
}

impl BlockInfoStore {
    /// What is known about `block_id`, if anything.
    #[inline]
    pub fn get(&self, block_id: u32) -> Option<&BlockInfo> {
        match self.dense.get(block_id as usize) {
            Some(entry) => entry.as_ref(),
            None if (block_id as usize) < DENSE_IDS => None,
            None => self.sparse.get(&block_id),
        }
    }

    /// The BLOCKNAME of `block_id`, if the stream gave one.
    pub fn block_name(&self, block_id: u32) -> Option<&str> {
        self.get(block_id)?.name.as_deref()
    }

    /// The SETRECORDNAME of record `code` in block `block_id`, if the stream gave one.
    pub fn record_name(&self, block_id: u32, code: u32) -> Option<&str> {
        self.get(block_id)?.record_names.get(&code).map(String::as_str)
    }

    /// True when nothing has been declared.
    pub fn is_empty(&self) -> bool {
        self.dense.iter().all(Option::is_none) && self.sparse.is_empty()
    }

    /// The block ids that have entries, in increasing order.
    pub fn block_ids(&self) -> impl Iterator<Item = u32> + '_ {
        let dense = self.dense.iter().enumerate().filter(|(_, e)| e.is_some()).map(|(id, _)| id as u32);
        dense.chain(self.sparse.keys().copied())
    }

    fn entry(&mut self, block_id: u32) -> &mut BlockInfo {
        let index = block_id as usize;
        if index < DENSE_IDS {
            if self.dense.len() <= index {
                self.dense.resize_with(index + 1, || None);
            }
            if let Some(slot) = self.dense.get_mut(index) {
                return slot.get_or_insert_with(BlockInfo::default);
            }
        }
        self.sparse.entry(block_id).or_default()
    }
}

/// One block id's entry while its BLOCKINFO block is being read.
#[derive(Clone, Debug, Default)]
struct PendingEntry {
    name: Option<String>,
    record_names: BTreeMap<u32, String>,
    abbrevs: Vec<Abbrev>,
}

/// Collects a BLOCKINFO block as its records stream past.
#[derive(Clone, Debug, Default)]
pub(crate) struct BlockInfoBuilder {
    current: Option<u32>,
    entries: BTreeMap<u32, PendingEntry>,
}

impl BlockInfoBuilder {
    pub(crate) fn has_current(&self) -> bool {
        self.current.is_some()
    }

    pub(crate) fn set_bid(&mut self, block_id: u32) {
        self.current = Some(block_id);
        self.entries.entry(block_id).or_default();
    }

    fn current(&mut self) -> Option<&mut PendingEntry> {
        let id = self.current?;
        self.entries.get_mut(&id)
    }

    /// Returns false when there is no SETBID yet.
    pub(crate) fn add_abbrev(&mut self, abbrev: Abbrev) -> bool {
        self.current().map(|e| e.abbrevs.push(abbrev)).is_some()
    }

    /// How many abbreviations the block id of the last SETBID has so far.
    pub(crate) fn current_abbrev_count(&mut self) -> usize {
        self.current().map_or(0, |e| e.abbrevs.len())
    }

    pub(crate) fn set_block_name(&mut self, name: String) -> bool {
        self.current().map(|e| e.name = Some(name)).is_some()
    }

    pub(crate) fn set_record_name(&mut self, code: u32, name: String) -> bool {
        self.current().map(|e| _ = e.record_names.entry(code).or_insert(name)).is_some()
    }

    pub(crate) fn finish(self) -> BlockInfoStore {
        let mut store = BlockInfoStore::default();
        for (id, e) in self.entries {
            // An empty BLOCKNAME names nothing, as in LLVM.
            let name = e.name.filter(|n| !n.is_empty());
            *store.entry(id) = BlockInfo { name, record_names: e.record_names, abbrevs: e.abbrevs.into() };
        }
        store
    }
}

/// Turns record operands into a name (each operand is one byte, as LLVM takes them).
pub(crate) fn name_from_ops(ops: &[u64]) -> String {
    let bytes: Vec<u8> = ops.iter().map(|&v| v as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
