//! Uniqued DILocations: a FUNC_CODE_DEBUG_LOC record names the same node as an equal
//! uniqued location read before (from METADATA_LOCATION or an earlier DEBUG_LOC), as
//! LLVM's context uniques them.

use super::arena::{Md, MdRef, Metadata};
use super::di::Location;

/// What makes two uniqued locations the same node.
pub(crate) type LocationKey = Location;

/// The hasher of the location table: a multiply-and-rotate mix of each word, much
/// cheaper than SipHash for keys that are a handful of small integers (a module has as
/// many locations as instructions; the table needs no defence against chosen keys).
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.mix(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }
}

/// The location table's map.
pub(crate) type LocationMap =
    std::collections::HashMap<LocationKey, MdRef, std::hash::BuildHasherDefault<WordHasher>>;

impl Metadata<'_> {
    /// Registers a uniqued location read from a METADATA_LOCATION record.
    pub(crate) fn note_location(&mut self, location: Location, md: MdRef) {
        self.locations.entry(location).or_insert(md);
    }

    /// The DILocation a DEBUG_LOC record makes: the uniqued node equal to it, made now if
    /// none was read or made before.
    pub fn debug_loc(
        &mut self,
        line: u32,
        col: u32,
        scope: MdRef,
        inlined_at: Option<MdRef>,
        implicit_code: bool,
    ) -> MdRef {
        let location = Location {
            line,
            column: col,
            scope: Some(scope),
            inlined_at,
            implicit_code,
            atom_group: 0,
            atom_rank: 0,
        };
        if let Some(&md) = self.locations.get(&location) {
            return md;
        }
        let md = MdRef(self.entries.len() as u32);
        self.entries.push(Md::Location { distinct: false, location });
        self.locations.insert(location, md);
        md
    }
}
