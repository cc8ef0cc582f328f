//! How each global value is referred to (`@name`, `@"quoted name"` or `@N`), written
//! once for the module: every call names its callee, and rustc's mangled names are long.

use std::ops::Range;

use super::names;
use super::text::push_tagged;
use crate::llvm::module::{Module, ValueKind, ValueRef};

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
    /// Writes the reference of each global value of `m`: its name, or the slot `slot`
    /// gives an unnamed one (`@<badref>` without).
    pub fn new(m: &Module<'_>, slot: impl Fn(ValueRef) -> Option<u32>) -> Self {
        let mut refs = GlobalRefs::default();
        for (id, value) in m.values.iter().enumerate() {
            let id = id as ValueRef;
            if !matches!(
                value.kind,
                ValueKind::Global(_) | ValueKind::Function(_) | ValueKind::Alias(_) | ValueKind::Ifunc(_)
            ) {
                continue;
            }
            let start = refs.text.len() as u32;
            match m.global_name(id) {
                Some(n) if !n.is_empty() => names::name(&mut refs.text, '@', n),
                _ => match slot(id) {
                    Some(s) => push_tagged(&mut refs.text, "@", s),
                    None => refs.text.push_str("@<badref>"),
                },
            }
            if refs.spans.len() <= id as usize {
                refs.spans.resize(id as usize + 1, 0..0);
            }
            if let Some(span) = refs.spans.get_mut(id as usize) {
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
