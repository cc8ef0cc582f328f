//! Instructions of a function body, with operands as value ids of the function's table.

use smallvec::SmallVec;

use super::constants::ValueRef;
use super::types::TypeRef;
use crate::llvm::ir::{
    AtomicOrdering, BinaryOpcode, CallingConv, CastOpcode, CmpPredicate, GepFlags, RmwOperation, UnaryOpcode,
};

/// A list of value operands: most getelementptrs and calls have four or fewer, held
/// without an allocation (in the 24 bytes a `Vec` takes).
pub type ValueList = SmallVec<[ValueRef; 4]>;

/// (kind, metadata id) attachments of an instruction: most have one or two (`!tbaa` on
/// every load and store of an optimized module), held without an allocation.
pub type AttachmentList = SmallVec<[(u32, u32); 2]>;

/// An atomic operation's ordering and synchronization scope id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atomic {
    /// The ordering.
    pub ordering: AtomicOrdering,
    /// The scope: 0 singlethread, 1 system, else a SYNC_SCOPE_NAMES index.
    pub scope: u32,
}

/// The callee, arguments and attributes of a call, invoke or callbr.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// Attribute list reference (1-based).
    pub attributes: Option<u32>,
    /// Calling convention.
    pub calling_conv: CallingConv,
    /// The function type.
    pub function_type: TypeRef,
    /// The callee.
    pub callee: ValueRef,
    /// The arguments: value ids, or metadata ids for metadata-typed parameters.
    pub args: ValueList,
    /// Operand bundles: tag index and inputs.
    pub bundles: Vec<(u32, Vec<BundleInput>)>,
}

/// An input of an operand bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BundleInput {
    /// A value id.
    Value(ValueRef),
    /// A metadata id, in the numbering of the function's metadata (LLVM 22 writes these).
    Metadata(u32),
}

impl BundleInput {
    /// The value id, unless the input is metadata.
    pub fn value(self) -> Option<ValueRef> {
        match self {
            BundleInput::Value(v) => Some(v),
            BundleInput::Metadata(_) => None,
        }
    }
}

