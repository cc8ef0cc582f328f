//! Walks an LLVM 1.x bytecode module block by block, decoding each body with the
//! generated decoders ([`super::schema`]) and answering their queries: the reader keeps
//! the type table (module types, then the current function's, or its compaction table's)
//! that says how a constant plane's entries read.

use bitcode_schema_runtime::byte_fields::{ByteContext, ByteFields, SubBlock};
use bitcode_schema_runtime::bytecode::Bytecode;
use bitcode_schema_runtime::decode::TypeId;
use bitcode_schema_runtime::{Error, ErrorKind, Result};

use super::schema::{self, AnyBody, PrimitiveType, PrimitiveType7, TypeDef};

/// What a type is, as far as reading constants needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeShape {
    /// void, label, opaque, function: no plain constants.
    NoValue,
    /// bool and the unsigned integers of up to 32 bits (and revision 7's iN, N <= 32).
    Small,
    /// ulong (and revision 7's iN, 32 < N <= 64).
    Large,
    /// sbyte, short, int, long.
    Signed,
    /// Wider than 64 bits (revision 7).
    Wide,
    /// float.
    Float,
    /// double.
    Double,
    /// An array or vector of this many elements.
    Sequence(u32),
    /// A struct of this many fields.
    Struct(u32),
    /// A pointer.
    Pointer,
}

/// The decode context of one module.
#[derive(Debug)]
pub struct Reader {
    revision: u32,
    module_types: Vec<TypeShape>,
    function_types: Vec<TypeShape>,
    /// Inside a function with a compaction table: the global type ids it lists.
    compaction: Vec<u32>,
    in_function: bool,
    /// The latest `plane`, `string_type` and `opcode` the decoders told.
    plane: u64,
    string_type: u64,
    opcode: u64,
}

/// What [`check`] counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// The format revision.
    pub revision: u32,
    /// Blocks decoded by a schema block.
    pub blocks: usize,
    /// Blocks whose id no schema block has (read past by their size).
    pub unknown_blocks: usize,
    /// The entries the blocks hold, every one decoded typed: type definitions, global
    /// variables, functions, libraries, sections, aliases, constants, strings,
    /// instructions, names, compaction entries.
    pub items: usize,
}

/// The entries of one decoded block body (its sub-blocks not included).
pub fn items(body: &AnyBody<'_>) -> usize {
    let opt = |n: Option<usize>| n.unwrap_or(0);
    match body {
        AnyBody::Module(_) | AnyBody::Function(_) => 0,
        AnyBody::TypePool(b) => opt(b.types.as_ref().map(Vec::len)),
        AnyBody::GlobalInfo(b) => {
            b.globals.len()
                + opt(b.old_functions.as_ref().map(Vec::len))
                + opt(b.functions.as_ref().map(Vec::len))
                + opt(b.libraries.as_ref().map(Vec::len))
                + opt(b.sections.as_ref().map(Vec::len))
                + opt(b.aliases.as_ref().map(Vec::len))
        }
        AnyBody::ConstantPool(b) => {
            opt(b.types.as_ref().map(Vec::len)) + b.planes.iter().map(|p| p.entries.len()).sum::<usize>()
        }
        AnyBody::SymbolTable(b) => {
            opt(b.types.as_ref().map(Vec::len)) + b.planes.iter().map(|p| p.names.len()).sum::<usize>()
        }
        AnyBody::Instructions(b) => b.instructions.len(),
        AnyBody::BasicBlock(b) => b.instructions.len(),
        AnyBody::CompactionTable(b) => opt(b.types.as_ref().map(Vec::len)) + b.planes.len(),
        AnyBody::TypeSymbolTable(b) => b.types.len(),
        AnyBody::__Lifetime(_) => 0,
    }
}

impl Reader {
    /// A context for a module of `revision`.
    pub fn new(revision: u32) -> Self {
        Reader {
            revision,
            module_types: Vec::new(),
            function_types: Vec::new(),
            compaction: Vec::new(),
            in_function: false,
            plane: 0,
            string_type: 0,
            opcode: 0,
        }
    }

    /// Revisions 0 and 1 number types in the plane of types (12): ids above it are one
    /// higher than later revisions'.
    fn normalized(&self, id: u64) -> u64 {
        if self.revision <= 1 && id > 12 {
            id - 1
        } else {
            id
        }
    }

