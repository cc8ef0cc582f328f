//! The field kinds of the schema language, once: the [`Kind`] enum and the table of their
//! spellings, which drives the loader's parsing (word to kind, the list a typo is matched
//! against, which kinds may be array elements), the diagnostics' spelling of a kind, and,
//! through the same enum with its references resolved, the emitter.
//!
//! A kind refers to other parts of the schema in two ways: to a named item (an enum,
//! flags, a group, a struct) and to an earlier field of the same record (a width, a
//! count). The loaded model holds those references as the names written in the TOML
//! ([`Kind`]); the resolved model (`resolve.rs`) holds an index into its list of items
//! and the field's schema name ([`ResolvedKind`]).

use crate::model::Spanned;

/// What a field's operands mean. `I` is how a reference to a named item is held, `F` how a
/// reference to an earlier field is held.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind<I = Spanned<String>, F = Spanned<String>> {
    /// `u8`, `u16`, `u32`, `u64`: an unsigned value of that many bits.
    Unsigned(u8),
    /// `bool`.
    Bool,
    /// `signed`: signed VBR.
    Signed,
    /// `enum` with `enum = NAME`.
    Enum(I),
    /// `flags` with `flags = NAME`.
    Flags(I),
    /// `value`: an absolute value id.
    Value,
    /// `relative`: a relative value id.
    Relative,
    /// `signed_relative`: a signed relative value id.
    SignedRelative,
    /// `value_type`: a relative value id, then a type id for a forward reference.
    ValueType,
    /// `type`: a type id.
    Type,
    /// `optional_index`: 1-based, 0 = none.
    OptionalIndex,
    /// `align`: log2 + 1, 0 = none.
    Align,
    /// `string`: the rest of the operands as bytes, or the blob.
    String,
    /// `cstring`: bytes up to a 0.
    CString,
    /// `blob`: the record's blob.
    Blob,
    /// `array` with `of = KIND`: elements until the operands run out.
    Array(Box<Spanned<Kind<I, F>>>),
    /// `counted_array` with `of = KIND`: a count, then that many elements; with
    /// `count = FIELD`, the count is that earlier field's value instead of an operand.
    CountedArray(Box<Spanned<Kind<I, F>>>, Option<F>),
    /// `group` with `group = NAME`: groups until the operands run out.
    Group(I),
    /// `struct` with `struct = NAME`, as the element of an array: that struct's fields.
    Struct(I),
    /// `constant_range` with `width = FIELD`: LLVM's encoding of a range of integers of the
    /// bit width an earlier field gives.
    ConstantRange(F),
    /// `call_args`: a call's arguments, fixed parameters then variadic value-type pairs (the
    /// decode context knows how many parameters the called function has).
    CallArgs,
    /// `f32`: a 32-bit IEEE float, a little-endian word (byte framing).
    Float32,
    /// `f64`: a 64-bit IEEE float, a little-endian word (byte framing).
    Float64,
    /// `bytes` with `count = COUNT`: that many bytes (byte framing; the count is an earlier
    /// field, `tag`, or `@query`, with an optional `- N`).
    ByteString(F),
    /// `align32`: padding to the next multiple of 4 bytes of the input; no value (byte
    /// framing).
    Align32,
    /// `blocks`: the blocks that fill the rest of the body, undecoded (byte framing).
    Blocks,
    /// A kind that could not be understood or resolved (a diagnostic was reported); read
    /// and written as a raw `u64`, so that the rest of the schema still compiles.
    Invalid,
}

/// A kind whose references are resolved: an index into the resolved model's enums,
/// flags, groups or structs (the variant says which), and an earlier field's schema name.
pub type ResolvedKind = Kind<usize, String>;

/// Where a kind may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// As a field's kind and as an array's element (`of`).
    Anywhere,
    /// As a field's kind only.
    Field,
    /// As an array's element only.
    Element,
}

/// What a kind's spelling takes besides `kind = "..."`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Nothing.
    Nothing,
    /// The name of an item or of an earlier field, under `key` (`enum = "Linkage"`,
    /// `width = "bits"`); `example` is a placeholder name for the diagnostic that asks for it.
    Name {
        /// The key.
        key: &'static str,
        /// A placeholder for the name.
        example: &'static str,
    },
    /// The element kind, under `of`; `counted` kinds also take `count = FIELD`.
    Element {
        /// True when `count` applies.
        counted: bool,
    },
}

impl Takes {
    /// The keys of a field's table this parameter is given under.
    pub fn keys(self) -> Vec<&'static str> {
        match self {
            Takes::Nothing => Vec::new(),
            Takes::Name { key, .. } => vec![key],
            Takes::Element { counted: false } => vec!["of"],
            Takes::Element { counted: true } => vec!["of", "count"],
        }
    }
}

