//! The slot layer: turns the blocks [`crate::bytecode::reader::walk`] decodes into an
//! [`ir::Module`], resolving type ids, value slots (module and function planes, implicit
//! nulls, compaction tables), constants, instruction operands and names, revision by
//! revision; and the convenience that prints a file as its release's `llvm-dis` did.
//!
//! - `types`: type ids, revision 0-1 numbering, type tables, compaction types;
//! - `values`: the value planes;
//! - `constants`: constant pools;
//! - `globals`: the module global info block;
//! - `instructions`: opcodes and operands;
//! - `names`: symbol tables.

mod constants;
mod globals;
mod instructions;
mod names;
mod types;
mod values;

#[cfg(test)]
mod tests;

use crate::bytecode::dis::{self, Release};
use crate::bytecode::ir::{self, AliasId, Endianness, FunctionId, GlobalId, PointerSize, TypeId, ValueRef};
use crate::bytecode::reader;
use crate::bytecode::schema::{self, AnyBody, CompactionPlane};
use crate::runtime::bytecode::Bytecode;
use crate::{Error, ErrorKind};

use types::TypeTable;
use values::{Planes, Slot};

/// The result of building.
pub type Result<T> = std::result::Result<T, Error>;

/// An error about the meaning of the decoded blocks. It has no place yet: [`located`]
/// gives it the block it comes from, where the build knows it.
fn bad(what: impl Into<String>) -> Error {
    Error::at_byte(ErrorKind::BadBytecode(what.into()), 0)
}

/// Where a block is: the offset of its header in the (uncompressed) file, as
/// [`reader::walk_at`] gives it, and its path of block ids.
#[derive(Clone, Debug)]
struct BlockAt {
    offset: u64,
    path: Vec<u32>,
}

/// `e` put at the block `at` (an error that already has a block path keeps its own).
fn located(e: Error, at: &BlockAt) -> Error {
    if !e.block_path().is_empty() {
        return e;
    }
    Error::at_byte(e.kind().clone(), at.offset).with_block_path(at.path.iter().copied())
}

/// Builds the module of an LLVM 1.x bytecode file (plain or compressed).
///
/// # Errors
///
/// When the file does not decode, or its slots, types or operands do not resolve.
pub fn build(bytes: &[u8]) -> Result<ir::Module> {
    build_with_release(bytes).map(|(m, _)| m)
}

/// The release whose `llvm-dis` printed files like this one: by format revision, and in
/// revision 5 by whether the module global info block ends after the target triple
/// (LLVM 1.4/1.5) or goes on with sections and module asm (1.6 to 1.8).
///
/// # Errors
///
/// When the file does not decode.
pub fn release_of(bytes: &[u8]) -> Result<Release> {
    let header = Bytecode::parse(bytes)?.header()?;
    let mut new_writer = false;
    if header.version.revision == 5 {
        reader::walk(bytes, |_, body| {
            if let AnyBody::GlobalInfo(g) = body {
                new_writer = g.sections.is_some() || g.inline_asm.is_some();
            }
        })?;
    }
    Ok(release_for(header.version.revision, new_writer))
}

fn release_for(revision: u32, new_writer: bool) -> Release {
    match revision {
        0 => Release::V1_1,
        1 | 2 => Release::V1_2,
        3 | 4 => Release::V1_3,
        5 if new_writer => Release::V1_8,
        5 => Release::V1_5,
        6 => Release::V1_9,
        _ => Release::V2_0Dev,
    }
}

/// Prints the file as the `llvm-dis` of its own release did; `module_id` is the name
/// printed on the `; ModuleID` line.
///
/// # Errors
///
/// As [`build`].
pub fn disassemble_bytes(bytes: &[u8], module_id: &str) -> Result<String> {
    let (m, release) = build_with_release(bytes)?;
    Ok(dis::disassemble(&m, release, module_id))
}

/// Prints the file as `release`'s `llvm-dis` did.
///
/// # Errors
///
/// As [`build`].
pub fn disassemble_bytes_as(bytes: &[u8], module_id: &str, release: Release) -> Result<String> {
    let m = build(bytes)?;
    Ok(dis::disassemble(&m, release, module_id))
}

