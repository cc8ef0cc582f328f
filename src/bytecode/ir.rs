//! The in-memory model of an LLVM 1.x (bytecode era) module: resolved, slot-free IR.
//!
//! Everything lives in arenas owned by [`Module`] and [`Function`] and is referred to by
//! index, so recursive types and forward references need no shared pointers.
//!
//! How a decoder fills it:
//! 1. Types: push every type of the type table in slot order ([`Module::push_type`]); a type
//!    may name a later index (forward or recursive reference). Pushing the same structure
//!    twice is harmless: printers treat structurally equal types as one type, as LLVM's
//!    uniquing did. [`Module::intern_type`] returns an existing equal entry instead.
//! 2. Globals and functions in module order ([`Module::add_global`], [`Module::add_function`]);
//!    a function's arguments are created from its type, so only their names are left to set.
//!    2.0dev aliases go to [`Module::aliases`].
//! 3. Constants as they are read ([`Module::add_constant`]): equal constants are interned to
//!    one [`ConstId`], like LLVM's uniqued constants. Only create a [`Constant::GlobalAddr`]
//!    where the file really holds a constant that refers to a global: in 1.1 and 1.2 that
//!    constant was an object of its own and its existence is one use of the global.
//! 4. Function bodies: [`Function::add_block`] then [`Function::push_inst`] in order.
//!    Operands are [`ValueRef`]s; local ones (arguments, instructions, blocks) index the
//!    function that holds the instruction.
//! 5. Names from the symbol tables: set `name` fields; type names go to
//!    [`Module::type_names`] (function-level ones to [`Function::type_names`]).

use std::collections::HashMap;

/// Index of a type in [`Module::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index of a constant in [`Module::constants`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub u32);

/// Index of a global variable in [`Module::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunctionId(pub u32);

/// Index of an alias in [`Module::aliases`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AliasId(pub u32);

/// Index of an instruction in [`Function::insts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

/// Index of a basic block in [`Function::blocks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A type. Primitive types of both eras are here; a module uses one era's set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// `bool` (1.x).
    Bool,
    /// `sbyte` (1.x).
    SByte,
    /// `ubyte` (1.x).
    UByte,
    /// `short` (1.x).
    Short,
    /// `ushort` (1.x).
    UShort,
    /// `int` (1.x).
    Int,
    /// `uint` (1.x).
    UInt,
    /// `long` (1.x).
    Long,
    /// `ulong` (1.x).
    ULong,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `label`, the type of basic blocks.
    Label,
    /// `iN` (2.0 development): an integer of the given bit width.
    Integer(u32),
    /// A function type.
    Function {
        /// The return type.
        ret: TypeId,
        /// The parameter types.
        params: Vec<TypeId>,
        /// Whether it takes `...`.
        varargs: bool,
        /// 2.0dev parameter attributes: index 0 is the return value, index i parameter i;
        /// bits as in LLVM 2.0 (zext 1, sext 2, noreturn 4, inreg 8, sret 16, nounwind 32).
        /// Empty when there are none.
        param_attrs: Vec<u16>,
    },
    /// A structure; `packed` ones (2.0dev) print as `<{ ... }>`.
    Struct {
        /// The field types.
        fields: Vec<TypeId>,
        /// Whether the structure is packed.
        packed: bool,
    },
    /// `[len x element]`.
    Array {
        /// The element type.
        element: TypeId,
        /// The number of elements.
        len: u64,
    },
    /// `pointee*`.
    Pointer {
        /// The type pointed to.
        pointee: TypeId,
    },
    /// `opaque`: each entry is a distinct type.
    Opaque,
    /// `<len x element>`: the "packed" type of 1.5 to 1.9, the vector of 2.0dev.
    Vector {
        /// The element type.
        element: TypeId,
        /// The number of elements.
        len: u64,
    },
}

