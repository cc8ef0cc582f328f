//! Reading the module-level blocks of every module of a stream: identification, module
//! records, types, attributes, constants, metadata kinds, symbol and string tables.
//! Function bodies, metadata and summary blocks are skipped, their walkers kept: each is
//! decoded when asked for.

use std::sync::Arc;

use bitcode_schema_runtime::decode::Bytes;
use bitcode_schema_runtime::{Bitstream, Result};

use super::attributes::{Attribute, AttributeList};
use super::body::{invalid, read_constant};
use super::fold::Folder;
use super::globals::{Comdat, Function, GlobalCommon, GlobalVar, Indirect};
use super::types::Type;
use super::values::{Value, ValueKind};
use super::Module;
use crate::llvm::ir::{self, Linkage, Preemption, Visibility};
use crate::llvm::{Walker, WalkerEvent};

/// Every module of `stream`, its function bodies not yet read.
pub fn read_modules<'a>(stream: &Bitstream<'a>) -> Result<Vec<Module<'a>>> {
    let mut walker = Walker::new(stream);
    walker.read_strings_as_llvm();
    let mut modules: Vec<Module<'a>> = Vec::new();
    let mut producer: Option<Bytes<'a>> = None;
    let mut strtab: &'a [u8] = &[];
    // Modules whose names wait for a string table.
    let mut unnamed_from = 0;
    let mut stack: Vec<u32> = Vec::new();
    let mut state = State::default();
    // The last top-level IDENTIFICATION block's start, until its module begins.
    let mut identification_at: Option<u64> = None;
    loop {
        let (block, body_start, kept) = {
            let Some(event) = walker.next_event()? else { break };
            match event {
                WalkerEvent::Block(header) => {
                    stack.push(header.id);
                    if stack.len() == 1 && header.id == ir::identification_block::ID {
                        identification_at = Some(header.bit_offset);
                    }
                    if stack.len() == 1 && header.id == ir::module_block::ID {
                        modules.push(Module { producer: producer.take(), ..Module::default() });
                        let bitcode_start = identification_at.take().unwrap_or(header.bit_offset);
                        state = State { bitcode_start, ..State::default() };
                    }
                    if stack == [ir::module_block::ID, ir::constants_block::ID] {
                        if let Some(m) = modules.last_mut() {
                            m.constants_at.get_or_insert(walker.cursor().position());
                        }
                    }
                    if stack.len() == 1 && header.id == ir::strtab_block::ID {
                        strtab = &[];
                    }
                    (
                        None,
                        (header.id == ir::function_block::ID).then_some(header.bit_offset),
                        match stack.as_slice() {
                            [ir::module_block::ID, ir::metadata_block::ID] => Some(Kept::Metadata),
                            [ir::module_block::ID, ir::globalval_summary_block::ID]
                            | [ir::module_block::ID, ir::full_lto_globalval_summary_block::ID] => {
                                Some(Kept::Summary)
                            }
                            _ => None,
                        },
                    )
                }
                WalkerEvent::EndBlock(id) => {
                    stack.pop();
                    if stack.is_empty() && id == ir::strtab_block::ID && !strtab.is_empty() {
                        for module in modules.iter_mut().skip(unnamed_from) {
                            name_from_strtab(module, strtab).map_err(|problem| {
                                walker.locate(invalid(walker.cursor().position(), problem))
                            })?;
                        }
                        unnamed_from = modules.len();
                    }
                    if stack.len() == 1 && id == ir::type_block::ID {
                        if let Some(m) = modules.last_mut() {
                            m.typed_pointers = m.types.has_typed_pointers();
                            if let Some(bad) = m.types.dangling() {
                                let at = walker.cursor().position();
                                return Err(walker.locate(invalid(
                                    at,
                                    format!("type {bad} is referred to but never defined"),
                                )));
                            }
                            if let Some((ty, later)) = m.types.forward_non_struct() {
                                let at = walker.cursor().position();
                                return Err(walker.locate(invalid(
                                    at,
                                    format!("type {ty} refers to type {later}, defined later, which is not a named struct"),
                                )));
                            }
                        }
                    }
                    (None, None, None)
                }
                WalkerEvent::Deferred { .. } => (None, None, None),
                WalkerEvent::Record { block, record, ctx } => {
                    let decoded = ir::decode_record(block, &record, ctx)
                        .map_err(|e| e.with_block_path(record.path.ids()))?;
                    (Some((block, decoded, record.bit_offset)), None, None)
                }
            }
        };
        // The module's metadata and summary are decoded when they are asked for
        // (`Module::metadata_records`, `Module::summary_records`): kept as records, a
        // module's debug info took more memory than all the rest.
        if let Some(kept) = kept {
            if let Some(module) = modules.last_mut() {
                match kept {
                    Kept::Metadata => module.metadata_blocks.push(walker.clone()),
                    Kept::Summary => module.summary_blocks.push(walker.clone()),
                }
            }
            walker.skip_block()?;
            stack.pop();
            continue;
        }
        if let Some(body_at) = body_start {
            let Some(module) = modules.last_mut() else { continue };
            let index = state.next_body(module).ok_or_else(|| {
                walker.locate(invalid(
                    walker.cursor().position(),
                    "a function body for no defined function".into(),
                ))
            })?;
            if module.bodies.is_empty() {
                // A walker is large (about 900 bytes): grown by doubling, the list of a
                // thousand bodies was copied, and its pages touched, twice over.
                module.bodies.reserve_exact(module.functions.iter().filter(|f| !f.is_proto).count());
            }
            let mut body = walker.clone();
            body.read_through();
            module.bodies.push((index, body));
            state.body_words.resize(module.functions.len(), 0);
            if let Some(word) = state.body_words.get_mut(index as usize) {
                *word = body_at.saturating_sub(state.bitcode_start) / 32 + 1;
            }
            walker.skip_block()?;
            stack.pop();
            continue;
        }
        let Some((block, record, offset)) = block else { continue };
        if block == ir::identification_block::ID {
            if let ir::AnyRecord::IdentificationBlock(ir::identification_block::Record::String(s)) = record {
                producer = Some(s.producer);
            }
            continue;
        }
        if block == ir::strtab_block::ID {
            if let ir::AnyRecord::StrtabBlock(ir::strtab_block::Record::Blob(b)) = record {
                strtab = b.strtab;
            }
            continue;
        }
        let Some(module) = modules.last_mut() else { continue };
        state.record(module, record).map_err(|p| walker.locate(invalid(offset, p)))?;
    }
    for module in modules.iter_mut().skip(unnamed_from) {
        let end = walker.cursor().position();
        name_from_strtab(module, &[]).map_err(|problem| invalid(end, problem))?;
    }
    for module in &mut modules {
        strip_intrinsic_mustprogress(module);
    }
    Ok(modules)
}

