//! Value numbering: the absolute id every value of a module gets, as LLVM's reader
//! assigns them. Module level: global variables, functions, aliases and ifuncs in record
//! order, then module constants. In each function body: the module's values, then the
//! arguments, the body's constants, and every instruction whose type is not void; reset at
//! the end of the function. Metadata ids are a separate space and are not counted here.
//!
//! The numbering is fed the raw records (it needs few of their operands) and tells the
//! typed decoders, through [`LlvmContext`](super::LlvmContext), the number of the value a
//! record defines, which relative operands count back from.

use std::sync::Arc;

use bitcode_schema_runtime::Record;

use super::block_ids;

/// Record codes the numbering reads (LLVMBitCodes.h).
mod codes {
    pub const MODULE_VERSION: u32 = 1;
    pub const MODULE_GLOBALVAR: u32 = 7;
    pub const MODULE_FUNCTION: u32 = 8;
    pub const MODULE_ALIAS_OLD: u32 = 9;
    pub const MODULE_ALIAS: u32 = 14;
    pub const MODULE_IFUNC: u32 = 18;
    pub const TYPE_NUMENTRY: u32 = 1;
    pub const TYPE_VOID: u32 = 2;
    pub const TYPE_LABEL: u32 = 5;
    pub const TYPE_POINTER: u32 = 8;
    pub const TYPE_FUNCTION_OLD: u32 = 9;
    pub const TYPE_STRUCT_NAME: u32 = 19;
    pub const TYPE_FUNCTION: u32 = 21;
    pub const CST_SETTYPE: u32 = 1;
    pub const CST_NULL: u32 = 2;
    pub const INST_INVOKE: u32 = 13;
    pub const INST_CALL: u32 = 34;
    pub const INST_CALLBR: u32 = 57;
    /// Bit of a call's calling-convention word: the function type is explicit.
    pub const CALL_EXPLICIT_TYPE: u64 = 1 << 15;
    /// Bit of a call's calling-convention word: fast-math flags follow.
    pub const CALL_FMF: u64 = 1 << 17;
    /// Bit of an invoke's calling-convention word: the function type is explicit.
    pub const INVOKE_EXPLICIT_TYPE: u64 = 1 << 13;
}

/// FUNCTION_BLOCK codes of instructions that define a value (their type is never void),
/// as a bit set indexed by code. Calls, invokes and callbrs define one unless their function
/// returns void.
const VALUE_INSTRUCTIONS: u64 = bit(2) // BINOP
    | bit(3) // CAST
    | bit(4) // GEP_OLD
    | bit(5) // SELECT
    | bit(6) // EXTRACTELT
    | bit(7) // INSERTELT
    | bit(8) // SHUFFLEVEC
    | bit(9) // CMP
    | bit(16) // PHI
    | bit(19) // ALLOCA
    | bit(20) // LOAD
    | bit(23) // VAARG
    | bit(26) // EXTRACTVAL
    | bit(27) // INSERTVAL
    | bit(28) // CMP2
    | bit(29) // VSELECT
    | bit(30) // INBOUNDS_GEP_OLD
    | bit(37) // CMPXCHG_OLD
    | bit(38) // ATOMICRMW_OLD
    | bit(40) // LANDINGPAD_OLD
    | bit(41) // LOADATOMIC
    | bit(43) // GEP
    | bit(46) // CMPXCHG
    | bit(47) // LANDINGPAD
    | bit(50) // CATCHPAD
    | bit(51) // CLEANUPPAD
    | bit(52) // CATCHSWITCH
    | bit(56) // UNOP
    | bit(58) // FREEZE
    | bit(59); // ATOMICRMW

const fn bit(code: u32) -> u64 {
    1 << code
}

/// What the numbering needs to know of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypeInfo {
    Void,
    Label,
    Function { return_type: u32, params: u32 },
    Pointer { pointee: u32 },
    Other,
}

/// A function of the module: its value id and its function type id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FunctionInfo {
    value: u32,
    function_type: Option<u32>,
    has_body: bool,
}

/// Value numbers of one module, fed its records in stream order.
#[derive(Clone, Debug, Default)]
pub struct ValueNumbering {
    version: u64,
    /// Shared, so that a numbering is cheap to clone for each function body (the module's
    /// types and functions are complete before the first body).
    types: Arc<Vec<TypeInfo>>,
    module_values: u32,
    functions: Arc<Vec<FunctionInfo>>,
    /// Index into `functions` of the next function whose body has not been seen.
    next_body: usize,
    /// The next value number inside the current function body.
    in_function: Option<u32>,
    /// Calls whose function type could not be found (counted as defining a value).
    unresolved_calls: u64,
    /// The parameter count of the function the last call record called, when known.
    last_call_params: Option<u32>,
    /// The type the last SETTYPE of the constants block being read chose (LLVM starts
    /// each block with i32, which needs no check).
    constant_type: Option<u64>,
}

