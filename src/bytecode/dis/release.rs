//! Which `llvm-dis` to imitate, and what that release's printer did differently, as data.

/// An LLVM release whose `llvm-dis` output the printer reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Release {
    /// LLVM 1.1 (2003-12).
    V1_1,
    /// LLVM 1.2 (2004-03).
    V1_2,
    /// LLVM 1.3 (2004-08).
    V1_3,
    /// LLVM 1.5 (2005-05).
    V1_5,
    /// LLVM 1.8 (2006-08).
    V1_8,
    /// LLVM 1.9 (2006-11).
    V1_9,
    /// LLVM 2.0 development tree of 2007-05, the last bytecode writer.
    V2_0Dev,
}

impl Release {
    /// Every release, oldest first.
    pub const ALL: [Release; 7] = [
        Release::V1_1,
        Release::V1_2,
        Release::V1_3,
        Release::V1_5,
        Release::V1_8,
        Release::V1_9,
        Release::V2_0Dev,
    ];

    /// The release of a corpus folder name (`llvm11` ... `llvm20dev`).
    pub fn from_folder(folder: &str) -> Option<Release> {
        Release::ALL.into_iter().find(|r| r.folder() == folder)
    }

    /// The corpus folder name of this release.
    pub fn folder(self) -> &'static str {
        match self {
            Release::V1_1 => "llvm11",
            Release::V1_2 => "llvm12",
            Release::V1_3 => "llvm13",
            Release::V1_5 => "llvm15",
            Release::V1_8 => "llvm18",
            Release::V1_9 => "llvm19",
            Release::V2_0Dev => "llvm20dev",
        }
    }
}

/// How `deplibs` are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeplibStyle {
    /// Not printed at all (no target triple either).
    None,
    /// `deplibs = [\n"a",\n"b" ]`.
    OnePerLine,
    /// `deplibs = [ "a", "b" ]`.
    Inline,
}

/// When an all-null aggregate constant prints as `zeroinitializer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ZeroStyle {
    /// Only arrays and structures of more than five elements (1.1).
    MoreThanFive,
    /// Always: constructing one folded it to a ConstantAggregateZero (1.2 and later).
    Always,
}

/// How unnamed values are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotStyle {
    /// One counter per type; function values continue after module values of that type.
    PerType,
    /// One counter for unnamed globals (`@N`), one per function (`%N`).
    Unified,
}

/// Which non-C calling conventions have names; others print as `ccN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CallingConvNames {
    /// Conventions are printed at all (1.5 and later).
    pub printed: bool,
    /// `csretcc` (number 1) exists.
    pub csret: bool,
    /// `x86_stdcallcc` and `x86_fastcallcc` (64, 65) exist.
    pub x86: bool,
}

/// The switches that make one release's printer differ from another's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flavor {
    /// `; ModuleID = '...'` first line.
    pub module_id: bool,
    /// `target endian` / `target pointersize` lines.
    pub endian_pointersize: bool,
    /// `target datalayout` line.
    pub data_layout: bool,
    /// `deplibs` (and `target triple` with them).
    pub deplibs: DeplibStyle,
    /// `module asm` lines.
    pub module_asm: bool,
    /// `implementation   ; Functions:` between globals and functions.
    pub implementation_line: bool,
    /// `define` before function bodies, `@` before global names (2.0dev syntax).
    pub new_syntax: bool,
    /// Floating-point constants always print as hex bits (the decimal form never parsed).
    pub hex_floats_only: bool,
    /// When aggregates of nulls print as `zeroinitializer`.
    pub zero: ZeroStyle,
    /// A global used in a constant is a constant object of its own (ConstantPointerRef).
    pub pointer_refs: bool,
    /// Such a reference prints with two spaces before the name (1.2).
    pub pointer_ref_extra_space: bool,
    /// Only sbyte arrays with no negative element print as strings.
    pub strings_need_nonnegative_sbytes: bool,
    /// Structure constants of more than two fields span several lines.
    pub multiline_structs: bool,
    /// Named pointer-to-primitive types print as their name (else structurally).
    pub name_pointers_to_primitives: bool,
    /// Numbering of unnamed values.
    pub slots: SlotStyle,
    /// `; preds =` lists predecessors last-use-first (uses were prepended).
    pub preds_reversed: bool,
    /// Calling convention spellings.
    pub calling_convs: CallingConvNames,
    /// `tail call`.
    pub tail_calls: bool,
    /// Labels of named blocks are quoted when needed.
    pub quote_labels: bool,
    /// Local names that clash with a global of the same type get `_N` (renameLocalSymbols).
    pub rename_locals: bool,
    /// `select` prints every operand's type.
    pub select_all_types: bool,
    /// `store` prints every operand's type.
    pub store_all_types: bool,
    /// `shufflevector` prints every operand's type.
    pub shuffle_all_types: bool,
    /// Shifts print every operand's type.
    pub shift_all_types: bool,
    /// `, align N` on malloc/alloca.
    pub alloc_align: bool,
    /// `, align N` on load/store.
    pub load_store_align: bool,
    /// Section and alignment of globals and functions.
    pub sections: bool,
    /// A malloc/alloca count is "no count" for any integer 1, not only `uint 1`.
    pub any_int_one_is_unit: bool,
    /// `va_arg` rather than `vaarg`.
    pub va_arg_underscore: bool,
    /// `unwind` rather than `except` in invoke.
    pub invoke_unwind_word: bool,
}

