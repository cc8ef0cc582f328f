//! The debug-info node kinds and their fields, as LLVM 13 to 22 hold them. References
//! to other metadata are `Option<MdRef>` (`None` is null); strings are references to
//! string entries, as in LLVM (an empty string reads as null there).

use super::MdRef;

/// A metadata reference that may be null.
pub type Ref = Option<MdRef>;

/// A DILocation's fields (also the key of uniqued locations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// Line (printed even when 0).
    pub line: u32,
    /// Column.
    pub column: u32,
    /// The scope.
    pub scope: Ref,
    /// The location this one is inlined at.
    pub inlined_at: Ref,
    /// Compiler-generated code.
    pub implicit_code: bool,
    /// Key Instructions atom group (LLVM 21+).
    pub atom_group: u64,
    /// Key Instructions atom rank (LLVM 21+).
    pub atom_rank: u8,
}

/// A DIEnumerator's value: the words of an integer of `bit_width` bits, low first.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    /// The name.
    pub name: Ref,
    /// Whether the value is unsigned.
    pub is_unsigned: bool,
    /// The value's width in bits.
    pub bit_width: u32,
    /// The value's 64-bit words, low first.
    pub words: Box<[u64]>,
}

/// Every debug-info node kind, with the fields AsmWriter prints.
#[allow(missing_docs)] // the fields are named as in LLVM's textual IR
#[derive(Clone, Debug, PartialEq)]
pub enum DiNode {
    /// !GenericDINode.
    Generic { tag: u32, header: Ref, operands: Box<[Ref]> },
    /// !DISubrange: each bound a constant (`Int`) or a node.
    Subrange { count: Bound, lower_bound: Bound, upper_bound: Bound, stride: Bound },
    /// !DIGenericSubrange.
    GenericSubrange { count: Ref, lower_bound: Ref, upper_bound: Ref, stride: Ref },
    /// !DIEnumerator.
    Enumerator(Enumerator),
    /// !DIBasicType.
    BasicType {
        tag: u32,
        name: Ref,
        size: Bits,
        align: u32,
        encoding: u32,
        flags: u64,
        num_extra_inhabitants: u32,
        data_size: u32,
    },
    /// !DIFixedPointType (LLVM 21+), kept as its record's fields.
    FixedPointType {
        tag: u32,
        name: Ref,
        size: Bits,
        align: u32,
        encoding: u32,
        flags: u64,
        kind: u32,
        factor: i64,
    },
    /// !DIStringType.
    StringType {
        tag: u32,
        name: Ref,
        string_length: Ref,
        string_length_exp: Ref,
        string_location_exp: Ref,
        size: Bits,
        align: u32,
        encoding: u32,
    },
    /// !DIFile.
    File { filename: Ref, directory: Ref, checksum_kind: u32, checksum: Ref, source: Ref },
    /// !DIDerivedType.
    DerivedType {
        tag: u32,
        name: Ref,
        file: Ref,
        line: u32,
        scope: Ref,
        base_type: Ref,
        size: Bits,
        align: u32,
        offset: Bits,
        flags: u64,
        extra_data: Ref,
        dwarf_address_space: Option<u32>,
        annotations: Ref,
        ptr_auth: u64,
    },
    /// !DICompositeType.
    CompositeType {
        tag: u32,
        name: Ref,
        file: Ref,
        line: u32,
        scope: Ref,
        base_type: Ref,
        size: Bits,
        align: u32,
        offset: Bits,
        flags: u64,
        elements: Ref,
        runtime_lang: u32,
        vtable_holder: Ref,
        template_params: Ref,
        identifier: Ref,
        discriminator: Ref,
        data_location: Ref,
        associated: Ref,
        allocated: Ref,
        rank: Ref,
        annotations: Ref,
        num_extra_inhabitants: u32,
        specification: Ref,
        enum_kind: Option<u32>,
        bit_stride: Ref,
    },
    /// !DISubroutineType.
    SubroutineType { flags: u64, cc: u8, types: Ref },
    /// !DICompileUnit.
    CompileUnit {
        language: u64,
        versioned_language: bool,
        language_version: u32,
        file: Ref,
        producer: Ref,
        is_optimized: bool,
        flags: Ref,
        runtime_version: u32,
        split_debug_filename: Ref,
        emission_kind: u32,
        enums: Ref,
        retained_types: Ref,
        globals: Ref,
        imports: Ref,
        macros: Ref,
        dwo_id: u64,
        split_debug_inlining: bool,
        debug_info_for_profiling: bool,
        name_table_kind: u32,
        ranges_base_address: bool,
        sysroot: Ref,
        sdk: Ref,
    },
    /// !DISubprogram.
    Subprogram {
        scope: Ref,
        name: Ref,
        linkage_name: Ref,
        file: Ref,
        line: u32,
        ty: Ref,
        scope_line: u32,
        containing_type: Ref,
        sp_flags: u64,
        virtual_index: u32,
        flags: u64,
        unit: Ref,
        template_params: Ref,
        declaration: Ref,
        retained_nodes: Ref,
        this_adjustment: i32,
        thrown_types: Ref,
        annotations: Ref,
        target_func_name: Ref,
        key_instructions: bool,
    },
    /// !DILexicalBlock.
    LexicalBlock { scope: Ref, file: Ref, line: u32, column: u32 },
    /// !DILexicalBlockFile.
    LexicalBlockFile { scope: Ref, file: Ref, discriminator: u32 },
    /// !DINamespace.
    Namespace { scope: Ref, name: Ref, export_symbols: bool },
    /// !DICommonBlock.
    CommonBlock { scope: Ref, decl: Ref, name: Ref, file: Ref, line: u32 },
    /// !DIModule.
    Module {
        file: Ref,
        scope: Ref,
        name: Ref,
        config_macros: Ref,
        include_path: Ref,
        api_notes: Ref,
        line: u32,
        is_decl: bool,
    },
    /// !DITemplateTypeParameter.
    TemplateType { name: Ref, ty: Ref, is_default: bool },
    /// !DITemplateValueParameter.
    TemplateValue { tag: u32, name: Ref, ty: Ref, is_default: bool, value: Ref },
    /// !DIGlobalVariable.
    GlobalVariable {
        scope: Ref,
        name: Ref,
        linkage_name: Ref,
        file: Ref,
        line: u32,
        ty: Ref,
        is_local: bool,
        is_definition: bool,
        declaration: Ref,
        template_params: Ref,
        align: u32,
        annotations: Ref,
    },
    /// !DILocalVariable.
    LocalVariable {
        scope: Ref,
        name: Ref,
        file: Ref,
        line: u32,
        ty: Ref,
        arg: u32,
        flags: u64,
        align: u32,
        annotations: Ref,
    },
    /// !DILabel.
    Label {
        scope: Ref,
        name: Ref,
        file: Ref,
        line: u32,
        column: u32,
        artificial: bool,
        coro_suspend_idx: Option<u64>,
    },
    /// !DIExpression: its elements, upgraded to the current encoding.
    Expression(Box<[u64]>),
    /// !DIGlobalVariableExpression.
    GlobalVariableExpression { var: Ref, expr: Ref },
    /// !DIObjCProperty.
    ObjcProperty { name: Ref, file: Ref, line: u32, setter: Ref, getter: Ref, attributes: u32, ty: Ref },
    /// !DIImportedEntity.
    ImportedEntity { tag: u32, scope: Ref, entity: Ref, line: u32, name: Ref, file: Ref, elements: Ref },
    /// !DIMacro.
    Macro { macinfo_type: u32, line: u32, name: Ref, value: Ref },
    /// !DIMacroFile.
    MacroFile { macinfo_type: u32, line: u32, file: Ref, elements: Ref },
    /// !DIArgList: value-as-metadata arguments.
    ArgList(Box<[Ref]>),
    /// !DIAssignID.
    AssignId,
    /// !DISubrangeType (LLVM 21+).
    SubrangeType {
        name: Ref,
        file: Ref,
        line: u32,
        scope: Ref,
        size: Bits,
        align: u32,
        flags: u64,
        base_type: Ref,
        lower_bound: Ref,
        upper_bound: Ref,
        stride: Ref,
        bias: Ref,
    },
}