    /// The first id of a derived type: the one after label.
    fn first_derived(&self) -> u64 {
        if self.revision >= 7 {
            PrimitiveType7::Label.code() + 1
        } else {
            PrimitiveType::Label.code() + 1
        }
    }

    fn primitive(&self, id: u64) -> Option<TypeShape> {
        use TypeShape::*;
        if self.revision >= 7 {
            return PrimitiveType7::try_from(id).ok().map(|p| match p {
                PrimitiveType7::Float => Float,
                PrimitiveType7::Double => Double,
                PrimitiveType7::Void | PrimitiveType7::Label => NoValue,
            });
        }
        PrimitiveType::try_from(id).ok().map(|p| match p {
            PrimitiveType::Bool | PrimitiveType::Ubyte | PrimitiveType::Ushort | PrimitiveType::Uint => Small,
            PrimitiveType::Ulong => Large,
            PrimitiveType::Sbyte | PrimitiveType::Short | PrimitiveType::Int | PrimitiveType::Long => Signed,
            PrimitiveType::Float => Float,
            PrimitiveType::Double => Double,
            PrimitiveType::Void | PrimitiveType::Label => NoValue,
        })
    }

    /// The shape of the type with id `id` (as written).
    pub fn shape(&self, id: u64) -> Option<TypeShape> {
        let id = self.normalized(id);
        if let Some(p) = self.primitive(id) {
            return Some(p);
        }
        let index = usize::try_from(id - self.first_derived()).ok()?;
        if !self.compaction.is_empty() {
            let global = self.normalized(u64::from(*self.compaction.get(index)?));
            return self.global_shape(global);
        }
        self.global_shape(id)
    }

    /// The shape of a type by its (normalized) id outside any compaction table.
    fn global_shape(&self, id: u64) -> Option<TypeShape> {
        if let Some(p) = self.primitive(id) {
            return Some(p);
        }
        let index = usize::try_from(id - self.first_derived()).ok()?;
        match self.module_types.get(index) {
            Some(s) => Some(*s),
            None => self.function_types.get(index - self.module_types.len()).copied(),
        }
    }

    fn define(&mut self, def: &TypeDef) {
        let shape = match def {
            TypeDef::Primitive | TypeDef::Primitive7 => TypeShape::NoValue,
            TypeDef::Integer { width } => match width {
                0..=32 => TypeShape::Small,
                33..=64 => TypeShape::Large,
                _ => TypeShape::Wide,
            },
            TypeDef::Function { .. } | TypeDef::Opaque => TypeShape::NoValue,
            TypeDef::Struct { elements } | TypeDef::PackedStruct { elements } => {
                TypeShape::Struct(elements.len() as u32)
            }
            TypeDef::Array { length, .. } | TypeDef::Vector { length, .. } => TypeShape::Sequence(*length),
            TypeDef::Pointer { .. } => TypeShape::Pointer,
        };
        if self.in_function {
            self.function_types.push(shape);
        } else {
            self.module_types.push(shape);
        }
    }
}

impl ByteContext for Reader {
    fn version(&self) -> u64 {
        u64::from(self.revision)
    }

    fn query(&mut self, name: &'static str) -> Option<u64> {
        let shape = || self.shape(self.plane);
        match name {
            "function_pool" => Some(u64::from(self.in_function && (2..=6).contains(&self.revision))),
            "plane_entry" => Some(if self.revision <= 1 && self.plane == 12 {
                0
            } else if self.plane == 0 && self.revision >= 1 {
                1
            } else {
                2
            }),
            "string_length" => match self.shape(self.string_type)? {
                TypeShape::Sequence(n) => Some(u64::from(n)),
                _ => None,
            },
            "plain_kind" => Some(match shape()? {
                TypeShape::Small => 0,
                TypeShape::Large => 1,
                TypeShape::Signed => 2,
                TypeShape::Float => 3,
                TypeShape::Double => 4,
                TypeShape::Sequence(_) | TypeShape::Struct(_) => 5,
                TypeShape::Pointer => 6,
                TypeShape::Wide => 7,
                TypeShape::NoValue => return None,
            }),
            "element_count" => match shape()? {
                TypeShape::Sequence(n) | TypeShape::Struct(n) => Some(u64::from(n)),
                _ => None,
            },
            "has_predicate" => Some(u64::from(self.revision >= 7 && matches!(self.opcode, 40 | 41))),
            _ => None,
        }
    }

