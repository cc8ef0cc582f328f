//! Many short lists kept one after another in one vector: a function's block predecessors,
//! its instructions' attachments. One allocation, kept from one function to the next,
//! instead of a vector per list.

use std::ops::Range;

/// Lists of `T`, each closed in turn and found by its index.
#[derive(Debug)]
pub struct Lists<T> {
    items: Vec<T>,
    /// Where each closed list ends in `items` (each begins where the one before ends).
    ends: Vec<u32>,
}

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists { items: Vec::new(), ends: Vec::new() }
    }
}

/// The span of list `index` when list `i` ends at `ends[i]` and the first begins at 0.
pub(super) fn span(ends: &[u32], index: usize) -> Option<Range<usize>> {
    let start = match index.checked_sub(1) {
        Some(before) => *ends.get(before)?,
        None => 0,
    };
    Some(start as usize..*ends.get(index)? as usize)
}

impl<T> Lists<T> {
    /// Drops every list, keeping the memory.
    pub fn clear(&mut self) {
        self.items.clear();
        self.ends.clear();
    }

    /// Adds `items` to the list not closed yet.
    pub fn extend(&mut self, items: impl IntoIterator<Item = T>) {
        self.items.extend(items);
    }

    /// The items of the list not closed yet.
    pub fn open(&mut self) -> &mut [T] {
        let start = self.ends.last().copied().unwrap_or(0) as usize;
        self.items.get_mut(start..).unwrap_or_default()
    }

    /// Closes the list being added to; the next item begins a new one.
    pub fn close(&mut self) {
        self.ends.push(self.items.len() as u32);
    }

    /// List `index` (empty when there is no such list).
    pub fn get(&self, index: usize) -> &[T] {
        span(&self.ends, index).and_then(|s| self.items.get(s)).unwrap_or_default()
    }

    /// List `index`, to change in place (empty when there is no such list).
    pub fn get_mut(&mut self, index: usize) -> &mut [T] {
        span(&self.ends, index).and_then(|s| self.items.get_mut(s)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::Lists;

    #[test]
    fn lists_are_found_by_index_empty_ones_included() {
        let mut lists = Lists::default();
        lists.extend([3, 1, 2]);
        lists.open().sort();
        lists.close();
        lists.close();
        lists.extend([9]);
        lists.close();
        assert_eq!(lists.get(0), [1, 2, 3]);
        assert!(lists.get(1).is_empty());
        assert_eq!(lists.get(2), [9]);
        assert!(lists.get(3).is_empty(), "no such list");
        lists.get_mut(0).reverse();
        assert_eq!(lists.get(0), [3, 2, 1]);
        lists.clear();
        assert!(lists.get(0).is_empty());
    }
}
