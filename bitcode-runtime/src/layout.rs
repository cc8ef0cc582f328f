//! Choosing one of a record's layouts: by the format version, and among the layouts that
//! also name an operand count (an old form told apart by its length, as LLVM's reader
//! tells it), by that count first.

/// When one layout of a record applies, as the generated code lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutRange {
    /// Format versions, half-open `[start, end)`.
    pub versions: (u64, u64),
    /// Operand counts, half-open `[start, end)`; `None` for a layout of any count.
    pub operands: Option<(u64, u64)>,
}

impl LayoutRange {
    /// A layout of the versions `[start, end)`, of any operand count.
    pub const fn new(start: u64, end: u64) -> Self {
        LayoutRange { versions: (start, end), operands: None }
    }

    /// The same layout, only for operand counts in `[start, end)`.
    pub const fn with_operands(self, start: u64, end: u64) -> Self {
        LayoutRange { operands: Some((start, end)), ..self }
    }

    fn has_version(&self, version: u64) -> bool {
        self.versions.0 <= version && version < self.versions.1
    }
}

/// The index of the layout for `version`: the first layout of that version that names an
/// operand count and `takes` (given its index and count range), else the first of that
/// version that names none.
pub fn pick(
    layouts: &[LayoutRange],
    version: u64,
    takes: impl Fn(usize, (u64, u64)) -> bool,
) -> Option<usize> {
    let by_count = layouts
        .iter()
        .enumerate()
        .position(|(i, l)| l.has_version(version) && l.operands.is_some_and(|counts| takes(i, counts)));
    by_count.or_else(|| layouts.iter().position(|l| l.has_version(version) && l.operands.is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_of_an_operand_count_goes_first_where_the_count_matches() {
        let layouts = [LayoutRange::new(0, u64::MAX), LayoutRange::new(0, 3).with_operands(5, 6)];
        let count = |n: u64| move |_: usize, (lo, hi): (u64, u64)| lo <= n && n < hi;
        assert_eq!(pick(&layouts, 1, count(5)), Some(1));
        assert_eq!(pick(&layouts, 1, count(6)), Some(0));
        assert_eq!(pick(&layouts, 3, count(5)), Some(0), "the counted layout is of versions 0..3 only");
        assert_eq!(pick(&[LayoutRange::new(2, 4)], 1, count(0)), None);
    }
}
