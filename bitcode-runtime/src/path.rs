//! `BlockPath`: where a record stands, the blocks around it as the cursor that read it
//! knows them, carried by every record so that an error found while decoding the record
//! can say where it is without the caller's help.
//!
//! It is one pointer to the cursor's scope stack, copied into each record for nothing; the
//! block ids are gathered only when asked for, which is when an error is built (cold).

use std::fmt;

use crate::cursor::ScopeStack;

/// The blocks enclosing a record, outermost first, as the cursor that read it knows them.
///
/// Cheap to copy (one pointer): the ids are read from the cursor only when asked for. A
/// record built by hand rather than read has [`BlockPath::UNKNOWN`], which has no ids.
#[derive(Clone, Copy, Default)]
pub struct BlockPath<'c> {
    scopes: Option<&'c ScopeStack>,
}

impl<'c> BlockPath<'c> {
    /// No path: for a record that no cursor read (errors about it name no block path).
    pub const UNKNOWN: BlockPath<'static> = BlockPath { scopes: None };

    /// The path of the blocks a cursor is in.
    #[inline(always)]
    pub(crate) fn of(scopes: &'c ScopeStack) -> Self {
        BlockPath { scopes: Some(scopes) }
    }

    /// The ids of the enclosing blocks, outermost first.
    pub fn ids(&self) -> impl Iterator<Item = u32> + 'c {
        self.scopes.into_iter().flat_map(ScopeStack::block_ids)
    }

    /// How many blocks enclose the record (0 when the path is unknown).
    pub fn len(&self) -> usize {
        self.scopes.map_or(0, ScopeStack::len)
    }

    /// True when no block is known to enclose the record.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PartialEq for BlockPath<'_> {
    /// Two paths are equal when they name the same block ids.
    fn eq(&self, other: &Self) -> bool {
        self.ids().eq(other.ids())
    }
}

impl Eq for BlockPath<'_> {}

impl fmt::Debug for BlockPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("BlockPath").field(&self.ids().collect::<Vec<u32>>()).finish()
    }
}