/// One row of the table: a kind's spelling, what it takes and where it may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spelling {
    /// The word of `kind = "..."`.
    pub word: &'static str,
    /// Its parameter.
    pub takes: Takes,
    /// Where it may be written.
    pub place: Place,
}

/// Builds the table and both directions of it from one list of rows: `word => Variant`,
/// what the variant holds (`(bits)` for a fixed parameter, `["key", "Example"]` for a name,
/// `{of}` or `{of, count}` for an element kind), and where it may be written.
macro_rules! kind_table {
    ($($word:literal => $variant:ident $(($bits:literal))? $([$key:literal, $example:literal])?
        $({$($of:ident),*})? in $place:ident;)*) => {
        /// Every kind, in the order the diagnostics list them.
        pub const SPELLINGS: &[Spelling] = &[
            $(Spelling {
                word: $word,
                takes: kind_table!(@takes [$($key $example)?] {$($($of)*)?}),
                place: Place::$place,
            },)*
        ];

        impl<I, F> Kind<I, F> {
            /// The kind a word that takes nothing spells.
            pub fn plain(word: &str) -> Option<Self> {
                match word {
                    $($word => kind_table!(@plain $variant ($($bits)?) [$($key)?] {$($($of)*)?}),)*
                    _ => None,
                }
            }

            /// The kind a word that takes an element kind spells, with that element (and
            /// the `count` field for a kind that takes one).
            pub fn of(word: &str, element: Box<Spanned<Self>>, count: Option<F>) -> Option<Self> {
                match word {
                    $($word => kind_table!(@element $variant element count {$($($of)*)?}),)*
                    _ => None,
                }
            }

            /// The spelling of the kind (`?` for an invalid one).
            pub fn word(&self) -> &'static str {
                match self {
                    $(kind_table!(@pattern $variant ($($bits)?) [$($key)?] {$($($of)*)?}) => $word,)*
                    // Widths the table does not spell are never loaded.
                    Kind::Unsigned(_) | Kind::Invalid => "?",
                }
            }
        }

        impl<N> Kind<N, N> {
            /// The kind a word that takes a name spells, with that name.
            pub fn named(word: &str, name: N) -> Option<Self> {
                match word {
                    $($word => kind_table!(@named $variant name [$($key)?]),)*
                    _ => None,
                }
            }
        }
    };
    (@takes [] {}) => { Takes::Nothing };
    (@takes [$key:literal $example:literal] {}) => { Takes::Name { key: $key, example: $example } };
    (@takes [] {of}) => { Takes::Element { counted: false } };
    (@takes [] {of count}) => { Takes::Element { counted: true } };
    (@plain $variant:ident () [] {}) => { Some(Kind::$variant) };
    (@plain $variant:ident ($bits:literal) [] {}) => { Some(Kind::$variant($bits)) };
    (@plain $($other:tt)*) => { None };
    (@named $variant:ident $name:ident [$key:literal]) => { Some(Kind::$variant($name)) };
    (@named $($other:tt)*) => { None };
    (@element $variant:ident $element:ident $count:ident {of}) => { Some(Kind::$variant($element)) };
    (@element $variant:ident $element:ident $count:ident {of count}) => {
        Some(Kind::$variant($element, $count))
    };
    (@element $($other:tt)*) => { None };
    (@pattern $variant:ident () [] {}) => { Kind::$variant };
    (@pattern $variant:ident ($bits:literal) [] {}) => { Kind::$variant($bits) };
    (@pattern $variant:ident $($other:tt)*) => { Kind::$variant(..) };
}

kind_table! {
    "u8" => Unsigned(8) in Anywhere;
    "u16" => Unsigned(16) in Anywhere;
    "u32" => Unsigned(32) in Anywhere;
    "u64" => Unsigned(64) in Anywhere;
    "bool" => Bool in Anywhere;
    "signed" => Signed in Anywhere;
    "enum" => Enum["enum", "EnumName"] in Anywhere;
    "flags" => Flags["flags", "FlagsName"] in Anywhere;
    "value" => Value in Anywhere;
    "relative" => Relative in Anywhere;
    "signed_relative" => SignedRelative in Anywhere;
    "value_type" => ValueType in Anywhere;
    "type" => Type in Anywhere;
    "optional_index" => OptionalIndex in Anywhere;
    "align" => Align in Anywhere;
    "string" => String in Field;
    "cstring" => CString in Anywhere;
    "blob" => Blob in Field;
    "array" => Array{of} in Field;
    "counted_array" => CountedArray{of, count} in Field;
    "group" => Group["group", "GroupName"] in Field;
    "struct" => Struct["struct", "StructName"] in Element;
    "constant_range" => ConstantRange["width", "bit_width"] in Anywhere;
    "call_args" => CallArgs in Field;
    "f32" => Float32 in Anywhere;
    "f64" => Float64 in Anywhere;
    "bytes" => ByteString["count", "length"] in Field;
    "align32" => Align32 in Field;
    "blocks" => Blocks in Field;
}

