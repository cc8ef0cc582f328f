//! METADATA_BLOCK records to arena entries, as LLVM's MetadataLoader reads them.

use std::borrow::Cow;

use crate::llvm::ir::metadata_block::Record;
use crate::llvm::metadata_strings;

use super::arena::{Md, MdRef, Metadata};
use super::di::{Bits, Bound, DiNode, Enumerator, Location, Ref};

/// A signed VBR as LLVM stores signed values: the sign in bit 0.
fn decode_signed(v: u64) -> i64 {
    let magnitude = (v >> 1) as i64;
    if v & 1 == 0 {
        magnitude
    } else if magnitude == 0 {
        i64::MIN
    } else {
        -magnitude
    }
}

impl<'a> Metadata<'a> {
    /// A record of the module-level METADATA_BLOCK (taken: a node's operands become its
    /// entry's).
    pub fn add_module_record(&mut self, record: Record<'a>) -> Result<(), String> {
        self.add_record(record)
    }

    /// A record of a function-level METADATA_BLOCK (between [`Metadata::begin_function`]
    /// and [`Metadata::end_function`]).
    pub fn add_function_record(&mut self, record: Record<'a>) -> Result<(), String> {
        if self.function.is_none() {
            return Err("function-level metadata record outside a function".into());
        }
        self.add_record(record)
    }

    /// Starts the scope of a function body's metadata ([`Metadata::begin_function`]) with
    /// the records of its METADATA_BLOCK, taken.
    pub fn begin_body(&mut self, records: Vec<Record<'a>>) -> Result<(), String> {
        self.begin_function();
        records.into_iter().try_for_each(|r| self.add_function_record(r))
    }

    /// An md ref field (id + 1, 0 for null) to its entry.
    fn md(&self, id: Option<u32>) -> Ref {
        id.and_then(|id| self.map_id(u64::from(id)))
    }

    /// A node of the block, distinct or not.
    fn di(&mut self, distinct: bool, node: DiNode) -> Result<(), String> {
        self.push(Md::Di { distinct, node: Box::new(node) }).map(|_| ())
    }