impl ValueNumbering {
    /// A numbering for a new module.
    pub fn new() -> Self {
        Self::default()
    }

    /// The module's format version (MODULE_CODE_VERSION), 0 before it is read.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The number the next value gets: the id of the value the next record defines.
    pub fn next_value(&self) -> u32 {
        self.in_function.unwrap_or(self.module_values)
    }

    /// How many module-level values (globals, functions, aliases, ifuncs, constants).
    pub fn module_values(&self) -> u32 {
        self.module_values
    }

    /// Calls seen so far whose function type could not be determined.
    pub fn unresolved_calls(&self) -> u64 {
        self.unresolved_calls
    }

    /// True when `self` and `other` number what follows alike: the same version, types,
    /// module values, functions and place in the function list and in a function body
    /// (counters of unresolved calls and the last call's parameters aside).
    pub fn numbers_alike(&self, other: &ValueNumbering) -> bool {
        self.version == other.version
            && self.types == other.types
            && self.module_values == other.module_values
            && self.functions == other.functions
            && self.next_body == other.next_body
            && self.in_function == other.in_function
    }

    /// A block starts.
    pub fn enter_block(&mut self, block_id: u32) {
        match block_id {
            block_ids::MODULE => *self = Self::new(),
            block_ids::FUNCTION => {
                let body = self.functions.iter().skip(self.next_body).position(|f| f.has_body);
                let function = body.and_then(|i| self.functions.get(self.next_body + i).copied());
                if let Some(i) = body {
                    self.next_body += i + 1;
                }
                let params = function
                    .and_then(|f| f.function_type)
                    .and_then(|t| self.function_type(t))
                    .map_or(0, |(_, params)| params);
                self.in_function = Some(self.module_values.wrapping_add(params));
            }
            block_ids::CONSTANTS => self.constant_type = None,
            _ => {}
        }
    }

    /// A block ends.
    pub fn end_block(&mut self, block_id: u32) {
        if block_id == block_ids::FUNCTION {
            self.in_function = None;
        }
    }

    /// For the last record given to [`ValueNumbering::record`], when it was a call, invoke
    /// or callbr: how many fixed parameters the called function has, when known.
    pub fn last_call_params(&self) -> Option<u32> {
        self.last_call_params
    }

    /// A record of block `block_id`: counts the value it defines.
    // Inlined into the walk: most records are instructions and constants, counted here
    // with a bit test; calls and module-level records take the calls below.
    #[inline]
    pub fn record(&mut self, block_id: u32, record: &Record<'_, '_>) {
        let ops = record.ops;
        self.last_call_params = None;
        match block_id {
            block_ids::FUNCTION if record.code < 64 && VALUE_INSTRUCTIONS & bit(record.code) != 0 => {
                self.define_value()
            }
            block_ids::FUNCTION if self.defines_value(record.code, ops) => self.define_value(),
            block_ids::CONSTANTS if record.code == codes::CST_SETTYPE => {
                self.constant_type = ops.first().copied()
            }
            block_ids::CONSTANTS => self.define_value(),
            block_ids::MODULE => self.module_record(record.code, ops),
            block_ids::TYPE => self.type_record(record.code, ops),
            _ => {}
        }
    }

    #[inline]
    fn define_value(&mut self) {
        match &mut self.in_function {
            Some(next) => *next = next.wrapping_add(1),
            None => self.module_values = self.module_values.wrapping_add(1),
        }
    }

    #[inline(never)]
    fn module_record(&mut self, code: u32, ops: &[u64]) {
        match code {
            codes::MODULE_VERSION => self.version = ops.first().copied().unwrap_or(0),
            codes::MODULE_GLOBALVAR | codes::MODULE_ALIAS | codes::MODULE_ALIAS_OLD | codes::MODULE_IFUNC => {
                self.module_values = self.module_values.wrapping_add(1)
            }
            codes::MODULE_FUNCTION => {
                // From version 2 two strtab operands come first: [type, cc, isproto, ...].
                let head = if self.version >= 2 { 2 } else { 0 };
                let ty = ops.get(head).and_then(|&t| u32::try_from(t).ok());
                // Old files give the pointer-to-function type.
                let function_type = ty.map(|t| match self.types.get(t as usize) {
                    Some(TypeInfo::Pointer { pointee }) => *pointee,
                    _ => t,
                });
                let has_body = ops.get(head + 2).is_some_and(|&proto| proto == 0);
                Arc::make_mut(&mut self.functions).push(FunctionInfo {
                    value: self.module_values,
                    function_type,
                    has_body,
                });
                self.module_values = self.module_values.wrapping_add(1);
            }
            _ => {}
        }
    }