impl Type {
    /// The bit width of an integer type (bool and i1 are 1), or `None`.
    pub fn int_width(&self) -> Option<u32> {
        match self {
            Type::Bool => Some(1),
            Type::SByte | Type::UByte => Some(8),
            Type::Short | Type::UShort => Some(16),
            Type::Int | Type::UInt => Some(32),
            Type::Long | Type::ULong => Some(64),
            Type::Integer(bits) => Some(*bits),
            _ => None,
        }
    }

    /// Whether values of this integer type print as signed numbers.
    pub fn is_signed_int(&self) -> bool {
        match self {
            Type::SByte | Type::Short | Type::Int | Type::Long => true,
            Type::Integer(bits) => *bits > 1,
            _ => false,
        }
    }
}

/// Where a module was built for, as stored in old bytecode headers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// Not specified.
    #[default]
    Any,
    /// `target endian = little`.
    Little,
    /// `target endian = big`.
    Big,
}

/// The pointer size stored in old bytecode headers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PointerSize {
    /// Not specified.
    #[default]
    Any,
    /// `target pointersize = 32`.
    Bits32,
    /// `target pointersize = 64`.
    Bits64,
}

/// Linkage of a global value. External declarations are globals without initializer and
/// functions without blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// Externally visible (the default, prints nothing).
    #[default]
    External,
    /// `internal`.
    Internal,
    /// `linkonce`.
    LinkOnce,
    /// `weak`.
    Weak,
    /// `appending`.
    Appending,
    /// `dllimport` (1.9 and later).
    DllImport,
    /// `dllexport` (1.9 and later).
    DllExport,
    /// `extern_weak` (1.9 and later).
    ExternWeak,
}

/// Visibility of a global value (2.0dev).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// Default visibility (prints nothing).
    #[default]
    Default,
    /// `hidden`.
    Hidden,
    /// `protected`.
    Protected,
}

/// A global variable.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    /// The name, or `None` for an unnamed global.
    pub name: Option<String>,
    /// The global's own type: a pointer to the type of its contents.
    pub ty: TypeId,
    /// The linkage.
    pub linkage: Linkage,
    /// The visibility (2.0dev).
    pub visibility: Visibility,
    /// `constant` rather than `global`.
    pub constant: bool,
    /// The initializer; `None` for an external declaration.
    pub initializer: Option<ConstId>,
    /// The alignment in bytes, 0 when unspecified.
    pub align: u32,
    /// The section, if any.
    pub section: Option<String>,
    /// `thread_local` (2.0dev).
    pub thread_local: bool,
}

/// A global alias (2.0dev): another name for a global value or a cast of one.
#[derive(Clone, Debug, PartialEq)]
pub struct Alias {
    /// The name, or `None`.
    pub name: Option<String>,
    /// The alias's own type: a pointer type.
    pub ty: TypeId,
    /// The linkage (external, internal or weak).
    pub linkage: Linkage,
    /// What it stands for: a [`Constant::GlobalAddr`] or a `bitcast` expression; `None`
    /// when the file did not say.
    pub aliasee: Option<ConstId>,
}

/// A function argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Argument {
    /// The name, or `None`.
    pub name: Option<String>,
    /// The type.
    pub ty: TypeId,
}

/// A basic block: a name and its instructions in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    /// The label, or `None`.
    pub name: Option<String>,
    /// The instructions, in order.
    pub insts: Vec<InstId>,
}

/// A function: a declaration when it has no blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The name, or `None`.
    pub name: Option<String>,
    /// The function's own type: a pointer to its [`Type::Function`].
    pub ty: TypeId,
    /// The linkage.
    pub linkage: Linkage,
    /// The visibility (2.0dev).
    pub visibility: Visibility,
    /// The calling convention number (0 = C, 1 = csret in 1.8/1.9, 8 = fast, 9 = cold,
    /// 64 = x86_stdcall, 65 = x86_fastcall).
    pub calling_conv: u32,
    /// The alignment in bytes, 0 when unspecified.
    pub align: u32,
    /// The section, if any.
    pub section: Option<String>,
    /// The arguments, one per parameter of the type.
    pub args: Vec<Argument>,
    /// The basic blocks in order; empty for a declaration.
    pub blocks: Vec<Block>,
    /// Every instruction of the function (blocks list which, in order).
    pub insts: Vec<Instruction>,
    /// Type names from the function's symbol table (not printed by any llvm-dis).
    pub type_names: Vec<(String, TypeId)>,
}