/// The spelling of `word`, if it is a kind.
pub fn spelling(word: &str) -> Option<&'static Spelling> {
    SPELLINGS.iter().find(|s| s.word == word)
}

/// Every kind's word, for typo suggestions and lists in diagnostics.
pub fn words() -> Vec<&'static str> {
    SPELLINGS.iter().map(|s| s.word).collect()
}

/// The words of the kinds a schema of that framing may use (`bytes`: byte framed).
pub fn framing_words(bytes: bool) -> Vec<&'static str> {
    const BYTES_ONLY: &[&str] = &["f32", "f64", "bytes", "align32", "blocks"];
    const BITS_ONLY: &[&str] = &[
        "value",
        "relative",
        "signed_relative",
        "value_type",
        "optional_index",
        "align",
        "cstring",
        "blob",
        "constant_range",
        "call_args",
    ];
    let other = if bytes { BITS_ONLY } else { BYTES_ONLY };
    words().into_iter().filter(|w| !other.contains(w)).collect()
}

impl<I, F> Kind<I, F> {
    /// The row of the table the kind was loaded from (none for an invalid kind).
    pub fn spelling(&self) -> Option<&'static Spelling> {
        spelling(self.word())
    }

    /// True for kinds that take every remaining operand, so no field may follow.
    pub fn takes_rest(&self) -> bool {
        match self {
            // An array of structs takes whole elements only: fields after it read the rest.
            Kind::Array(element) => !matches!(element.value, Kind::Struct(_)),
            Kind::String | Kind::Group(_) | Kind::CallArgs => true,
            _ => false,
        }
    }

    /// True for kinds that read no operand (`blob`, `align32`).
    pub fn takes_no_operand(&self) -> bool {
        matches!(self, Kind::Blob | Kind::Align32)
    }

    /// True for kinds only a byte-framed schema may use.
    pub fn bytes_only(&self) -> bool {
        match self {
            Kind::Float32 | Kind::Float64 | Kind::ByteString(_) | Kind::Align32 | Kind::Blocks => true,
            Kind::Array(e) | Kind::CountedArray(e, _) => e.value.bytes_only(),
            _ => false,
        }
    }

    /// True for kinds only a bitstream schema may use (they read record operands).
    pub fn bits_only(&self) -> bool {
        match self {
            Kind::Value
            | Kind::Relative
            | Kind::SignedRelative
            | Kind::ValueType
            | Kind::OptionalIndex
            | Kind::Align
            | Kind::CString
            | Kind::Blob
            | Kind::ConstantRange(_)
            | Kind::CallArgs => true,
            Kind::Array(e) | Kind::CountedArray(e, _) => e.value.bits_only(),
            _ => false,
        }
    }

    /// True for kinds whose Rust type is already an `Option`.
    pub fn is_option(&self) -> bool {
        matches!(self, Kind::OptionalIndex | Kind::Align)
    }

    /// True for kinds whose reader needs the decode context.
    pub fn needs_ctx(&self) -> bool {
        match self {
            Kind::Relative
            | Kind::SignedRelative
            | Kind::ValueType
            | Kind::String
            | Kind::CString
            | Kind::Group(_)
            | Kind::Struct(_) => true,
            Kind::Array(element) | Kind::CountedArray(element, _) => element.value.needs_ctx(),
            _ => false,
        }
    }

    /// The earlier fields this kind reads (a width, a count).
    pub fn refers_to(&self) -> Vec<&F> {
        match self {
            Kind::ConstantRange(width) => vec![width],
            Kind::CountedArray(element, count) => {
                let mut fields = element.value.refers_to();
                fields.extend(count);
                fields
            }
            Kind::Array(element) => element.value.refers_to(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_spells_its_kind_back() {
        for s in SPELLINGS {
            let name = || Spanned::new("X".to_string(), 0..0);
            let kind: Option<Kind> = match s.takes {
                Takes::Nothing => Kind::plain(s.word),
                Takes::Name { .. } => Kind::named(s.word, name()),
                Takes::Element { .. } => {
                    Kind::of(s.word, Box::new(Spanned::new(Kind::Bool, 0..0)), Some(name()))
                }
            };
            let kind = kind.unwrap_or_else(|| panic!("`{}` builds no kind", s.word));
            assert_eq!(kind.word(), s.word);
            assert_eq!(kind.spelling(), Some(s));
        }
    }

    #[test]
    fn words_are_unique_and_only_their_own_constructor_builds_them() {
        let words = words();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), words.len());
        assert!(Kind::<String, String>::plain("enum").is_none(), "enum takes a name");
        assert!(Kind::named("u8", "X".to_string()).is_none(), "u8 takes nothing");
        assert!(Kind::<String, String>::plain("u33").is_none());
        assert_eq!(Kind::<String, String>::Invalid.word(), "?");
    }
}
