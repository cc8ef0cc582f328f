//! Value numbering: the absolute id every value of a module gets, as LLVM's reader
//! assigns them. Module level: global variables, functions, aliases and ifuncs in record
//! order, then module constants. In each function body: the module's values, then the
//! arguments, the body's constants, and every instruction whose type is not void; reset at
//! the end of the function. Metadata ids are a separate space and are not counted here.
//!
//! What each record defines comes from the schema (`numbers` on a block, `defines` on its
//! records, as generated in [`ir::NUMBERING`](super::ir::NUMBERING)); a numbering can be made
//! for another schema's table ([`ValueNumbering::for_schema`]), so a record added to a schema
//! is counted without a change here. The few operands the numbering reads (a function's
//! type, a call's callee) are read by the generated decoders, by field.
//!
//! The numbering is fed the raw records and tells the typed decoders, through
//! [`LlvmContext`](super::LlvmContext), the number of the value a record defines, which
//! relative operands count back from.

use std::sync::Arc;

use bitcode_schema_runtime::decode::BasicContext;
use bitcode_schema_runtime::numbering::{Called, CalledFn, Defines, Numbering};
use bitcode_schema_runtime::Record;

use super::ir::{constants_block, function_block, module_block, type_block, NUMBERING};

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
#[derive(Clone, Debug)]
pub struct ValueNumbering {
    /// What each record code defines, per numbered block of the schema.
    defines: BlockDefines,
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

/// The `defines` tables of the blocks the numbering counts in.
#[derive(Clone, Copy, Debug)]
struct BlockDefines {
    module: &'static [Defines],
    function: &'static [Defines],
    constants: &'static [Defines],
    types: &'static [Defines],
}

impl Default for ValueNumbering {
    fn default() -> Self {
        Self::for_schema(&NUMBERING)
    }
}

impl ValueNumbering {
    /// A numbering for a new module, by the LLVM IR schema's `defines`.
    pub fn new() -> Self {
        Self::default()
    }

    /// A numbering for a new module that counts the records of the module, type,
    /// constants and function blocks as `numbering` says (the `NUMBERING` a `schema!` of an
    /// extended copy of the LLVM IR schema generates); a block it does not number defines
    /// nothing.
    pub fn for_schema(numbering: &'static Numbering) -> Self {
        let table = |id: u32| numbering.block(id).map_or(&[][..], |b| b.defines);
        Self::counting_with(BlockDefines {
            module: table(module_block::ID),
            function: table(function_block::ID),
            constants: table(constants_block::ID),
            types: table(type_block::ID),
        })
    }

    /// A numbering for a new module with the tables `defines`.
    fn counting_with(defines: BlockDefines) -> Self {
        ValueNumbering {
            defines,
            version: 0,
            types: Arc::default(),
            module_values: 0,
            functions: Arc::default(),
            next_body: 0,
            in_function: None,
            unresolved_calls: 0,
            last_call_params: None,
            constant_type: None,
        }
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
            module_block::ID => *self = Self::counting_with(self.defines),
            function_block::ID => {
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
            constants_block::ID => self.constant_type = None,
            _ => {}
        }
    }