impl Function {
    /// Whether this is a declaration (no body).
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Appends an empty block and returns its id.
    pub fn add_block(&mut self, name: Option<String>) -> BlockId {
        self.blocks.push(Block { name, insts: Vec::new() });
        BlockId(index_u32(self.blocks.len() - 1))
    }

    /// Appends an instruction to the end of `block` and returns its id; an unknown block
    /// leaves the instruction in the function but in no block.
    pub fn push_inst(&mut self, block: BlockId, inst: Instruction) -> InstId {
        self.insts.push(inst);
        let id = InstId(index_u32(self.insts.len() - 1));
        if let Some(b) = self.blocks.get_mut(block.0 as usize) {
            b.insts.push(id);
        }
        id
    }

    /// The instruction with this id.
    pub fn inst(&self, id: InstId) -> Option<&Instruction> {
        self.insts.get(id.0 as usize)
    }
}

/// A reference to a value, as an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRef {
    /// A global variable (its address).
    Global(GlobalId),
    /// A function (its address).
    Function(FunctionId),
    /// An alias (2.0dev).
    Alias(AliasId),
    /// A constant.
    Const(ConstId),
    /// An argument of the enclosing function, by position.
    Arg(u32),
    /// An instruction of the enclosing function.
    Inst(InstId),
    /// A basic block of the enclosing function.
    Block(BlockId),
}

/// A global value referred to from a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlobalRef {
    /// A global variable.
    Var(GlobalId),
    /// A function.
    Function(FunctionId),
    /// An alias (2.0dev).
    Alias(AliasId),
}

/// The bits of an integer constant, of any width: 64-bit words, least significant first
/// (only the type's width counts). Kept canonical, with no zero words at the top and a
/// value that fits one word held inline, so that equal values are equal (and intern to one
/// constant) however many words the file wrote.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntBits(Bits);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Bits {
    /// A value that fits 64 bits.
    Word(u64),
    /// Two words or more, the last one not zero.
    Words(Box<[u64]>),
}

impl Default for IntBits {
    fn default() -> Self {
        IntBits::ZERO
    }
}

impl From<u64> for IntBits {
    fn from(v: u64) -> Self {
        IntBits(Bits::Word(v))
    }
}

impl IntBits {
    /// Zero.
    pub const ZERO: IntBits = IntBits(Bits::Word(0));

    /// The value of `words` (least significant first) as an integer of `width` bits, as
    /// LLVM's `APInt` made it: words beyond the width are dropped and the bits above it
    /// cleared.
    pub fn from_words(words: &[u64], width: u32) -> IntBits {
        IntBits::canonical(masked(words, width))
    }

    fn canonical(mut words: Vec<u64>) -> IntBits {
        while words.last() == Some(&0) {
            words.pop();
        }
        match words.as_slice() {
            [] => IntBits::ZERO,
            [w] => IntBits(Bits::Word(*w)),
            _ => IntBits(Bits::Words(words.into_boxed_slice())),
        }
    }

    /// The words, least significant first (at least one).
    pub fn words(&self) -> &[u64] {
        match &self.0 {
            Bits::Word(w) => std::slice::from_ref(w),
            Bits::Words(ws) => ws,
        }
    }

    /// The low 64 bits.
    pub fn low_word(&self) -> u64 {
        self.words().first().copied().unwrap_or(0)
    }