/// What an instruction does.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A binary operator; `flags` as the record's (nuw/nsw, exact, disjoint, fast-math).
    Binary {
        /// The operation.
        opcode: BinaryOpcode,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
        /// The left operand.
        lhs: ValueRef,
        /// The right operand.
        rhs: ValueRef,
    },
    /// `fneg`.
    Unary {
        /// The operation.
        opcode: UnaryOpcode,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
        /// The operand.
        operand: ValueRef,
    },
    /// A cast to the instruction's type.
    Cast {
        /// The operation.
        opcode: CastOpcode,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
        /// The operand.
        operand: ValueRef,
    },
    /// `getelementptr`.
    Gep {
        /// The source element type.
        source: TypeRef,
        /// `inbounds`, `nusw`, `nuw`.
        flags: GepFlags,
        /// The base pointer, then the indices.
        operands: ValueList,
    },
    /// `select`.
    Select {
        /// The condition.
        condition: ValueRef,
        /// The value when true.
        true_value: ValueRef,
        /// The value when false.
        false_value: ValueRef,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
    },
    /// `extractelement`.
    ExtractElement {
        /// The vector.
        vector: ValueRef,
        /// The index.
        index: ValueRef,
    },
    /// `insertelement`.
    InsertElement {
        /// The vector.
        vector: ValueRef,
        /// The element inserted.
        element: ValueRef,
        /// The index.
        index: ValueRef,
    },
    /// `shufflevector`.
    ShuffleVector {
        /// The first vector.
        vector1: ValueRef,
        /// The second vector.
        vector2: ValueRef,
        /// The shuffle mask (a constant).
        mask: ValueRef,
    },
    /// `icmp`/`fcmp`.
    Compare {
        /// The predicate.
        predicate: CmpPredicate,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
        /// The left operand.
        lhs: ValueRef,
        /// The right operand.
        rhs: ValueRef,
    },
    /// `ret`.
    Ret(Option<ValueRef>),
    /// `br`: a destination, or a condition and two.
    Br {
        /// The destination block (the true one when conditional).
        dest: u32,
        /// For a conditional branch: the condition and the false destination.
        conditional: Option<(ValueRef, u32)>,
    },
    /// `switch`.
    Switch {
        /// The condition.
        condition: ValueRef,
        /// The default destination block.
        default: u32,
        /// (case value, destination block) pairs.
        cases: Vec<(ValueRef, u32)>,
    },
    /// `indirectbr`.
    IndirectBr {
        /// The address.
        address: ValueRef,
        /// The possible destination blocks.
        dests: Vec<u32>,
    },
    /// `invoke`.
    Invoke {
        /// The callee, arguments and attributes.
        call: Call,
        /// The normal destination block.
        normal: u32,
        /// The unwind destination block.
        unwind: u32,
    },
    /// `callbr`.
    CallBr {
        /// The callee, arguments and attributes.
        call: Call,
        /// The default destination block.
        default: u32,
        /// The indirect destination blocks.
        indirect: Vec<u32>,
    },
    /// `unreachable`.
    Unreachable,
    /// `phi`.
    Phi {
        /// (value, incoming block) pairs.
        incoming: Vec<(ValueRef, u32)>,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
    },
    /// `alloca`.
    Alloca {
        /// The allocated type.
        allocated: TypeRef,
        /// The element count.
        size: ValueRef,
        /// The alignment in bytes.
        align: Option<u64>,
        /// `inalloca`.
        inalloca: bool,
        /// `swifterror`.
        swifterror: bool,
        /// The address space.
        address_space: u32,
    },
    /// `load`.
    Load {
        /// The pointer.
        ptr: ValueRef,
        /// The alignment in bytes.
        align: Option<u64>,
        /// `volatile`.
        volatile: bool,
        /// Ordering and scope of an atomic access.
        atomic: Option<Atomic>,
    },
    /// `store`.
    Store {
        /// The pointer.
        ptr: ValueRef,
        /// The value.
        value: ValueRef,
        /// The alignment in bytes.
        align: Option<u64>,
        /// `volatile`.
        volatile: bool,
        /// Ordering and scope of an atomic access.
        atomic: Option<Atomic>,
    },
    /// `va_arg`.
    VaArg {
        /// The va_list pointer.
        list: ValueRef,
    },
    /// `extractvalue`.
    ExtractValue {
        /// The aggregate.
        aggregate: ValueRef,
        /// The indices.
        indices: Vec<u32>,
    },
    /// `insertvalue`.
    InsertValue {
        /// The aggregate.
        aggregate: ValueRef,
        /// The value.
        value: ValueRef,
        /// The indices.
        indices: Vec<u32>,
    },
    /// `call`: tail kind 0 none, 1 tail, 2 musttail, 3 notail.
    Call {
        /// The callee, arguments and attributes.
        call: Call,
        /// Tail call kind: 0 none, 1 tail, 2 musttail, 3 notail.
        tail: u8,
        /// The record's flag word (wrap flags, exact, disjoint, nneg, samesign or fast-math flags).
        flags: u64,
    },
    /// `fence`.
    Fence(Atomic),
    /// `cmpxchg`.
    CmpXchg {
        /// The pointer.
        ptr: ValueRef,
        /// The expected value.
        cmp: ValueRef,
        /// The new value.
        new: ValueRef,
        /// `volatile`.
        volatile: bool,
        /// `weak`.
        weak: bool,
        /// Ordering and scope on success.
        success: Atomic,
        /// Ordering on failure.
        failure: AtomicOrdering,
        /// The alignment in bytes.
        align: Option<u64>,
    },
    /// `atomicrmw`.
    AtomicRmw {
        /// The operation.
        operation: RmwOperation,
        /// The pointer.
        ptr: ValueRef,
        /// The value.
        value: ValueRef,
        /// `volatile`.
        volatile: bool,
        /// Ordering and scope.
        atomic: Atomic,
        /// The alignment in bytes.
        align: Option<u64>,
    },
    /// `resume`.
    Resume(ValueRef),
    /// `landingpad`: cleanup, then (is catch, value) clauses.
    LandingPad {
        /// `cleanup` (a landing pad) or cleanuppad rather than catchpad.
        cleanup: bool,
        /// (is catch, value) clauses.
        clauses: Vec<(bool, ValueRef)>,
    },
    /// `cleanupret`.
    CleanupRet {
        /// The pad it leaves.
        pad: ValueRef,
        /// The unwind destination block.
        unwind: Option<u32>,
    },
    /// `catchret`.
    CatchRet {
        /// The pad it leaves.
        pad: ValueRef,
        /// The successor block.
        successor: u32,
    },
    /// `catchpad` (`cleanup` false) or `cleanuppad`.
    Pad {
        /// `cleanup` (a landing pad) or cleanuppad rather than catchpad.
        cleanup: bool,
        /// The parent pad.
        parent: ValueRef,
        /// The arguments.
        args: Vec<ValueRef>,
    },
    /// `catchswitch`.
    CatchSwitch {
        /// The parent pad.
        parent: ValueRef,
        /// The handler blocks.
        handlers: Vec<u32>,
        /// The unwind destination block.
        unwind: Option<u32>,
    },
    /// `freeze`.
    Freeze(ValueRef),
}

/// A debug location as the DEBUG_LOC record gives it (metadata ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugLoc {
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
    /// Scope metadata id.
    pub scope: Option<u32>,
    /// Inlined-at metadata id.
    pub inlined_at: Option<u32>,
    /// isImplicitCode.
    pub implicit: bool,
    /// Key Instructions atom group (LLVM 21 and later; 0 for none).
    pub atom_group: u64,
    /// Key Instructions rank within the atom (0 for none).
    pub atom_rank: u8,
}

/// A debug record (LLVM 19+) before an instruction: its record code and metadata ids (a
/// value operand of DEBUG_RECORD_VALUE_SIMPLE is kept as `value`).
#[derive(Clone, Debug, PartialEq)]
pub struct DebugRecord {
    /// The FUNCTION_BLOCK record code.
    pub code: u32,
    /// Its metadata id operands in record order (seven at most).
    pub operands: SmallVec<[u32; 4]>,
    /// The value of a DEBUG_RECORD_VALUE_SIMPLE.
    pub value: Option<ValueRef>,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The result type (`void` for none).
    pub ty: TypeRef,
    /// The value id it defines, if not void.
    pub value: Option<ValueRef>,
    /// What it does.
    pub op: Op,
    /// Its debug location.
    pub debug_loc: Option<DebugLoc>,
    /// Metadata attachments: (kind, metadata id).
    pub attachments: AttachmentList,
    /// Debug records before it.
    pub debug_records: Vec<DebugRecord>,
}