    /// A block ends.
    pub fn end_block(&mut self, block_id: u32) {
        if block_id == function_block::ID {
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
    // with a table lookup; calls and module-level records take the calls below.
    #[inline]
    pub fn record(&mut self, block_id: u32, record: &Record<'_, '_>) {
        self.last_call_params = None;
        match block_id {
            function_block::ID => match Defines::of(self.defines.function, record.code) {
                Defines::Value => self.define_value(),
                Defines::CallResult(called) => self.call(called, record),
                Defines::Nothing | Defines::Type => {}
            },
            constants_block::ID => match Defines::of(self.defines.constants, record.code) {
                Defines::Value => self.define_value(),
                _ if record.code == constants_block::Settype::CODE => self.set_type(record),
                // LLVM's reader numbers every record of the block but SETTYPE: one of a
                // code it does not know is `undef`.
                _ => self.define_value(),
            },
            module_block::ID => self.module_record(record),
            type_block::ID => self.type_record(record),
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

    /// The context the generated decoders read the few records the numbering needs with.
    fn context(&self) -> BasicContext {
        BasicContext::new()
            .with_version(self.version)
            .with_value_number(self.next_value())
            .with_absolute_ids(self.version < 1)
    }

    #[inline(never)]
    fn set_type(&mut self, record: &Record<'_, '_>) {
        let typed = constants_block::Settype::decode(record, &mut self.context());
        self.constant_type = typed.ok().map(|settype| u64::from(settype.r#type.0));
    }

    #[inline(never)]
    fn module_record(&mut self, record: &Record<'_, '_>) {
        if record.code == module_block::Version::CODE {
            let typed = module_block::Version::decode(record, &mut self.context());
            self.version = typed.map_or(0, |v| v.version);
            return;
        }
        if !Defines::of(self.defines.module, record.code).is_value() {
            return;
        }
        if record.code == module_block::Function::CODE {
            let typed = module_block::Function::decode(record, &mut self.context()).ok();
            // Old files give the pointer-to-function type.
            let function_type = typed.as_ref().map(|f| match self.types.get(f.r#type.0 as usize) {
                Some(TypeInfo::Pointer { pointee }) => *pointee,
                _ => f.r#type.0,
            });
            Arc::make_mut(&mut self.functions).push(FunctionInfo {
                value: self.module_values,
                function_type,
                has_body: typed.is_some_and(|f| !f.is_proto),
            });
        }
        self.module_values = self.module_values.wrapping_add(1);
    }

    #[inline(never)]
    fn type_record(&mut self, record: &Record<'_, '_>) {
        if !matches!(Defines::of(self.defines.types, record.code), Defines::Type) {
            return;
        }
        let info = match type_block::Record::decode(record, &mut self.context()) {
            Ok(type_block::Record::Void(_)) => TypeInfo::Void,
            Ok(type_block::Record::Label(_)) => TypeInfo::Label,
            Ok(type_block::Record::Function(f)) => {
                TypeInfo::Function { return_type: f.return_type.0, params: f.params.len() as u32 }
            }
            Ok(type_block::Record::FunctionOld(f)) => {
                TypeInfo::Function { return_type: f.return_type.0, params: f.params.len() as u32 }
            }
            Ok(type_block::Record::Pointer(p)) => TypeInfo::Pointer { pointee: p.pointee.0 },
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
            return (code == constants_block::Settype::CODE)
                .then(|| format!("SETTYPE names type {ty}, the type table has {types} types"));
        };
        let kind = match info {
            TypeInfo::Void => "void",
            TypeInfo::Label => "label",
            TypeInfo::Function { .. } => "a function type",
            TypeInfo::Pointer { .. } | TypeInfo::Other => return None,
        };
        (code == constants_block::Null::CODE)
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

    /// A call-like record: it defines a value unless its function returns void.
    #[inline(never)]
    fn call(&mut self, called: CalledFn, record: &Record<'_, '_>) {
        let called: Option<Called> = called(record, &self.context()).ok();
        // Without an explicit type (files before LLVM 3.8): the callee's type, when it is a
        // function of the module.
        let function_type = called.and_then(|c| match c.function_type {
            Some(t) => Some(t.0),
            None => self.callee_type(c.callee.id.0),
        });
        let defines = match function_type.and_then(|t| self.function_type(t)) {
            Some((return_type, params)) => {
                self.last_call_params = Some(params);
                self.types.get(return_type as usize) != Some(&TypeInfo::Void)
            }
            None => {
                self.unresolved_calls += 1;
                true
            }
        };
        if defines {
            self.define_value();
        }
    }

    /// The function type of the callee `id`, when it names a module function.
    fn callee_type(&self, id: u32) -> Option<u32> {
        self.functions.iter().find(|f| f.value == id).and_then(|f| f.function_type)
    }
}
