//! Constants: plain values, aggregates, data arrays, constant expressions and inline asm,
//! with their operands as value ids of the table they were read in (module or function).

use super::types::TypeRef;
use crate::llvm::ir::{BinaryOpcode, CastOpcode, CmpPredicate, GepFlags, UnaryOpcode};
use bitcode_schema_runtime::decode::Bytes;

/// A value id: an index into the module's values, or a function's (module values first).
pub type ValueRef = u32;

/// A constant of some type (the type is kept beside it, in [`Value`](super::values::Value)).
#[derive(Clone, Debug, PartialEq)]
pub enum Constant<'a> {
    /// `zeroinitializer` / `null` / `0`...
    Null,
    /// `undef`.
    Undef,
    /// `poison`.
    Poison,
    /// An integer of up to 64 bits (sign-extended).
    Int(i64),
    /// A wider integer: its 64-bit words, least significant first.
    WideInt(Vec<u64>),
    /// A floating-point value: its bits (two words for the 80- and 128-bit formats).
    Float(u64, u64),
    /// A struct, array or vector of the given elements.
    Aggregate(Vec<ValueRef>),
    /// An i8 array given by its bytes (a trailing NUL included when `cstring`).
    String {
        /// The bytes as written.
        bytes: Bytes<'a>,
        /// A NUL follows them.
        cstring: bool,
    },
    /// An array or vector of integers or floats, their bits.
    Data(Vec<u64>),
    /// A binary constant expression.
    Binary {
        /// The operation.
        opcode: BinaryOpcode,
        /// The flags word (nuw/nsw/exact).
        flags: u64,
        /// Left.
        lhs: ValueRef,
        /// Right.
        rhs: ValueRef,
    },
    /// A unary constant expression.
    Unary {
        /// The operation.
        opcode: UnaryOpcode,
        /// The operand.
        operand: ValueRef,
    },
    /// A cast constant expression to the constant's type.
    Cast {
        /// The operation.
        opcode: CastOpcode,
        /// The operand.
        operand: ValueRef,
    },
    /// A getelementptr constant expression.
    Gep {
        /// The source element type.
        source: TypeRef,
        /// inbounds, nusw, nuw.
        flags: GepFlags,
        /// The index of the operand marked inrange (LLVM up to 18).
        inrange_index: Option<u64>,
        /// The inrange byte range (LLVM 19+, bit widths up to 64).
        inrange: Option<(i64, i64)>,
        /// The base, then the indices.
        operands: Vec<ValueRef>,
    },
    /// `select`.
    Select(ValueRef, ValueRef, ValueRef),
    /// `extractelement`.
    ExtractElement(ValueRef, ValueRef),
    /// `insertelement`.
    InsertElement(ValueRef, ValueRef, ValueRef),
    /// `shufflevector`.
    ShuffleVector(ValueRef, ValueRef, ValueRef),
    /// `icmp`/`fcmp`.
    Compare {
        /// The predicate.
        predicate: CmpPredicate,
        /// Left.
        lhs: ValueRef,
        /// Right.
        rhs: ValueRef,
    },
    /// `blockaddress(@f, %bb)`.
    BlockAddress {
        /// The function.
        function: ValueRef,
        /// The block's index in it.
        block: u32,
    },
    /// `dso_local_equivalent @f`.
    DsoLocalEquivalent(ValueRef),
    /// `no_cfi @f`.
    NoCfi(ValueRef),
    /// Inline asm.
    InlineAsm {
        /// The function type.
        function_type: TypeRef,
        /// sideeffect.
        side_effect: bool,
        /// alignstack.
        align_stack: bool,
        /// inteldialect.
        intel: bool,
        /// unwind.
        unwind: bool,
        /// The asm string.
        asm: Vec<u8>,
        /// The constraints.
        constraints: Vec<u8>,
    },
    /// `ptrauth (...)`.
    PtrAuth(Vec<ValueRef>),
}