/// A size or offset in bits: a number, or (LLVM 21+, `size_is_metadata`) a node that
/// holds it (a constant, a variable or an expression).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bits {
    /// The number of bits.
    Value(u64),
    /// The node that gives it.
    Node(MdRef),
}

impl Bits {
    /// The node, for a size given as one.
    pub fn node(self) -> Ref {
        match self {
            Bits::Node(n) => Some(n),
            Bits::Value(_) => None,
        }
    }
}

/// A DISubrange bound: absent, a constant, or a node (a variable or an expression).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No bound.
    None,
    /// A constant (held by LLVM as a ConstantAsMetadata of an i64).
    Int(i64),
    /// A node.
    Node(MdRef),
}

impl Location {
    /// The node operands: scope and inlinedAt.
    pub fn operands(&self, mut visit: impl FnMut(MdRef)) {
        [self.scope, self.inlined_at].into_iter().flatten().for_each(&mut visit);
    }
}

impl DiNode {
    /// The node operands, in the order of LLVM's operand list of the node (the order in
    /// which AsmWriter's SlotTracker numbers them); strings included, the caller skips
    /// them.
    pub fn operands(&self, mut visit: impl FnMut(MdRef)) {
        let mut each = |refs: &[Ref]| refs.iter().flatten().for_each(|&r| visit(r));
        match self {
            DiNode::Generic { header, operands, .. } => {
                each(&[*header]);
                each(operands)
            }
            DiNode::Subrange { count, lower_bound, upper_bound, stride } => {
                let node = |b: &Bound| if let Bound::Node(n) = b { Some(*n) } else { None };
                each(&[node(count), node(lower_bound), node(upper_bound), node(stride)])
            }
            DiNode::GenericSubrange { count, lower_bound, upper_bound, stride } => {
                each(&[*count, *lower_bound, *upper_bound, *stride])
            }
            DiNode::Enumerator(e) => each(&[e.name]),
            DiNode::BasicType { name, size, .. } | DiNode::FixedPointType { name, size, .. } => {
                each(&[*name, size.node()])
            }
            DiNode::StringType {
                name, string_length, string_length_exp, string_location_exp, size, ..
            } => each(&[*name, *string_length, *string_length_exp, *string_location_exp, size.node()]),
            DiNode::File { filename, directory, checksum, source, .. } => {
                each(&[*filename, *directory, *checksum, *source])
            }
            DiNode::DerivedType {
                file,
                scope,
                name,
                base_type,
                extra_data,
                annotations,
                size,
                offset,
                ..
            } => each(&[
                *file,
                *scope,
                *name,
                size.node(),
                offset.node(),
                *base_type,
                *extra_data,
                *annotations,
            ]),
            DiNode::CompositeType {
                file,
                scope,
                name,
                base_type,
                elements,
                vtable_holder,
                template_params,
                identifier,
                discriminator,
                data_location,
                associated,
                allocated,
                rank,
                annotations,
                specification,
                bit_stride,
                size,
                offset,
                ..
            } => each(&[
                *file,
                *scope,
                *name,
                size.node(),
                offset.node(),
                *base_type,
                *elements,
                *vtable_holder,
                *template_params,
                *identifier,
                *discriminator,
                *data_location,
                *associated,
                *allocated,
                *rank,
                *annotations,
                *specification,
                *bit_stride,
            ]),
            DiNode::SubroutineType { types, .. } => each(&[*types]),
            DiNode::CompileUnit {
                file,
                producer,
                flags,
                split_debug_filename,
                enums,
                retained_types,
                globals,
                imports,
                macros,
                sysroot,
                sdk,
                ..
            } => each(&[
                *file,
                *producer,
                *flags,
                *split_debug_filename,
                *enums,
                *retained_types,
                *globals,
                *imports,
                *macros,
                *sysroot,
                *sdk,
            ]),
            DiNode::Subprogram {
                file,
                scope,
                name,
                linkage_name,
                ty,
                unit,
                declaration,
                retained_nodes,
                containing_type,
                template_params,
                thrown_types,
                annotations,
                target_func_name,
                ..
            } => each(&[
                *file,
                *scope,
                *name,
                *linkage_name,
                *ty,
                *unit,
                *declaration,
                *retained_nodes,
                *containing_type,
                *template_params,
                *thrown_types,
                *annotations,
                *target_func_name,
            ]),
            DiNode::LexicalBlock { file, scope, .. } | DiNode::LexicalBlockFile { file, scope, .. } => {
                each(&[*file, *scope])
            }
            DiNode::Namespace { scope, name, .. } => each(&[*scope, *name]),
            DiNode::CommonBlock { scope, decl, name, file, .. } => each(&[*scope, *decl, *name, *file]),
            DiNode::Module { file, scope, name, config_macros, include_path, api_notes, .. } => {
                each(&[*file, *scope, *name, *config_macros, *include_path, *api_notes])
            }
            DiNode::TemplateType { name, ty, .. } => each(&[*name, *ty]),
            DiNode::TemplateValue { name, ty, value, .. } => each(&[*name, *ty, *value]),
            DiNode::GlobalVariable {
                scope,
                name,
                file,
                ty,
                linkage_name,
                declaration,
                template_params,
                annotations,
                ..
            } => each(&[
                *scope,
                *name,
                *file,
                *ty,
                *name,
                *linkage_name,
                *declaration,
                *template_params,
                *annotations,
            ]),
            DiNode::LocalVariable { scope, name, file, ty, annotations, .. } => {
                each(&[*scope, *name, *file, *ty, *annotations])
            }
            DiNode::Label { scope, name, file, .. } => each(&[*scope, *name, *file]),
            DiNode::Expression(_) | DiNode::AssignId => {}
            DiNode::GlobalVariableExpression { var, expr } => each(&[*var, *expr]),
            DiNode::ObjcProperty { name, file, getter, setter, ty, .. } => {
                each(&[*name, *file, *getter, *setter, *ty])
            }
            DiNode::ImportedEntity { scope, entity, name, file, elements, .. } => {
                each(&[*scope, *entity, *name, *file, *elements])
            }
            DiNode::Macro { name, value, .. } => each(&[*name, *value]),
            DiNode::MacroFile { file, elements, .. } => each(&[*file, *elements]),
            DiNode::ArgList(args) => each(args),
            DiNode::SubrangeType {
                file,
                scope,
                name,
                base_type,
                lower_bound,
                upper_bound,
                stride,
                bias,
                ..
            } => each(&[*file, *scope, *name, *base_type, *lower_bound, *upper_bound, *stride, *bias]),
        }
    }
}