    fn add_record(&mut self, record: Record<'a>) -> Result<(), String> {
        match record {
            Record::Strings(s) => {
                let strings = metadata_strings(s.count, s.offset, s.data)
                    .map_err(|e| format!("METADATA_BLOCK/STRINGS: {e}"))?;
                for string in strings {
                    self.push(Md::String(Cow::Borrowed(string)))?;
                }
            }
            Record::StringOld(s) => {
                self.push(Md::String(Cow::Owned(s.string.as_bytes().to_vec())))?;
            }
            Record::Value(v) => {
                let function = self.function;
                self.push(Md::Value { ty: v.r#type.0, value: v.value.0, function })?;
            }
            Record::Node(n) => self.tuple(false, n.operands)?,
            Record::DistinctNode(n) => self.tuple(true, n.operands)?,
            Record::Name(n) => self.pending_name = Some(n.name.as_bytes().into()),
            Record::NamedNode(n) => {
                let name = self
                    .pending_name
                    .take()
                    .ok_or("METADATA_BLOCK/NAMED_NODE without a NAME record before it")?;
                let nodes = n
                    .nodes
                    .iter()
                    .map(|&id| self.map_id(u64::from(id)).ok_or("METADATA_BLOCK/NAMED_NODE: bad id"))
                    .collect::<Result<Box<[MdRef]>, _>>()?;
                self.named.push((name, nodes));
            }
            Record::Kind(k) => self.add_kind(k.kind, k.name.as_bytes()),
            Record::GlobalDeclAttachment(a) => {
                let mut list = Vec::with_capacity(a.attachments.len());
                for att in &a.attachments {
                    let node = self
                        .map_id(u64::from(att.node))
                        .ok_or("METADATA_BLOCK/GLOBAL_DECL_ATTACHMENT: bad node id")?;
                    list.push((att.kind, node));
                }
                self.global_attachments.entry(a.value.0).or_default().extend(list);
            }
            Record::IndexOffset(_) | Record::Index(_) | Record::Attachment(_) => {}
            Record::Location(l) => {
                let location = Location {
                    line: l.line,
                    column: l.column,
                    scope: self.map_id(u64::from(l.scope)),
                    inlined_at: self.md(l.inlined_at),
                    implicit_code: l.implicit_code,
                    atom_group: l.atom_group,
                    atom_rank: l.atom_rank,
                };
                let md = self.push(Md::Location { distinct: l.distinct, location })?;
                if !l.distinct {
                    self.note_location(location, md);
                }
            }
            Record::GenericDebug(g) => {
                let operands = g.operands.iter().map(|&o| self.md(o)).collect();
                self.di(
                    g.distinct,
                    DiNode::Generic { tag: u32::from(g.tag), header: self.md(g.header), operands },
                )?
            }
            Record::Subrange(s) => {
                let node = match s.flags.version {
                    0 => DiNode::Subrange {
                        count: Bound::Int(s.count as i64),
                        lower_bound: Bound::Int(decode_signed(s.lower_bound)),
                        upper_bound: Bound::None,
                        stride: Bound::None,
                    },
                    1 => DiNode::Subrange {
                        count: self.bound(Some(s.count)),
                        lower_bound: Bound::Int(decode_signed(s.lower_bound)),
                        upper_bound: Bound::None,
                        stride: Bound::None,
                    },
                    _ => DiNode::Subrange {
                        count: self.bound(Some(s.count)),
                        lower_bound: self.bound(Some(s.lower_bound)),
                        upper_bound: self.bound(s.upper_bound.map(|v| u64::from(v) + 1)),
                        stride: self.bound(s.stride.map(|v| u64::from(v) + 1)),
                    },
                };
                self.di(s.flags.distinct, node)?
            }
            Record::GenericSubrange(s) => {
                let node = DiNode::GenericSubrange {
                    count: self.md(s.count),
                    lower_bound: self.md(s.lower_bound),
                    upper_bound: self.md(s.upper_bound),
                    stride: self.md(s.stride),
                };
                self.di(s.flags.distinct, node)?
            }
            Record::Enumerator(e) => {
                let (bit_width, words): (u32, Box<[u64]>) = if e.flags.big_int {
                    let width = u32::try_from(e.value_or_bit_width).map_err(|_| "enumerator bit width")?;
                    (width, e.words.iter().map(|&w| w as u64).collect())
                } else {
                    (64, Box::new([decode_signed(e.value_or_bit_width) as u64]))
                };
                let node =
                    Enumerator { name: self.md(e.name), is_unsigned: e.flags.is_unsigned, bit_width, words };
                self.di(e.flags.distinct, DiNode::Enumerator(node))?
            }
            Record::BasicType(b) => {
                let node = DiNode::BasicType {
                    tag: u32::from(b.tag),
                    name: self.md(b.name),
                    size: self.bits(b.flags.size_is_metadata, b.size),
                    align: b.align,
                    encoding: b.encoding.code() as u32,
                    flags: b.di_flags.bits(),
                    num_extra_inhabitants: b.num_extra_inhabitants,
                    data_size: b.data_size,
                };
                self.di(b.flags.distinct, node)?
            }
            Record::FixedPointType(b) => {
                let node = DiNode::FixedPointType {
                    tag: u32::from(b.tag),
                    name: self.md(b.name),
                    size: self.bits(b.flags.size_is_metadata, b.size),
                    align: b.align,
                    encoding: b.encoding.code() as u32,
                    flags: b.di_flags.bits(),
                    kind: b.kind.code() as u32,
                    factor: b.factor as i64,
                };
                self.di(b.flags.distinct, node)?
            }
            Record::StringType(s) => {
                // The 8-operand form (before LLVM 14) has no location expression: the
                // operands from there on are size, alignment and encoding.
                let (location, size, align, encoding) = match s.encoding {
                    Some(encoding) => {
                        (self.md(s.string_location_exp), s.size, s.align, encoding.code() as u32)
                    }
                    None => {
                        (None, s.string_location_exp.map_or(0, |v| u64::from(v) + 1), s.size as u32, s.align)
                    }
                };
                let node = DiNode::StringType {
                    tag: u32::from(s.tag),
                    name: self.md(s.name),
                    string_length: self.md(s.string_length),
                    string_length_exp: self.md(s.string_length_exp),
                    string_location_exp: location,
                    size: self.bits(s.flags.size_is_metadata, size),
                    align,
                    encoding,
                };
                self.di(s.flags.distinct, node)?
            }
            Record::File(f) => {
                let node = DiNode::File {
                    filename: self.md(f.filename),
                    directory: self.md(f.directory),
                    checksum_kind: f.checksum_kind.code() as u32,
                    checksum: self.md(f.checksum),
                    source: self.md(f.source),
                };
                self.di(f.distinct, node)?
            }
            Record::DerivedType(d) => {
                let node = DiNode::DerivedType {
                    tag: u32::from(d.tag),
                    name: self.md(d.name),
                    file: self.md(d.file),
                    line: d.line,
                    scope: self.md(d.scope),
                    base_type: self.md(d.base_type),
                    size: self.bits(d.flags.size_is_metadata, d.size),
                    align: d.align,
                    offset: self.bits(d.flags.size_is_metadata, d.offset),
                    flags: d.di_flags.bits(),
                    extra_data: self.md(d.extra_data),
                    dwarf_address_space: d.dwarf_address_space,
                    annotations: self.md(d.annotations),
                    ptr_auth: d.ptr_auth.bits(),
                };
                self.di(d.flags.distinct, node)?
            }
            Record::CompositeType(c) => {
                let node = DiNode::CompositeType {
                    tag: u32::from(c.tag),
                    name: self.md(c.name),
                    file: self.md(c.file),
                    line: c.line,
                    scope: self.md(c.scope),
                    base_type: self.md(c.base_type),
                    size: self.bits(c.flags.size_is_metadata, c.size),
                    align: c.align,
                    offset: self.bits(c.flags.size_is_metadata, c.offset),
                    flags: c.di_flags.bits(),
                    elements: self.md(c.elements),
                    runtime_lang: c.runtime_lang,
                    vtable_holder: self.md(c.vtable_holder),
                    template_params: self.md(c.template_params),
                    identifier: self.md(c.identifier),
                    discriminator: self.md(c.discriminator),
                    data_location: self.md(c.data_location),
                    associated: self.md(c.associated),
                    allocated: self.md(c.allocated),
                    rank: self.md(c.rank),
                    annotations: self.md(c.annotations),
                    num_extra_inhabitants: c.num_extra_inhabitants,
                    specification: self.md(c.specification),
                    enum_kind: (c.enum_kind != u32::MAX).then_some(c.enum_kind),
                    bit_stride: self.md(c.bit_stride),
                };
                self.di(c.flags.distinct, node)?
            }
            Record::SubroutineType(s) => {
                let node =
                    DiNode::SubroutineType { flags: s.di_flags.bits(), cc: s.cc, types: self.md(s.types) };
                self.di(s.flags.distinct, node)?
            }
            Record::CompileUnit(c) => {
                let node = DiNode::CompileUnit {
                    language: c.language.language,
                    versioned_language: c.language.versioned,
                    language_version: c.language_version,
                    file: self.md(c.file),
                    producer: self.md(c.producer),
                    is_optimized: c.is_optimized,
                    flags: self.md(c.flags),
                    runtime_version: c.runtime_version,
                    split_debug_filename: self.md(c.split_debug_filename),
                    emission_kind: c.emission_kind.code() as u32,
                    enums: self.md(c.enums),
                    retained_types: self.md(c.retained_types),
                    globals: self.md(c.globals),
                    imports: self.md(c.imports),
                    macros: self.md(c.macros),
                    dwo_id: c.dwo_id,
                    split_debug_inlining: c.split_debug_inlining,
                    debug_info_for_profiling: c.debug_info_for_profiling,
                    name_table_kind: c.name_table_kind.code() as u32,
                    ranges_base_address: c.ranges_base_address,
                    sysroot: self.md(c.sysroot),
                    sdk: self.md(c.sdk),
                };
                // Compile units are always distinct.
                self.di(true, node)?
            }
            Record::Subprogram(s) => {
                if !s.flags.has_sp_flags {
                    return Err("METADATA_BLOCK/SUBPROGRAM: the pre-LLVM 8 layout is not read".into());
                }
                let mut sp_flags = s.sp_flags.bits();
                let mut flags = s.di_flags.bits();
                // The obsolete DIFlagMainSubprogram moves into the SP flags.
                if flags & (1 << 21) != 0 {
                    flags &= !(1 << 21);
                    sp_flags |= 1 << 8;
                }
                let definition = sp_flags & (1 << 3) != 0;
                let node = DiNode::Subprogram {
                    scope: self.md(s.scope),
                    name: self.md(s.name),
                    linkage_name: self.md(s.linkage_name),
                    file: self.md(s.file),
                    line: s.line,
                    ty: self.md(s.r#type),
                    scope_line: s.scope_line,
                    containing_type: self.md(s.containing_type),
                    sp_flags,
                    virtual_index: s.virtual_index,
                    flags,
                    unit: if s.flags.has_unit { self.md(s.unit) } else { None },
                    template_params: self.md(s.template_params),
                    declaration: self.md(s.declaration),
                    retained_nodes: self.md(s.retained_nodes),
                    this_adjustment: s.this_adjustment as i32,
                    thrown_types: self.md(s.thrown_types),
                    annotations: self.md(s.annotations),
                    target_func_name: self.md(s.target_func_name),
                    key_instructions: s.key_instructions,
                };
                // Definitions are always distinct.
                self.di(s.flags.distinct || definition, node)?
            }
            Record::LexicalBlock(b) => {
                let node = DiNode::LexicalBlock {
                    scope: self.md(b.scope),
                    file: self.md(b.file),
                    line: b.line,
                    column: b.column,
                };
                self.di(b.distinct, node)?
            }
            Record::LexicalBlockFile(b) => {
                let node = DiNode::LexicalBlockFile {
                    scope: self.md(b.scope),
                    file: self.md(b.file),
                    discriminator: b.discriminator,
                };
                self.di(b.distinct, node)?
            }
            Record::Namespace(n) => {
                let name = if n.old_name.is_some() { n.old_name } else { n.name };
                let node = DiNode::Namespace {
                    scope: self.md(n.scope),
                    name: self.md(name),
                    export_symbols: n.flags.export_symbols,
                };
                self.di(n.flags.distinct, node)?
            }
            Record::CommonBlock(c) => {
                let node = DiNode::CommonBlock {
                    scope: self.md(c.scope),
                    decl: self.md(c.decl),
                    name: self.md(c.name),
                    file: self.md(c.file),
                    line: c.line,
                };
                self.di(c.flags.distinct, node)?
            }
            Record::Module(m) => {
                let node = DiNode::Module {
                    file: self.md(m.file),
                    scope: self.md(m.scope),
                    name: self.md(m.name),
                    config_macros: self.md(m.config_macros),
                    include_path: self.md(m.include_path),
                    api_notes: self.md(m.api_notes),
                    line: m.line,
                    is_decl: m.is_decl,
                };
                self.di(m.distinct, node)?
            }
            Record::TemplateType(t) => {
                let node = DiNode::TemplateType {
                    name: self.md(t.name),
                    ty: self.md(t.r#type),
                    is_default: t.is_default,
                };
                self.di(t.distinct, node)?
            }
            Record::TemplateValue(t) => {
                let node = DiNode::TemplateValue {
                    tag: u32::from(t.tag),
                    name: self.md(t.name),
                    ty: self.md(t.r#type),
                    is_default: t.is_default.unwrap_or(false),
                    value: self.md(t.value),
                };
                self.di(t.distinct, node)?
            }
            Record::GlobalVar(g) => {
                if g.flags.version < 2 {
                    return Err("METADATA_BLOCK/GLOBAL_VAR: versions before 2 are not read".into());
                }
                let node = DiNode::GlobalVariable {
                    scope: self.md(g.scope),
                    name: self.md(g.name),
                    linkage_name: self.md(g.linkage_name),
                    file: self.md(g.file),
                    line: g.line,
                    ty: self.md(g.r#type),
                    is_local: g.is_local,
                    is_definition: g.is_definition,
                    declaration: self.md(g.declaration),
                    template_params: self.md(g.template_params),
                    align: g.align,
                    annotations: self.md(g.annotations),
                };
                self.di(g.flags.distinct, node)?
            }
            Record::LocalVar(v) => {
                if !v.flags.has_alignment {
                    return Err("METADATA_BLOCK/LOCAL_VAR: layouts without alignment are not read".into());
                }
                let node = DiNode::LocalVariable {
                    scope: self.md(v.scope),
                    name: self.md(v.name),
                    file: self.md(v.file),
                    line: v.line,
                    ty: self.md(v.r#type),
                    arg: v.arg,
                    flags: v.di_flags.bits(),
                    align: v.align,
                    annotations: self.md(v.annotations),
                };
                self.di(v.flags.distinct, node)?
            }
            Record::Label(l) => {
                let node = DiNode::Label {
                    scope: self.md(l.scope),
                    name: self.md(l.name),
                    file: self.md(l.file),
                    line: l.line,
                    column: l.column,
                    artificial: l.flags.artificial,
                    coro_suspend_idx: l.coro_suspend_idx.filter(|&i| i != u64::MAX),
                };
                self.di(l.flags.distinct, node)?
            }
            Record::Expression(e) => {
                if e.flags.version < 3 {
                    return Err(
                        "METADATA_BLOCK/EXPRESSION: element encodings before version 3 are not read".into()
                    );
                }
                self.di(e.flags.distinct, DiNode::Expression(e.elements.as_slice().into()))?
            }
            Record::GlobalVarExpr(g) => {
                let node = DiNode::GlobalVariableExpression {
                    var: self.md(g.variable),
                    expr: self.md(g.expression),
                };
                self.di(g.distinct, node)?
            }
            Record::ObjcProperty(p) => {
                let node = DiNode::ObjcProperty {
                    name: self.md(p.name),
                    file: self.md(p.file),
                    line: p.line,
                    // LLVM's writer puts the setter's name first, but MetadataLoader reads
                    // that operand as the getter's: the module LLVM reads (and llvm-dis
                    // prints) has the two swapped, and so does this one.
                    setter: self.md(p.getter_name),
                    getter: self.md(p.setter_name),
                    attributes: p.attributes,
                    ty: self.md(p.r#type),
                };
                self.di(p.distinct, node)?
            }
            Record::ImportedEntity(i) => {
                let node = DiNode::ImportedEntity {
                    tag: u32::from(i.tag),
                    scope: self.md(i.scope),
                    entity: self.md(i.entity),
                    line: i.line,
                    name: self.md(i.name),
                    file: self.md(i.file),
                    elements: self.md(i.elements),
                };
                self.di(i.distinct, node)?
            }
            Record::Macro(m) => {
                let node = DiNode::Macro {
                    macinfo_type: m.macinfo_type.code() as u32,
                    line: m.line,
                    name: self.md(m.name),
                    value: self.md(m.value),
                };
                self.di(m.distinct, node)?
            }
            Record::MacroFile(m) => {
                let node = DiNode::MacroFile {
                    macinfo_type: m.macinfo_type.code() as u32,
                    line: m.line,
                    file: self.md(m.file),
                    elements: self.md(m.elements),
                };
                self.di(m.distinct, node)?
            }
            Record::ArgList(a) => {
                let args = a.args.iter().map(|&id| self.map_id(u64::from(id))).collect();
                self.di(false, DiNode::ArgList(args))?
            }
            Record::AssignId(a) => {
                let _ = a.flags.distinct;
                self.di(true, DiNode::AssignId)?
            }
            Record::SubrangeType(s) => {
                let node = DiNode::SubrangeType {
                    name: self.md(s.name),
                    file: self.md(s.file),
                    line: s.line,
                    scope: self.md(s.scope),
                    size: self.bits(s.flags.size_is_metadata, s.size),
                    align: s.align,
                    flags: s.di_flags.bits(),
                    base_type: self.md(s.base_type),
                    lower_bound: self.md(s.lower_bound),
                    upper_bound: self.md(s.upper_bound),
                    stride: self.md(s.stride),
                    bias: self.md(s.bias),
                };
                self.di(s.flags.distinct, node)?
            }
            Record::OldNode(_) | Record::OldFnNode(_) => {
                return Err("METADATA_BLOCK: pre-3.6 node records are not read".into());
            }
            Record::Unknown(raw) => {
                return Err(format!("METADATA_BLOCK: unknown record code {}", raw.code));
            }
        }
        Ok(())
    }

    /// A generic tuple: operands are md refs (id + 1, 0 for null). They are mapped where
    /// they are (an id and an entry take the same room): a module with many scoped-noalias
    /// tuples allocated each twice.
    fn tuple(&mut self, distinct: bool, operands: Vec<Option<u32>>) -> Result<(), String> {
        let operands = operands.into_iter().map(|o| self.md(o)).collect();
        self.push(Md::Tuple { distinct, operands }).map(|_| ())
    }

    /// A size or offset operand: bits, or with `is_metadata` an md ref (id + 1) to the
    /// node that holds them (null reads as 0).
    fn bits(&self, is_metadata: bool, operand: u64) -> Bits {
        if !is_metadata {
            return Bits::Value(operand);
        }
        match operand.checked_sub(1).and_then(|id| self.map_id(id)) {
            Some(node) => Bits::Node(node),
            None => Bits::Value(0),
        }
    }

    /// A subrange bound given as an md ref (id + 1).
    fn bound(&self, md_ref: Option<u64>) -> Bound {
        match md_ref {
            Some(0) | None => Bound::None,
            Some(r) => self.map_id(r - 1).map_or(Bound::None, Bound::Node),
        }
    }
}