/// A module sub-block kept unread, for the module to decode when asked.
enum Kept {
    Metadata,
    Summary,
}

/// Reading state of one module.
#[derive(Default)]
struct State<'a> {
    sections: Vec<Bytes<'a>>,
    gc_names: Vec<Bytes<'a>>,
    /// The current type of the module-level constants block.
    constant_type: u32,
    /// The next function whose body comes.
    next_body: usize,
    /// The name of the next struct or target type.
    struct_name: Option<Vec<u8>>,
    /// The program address space from the data layout.
    program_as: u32,
    /// The type table's size as NUMENTRY gives it.
    num_types: usize,
    /// The metadata kind ids given so far.
    md_kind_ids: std::collections::HashSet<u32>,
    /// Where the module's bitcode begins (its IDENTIFICATION block, else the MODULE
    /// block), the bit FNENTRY offsets count from.
    bitcode_start: u64,
    /// Each body's FUNCTION_BLOCK, in words from one word before `bitcode_start` (as
    /// FNENTRY records say it), by function index (0 for a function without one).
    body_words: Vec<u64>,
}

impl<'a> State<'a> {
    /// The index of the next function with a body.
    fn next_body(&mut self, module: &Module<'a>) -> Option<u32> {
        let found = module.functions.iter().enumerate().skip(self.next_body).find(|(_, f)| !f.is_proto)?.0;
        self.next_body = found + 1;
        Some(found as u32)
    }