    /// The low `width` bits as a number, when that fits 64 bits.
    pub fn value_in(&self, width: u32) -> Option<u64> {
        if let Bits::Word(w) = self.0 {
            return Some(if width >= 64 { w } else { w & ((1u64 << width) - 1) });
        }
        let m = masked(self.words(), width);
        match m.iter().rposition(|w| *w != 0) {
            None => Some(0),
            Some(0) => m.first().copied(),
            Some(_) => None,
        }
    }

    /// Whether the low `width` bits are all zero.
    pub fn is_zero_in(&self, width: u32) -> bool {
        self.value_in(width) == Some(0)
    }

    /// The decimal text of the low `width` bits, as a two's complement number when
    /// `signed` (LLVM's `APInt::toString(10, signed)`).
    pub fn decimal(&self, width: u32, signed: bool) -> String {
        let mut words = masked(self.words(), width);
        let top = width.checked_sub(1).map(|b| ((b / 64) as usize, b % 64));
        let negative =
            signed && top.is_some_and(|(word, bit)| words.get(word).is_some_and(|w| (w >> bit) & 1 == 1));
        if !negative {
            return unsigned_decimal(words);
        }
        // The magnitude: the two's complement of every word of the width (the sign bit
        // being set, the words reach the top one), then the bits above the width cleared.
        let mut carry = true;
        for w in &mut words {
            let (sum, overflow) = (!*w).overflowing_add(u64::from(carry));
            *w = sum;
            carry = overflow;
        }
        let magnitude = masked(&words, width);
        format!("-{}", unsigned_decimal(magnitude))
    }
}

/// The words that hold the low `width` bits of `words`, the bits above the width cleared.
fn masked(words: &[u64], width: u32) -> Vec<u64> {
    let needed = usize::try_from(width.div_ceil(64)).unwrap_or(usize::MAX);
    let mut out: Vec<u64> = words.iter().take(needed).copied().collect();
    let spare = width % 64;
    if out.len() == needed && spare != 0 {
        if let Some(last) = out.last_mut() {
            *last &= (1u64 << spare) - 1;
        }
    }
    out
}

/// The decimal text of an unsigned number (words least significant first).
fn unsigned_decimal(mut words: Vec<u64>) -> String {
    /// The largest power of ten that fits a word: the number goes in 19-digit chunks.
    const CHUNK: u128 = 10_000_000_000_000_000_000;
    let mut chunks = Vec::new();
    loop {
        while words.last() == Some(&0) {
            words.pop();
        }
        if words.is_empty() {
            break;
        }
        let mut rest: u128 = 0;
        for w in words.iter_mut().rev() {
            let current = (rest << 64) | u128::from(*w);
            // current < CHUNK << 64, so the quotient fits a word.
            *w = (current / CHUNK) as u64;
            rest = current % CHUNK;
        }
        chunks.push(rest as u64);
    }
    let mut text = match chunks.pop() {
        Some(first) => first.to_string(),
        None => return "0".to_string(),
    };
    for c in chunks.iter().rev() {
        text.push_str(&format!("{c:019}"));
    }
    text
}