    fn tell(&mut self, name: &'static str, value: u64) {
        match name {
            "plane" => self.plane = value,
            "type_id" | "string_type" => self.string_type = value,
            "opcode" => self.opcode = value,
            _ => {}
        }
    }

    fn tell_item(&mut self, _name: &'static str, item: &dyn std::any::Any) {
        if let Some(def) = item.downcast_ref::<TypeDef>() {
            self.define(def);
        }
    }
}

/// Decodes every block of the module in `bytes` (plain or compressed bytecode) with the
/// schema, calling `visit` with each block's path of ids and decoded body, in file order.
///
/// # Errors
///
/// When the container, a block header or a body does not decode; the error has its byte
/// offset and block path.
pub fn walk(bytes: &[u8], mut visit: impl FnMut(&[u32], &AnyBody<'_>)) -> Result<CheckReport> {
    walk_at(bytes, |path, _, body| visit(path, body))
}

/// As [`walk`], also giving `visit` the offset of each block's header in the uncompressed
/// file (the module block's is 4, after the magic).
///
/// # Errors
///
/// When the container, a block header or a body does not decode; the error has its byte
/// offset and block path.
pub fn walk_at(bytes: &[u8], visit: impl FnMut(&[u32], u64, &AnyBody<'_>)) -> Result<CheckReport> {
    walk_bytecode(&Bytecode::parse(bytes)?, visit)
}

/// As [`walk_at`], on a container already parsed (with its own limit on how far a
/// compressed module may expand: [`Bytecode::parse_with_limit`]).
///
/// # Errors
///
/// As [`walk`].
pub fn walk_bytecode(
    bc: &Bytecode<'_>,
    mut visit: impl FnMut(&[u32], u64, &AnyBody<'_>),
) -> Result<CheckReport> {
    let header = bc.header()?;
    let mut r = bc.reader();
    r.skip(8)?;
    let body = r.region(u64::from(header.size))?;
    let mut reader = Reader::new(header.version.revision);
    let mut report = CheckReport { revision: header.version.revision, ..CheckReport::default() };
    let path = [schema::module::ID];
    let mut fields = ByteFields::new(body, schema::module::NAME, &path);
    let module = schema::module::Body::read_bytes(&mut fields, &mut reader)?;
    report.blocks += 1;
    visit(&path, 4, &AnyBody::Module(module.clone()));
    for block in &module.blocks {
        walk_block(block, &path, &mut reader, &mut report, &mut visit)?;
    }
    Ok(report)
}

fn walk_block(
    block: &SubBlock<'_>,
    parent: &[u32],
    reader: &mut Reader,
    report: &mut CheckReport,
    visit: &mut impl FnMut(&[u32], u64, &AnyBody<'_>),
) -> Result<()> {
    let mut path = parent.to_vec();
    path.push(block.id);
    let version = u64::from(reader.revision);
    let Some(name) = schema::block_name(block.id, version) else {
        report.unknown_blocks += 1;
        return Ok(());
    };
    let is_function = name == schema::function::NAME;
    if is_function {
        reader.in_function = true;
    }
    let mut fields = ByteFields::new(block.reader(), name, &path);
    let body = schema::read_block(block.id, &mut fields, reader)?.ok_or_else(|| {
        Error::at_byte(ErrorKind::BadBytecode(format!("no decoder for {name}")), block.offset)
    })?;
    report.blocks += 1;
    report.items += items(&body);
    visit(&path, block.offset, &body);
    match &body {
        // A function's blocks; a function block anywhere but in the module is not one
        // (LLVM's reader skips it), and walking it would let nesting grow with the input.
        AnyBody::Function(f) if parent.len() == 1 => {
            for b in &f.blocks {
                walk_block(b, &path, reader, report, visit)?;
            }
        }
        AnyBody::CompactionTable(c) => {
            reader.compaction = c.types.iter().flatten().map(|t: &TypeId| t.0).collect();
        }
        _ => {}
    }
    if is_function {
        reader.in_function = false;
        reader.function_types.clear();
        reader.compaction.clear();
    }
    Ok(())
}

/// Decodes every block of the module and counts them.
///
/// # Errors
///
/// As [`walk`].
pub fn check(bytes: &[u8]) -> Result<CheckReport> {
    walk(bytes, |_, _| {})
}
