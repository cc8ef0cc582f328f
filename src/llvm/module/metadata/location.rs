//! Uniqued DILocations: a FUNC_CODE_DEBUG_LOC record names the same node as an equal
//! uniqued location read before (from METADATA_LOCATION or an earlier DEBUG_LOC), as
//! LLVM's context uniques them.

use super::arena::{Md, MdRef, Metadata};
use super::di::Location;

/// What makes two uniqued locations the same node.
pub(crate) type LocationKey = Location;

/// The location table's map.
/// (a module has as many locations as instructions: hashed with FxHash, not SipHash; the
/// table needs no defence against chosen keys).
pub(crate) type LocationMap = rustc_hash::FxHashMap<LocationKey, MdRef>;

impl Metadata<'_> {
    /// Registers a uniqued location read from a METADATA_LOCATION record.
    pub(crate) fn note_location(&mut self, location: Location, md: MdRef) {
        self.locations.entry(location).or_insert(md);
    }

    /// The DILocation a DEBUG_LOC record makes: the uniqued node equal to `location`, made
    /// now if none was read or made before.
    pub fn debug_loc(&mut self, location: Location) -> MdRef {
        if let Some(&md) = self.locations.get(&location) {
            return md;
        }
        let md = MdRef(self.entries.len() as u32);
        self.entries.push(Md::Location { distinct: false, location });
        self.locations.insert(location, md);
        md
    }
}