/// A constant. Aggregates and expressions refer to their parts by [`ConstId`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constant {
    /// An integer or bool: the value's bits (only the type's width counts).
    Int {
        /// The type (bool, sbyte, ..., ulong or iN of any width).
        ty: TypeId,
        /// The bits of the value.
        value: IntBits,
    },
    /// A floating-point value: the bits of the value as a `double` (a `float`'s value
    /// widened to double, as LLVM 1.x kept it).
    Float {
        /// The type (float or double).
        ty: TypeId,
        /// `f64::to_bits` of the value.
        bits: u64,
    },
    /// The null value of a type: `null` for pointers, `zeroinitializer` for aggregates.
    Null {
        /// The type.
        ty: TypeId,
    },
    /// `undef` (1.5 and later).
    Undef {
        /// The type.
        ty: TypeId,
    },
    /// An array (strings are arrays of byte constants).
    Array {
        /// The array type.
        ty: TypeId,
        /// The elements.
        elements: Vec<ConstId>,
    },
    /// A structure.
    Struct {
        /// The structure type.
        ty: TypeId,
        /// The fields.
        fields: Vec<ConstId>,
    },
    /// A packed (1.5-1.9) or vector (2.0dev) constant.
    Vector {
        /// The vector type.
        ty: TypeId,
        /// The elements.
        elements: Vec<ConstId>,
    },
    /// The address of a global value used as a constant (1.1/1.2's ConstantPointerRef).
    GlobalAddr(GlobalRef),
    /// A constant expression.
    Expr {
        /// The result type (the target type of casts).
        ty: TypeId,
        /// The operation.
        opcode: Opcode,
        /// The operands, in LLVM's order.
        operands: Vec<ConstId>,
        /// The predicate of `icmp`/`fcmp` (2.0dev), else 0.
        predicate: u16,
    },
    /// Inline assembly (1.8 and later): the callee of a call.
    InlineAsm {
        /// The type: a pointer to the function type.
        ty: TypeId,
        /// The assembly text.
        asm: String,
        /// The constraint string.
        constraints: String,
        /// `sideeffect`.
        side_effects: bool,
    },
}

impl Constant {
    /// A `float` constant from the bits of an `f32`.
    pub fn float_from_f32_bits(ty: TypeId, bits: u32) -> Constant {
        Constant::Float { ty, bits: f64::from(f32::from_bits(bits)).to_bits() }
    }

    /// A `double` constant from the bits of an `f64`.
    pub fn float_from_f64_bits(ty: TypeId, bits: u64) -> Constant {
        Constant::Float { ty, bits }
    }
}

/// Every instruction and constant-expression opcode of every 1.x release and 2.0dev.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each variant is the LLVM opcode of that name
pub enum Opcode {
    Ret,
    Br,
    Switch,
    Invoke,
    Unwind,
    Unreachable,
    Add,
    Sub,
    Mul,
    /// `div` (up to 1.8).
    Div,
    UDiv,
    SDiv,
    FDiv,
    /// `rem` (up to 1.8).
    Rem,
    URem,
    SRem,
    FRem,
    And,
    Or,
    Xor,
    SetEQ,
    SetNE,
    SetLE,
    SetGE,
    SetLT,
    SetGT,
    ICmp,
    FCmp,
    Malloc,
    Free,
    Alloca,
    Load,
    Store,
    GetElementPtr,
    Phi,
    /// The 1.x `cast`.
    Cast,
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    IntToPtr,
    PtrToInt,
    BitCast,
    Select,
    Call,
    Shl,
    /// `shr` (up to 1.8).
    Shr,
    LShr,
    AShr,
    /// `vaarg` / `va_arg`.
    VaArg,
    /// `vanext` (up to 1.5).
    VaNext,
    ExtractElement,
    InsertElement,
    ShuffleVector,
}

impl Opcode {
    /// Whether this opcode prints `... to T` (every cast).
    pub fn is_cast(self) -> bool {
        matches!(
            self,
            Opcode::Cast
                | Opcode::Trunc
                | Opcode::ZExt
                | Opcode::SExt
                | Opcode::FPTrunc
                | Opcode::FPExt
                | Opcode::FPToUI
                | Opcode::FPToSI
                | Opcode::UIToFP
                | Opcode::SIToFP
                | Opcode::IntToPtr
                | Opcode::PtrToInt
                | Opcode::BitCast
        )
    }

    /// Whether this is a shift (the 1.x shift instructions print both operand types).
    pub fn is_shift(self) -> bool {
        matches!(self, Opcode::Shl | Opcode::Shr | Opcode::LShr | Opcode::AShr)
    }

    /// Whether this opcode ends a basic block.
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Ret | Opcode::Br | Opcode::Switch | Opcode::Invoke | Opcode::Unwind | Opcode::Unreachable
        )
    }
}

