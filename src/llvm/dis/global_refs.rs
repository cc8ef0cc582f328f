//! How each global value is referred to (`@name`, `@"quoted name"` or `@N`), written
//! once for the module: every call names its callee, and rustc's mangled names are long.

use std::ops::Range;

use super::names;
use super::text::push_tagged;
use crate::llvm::module::{Module, ValueRef};

/// The reference text of every global value, by value id.
#[derive(Default)]
pub(super) struct GlobalRefs {
    /// Every reference, one after another.
    text: String,
    /// Where each value's reference is in `text`, by value id (empty for a value that is
    /// not a global).
    spans: Vec<Range<u32>>,
}

impl GlobalRefs {
    /// Writes the reference of each global value of `m`: its name, or for an unnamed one
    /// its slot, numbered as SlotTracker numbers them (variables, aliases, ifuncs, then
    /// functions).
    pub fn new(m: &Module<'_>) -> Self {
        let mut refs = GlobalRefs { text: String::new(), spans: vec![0..0; m.values.len()] };
        let commons = (m.globals.iter().map(|g| &g.common))
            .chain(m.aliases.iter().map(|a| &a.common))
            .chain(m.ifuncs.iter().map(|i| &i.common))
            .chain(m.functions.iter().map(|f| &f.common));
        let mut unnamed = 0u32;
        for c in commons {
            let start = refs.text.len() as u32;
            if c.name.is_empty() {
                push_tagged(&mut refs.text, "@", unnamed);
                unnamed += 1;
            } else {
                names::name(&mut refs.text, '@', &c.name);
            }
            if let Some(span) = refs.spans.get_mut(c.value_id as usize) {
                *span = start..refs.text.len() as u32;
            }
        }
        refs
    }

    /// Appends the reference of global value `id` (`@<badref>` for another value).
    pub fn write(&self, out: &mut String, id: ValueRef) {
        let text = self
            .spans
            .get(id as usize)
            .filter(|s| !s.is_empty())
            .and_then(|s| self.text.get(s.start as usize..s.end as usize));
        out.push_str(text.unwrap_or("@<badref>"));
    }
}