    fn record(&mut self, m: &mut Module<'a>, record: ir::AnyRecord<'a>) -> std::result::Result<(), String> {
        use ir::AnyRecord as A;
        match record {
            A::ModuleBlock(r) => self.module_record(m, r),
            A::TypeBlock(r) => self.type_record(m, r),
            A::ParamattrGroupBlock(ir::paramattr_group_block::Record::GroupEntry(g)) => {
                let attrs = g.attrs.into_iter().map(attribute).collect::<std::result::Result<Vec<_>, _>>()?;
                let attrs = super::attributes::as_a_set(attrs);
                m.attributes.groups.insert(g.group_id, (g.param_index, Arc::new(attrs)));
                Ok(())
            }
            A::ParamattrBlock(ir::paramattr_block::Record::Entry(e)) => {
                let mut list = AttributeList { sets: Vec::with_capacity(e.groups.len()) };
                for g in e.groups {
                    if let Some((index, set)) = m.attributes.groups.get(&g) {
                        list.sets.push((*index, set.clone()));
                    }
                }
                m.attributes.lists.push(list);
                Ok(())
            }
            A::ConstantsBlock(r) => {
                if let ir::constants_block::Record::Settype(t) = &r {
                    if m.types.get(t.r#type.0).is_none() {
                        return Err(format!("SETTYPE names type {}, which is not in the table", t.r#type.0));
                    }
                    self.constant_type = t.r#type.0;
                    return Ok(());
                }
                let ty = self.constant_type;
                let is_function = |id: u32| {
                    matches!(m.values.get(id as usize), Some(Value { kind: ValueKind::Function(_), .. }))
                };
                let c = read_constant(&m.types, r, ty, is_function)?;
                let ty = super::body::constant_value_type(&mut m.types, &c, ty);
                let module: &Module<'a> = m;
                let value = |id: u32| module.values.get(id as usize);
                let c = Folder { m: module, types: &module.types, value: &value }.fold(c, ty);
                m.values.push(Value { ty, kind: ValueKind::Constant(c) });
                Ok(())
            }
            A::MetadataKindBlock(ir::metadata_kind_block::Record::Kind(k)) => {
                // LLVM's reader refuses a kind id given twice, even with the same name.
                if !self.md_kind_ids.insert(k.kind_id) {
                    return Err(format!("metadata kind {} is given twice", k.kind_id));
                }
                m.md_kinds.push((k.kind_id, k.name));
                Ok(())
            }
            A::SyncScopeNamesBlock(ir::sync_scope_names_block::Record::SyncScopeName(s)) => {
                m.sync_scopes.push(s.name);
                Ok(())
            }
            A::OperandBundleTagsBlock(ir::operand_bundle_tags_block::Record::OperandBundleTag(t)) => {
                m.bundle_tags.push(t.tag);
                Ok(())
            }
            // LLVM's reader takes nothing else in these two blocks ("Invalid record").
            A::SyncScopeNamesBlock(ir::sync_scope_names_block::Record::Unknown(raw)) => {
                Err(format!("a record of code {} among the sync scope names", raw.code))
            }
            A::OperandBundleTagsBlock(ir::operand_bundle_tags_block::Record::Unknown(raw)) => {
                Err(format!("a record of code {} among the operand bundle tags", raw.code))
            }
            A::ValueSymtabBlock(r) => {
                use ir::value_symtab_block::Record as V;
                let (value, name) = match r {
                    V::Entry(e) => (e.value.0, e.name),
                    V::Fnentry(e) => {
                        self.check_body_offset(m, e.value.0, e.offset)?;
                        (e.value.0, e.name)
                    }
                    _ => return Ok(()),
                };
                set_global_name(m, value, name);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// LLVM's reader reads a function's body where the module's symbol table says it
    /// is (FNENTRY): one that says otherwise than the walk found would have it read
    /// other bits as the body (or another function's body), so it is refused. An entry
    /// of another value is passed over, as LLVM's reader passes over the ones older
    /// writers gave aliases of functions.
    fn check_body_offset(&self, m: &Module<'a>, value: u32, offset: u64) -> std::result::Result<(), String> {
        let Some(Value { kind: ValueKind::Function(index), .. }) = m.values.get(value as usize) else {
            return Ok(());
        };
        match self.body_words.get(*index as usize) {
            Some(&word) if word != 0 && word != offset => Err(format!(
                "the symbol table puts function {index}'s body at word {offset}, but its FUNCTION_BLOCK is at word {word}"
            )),
            _ => Ok(()),
        }
    }

    fn type_record(
        &mut self,
        m: &mut Module<'a>,
        r: ir::type_block::Record<'a>,
    ) -> std::result::Result<(), String> {
        use ir::type_block::Record as T;
        // Named structs may be referred to before their record (LLVM makes a placeholder):
        // any id the table will hold is accepted, and checked when the block ends.
        let limit = self.num_types.max(m.types.len());
        let check = |_: &Module<'a>, id: u32| {
            if (id as usize) < limit {
                Ok(id)
            } else {
                Err(format!("type {id} is used before it is defined"))
            }
        };
        let ty = match r {
            T::NumEntry(n) => {
                // Bounded by the records that can follow: a guard, not an allocation.
                self.num_types = n.num_entries as usize;
                return Ok(());
            }
            T::StructName(n) => {
                self.struct_name = Some(n.name.to_vec());
                return Ok(());
            }
            T::Void(_) => Type::Void,
            T::Float(_) => Type::Float,
            T::Double(_) => Type::Double,
            T::Label(_) => Type::Label,
            T::Half(_) => Type::Half,
            T::BFloat(_) => Type::BFloat,
            T::X86Fp80(_) => Type::X86Fp80,
            T::Fp128(_) => Type::Fp128,
            T::PpcFp128(_) => Type::PpcFp128,
            T::Metadata(_) => Type::Metadata,
            T::X86Mmx(_) => Type::X86Mmx,
            T::X86Amx(_) => Type::X86Amx,
            T::Token(_) => Type::Token,
            T::Integer(i) => Type::Integer(i.width),
            T::Pointer(p) => {
                Type::Pointer { pointee: Some(check(m, p.pointee.0)?), address_space: p.address_space }
            }
            T::OpaquePointer(p) => Type::Pointer { pointee: None, address_space: p.address_space },
            T::Opaque(_) => Type::Struct { identified: Some(0), packed: false, elements: None },
            T::Array(a) => Type::Array { len: a.num_elements, element: check(m, a.element_type.0)? },
            T::Vector(v) => Type::Vector {
                len: v.num_elements,
                element: check(m, v.element_type.0)?,
                scalable: v.scalable,
            },
            T::StructAnon(s) => {
                let elements =
                    s.elements.iter().map(|e| check(m, e.0)).collect::<std::result::Result<_, _>>()?;
                Type::Struct { identified: None, packed: s.is_packed, elements: Some(elements) }
            }
            T::StructNamed(s) => {
                // Elements may refer to this struct itself (through pointers).
                let next = m.types.len() as u32;
                let elements = s
                    .elements
                    .iter()
                    .map(|e| if e.0 == next { Ok(next) } else { check(m, e.0) })
                    .collect::<std::result::Result<_, _>>()?;
                Type::Struct { identified: Some(0), packed: s.is_packed, elements: Some(elements) }
            }
            T::Function(f) => Type::Function {
                vararg: f.vararg,
                ret: check(m, f.return_type.0)?,
                params: f.params.iter().map(|p| check(m, p.0)).collect::<std::result::Result<_, _>>()?,
            },
            T::FunctionOld(f) => Type::Function {
                vararg: f.vararg,
                ret: check(m, f.return_type.0)?,
                params: f.params.iter().map(|p| check(m, p.0)).collect::<std::result::Result<_, _>>()?,
            },
            T::TargetType(t) => Type::Target {
                types: t.type_params.iter().map(|p| check(m, p.0)).collect::<std::result::Result<_, _>>()?,
                ints: t.int_params.clone(),
            },
            _ => return Err("a type record this reader does not know".into()),
        };
        let name = match ty {
            Type::Struct { identified: Some(_), .. } | Type::Target { .. } => self.struct_name.take(),
            _ => None,
        };
        m.types.push(ty, name);
        Ok(())
    }

    fn module_record(
        &mut self,
        m: &mut Module<'a>,
        r: ir::module_block::Record<'a>,
    ) -> std::result::Result<(), String> {
        use ir::module_block::Record as R;
        let typed = m.typed_pointers;
        match r {
            R::Version(v) => m.version = v.version,
            R::Triple(t) => m.triple = t.triple,
            R::Datalayout(d) => {
                self.program_as = layout_number(&d.datalayout, b"P");
                m.alloca_address_space = layout_number(&d.datalayout, b"A");
                m.datalayout = d.datalayout;
            }
            R::Asm(a) => m.asm = a.asm,
            R::Sectionname(s) => self.sections.push(s.name),
            R::Gcname(g) => self.gc_names.push(g.name),
            R::SourceFilename(s) => m.source_filename = Some(s.name),
            R::Hash(h) => m.hash = Some(h.words),
            R::Comdat(c) => {
                let strtab = c.strtab_offset.zip(c.strtab_size);
                m.comdats.push(Comdat { name: c.name.unwrap_or_default(), strtab, selection: c.selection });
            }
            R::GlobalVar(g) => {
                let (value_type, address_space) = if g.flags.explicit_type {
                    (g.r#type.0, g.flags.address_space as u32)
                } else {
                    let p = g.r#type.0;
                    (
                        m.types.pointee(p).ok_or("a global variable whose type is not a pointer")?,
                        m.types.address_space(p),
                    )
                };
                if m.types.get(value_type).is_none() {
                    return Err(format!("a global variable of type {value_type}, not in the table"));
                }
                let ty = m.types.pointer_to(value_type, address_space, typed);
                let mut common = common(
                    g.linkage,
                    g.visibility,
                    g.dll_storage,
                    g.preemption,
                    value_type,
                    ty,
                    address_space,
                );
                common.value_id = m.values.len() as u32;
                common.strtab = g.strtab_offset.zip(g.strtab_size);
                common.thread_local = g.thread_local;
                common.unnamed_addr = g.unnamed_addr;
                common.partition_at = partition(g.partition_offset, g.partition_size);
                let comdat = match g.comdat {
                    Some(c) => Some(c),
                    None => implicit_comdat(g.linkage, m),
                };
                let index = m.globals.len() as u32;
                m.globals.push(GlobalVar {
                    common,
                    constant: g.flags.is_const,
                    initializer: g.initializer,
                    align: g.align.map(|a| a.bytes()),
                    section: self.section(g.section)?,
                    externally_initialized: g.externally_initialized,
                    comdat,
                    attributes: g.attributes,
                    sanitizer: g.sanitizer.bits(),
                    code_model: g.code_model,
                });
                m.values.push(Value { ty, kind: ValueKind::Global(index) });
            }
            R::Function(f) => {
                let mut fty = f.r#type.0;
                if let Some(Type::Pointer { pointee: Some(p), .. }) = m.types.get(fty) {
                    fty = *p;
                }
                if !matches!(m.types.get(fty), Some(Type::Function { .. })) {
                    return Err(format!("a function of type {fty}, not a function type"));
                }
                let address_space = f.address_space.unwrap_or(self.program_as);
                let ty = m.types.pointer_to(fty, address_space, typed);
                let mut common =
                    common(f.linkage, f.visibility, f.dll_storage, f.preemption, fty, ty, address_space);
                common.value_id = m.values.len() as u32;
                common.strtab = f.strtab_offset.zip(f.strtab_size);
                common.unnamed_addr = f.unnamed_addr;
                common.partition_at = partition(f.partition_offset, f.partition_size);
                let comdat = match f.comdat {
                    Some(c) => Some(c),
                    None => implicit_comdat(f.linkage, m),
                };
                let index = m.functions.len() as u32;
                m.functions.push(Function {
                    common,
                    calling_conv: f.calling_conv,
                    is_proto: f.is_proto,
                    attributes: f.attributes,
                    align: f.align.map(|a| a.bytes()),
                    section: self.section(f.section)?,
                    gc: match f.gc {
                        Some(g) => Some(
                            self.gc_names
                                .get(g as usize)
                                .cloned()
                                .ok_or("a function's gc name is out of range")?,
                        ),
                        None => None,
                    },
                    comdat,
                    prefix: f.prefix_data,
                    prologue: f.prologue_data,
                    personality: f.personality,
                    preferred_align: f.preferred_align.map(|a| a.bytes()),
                });
                m.values.push(Value { ty, kind: ValueKind::Function(index) });
            }
            R::Alias(a) => {
                let ty = m.types.pointer_to(a.r#type.0, a.address_space, typed);
                let mut common = common(
                    a.linkage,
                    a.visibility,
                    a.dll_storage,
                    a.preemption,
                    a.r#type.0,
                    ty,
                    a.address_space,
                );
                common.value_id = m.values.len() as u32;
                common.strtab = a.strtab_offset.zip(a.strtab_size);
                common.thread_local = a.thread_local;
                common.unnamed_addr = a.unnamed_addr;
                common.partition_at = partition(a.partition_offset, a.partition_size);
                let index = m.aliases.len() as u32;
                m.aliases.push(Indirect { common, target: a.aliasee.0 });
                m.values.push(Value { ty, kind: ValueKind::Alias(index) });
            }
            R::AliasOld(a) => {
                let p = a.r#type.0;
                let value_type = m.types.pointee(p).ok_or("an alias whose type is not a pointer")?;
                let address_space = m.types.address_space(p);
                let mut common = common(
                    a.linkage,
                    a.visibility,
                    a.dll_storage,
                    a.preemption,
                    value_type,
                    p,
                    address_space,
                );
                common.value_id = m.values.len() as u32;
                common.strtab = a.strtab_offset.zip(a.strtab_size);
                common.thread_local = a.thread_local;
                common.unnamed_addr = a.unnamed_addr;
                let index = m.aliases.len() as u32;
                m.aliases.push(Indirect { common, target: a.aliasee.0 });
                m.values.push(Value { ty: p, kind: ValueKind::Alias(index) });
            }
            R::Ifunc(i) => {
                let ty = m.types.pointer_to(i.r#type.0, i.address_space, typed);
                let mut common =
                    common(i.linkage, i.visibility, None, i.preemption, i.r#type.0, ty, i.address_space);
                common.value_id = m.values.len() as u32;
                common.strtab = i.strtab_offset.zip(i.strtab_size);
                common.partition_at = partition(i.partition_offset, i.partition_size);
                let index = m.ifuncs.len() as u32;
                m.ifuncs.push(Indirect { common, target: i.resolver.0 });
                m.values.push(Value { ty, kind: ValueKind::Ifunc(index) });
            }
            _ => {}
        }
        Ok(())
    }

    fn section(&self, index: Option<u32>) -> std::result::Result<Option<Bytes<'a>>, String> {
        match index {
            Some(i) => self
                .sections
                .get(i as usize)
                .cloned()
                .map(Some)
                .ok_or_else(|| format!("section {i} is out of range")),
            None => Ok(None),
        }
    }
}

/// Where a partition name sits in the string table.
fn partition(offset: u64, size: u64) -> Option<(u64, u64)> {
    (size != 0).then_some((offset, size))
}

/// The comdat an old weak or linkonce linkage implies (its own name): none is made here.
fn implicit_comdat(_linkage: Linkage, _m: &Module<'_>) -> Option<u32> {
    None
}

/// The number of a data layout entry (`P<n>`, `A<n>`), 0 by default.
fn layout_number(layout: &[u8], prefix: &[u8]) -> u32 {
    layout
        .split(|&b| b == b'-')
        .find_map(|part| part.strip_prefix(prefix).and_then(|n| std::str::from_utf8(n).ok()?.parse().ok()))
        .unwrap_or(0)
}

/// The shared fields as LLVM's reader leaves them.
fn common<'a>(
    written: Linkage,
    visibility: Visibility,
    dll: Option<ir::DllStorage>,
    preemption: Preemption,
    value_type: u32,
    ty: u32,
    address_space: u32,
) -> GlobalCommon<'a> {
    let dll_storage = match (dll, written) {
        (Some(d), _) => d,
        (None, Linkage::DllimportOld) => ir::DllStorage::Dllimport,
        (None, Linkage::DllexportOld) => ir::DllStorage::Dllexport,
        (None, _) => ir::DllStorage::Default,
    };
    let linkage = written.folded();
    let local = matches!(linkage, Linkage::Private | Linkage::Internal);
    let visibility = if local { Visibility::Default } else { visibility };
    let dso_local = preemption == Preemption::DsoLocal
        || local
        || (visibility != Visibility::Default && linkage != Linkage::ExternWeak);
    GlobalCommon {
        value_id: 0,
        name: Bytes::default(),
        value_type,
        ty,
        address_space,
        linkage,
        visibility,
        dll_storage: if local { ir::DllStorage::Default } else { dll_storage },
        dso_local,
        unnamed_addr: ir::UnnamedAddr::None,
        thread_local: ir::ThreadLocal::NotThreadLocal,
        partition: Bytes::default(),
        partition_at: None,
        strtab: None,
    }
}

/// Names a global value from a value symbol table entry.
fn set_global_name<'a>(m: &mut Module<'a>, value: u32, name: Bytes<'a>) {
    let common = match m.values.get(value as usize).map(|v| &v.kind) {
        Some(ValueKind::Global(i)) => m.globals.get_mut(*i as usize).map(|g| &mut g.common),
        Some(ValueKind::Function(i)) => m.functions.get_mut(*i as usize).map(|g| &mut g.common),
        Some(ValueKind::Alias(i)) => m.aliases.get_mut(*i as usize).map(|g| &mut g.common),
        Some(ValueKind::Ifunc(i)) => m.ifuncs.get_mut(*i as usize).map(|g| &mut g.common),
        _ => None,
    };
    if let Some(c) = common {
        if c.name.is_empty() {
            c.name = name;
        }
    }
}

/// Names the global values and comdats of `m` from the string table.
fn name_from_strtab<'a>(m: &mut Module<'a>, strtab: &'a [u8]) -> std::result::Result<(), String> {
    m.strtab = strtab;
    let get = |at: Option<(u64, u64)>| -> Option<Bytes<'a>> {
        let (offset, size) = at?;
        let a = usize::try_from(offset).ok()?;
        let z = a.checked_add(usize::try_from(size).ok()?)?;
        strtab.get(a..z).map(Bytes::borrowed)
    };
    // The name at `at`, if any. LLVM's reader takes a name outside the table as no name,
    // and reads the record's fields from its first operand on (the name's offset as the
    // type...): refused.
    let name = |at: Option<(u64, u64)>, what: &str, index: usize| {
        match (at, get(at)) {
        (_, Some(name)) => Ok(Some(name)),
        (Some((offset, size)), None) => Err(format!(
            "the name of {what} {index} (offset {offset}, size {size}) is outside the string table ({} bytes)",
            strtab.len()
        )),
        (None, None) => Ok(None),
    }
    };
    let commons = (m.globals.iter_mut().enumerate().map(|(i, g)| ("global", i, &mut g.common)))
        .chain(m.functions.iter_mut().enumerate().map(|(i, f)| ("function", i, &mut f.common)))
        .chain(m.aliases.iter_mut().enumerate().map(|(i, a)| ("alias", i, &mut a.common)))
        .chain(m.ifuncs.iter_mut().enumerate().map(|(i, a)| ("ifunc", i, &mut a.common)));
    for (what, index, c) in commons {
        if let Some(n) = name(c.strtab, what, index)? {
            c.name = n;
        }
        if let Some(p) = get(c.partition_at) {
            c.partition = p;
        }
    }
    for (index, c) in m.comdats.iter_mut().enumerate() {
        if let Some(n) = name(c.strtab, "comdat", index)? {
            c.name = n;
        }
    }
    Ok(())
}

/// LLVM's reader gives intrinsics their own attributes, without the `mustprogress` a
/// writer may have put on their declarations: the declarations of `llvm.*` functions get
/// a copy of their list without it.
fn strip_intrinsic_mustprogress(m: &mut Module<'_>) {
    use super::attributes::FUNCTION_INDEX;
    let must = Attribute::Enum(ir::AttributeKind::Mustprogress);
    for f in &mut m.functions {
        if !f.common.name.starts_with(b"llvm.") {
            continue;
        }
        let Some(list) = m.attributes.list(f.attributes) else { continue };
        if !list.sets.iter().any(|(i, s)| *i == FUNCTION_INDEX && s.contains(&must)) {
            continue;
        }
        let mut list = list.clone();
        for (i, s) in &mut list.sets {
            if *i == FUNCTION_INDEX {
                Arc::make_mut(s).retain(|a| *a != must);
            }
        }
        f.attributes = Some(m.attributes.lists.len() as u32);
        m.attributes.lists.push(list);
    }
}

/// An attribute as the model keeps it.
fn attribute(a: ir::Attribute<'_>) -> std::result::Result<Attribute<'_>, String> {
    use ir::Attribute as G;
    let a = match a {
        G::Enum { kind } => Attribute::Enum(kind),
        G::Int { kind, value } => Attribute::Int(kind, value),
        G::String { key } => Attribute::String(key, None),
        G::StringValue { key, value } => Attribute::String(key, Some(value)),
        G::TypeUntyped { kind } => Attribute::Type(kind, None),
        G::Type { kind, r#type } => Attribute::Type(kind, Some(r#type.0)),
        G::ConstantRange { kind, bit_width, range } => {
            Attribute::Range(kind, bit_width, range.lower, range.upper)
        }
        G::ConstantRangeList { kind, bit_width, ranges, .. } => {
            Attribute::RangeList(kind, bit_width, ranges.into_iter().map(|r| (r.lower, r.upper)).collect())
        }
    };
    // LLVM's reader refuses a kind it does not know, where this one would drop it.
    match a.kind() {
        Some(ir::AttributeKind::Unknown(code)) => Err(format!("attribute kind {code} is not one LLVM knows")),
        _ => Ok(a),
    }
}