/// An instruction. `operands` follow LLVM's in-memory order:
/// - `br`: `[dest]` or `[if_true, if_false, cond]`;
/// - `switch`: `[cond, default, value0, dest0, value1, dest1, ...]`;
/// - `invoke`: `[callee, normal_dest, unwind_dest, args...]`; `call`: `[callee, args...]`;
/// - `phi`: `[value0, block0, value1, block1, ...]`; `store`: `[value, pointer]`;
/// - `malloc`/`alloca`: `[count]` or `[]` (no count); `ret`: `[]` or `[value]`;
/// - every other opcode: its operands left to right, as printed.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The opcode.
    pub opcode: Opcode,
    /// The result type (void when there is no result; the pointer type for
    /// `malloc`/`alloca`; the target type for casts and `vaarg`).
    pub ty: TypeId,
    /// The operands.
    pub operands: Vec<ValueRef>,
    /// The name, or `None`.
    pub name: Option<String>,
    /// The calling convention of `call`/`invoke`.
    pub calling_conv: u32,
    /// `tail call`.
    pub tail: bool,
    /// `volatile` load or store.
    pub volatile: bool,
    /// The alignment of `malloc`/`alloca` (1.8+) or `load`/`store` (2.0dev); 0 = none.
    pub align: u32,
    /// The predicate of `icmp`/`fcmp` (LLVM 2.0 numbering: fcmp 0-15, icmp 32-41).
    pub predicate: u16,
    /// The argument type of the old `vanext`.
    pub vanext_type: Option<TypeId>,
}

impl Instruction {
    /// An instruction with the given opcode, result type and operands and no flags.
    pub fn new(opcode: Opcode, ty: TypeId, operands: Vec<ValueRef>) -> Instruction {
        Instruction {
            opcode,
            ty,
            operands,
            name: None,
            calling_conv: 0,
            tail: false,
            volatile: false,
            align: 0,
            predicate: 0,
            vanext_type: None,
        }
    }

    /// The same instruction with a name.
    pub fn named(mut self, name: &str) -> Instruction {
        self.name = Some(name.to_string());
        self
    }
}

/// A whole module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The bytecode format revision (0..=7).
    pub revision: u32,
    /// The stored endianness.
    pub endianness: Endianness,
    /// The stored pointer size.
    pub pointer_size: PointerSize,
    /// The target triple ("" when none).
    pub target_triple: String,
    /// The target data layout string (1.9 and later; "" when none).
    pub data_layout: String,
    /// Dependent libraries, in order.
    pub deplibs: Vec<String>,
    /// Module-level inline assembly ("" when none); lines separated by `\n`.
    pub inline_asm: String,
    /// The type arena.
    pub types: Vec<Type>,
    /// Type names from the module symbol table, in any order.
    pub type_names: Vec<(String, TypeId)>,
    /// Global variables in module order.
    pub globals: Vec<GlobalVar>,
    /// Functions in module order.
    pub functions: Vec<Function>,
    /// Aliases in module order (2.0dev).
    pub aliases: Vec<Alias>,
    /// The constant arena (interned by [`Module::add_constant`]).
    pub constants: Vec<Constant>,
    constant_index: HashMap<Constant, ConstId>,
}

impl Module {
    /// An empty module of the given format revision.
    pub fn new(revision: u32) -> Module {
        Module { revision, ..Module::default() }
    }

    /// Appends a type (even if an equal one exists) and returns its id.
    pub fn push_type(&mut self, ty: Type) -> TypeId {
        self.types.push(ty);
        TypeId(index_u32(self.types.len() - 1))
    }

    /// Returns the id of an equal non-opaque type, or appends it.
    pub fn intern_type(&mut self, ty: Type) -> TypeId {
        if ty != Type::Opaque {
            if let Some(pos) = self.types.iter().position(|t| *t == ty) {
                return TypeId(index_u32(pos));
            }
        }
        self.push_type(ty)
    }

    /// Replaces the type at `id` (to complete a placeholder); an unknown id is ignored.
    pub fn set_type(&mut self, id: TypeId, ty: Type) {
        if let Some(slot) = self.types.get_mut(id.0 as usize) {
            *slot = ty;
        }
    }