impl Flavor {
    /// The switches of `release`.
    pub fn of(release: Release) -> Flavor {
        let at_least = |r: Release| rank(release) >= rank(r);
        Flavor {
            module_id: at_least(Release::V1_5),
            endian_pointersize: release != Release::V2_0Dev,
            data_layout: at_least(Release::V1_9),
            deplibs: if at_least(Release::V1_5) {
                DeplibStyle::Inline
            } else if at_least(Release::V1_3) {
                DeplibStyle::OnePerLine
            } else {
                DeplibStyle::None
            },
            module_asm: at_least(Release::V1_8),
            implementation_line: release != Release::V2_0Dev,
            new_syntax: release == Release::V2_0Dev,
            hex_floats_only: !at_least(Release::V1_5),
            zero: if at_least(Release::V1_2) { ZeroStyle::Always } else { ZeroStyle::MoreThanFive },
            pointer_refs: !at_least(Release::V1_3),
            pointer_ref_extra_space: release == Release::V1_2,
            strings_need_nonnegative_sbytes: !at_least(Release::V1_8),
            multiline_structs: at_least(Release::V1_8),
            name_pointers_to_primitives: release == Release::V2_0Dev,
            slots: if release == Release::V2_0Dev { SlotStyle::Unified } else { SlotStyle::PerType },
            preds_reversed: at_least(Release::V1_5),
            calling_convs: CallingConvNames {
                printed: at_least(Release::V1_5),
                csret: matches!(release, Release::V1_8 | Release::V1_9),
                x86: at_least(Release::V1_9),
            },
            tail_calls: at_least(Release::V1_5),
            quote_labels: at_least(Release::V1_5),
            rename_locals: at_least(Release::V1_5) && release != Release::V2_0Dev,
            select_all_types: at_least(Release::V1_2),
            store_all_types: at_least(Release::V1_5),
            shuffle_all_types: at_least(Release::V1_8),
            shift_all_types: release != Release::V2_0Dev,
            alloc_align: at_least(Release::V1_8),
            load_store_align: release == Release::V2_0Dev,
            sections: at_least(Release::V1_8),
            any_int_one_is_unit: at_least(Release::V1_9),
            va_arg_underscore: at_least(Release::V1_8),
            invoke_unwind_word: at_least(Release::V1_2),
        }
    }
}

fn rank(release: Release) -> usize {
    Release::ALL.iter().position(|r| *r == release).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_round_trip() {
        for r in Release::ALL {
            assert_eq!(Release::from_folder(r.folder()), Some(r));
        }
    }

    #[test]
    fn eras_differ_where_expected() {
        assert!(!Flavor::of(Release::V1_3).module_id);
        assert!(Flavor::of(Release::V1_5).module_id);
        assert!(Flavor::of(Release::V1_1).pointer_refs);
        assert!(!Flavor::of(Release::V1_3).pointer_refs);
        assert_eq!(Flavor::of(Release::V2_0Dev).slots, SlotStyle::Unified);
    }
}