fn build_with_release(bytes: &[u8]) -> Result<(ir::Module, Release)> {
    let header = Bytecode::parse(bytes)?.header()?;
    let v = header.version;
    let mut b = Builder::new(v.revision);
    if v.revision < 7 {
        b.m.endianness = match (v.no_endianness, v.big_endian) {
            (true, _) => Endianness::Any,
            (false, true) => Endianness::Big,
            (false, false) => Endianness::Little,
        };
        b.m.pointer_size = match (v.no_pointer_size, v.long_pointers) {
            (true, _) => PointerSize::Any,
            (false, true) => PointerSize::Bits64,
            (false, false) => PointerSize::Bits32,
        };
    }
    let mut failure = None;
    reader::walk_at(bytes, |path, offset, body| {
        if failure.is_none() {
            if let Err(e) = b.visit(path, offset, body) {
                failure = Some(located(e, &BlockAt { offset, path: path.to_vec() }));
            }
        }
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    b.end_function();
    // Initializers and aliasees are slots the module global info block wrote.
    let global_info = b.global_info.take();
    b.resolve_initializers().map_err(|e| match &global_info {
        Some(at) => located(e, at),
        None => e,
    })?;
    if b.revision == 6 {
        b.m.data_layout = data_layout_of(b.m.endianness, b.m.pointer_size);
    }
    let release = release_for(b.revision, b.new_writer);
    Ok((b.m, release))
}

/// The data layout LLVM 1.9 made of the header's endianness and pointer size.
fn data_layout_of(e: Endianness, p: PointerSize) -> String {
    let mut s = String::new();
    match e {
        Endianness::Little => s.push('e'),
        Endianness::Big => s.push('E'),
        Endianness::Any => {}
    }
    let p = match p {
        PointerSize::Bits32 => "p:32:32",
        PointerSize::Bits64 => "p:64:64",
        PointerSize::Any => return s,
    };
    if !s.is_empty() {
        s.push('-');
    }
    s.push_str(p);
    s
}

/// The state of one build.
pub(crate) struct Builder {
    m: ir::Module,
    revision: u32,
    types: TypeTable,
    planes: Planes,
    /// Initializers to set once every constant is read: global, content type, slot.
    initializers: Vec<(GlobalId, TypeId, u32)>,
    /// Aliasees to set likewise: alias, its type, slot.
    aliasees: Vec<(AliasId, TypeId, u32)>,
    /// The functions that have a function block, in block order.
    bodies: Vec<FunctionId>,
    next_body: usize,
    /// The function whose block is being read.
    current: Option<FunctionId>,
    /// The global info block has the fields of LLVM 1.6 and later writers.
    new_writer: bool,
    /// Where the module global info block is (once read).
    global_info: Option<BlockAt>,
}

impl Builder {
    fn new(revision: u32) -> Builder {
        let mut m = ir::Module::new(revision);
        let types = TypeTable::new(revision, &mut m);
        Builder {
            m,
            revision,
            types,
            planes: Planes::new(revision),
            initializers: Vec::new(),
            aliasees: Vec::new(),
            bodies: Vec::new(),
            next_body: 0,
            current: None,
            new_writer: false,
            global_info: None,
        }
    }

    /// The value at `slot` of the plane of `ty`, in the current scope.
    fn slot(&self, ty: TypeId, slot: u32) -> Result<Slot> {
        let null = self.m.ty(ty).is_some_and(|t| self.planes.has_null(t));
        self.planes
            .get(self.types.class(ty), ty, null, slot)
            .ok_or_else(|| bad(format!("no value at slot {slot} of type {}", ty.0)))
    }

    /// Builds one block, whose header is at byte `offset` of the file.
    fn visit(&mut self, path: &[u32], offset: u64, body: &AnyBody<'_>) -> Result<()> {
        if path.len() <= 2 {
            self.end_function();
        }
        match body {
            AnyBody::Module(_) => Ok(()),
            AnyBody::TypePool(t) => match &t.types {
                Some(defs) => self.types.define(&mut self.m, defs, false),
                None => Ok(()),
            },
            AnyBody::GlobalInfo(g) => {
                self.global_info = Some(BlockAt { offset, path: path.to_vec() });
                self.read_global_info(g)
            }
            AnyBody::ConstantPool(c) => self.read_constant_pool(c),
            AnyBody::Function(f) => self.begin_function(f.linkage),
            AnyBody::CompactionTable(c) => self.read_compaction(c),
            AnyBody::Instructions(i) => self.read_instructions(&i.instructions),
            AnyBody::BasicBlock(i) => self.read_instructions(&i.instructions),
            AnyBody::SymbolTable(s) => {
                if let Some(types) = &s.types {
                    self.name_types(types)?;
                }
                self.name_values(&s.planes)
            }
            AnyBody::TypeSymbolTable(t) => self.name_types(&t.types),
            _ => Ok(()),
        }
    }

    fn begin_function(&mut self, word: u32) -> Result<()> {
        let id =
            *self.bodies.get(self.next_body).ok_or_else(|| bad("more function blocks than functions"))?;
        self.next_body += 1;
        self.current = Some(id);
        self.planes.begin_function();
        let (link, vis) = if self.revision >= 7 { (word & 0xffff, word >> 16) } else { (word, 0) };
        let args: Vec<TypeId> = match self.m.function_mut(id) {
            Some(f) => {
                f.linkage = globals::linkage(u64::from(link));
                f.visibility = globals::visibility(u64::from(vis));
                f.args.iter().map(|a| a.ty).collect()
            }
            None => Vec::new(),
        };
        for (i, ty) in args.into_iter().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            self.planes.push(self.types.class(ty), Slot::Value(ValueRef::Arg(i)));
        }
        Ok(())
    }

    fn end_function(&mut self) {
        if self.current.take().is_some() {
            self.planes.end_function();
            self.types.end_function();
        }
    }

    /// A compaction table: its types, then planes of module values.
    fn read_compaction(&mut self, c: &schema::compaction_table::Body) -> Result<()> {
        if let Some(types) = &c.types {
            let ids: Vec<u64> = types.iter().map(|t| u64::from(t.0)).collect();
            self.types.set_compaction(&ids)?;
        }
        for plane in &c.planes {
            let (raw_plane, slots) = match plane {
                CompactionPlane::Short { head, slots } => (head.high, slots),
                CompactionPlane::Long { plane, slots, .. } => (u64::from(plane.0), slots),
            };
            match self.types.resolve_raw(raw_plane)? {
                types::TypeRef::TypePlane => {
                    let ids: Vec<u64> = slots.iter().map(|s| u64::from(*s)).collect();
                    self.types.add_compaction(&ids)?;
                }
                types::TypeRef::Type(ty) => {
                    let class = self.types.class(ty);
                    let mut values = vec![Slot::Null(ty)];
                    for s in slots {
                        let v = self
                            .planes
                            .module_value(class, ty, *s)
                            .ok_or_else(|| bad(format!("compaction slot {s} beyond its module plane")))?;
                        values.push(v);
                    }
                    self.planes.compact(class, values);
                }
            }
        }
        Ok(())
    }
}