    /// The type with this id.
    pub fn ty(&self, id: TypeId) -> Option<&Type> {
        self.types.get(id.0 as usize)
    }

    /// Interns a pointer to `pointee`.
    pub fn pointer_to(&mut self, pointee: TypeId) -> TypeId {
        self.intern_type(Type::Pointer { pointee })
    }

    /// Interns a constant: equal constants get the same id.
    pub fn add_constant(&mut self, c: Constant) -> ConstId {
        if let Some(id) = self.constant_index.get(&c) {
            return *id;
        }
        let id = ConstId(index_u32(self.constants.len()));
        self.constants.push(c.clone());
        self.constant_index.insert(c, id);
        id
    }

    /// The constant with this id.
    pub fn constant(&self, id: ConstId) -> Option<&Constant> {
        self.constants.get(id.0 as usize)
    }

    /// Interns a string constant: an array of `element` (a byte type) holding `bytes`.
    pub fn add_string(&mut self, array_ty: TypeId, element: TypeId, bytes: &[u8]) -> ConstId {
        let elements = bytes
            .iter()
            .map(|b| self.add_constant(Constant::Int { ty: element, value: u64::from(*b).into() }))
            .collect();
        self.add_constant(Constant::Array { ty: array_ty, elements })
    }

    /// Appends a global variable with external linkage and no flags.
    pub fn add_global(
        &mut self,
        name: Option<&str>,
        ty: TypeId,
        constant: bool,
        initializer: Option<ConstId>,
    ) -> GlobalId {
        self.globals.push(GlobalVar {
            name: name.map(str::to_string),
            ty,
            linkage: Linkage::External,
            visibility: Visibility::Default,
            constant,
            initializer,
            align: 0,
            section: None,
            thread_local: false,
        });
        GlobalId(index_u32(self.globals.len() - 1))
    }

    /// Appends a function of pointer type `ty` (to a function type) with unnamed arguments
    /// made from the parameter types, external linkage and the C calling convention.
    pub fn add_function(&mut self, name: Option<&str>, ty: TypeId) -> FunctionId {
        let args = self
            .function_type_of(ty)
            .map(|(_, params, _)| params.iter().map(|p| Argument { name: None, ty: *p }).collect())
            .unwrap_or_default();
        self.functions.push(Function {
            name: name.map(str::to_string),
            ty,
            linkage: Linkage::External,
            visibility: Visibility::Default,
            calling_conv: 0,
            align: 0,
            section: None,
            args,
            blocks: Vec::new(),
            insts: Vec::new(),
            type_names: Vec::new(),
        });
        FunctionId(index_u32(self.functions.len() - 1))
    }

    /// The function with this id, mutable.
    pub fn function_mut(&mut self, id: FunctionId) -> Option<&mut Function> {
        self.functions.get_mut(id.0 as usize)
    }

    /// For a pointer-to-function type (or a function type): its return type, parameter
    /// types and varargs flag.
    pub fn function_type_of(&self, ty: TypeId) -> Option<(TypeId, &[TypeId], bool)> {
        let fn_ty = match self.ty(ty)? {
            Type::Pointer { pointee } => self.ty(*pointee)?,
            other => other,
        };
        match fn_ty {
            Type::Function { ret, params, varargs, .. } => Some((*ret, params.as_slice(), *varargs)),
            _ => None,
        }
    }
}