    #[inline(never)]
    fn type_record(&mut self, code: u32, ops: &[u64]) {
        let id = |i: usize| ops.get(i).and_then(|&t| u32::try_from(t).ok());
        let info = match code {
            codes::TYPE_NUMENTRY | codes::TYPE_STRUCT_NAME => return,
            codes::TYPE_VOID => TypeInfo::Void,
            codes::TYPE_LABEL => TypeInfo::Label,
            codes::TYPE_FUNCTION => match id(1) {
                Some(return_type) => {
                    TypeInfo::Function { return_type, params: ops.len().saturating_sub(2) as u32 }
                }
                None => TypeInfo::Other,
            },
            codes::TYPE_FUNCTION_OLD => match id(2) {
                Some(return_type) => {
                    TypeInfo::Function { return_type, params: ops.len().saturating_sub(3) as u32 }
                }
                None => TypeInfo::Other,
            },
            codes::TYPE_POINTER => id(0).map_or(TypeInfo::Other, |pointee| TypeInfo::Pointer { pointee }),
            _ => TypeInfo::Other,
        };
        Arc::make_mut(&mut self.types).push(info);
    }

    /// Why LLVM's reader rejects the file at the constants record just given to
    /// [`ValueNumbering::record`], when the numbering can tell: a SETTYPE naming a type
    /// beyond the type table, or a null constant of void, label or function type.
    pub fn constant_problem(&self, code: u32) -> Option<String> {
        let ty = self.constant_type?;
        let Some(info) = self.types.get(usize::try_from(ty).unwrap_or(usize::MAX)) else {
            let types = self.types.len();
            return (code == codes::CST_SETTYPE)
                .then(|| format!("SETTYPE names type {ty}, the type table has {types} types"));
        };
        let kind = match info {
            TypeInfo::Void => "void",
            TypeInfo::Label => "label",
            TypeInfo::Function { .. } => "a function type",
            TypeInfo::Pointer { .. } | TypeInfo::Other => return None,
        };
        (code == codes::CST_NULL)
            .then(|| format!("invalid type for a constant null value: type {ty} is {kind}"))
    }

    /// The return type and parameter count of function type `id` (seen through a pointer).
    fn function_type(&self, id: u32) -> Option<(u32, u32)> {
        match self.types.get(id as usize)? {
            TypeInfo::Function { return_type, params } => Some((*return_type, *params)),
            TypeInfo::Pointer { pointee } => match self.types.get(*pointee as usize)? {
                TypeInfo::Function { return_type, params } => Some((*return_type, *params)),
                _ => None,
            },
            _ => None,
        }
    }

    #[inline(never)]
    fn defines_value(&mut self, code: u32, ops: &[u64]) -> bool {
        if code < 64 && VALUE_INSTRUCTIONS & bit(code) != 0 {
            return true;
        }
        // Where the explicit function type or the callee sits in each kind of call.
        let (type_at, explicit) = match code {
            codes::INST_CALL => {
                let cc = ops.get(1).copied().unwrap_or(0);
                let at = 2 + usize::from(cc & codes::CALL_FMF != 0);
                (at, cc & codes::CALL_EXPLICIT_TYPE != 0)
            }
            codes::INST_INVOKE => (4, ops.get(1).is_some_and(|cc| cc & codes::INVOKE_EXPLICIT_TYPE != 0)),
            codes::INST_CALLBR => {
                let indirect = ops.get(3).and_then(|&n| usize::try_from(n).ok()).unwrap_or(0);
                (
                    4usize.saturating_add(indirect),
                    ops.get(1).is_some_and(|cc| cc & codes::CALL_EXPLICIT_TYPE != 0),
                )
            }
            _ => return false,
        };
        let function_type = if explicit {
            ops.get(type_at).and_then(|&t| u32::try_from(t).ok())
        } else {
            // No explicit type (files before LLVM 3.8): the callee's type, when it is a
            // function of the module.
            ops.get(type_at).and_then(|&callee| self.callee_type(callee))
        };
        match function_type.and_then(|t| self.function_type(t)) {
            Some((return_type, params)) => {
                self.last_call_params = Some(params);
                self.types.get(return_type as usize) != Some(&TypeInfo::Void)
            }
            None => {
                self.unresolved_calls += 1;
                true
            }
        }
    }

    /// The function type of the callee operand `op`, when it names a module function.
    fn callee_type(&self, op: u64) -> Option<u32> {
        let id = if self.version >= 1 { self.next_value().wrapping_sub(op as u32) } else { op as u32 };
        self.functions.iter().find(|f| f.value == id).and_then(|f| f.function_type)
    }
}