/// Arena lengths beyond u32 are impossible for real modules; saturate rather than wrap.
fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_interned() {
        let mut m = Module::new(5);
        let int = m.intern_type(Type::Int);
        let a = m.add_constant(Constant::Int { ty: int, value: 7.into() });
        let b = m.add_constant(Constant::Int { ty: int, value: IntBits::from_words(&[7, 0, 0], 32) });
        assert_eq!(a, b);
        assert_eq!(m.constants.len(), 1);
    }

    /// `bits` as an integer of `width` bits, printed signed.
    fn signed(words: &[u64], width: u32) -> String {
        IntBits::from_words(words, width).decimal(width, true)
    }

    #[test]
    fn wide_integers_print_as_twos_complement_numbers_of_their_width() {
        const M: u64 = u64::MAX;
        // 65 bits: bit 64 is the sign.
        assert_eq!(signed(&[5], 65), "5");
        assert_eq!(signed(&[M, 0], 65), "18446744073709551615");
        assert_eq!(signed(&[0, 1], 65), "-18446744073709551616");
        assert_eq!(signed(&[M, 1], 65), "-1");
        // Bits above the width are not the value's.
        assert_eq!(signed(&[M, 3], 65), "-1");
        assert_eq!(signed(&[M, 2], 65), "18446744073709551615");
        // 128 bits.
        assert_eq!(signed(&[M, M], 128), "-1");
        assert_eq!(signed(&[M, M >> 1], 128), "170141183460469231731687303715884105727");
        assert_eq!(signed(&[0, 1 << 63], 128), "-170141183460469231731687303715884105728");
        assert_eq!(signed(&[0xbd49_b189_8ebd_bb35, 0xffff_ffff_ffff_fd62], 128), "-12345678901234567890123");
        // 200 bits: four words, eight bits of the last.
        assert_eq!(signed(&[M, M, M, 0xff], 200), "-1");
        assert_eq!(
            signed(&[0, 0, 0, 0x80], 200),
            "-803469022129495137770981046170581301261101496891396417650688"
        );
        assert_eq!(
            signed(&[M, M, M, 0x7f], 200),
            "803469022129495137770981046170581301261101496891396417650687"
        );
        let ten_to_50 = [0xb564_0000_0000_0000, 0x9266_87d2_c405_34fd, 0x44_6c3b_15f9];
        assert_eq!(signed(&ten_to_50, 200), format!("1{}", "0".repeat(50)));
        let minus = [0x4a9c_0000_0000_0000, 0x6d99_782d_3bfa_cb02, 0xffff_ffbb_93c4_ea06, 0xff];
        assert_eq!(signed(&minus, 200), format!("-1{}", "0".repeat(50)));
        // Zero, however written; unsigned printing.
        assert_eq!(signed(&[], 200), "0");
        assert_eq!(signed(&[0, 0, 0, 0x100], 200), "0");
        assert_eq!(
            IntBits::from_words(&[0, 1 << 63], 128).decimal(128, false),
            "170141183460469231731687303715884105728"
        );
    }

    #[test]
    fn wide_integers_are_canonical() {
        let short = IntBits::from_words(&[7], 128);
        assert_eq!(short, IntBits::from_words(&[7, 0, 0, 0], 128));
        assert_eq!(short, IntBits::from(7));
        assert_eq!(short.words(), &[7]);
        assert_eq!(IntBits::from_words(&[1, 2, 3], 128).words(), &[1, 2]);
        assert_eq!(IntBits::from_words(&[1, 2], 128).value_in(128), None);
        assert_eq!(IntBits::from_words(&[1, 2], 65).value_in(64), Some(1));
        assert!(IntBits::from_words(&[0, 2], 65).is_zero_in(65));
        assert!(!IntBits::from_words(&[0, 1], 65).is_zero_in(65));
    }

    #[test]
    fn functions_get_arguments_from_their_type() {
        let mut m = Module::new(5);
        let int = m.intern_type(Type::Int);
        let fty = m.intern_type(Type::Function {
            ret: int,
            params: vec![int, int],
            varargs: false,
            param_attrs: vec![],
        });
        let p = m.pointer_to(fty);
        let f = m.add_function(Some("f"), p);
        assert_eq!(m.functions[f.0 as usize].args.len(), 2);
        assert_eq!(m.intern_type(Type::Opaque), TypeId(3));
        assert_eq!(m.intern_type(Type::Opaque), TypeId(4));
    }
}
