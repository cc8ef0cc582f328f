//! `!N = ...` lines, named metadata and metadata operands, as AsmWriter prints them.

use std::fmt::Write;

use bitcode_schema_runtime::decode::SchemaEnum;

use crate::llvm::ir::{DichecksumKind, DiemissionKind, Diencoding, DimacinfoType, DinameTableKind};
use crate::llvm::module::metadata::{Bits, Bound, DiNode, Enumerator, Location, Md, MdRef, Metadata, Ref};

use super::dwarf;
use super::expression::write_expression;
use super::fields::{push_u64, Fields};
use super::slots::MdSlots;
use crate::llvm::dis::names::{escaped, hex_escape};

/// Prints values wrapped as metadata; implemented by the module printer, which knows
/// types, constants and value names.
pub trait ValueWriter {
    /// Writes `type value` as AsmWriter does (`i32 1`, `ptr @g`, `ptr %5`...).
    /// `function` is, for a value of a function-level metadata block, the ordinal of that
    /// function body (0 for the first body in the stream): `value` is then in its
    /// numbering (function-local constants, arguments and instructions after the
    /// module's values). Nodes print after every function, so any body may be named.
    fn write_typed_value(&self, out: &mut String, ty: u32, value: u32, function: Option<u32>);

    /// The value of an integer constant, sign-extended (DISubrange counts and bounds, a
    /// composite type's rank): None when `value` is not an integer constant.
    fn constant_int(&self, ty: u32, value: u32, function: Option<u32>) -> Option<i64>;
}

/// Prints the metadata of one module.
pub struct MdPrinter<'m> {
    pub(super) md: &'m Metadata<'m>,
    slots: &'m MdSlots,
    pub(super) llvm_major: u32,
    values: &'m dyn ValueWriter,
}

/// The schema's spelling of an enum value, or its number for a value it does not name.
fn enum_name<E: SchemaEnum>(code: u64, name: impl Fn(E) -> &'static str) -> Option<&'static str> {
    E::from_code(code).map(name).filter(|n| *n != "unknown")
}

impl<'m> MdPrinter<'m> {
    /// A printer of `md`'s nodes numbered by `slots`, in the spelling of LLVM `llvm_major`.
    pub fn new(
        md: &'m Metadata<'m>,
        slots: &'m MdSlots,
        llvm_major: u32,
        values: &'m dyn ValueWriter,
    ) -> Self {
        MdPrinter { md, slots, llvm_major, values }
    }

    /// Metadata as an operand or attachment: `!5`, `!"str"`, an inline `!DIExpression(...)`
    /// or `!DIArgList(...)`, an unnumbered DILocation inline, or a value as `type value`.
    pub fn write_operand(&self, out: &mut String, node: MdRef) {
        match self.md.entry(node) {
            Some(Md::String(s)) => {
                out.push_str("!\"");
                escaped(out, s);
                out.push('"');
            }
            Some(&Md::Value { ty, value, function }) => {
                self.values.write_typed_value(out, ty, value, function)
            }
            Some(Md::Di { node: di, .. }) if matches!(**di, DiNode::Expression(_) | DiNode::ArgList(_)) => {
                self.write_body(out, di)
            }
            Some(entry) => match self.slots.slot(node) {
                Some(slot) => {
                    out.push('!');
                    push_u64(out, u64::from(slot));
                }
                None => match entry {
                    Md::Location { location, .. } => self.write_location(out, location),
                    _ => out.push_str("<badref>"),
                },
            },
            None => out.push_str("<badref>"),
        }
    }

    /// An attachment's kind as it is printed before its node: `!dbg`, `!tbaa`, or
    /// `!<unknown kind #N>` for a kind the module does not name (as AsmWriter does).
    pub fn write_kind(&self, out: &mut String, kind: u32) {
        out.push('!');
        match self.md.kind_name(kind) {
            Some(name) => write_identifier(out, name),
            None => {
                out.push_str("<unknown kind #");
                push_u64(out, u64::from(kind));
                out.push('>');
            }
        }
    }

    /// The named metadata lines: `!name = !{!0, !1}`.
    pub fn write_named(&self, out: &mut String) {
        for (name, nodes) in self.md.named() {
            out.push('!');
            write_identifier(out, name);
            out.push_str(" = !{");
            for (i, &node) in nodes.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                self.write_operand(out, node);
            }
            out.push_str("}\n");
        }
    }

    /// The numbered nodes of slots `slots` as `!N = ...` lines, in slot order; `spill`
    /// is given the text after each line (to write it out when it has grown).
    pub fn write_nodes(
        &self,
        out: &mut String,
        slots: std::ops::Range<usize>,
        spill: &mut dyn FnMut(&mut String),
    ) {
        let nodes = self.slots.nodes();
        for (slot, &node) in nodes.get(slots.clone()).unwrap_or_default().iter().enumerate() {
            out.push('!');
            push_u64(out, (slots.start + slot) as u64);
            out.push_str(" = ");
            self.write_node(out, node);
            out.push('\n');
            spill(out);
        }
    }

    /// A node's body: `distinct ` if it is, then `!{...}` or `!DIKind(...)`.
    pub fn write_node(&self, out: &mut String, node: MdRef) {
        match self.md.entry(node) {
            Some(Md::Tuple { distinct, operands }) => {
                if *distinct {
                    out.push_str("distinct ");
                }
                out.push_str("!{");
                for (i, op) in operands.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match op {
                        Some(op) => self.write_operand(out, *op),
                        None => out.push_str("null"),
                    }
                }
                out.push('}');
            }
            Some(Md::Di { distinct, node }) => {
                if *distinct {
                    out.push_str("distinct ");
                }
                self.write_body(out, node);
            }
            Some(Md::Location { distinct, location }) => {
                if *distinct {
                    out.push_str("distinct ");
                }
                self.write_location(out, location);
            }
            _ => self.write_operand(out, node),
        }
    }

    /// A constant bound or rank: its integer when it is a constant.
    fn constant(&self, r: MdRef) -> Option<i64> {
        match self.md.entry(r)? {
            &Md::Value { ty, value, function } => self.values.constant_int(ty, value, function),
            _ => None,
        }
    }

    /// A DISubrange bound: a constant as a number (even 0), a node as an operand.
    fn bound(&self, f: &mut Fields<'_, '_>, name: &str, bound: Bound) {
        match bound {
            Bound::None => {}
            Bound::Int(v) => f.int(name, v, false),
            Bound::Node(r) => match self.constant(r) {
                Some(v) => f.int(name, v, false),
                None => f.md(name, Some(r), true),
            },
        }
    }

    /// A size or offset: a number (or constant node) skipped when 0, else the node.
    fn bits(&self, f: &mut Fields<'_, '_>, name: &str, bits: Bits) {
        match bits {
            Bits::Value(v) => f.int(name, v, true),
            Bits::Node(r) => match self.constant(r) {
                Some(v) => f.int(name, v as u64, true),
                None => f.md(name, Some(r), true),
            },
        }
    }

    /// A GenericSubrange bound: a constant expression `DW_OP_consts N` as N.
    fn generic_bound(&self, f: &mut Fields<'_, '_>, name: &str, bound: Ref) {
        if let Some(r) = bound {
            if let Some(Md::Di { node, .. }) = self.md.entry(r) {
                if let DiNode::Expression(e) = &**node {
                    if let [0x11, v] = **e {
                        f.int(name, v as i64, false);
                        return;
                    }
                }
            }
        }
        f.md(name, bound, true);
    }

    /// `!DILocation(fields)`.
    fn write_location(&self, out: &mut String, l: &Location) {
        out.push_str("!DILocation(");
        let mut f = Fields::new(self, out);
        f.int("line", l.line, false);
        f.int("column", l.column, true);
        f.md("scope", l.scope, false);
        f.md("inlinedAt", l.inlined_at, true);
        f.bool("isImplicitCode", l.implicit_code, Some(false));
        f.int("atomGroup", l.atom_group, true);
        f.int("atomRank", l.atom_rank, true);
        out.push(')');
    }

    /// `!DIKind(fields)`.
    fn write_body(&self, out: &mut String, node: &DiNode) {
        let tag = |t: u32| dwarf::tag(t);
        match node {
            DiNode::Expression(e) => write_expression(out, e),
            DiNode::ArgList(args) => {
                out.push_str("!DIArgList(");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match a {
                        Some(a) => self.write_operand(out, *a),
                        None => out.push_str("null"),
                    }
                }
                out.push(')');
            }
            DiNode::AssignId => out.push_str("!DIAssignID()"),
            DiNode::Generic { tag: t, header, operands } => {
                out.push_str("!GenericDINode(");
                let mut f = Fields::new(self, out);
                f.dwarf("tag", u64::from(*t), tag(*t), false);
                f.string("header", *header, true);
                if !operands.is_empty() {
                    f.word("operands", "{");
                    for (i, op) in operands.iter().enumerate() {
                        if i > 0 {
                            f.out.push_str(", ");
                        }
                        match op {
                            Some(op) => self.write_operand(f.out, *op),
                            None => f.out.push_str("null"),
                        }
                    }
                    f.out.push('}');
                }
                out.push(')');
            }
            DiNode::Subrange { count, lower_bound, upper_bound, stride } => {
                out.push_str("!DISubrange(");
                let mut f = Fields::new(self, out);
                self.bound(&mut f, "count", *count);
                self.bound(&mut f, "lowerBound", *lower_bound);
                self.bound(&mut f, "upperBound", *upper_bound);
                self.bound(&mut f, "stride", *stride);
                out.push(')');
            }
            DiNode::GenericSubrange { count, lower_bound, upper_bound, stride } => {
                out.push_str("!DIGenericSubrange(");
                let mut f = Fields::new(self, out);
                self.generic_bound(&mut f, "count", *count);
                self.generic_bound(&mut f, "lowerBound", *lower_bound);
                self.generic_bound(&mut f, "upperBound", *upper_bound);
                self.generic_bound(&mut f, "stride", *stride);
                out.push(')');
            }
            DiNode::Enumerator(e) => {
                out.push_str("!DIEnumerator(");
                let mut f = Fields::new(self, out);
                f.string("name", e.name, false);
                f.word("value", "");
                write_enumerator_value(f.out, e);
                if e.is_unsigned {
                    f.bool("isUnsigned", true, None);
                }
                out.push(')');
            }
            DiNode::BasicType {
                tag: t,
                name,
                size,
                align,
                encoding,
                flags,
                num_extra_inhabitants,
                data_size,
            } => {
                out.push_str("!DIBasicType(");
                let mut f = Fields::new(self, out);
                if *t != 0x24 {
                    f.dwarf("tag", u64::from(*t), tag(*t), false);
                }
                f.string("name", *name, true);
                self.bits(&mut f, "size", *size);
                f.int("align", *align, true);
                // As LLVM 22 orders them (20 and 21 print no file of the corpus with
                // either of the two fields).
                f.int("dataSize", *data_size, true);
                self.encoding(&mut f, *encoding);
                f.int("num_extra_inhabitants", *num_extra_inhabitants, true);
                f.di_flags("flags", *flags);
                out.push(')');
            }
            DiNode::FixedPointType { tag: t, name, size, align, encoding, flags, kind, factor } => {
                out.push_str("!DIFixedPointType(");
                let mut f = Fields::new(self, out);
                f.dwarf("tag", u64::from(*t), tag(*t), false);
                f.string("name", *name, true);
                self.bits(&mut f, "size", *size);
                f.int("align", *align, true);
                self.encoding(&mut f, *encoding);
                f.di_flags("flags", *flags);
                let kinds = ["Binary", "Decimal", "Rational"];
                f.word("kind", kinds.get(*kind as usize).copied().unwrap_or("Binary"));
                f.int("factor", *factor, true);
                out.push(')');
            }
            DiNode::StringType {
                tag: t,
                name,
                string_length,
                string_length_exp,
                string_location_exp,
                size,
                align,
                encoding,
            } => {
                out.push_str("!DIStringType(");
                let mut f = Fields::new(self, out);
                if *t != 0x12 {
                    f.dwarf("tag", u64::from(*t), tag(*t), false);
                }
                f.string("name", *name, true);
                f.md("stringLength", *string_length, true);
                f.md("stringLengthExpression", *string_length_exp, true);
                f.md("stringLocationExpression", *string_location_exp, true);
                self.bits(&mut f, "size", *size);
                f.int("align", *align, true);
                self.encoding(&mut f, *encoding);
                out.push(')');
            }
            DiNode::File { filename, directory, checksum_kind, checksum, source } => {
                out.push_str("!DIFile(");
                let mut f = Fields::new(self, out);
                f.string("filename", *filename, false);
                f.string("directory", *directory, false);
                if *checksum_kind != 0 && checksum.is_some() {
                    let kind = enum_name::<DichecksumKind>(u64::from(*checksum_kind), DichecksumKind::name);
                    f.word("checksumkind", kind.unwrap_or("CSK_None"));
                    f.string("checksum", *checksum, false);
                }
                f.string("source", *source, true);
                out.push(')');
            }
            DiNode::DerivedType {
                tag: t,
                name,
                file,
                line,
                scope,
                base_type,
                size,
                align,
                offset,
                flags,
                extra_data,
                dwarf_address_space,
                annotations,
                ptr_auth,
            } => {
                out.push_str("!DIDerivedType(");
                let mut f = Fields::new(self, out);
                f.dwarf("tag", u64::from(*t), tag(*t), false);
                f.string("name", *name, true);
                f.md("scope", *scope, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.md("baseType", *base_type, false);
                self.bits(&mut f, "size", *size);
                f.int("align", *align, true);
                self.bits(&mut f, "offset", *offset);
                f.di_flags("flags", *flags);
                f.md("extraData", *extra_data, true);
                if let Some(space) = dwarf_address_space {
                    f.int("dwarfAddressSpace", *space, false);
                }
                f.md("annotations", *annotations, true);
                if *ptr_auth != 0 && self.llvm_major >= 19 {
                    f.int("ptrAuthKey", ptr_auth & 0xf, true);
                    f.bool("ptrAuthIsAddressDiscriminated", ptr_auth & (1 << 4) != 0, None);
                    f.int("ptrAuthExtraDiscriminator", (ptr_auth >> 5) & 0xffff, true);
                    f.bool("ptrAuthIsaPointer", ptr_auth & (1 << 21) != 0, None);
                    f.bool("ptrAuthAuthenticatesNullValues", ptr_auth & (1 << 22) != 0, None);
                }
                out.push(')');
            }
            DiNode::CompositeType {
                tag: t,
                name,
                file,
                line,
                scope,
                base_type,
                size,
                align,
                offset,
                flags,
                elements,
                runtime_lang,
                vtable_holder,
                template_params,
                identifier,
                discriminator,
                data_location,
                associated,
                allocated,
                rank,
                annotations,
                num_extra_inhabitants,
                specification,
                enum_kind,
                bit_stride,
            } => {
                out.push_str("!DICompositeType(");
                let mut f = Fields::new(self, out);
                f.dwarf("tag", u64::from(*t), tag(*t), false);
                f.string("name", *name, true);
                f.md("scope", *scope, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.md("baseType", *base_type, true);
                self.bits(&mut f, "size", *size);
                f.int("align", *align, true);
                self.bits(&mut f, "offset", *offset);
                f.int("num_extra_inhabitants", *num_extra_inhabitants, true);
                f.di_flags("flags", *flags);
                f.md("elements", *elements, true);
                f.dwarf(
                    "runtimeLang",
                    u64::from(*runtime_lang),
                    dwarf::language(u64::from(*runtime_lang)),
                    true,
                );
                f.md("vtableHolder", *vtable_holder, true);
                f.md("templateParams", *template_params, true);
                f.string("identifier", *identifier, true);
                f.md("discriminator", *discriminator, true);
                f.md("dataLocation", *data_location, true);
                f.md("associated", *associated, true);
                f.md("allocated", *allocated, true);
                match rank.and_then(|r| self.constant(r)) {
                    Some(v) => f.int("rank", v, false),
                    None => f.md("rank", *rank, true),
                }
                f.md("annotations", *annotations, true);
                f.md("specification", *specification, true);
                if let Some(kind) = enum_kind {
                    f.int("enumKind", *kind, false);
                }
                f.md("bitStride", *bit_stride, true);
                out.push(')');
            }
            DiNode::SubroutineType { flags, cc, types } => {
                out.push_str("!DISubroutineType(");
                let mut f = Fields::new(self, out);
                f.di_flags("flags", *flags);
                f.dwarf("cc", u64::from(*cc), dwarf::calling_convention(*cc), true);
                f.md("types", *types, false);
                out.push(')');
            }
            DiNode::CompileUnit {
                language,
                versioned_language,
                language_version,
                file,
                producer,
                is_optimized,
                flags,
                runtime_version,
                split_debug_filename,
                emission_kind,
                enums,
                retained_types,
                globals,
                imports,
                macros,
                dwo_id,
                split_debug_inlining,
                debug_info_for_profiling,
                name_table_kind,
                ranges_base_address,
                sysroot,
                sdk,
            } => {
                out.push_str("!DICompileUnit(");
                let mut f = Fields::new(self, out);
                if *versioned_language {
                    f.int("sourceLanguageName", *language, false);
                    f.int("sourceLanguageVersion", *language_version, true);
                } else {
                    f.dwarf("language", *language, dwarf::language(*language), false);
                }
                f.md("file", *file, false);
                f.string("producer", *producer, true);
                f.bool("isOptimized", *is_optimized, None);
                f.string("flags", *flags, true);
                f.int("runtimeVersion", *runtime_version, false);
                f.string("splitDebugFilename", *split_debug_filename, true);
                let kind = enum_name::<DiemissionKind>(u64::from(*emission_kind), DiemissionKind::name);
                match kind {
                    Some(k) => f.word("emissionKind", k),
                    None => f.int("emissionKind", *emission_kind, false),
                }
                f.md("enums", *enums, true);
                f.md("retainedTypes", *retained_types, true);
                f.md("globals", *globals, true);
                f.md("imports", *imports, true);
                f.md("macros", *macros, true);
                f.int("dwoId", *dwo_id, true);
                f.bool("splitDebugInlining", *split_debug_inlining, Some(true));
                f.bool("debugInfoForProfiling", *debug_info_for_profiling, Some(false));
                if *name_table_kind != 0 {
                    let kind =
                        enum_name::<DinameTableKind>(u64::from(*name_table_kind), DinameTableKind::name);
                    match kind {
                        Some(k) => f.word("nameTableKind", k),
                        None => f.int("nameTableKind", *name_table_kind, false),
                    }
                }
                f.bool("rangesBaseAddress", *ranges_base_address, Some(false));
                f.string("sysroot", *sysroot, true);
                f.string("sdk", *sdk, true);
                out.push(')');
            }
            DiNode::Subprogram {
                scope,
                name,
                linkage_name,
                file,
                line,
                ty,
                scope_line,
                containing_type,
                sp_flags,
                virtual_index,
                flags,
                unit,
                template_params,
                declaration,
                retained_nodes,
                this_adjustment,
                thrown_types,
                annotations,
                target_func_name,
                key_instructions,
            } => {
                out.push_str("!DISubprogram(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.string("linkageName", *linkage_name, true);
                f.md("scope", *scope, false);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.md("type", *ty, true);
                f.int("scopeLine", *scope_line, true);
                f.md("containingType", *containing_type, true);
                if sp_flags & 3 != 0 || *virtual_index != 0 {
                    f.int("virtualIndex", *virtual_index, false);
                }
                f.int("thisAdjustment", *this_adjustment, true);
                f.di_flags("flags", *flags);
                f.sp_flags("spFlags", *sp_flags);
                f.md("unit", *unit, true);
                f.md("templateParams", *template_params, true);
                f.md("declaration", *declaration, true);
                f.md("retainedNodes", *retained_nodes, true);
                f.md("thrownTypes", *thrown_types, true);
                f.md("annotations", *annotations, true);
                f.string("targetFuncName", *target_func_name, true);
                f.bool("keyInstructions", *key_instructions, Some(false));
                out.push(')');
            }
            DiNode::LexicalBlock { scope, file, line, column } => {
                out.push_str("!DILexicalBlock(");
                let mut f = Fields::new(self, out);
                f.md("scope", *scope, false);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.int("column", *column, true);
                out.push(')');
            }
            DiNode::LexicalBlockFile { scope, file, discriminator } => {
                out.push_str("!DILexicalBlockFile(");
                let mut f = Fields::new(self, out);
                f.md("scope", *scope, false);
                f.md("file", *file, true);
                f.int("discriminator", *discriminator, false);
                out.push(')');
            }
            DiNode::Namespace { scope, name, export_symbols } => {
                out.push_str("!DINamespace(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.md("scope", *scope, false);
                f.bool("exportSymbols", *export_symbols, Some(false));
                out.push(')');
            }
            DiNode::CommonBlock { scope, decl, name, file, line } => {
                out.push_str("!DICommonBlock(");
                let mut f = Fields::new(self, out);
                f.md("scope", *scope, false);
                f.md("declaration", *decl, false);
                f.string("name", *name, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                out.push(')');
            }
            DiNode::Module { file, scope, name, config_macros, include_path, api_notes, line, is_decl } => {
                out.push_str("!DIModule(");
                let mut f = Fields::new(self, out);
                f.md("scope", *scope, false);
                f.string("name", *name, true);
                f.string("configMacros", *config_macros, true);
                f.string("includePath", *include_path, true);
                f.string("apinotes", *api_notes, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.bool("isDecl", *is_decl, Some(false));
                out.push(')');
            }
            DiNode::TemplateType { name, ty, is_default } => {
                out.push_str("!DITemplateTypeParameter(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.md("type", *ty, false);
                f.bool("defaulted", *is_default, Some(false));
                out.push(')');
            }
            DiNode::TemplateValue { tag: t, name, ty, is_default, value } => {
                out.push_str("!DITemplateValueParameter(");
                let mut f = Fields::new(self, out);
                if *t != 0x30 {
                    f.dwarf("tag", u64::from(*t), tag(*t), false);
                }
                f.string("name", *name, true);
                f.md("type", *ty, true);
                f.bool("defaulted", *is_default, Some(false));
                f.md("value", *value, false);
                out.push(')');
            }
            DiNode::GlobalVariable {
                scope,
                name,
                linkage_name,
                file,
                line,
                ty,
                is_local,
                is_definition,
                declaration,
                template_params,
                align,
                annotations,
            } => {
                out.push_str("!DIGlobalVariable(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.string("linkageName", *linkage_name, true);
                f.md("scope", *scope, false);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.md("type", *ty, true);
                f.bool("isLocal", *is_local, None);
                f.bool("isDefinition", *is_definition, None);
                f.md("declaration", *declaration, true);
                f.md("templateParams", *template_params, true);
                f.int("align", *align, true);
                f.md("annotations", *annotations, true);
                out.push(')');
            }
            DiNode::LocalVariable { scope, name, file, line, ty, arg, flags, align, annotations } => {
                out.push_str("!DILocalVariable(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.int("arg", *arg, true);
                f.md("scope", *scope, false);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.md("type", *ty, true);
                f.di_flags("flags", *flags);
                f.int("align", *align, true);
                f.md("annotations", *annotations, true);
                out.push(')');
            }
            DiNode::Label { scope, name, file, line, column, artificial, coro_suspend_idx } => {
                out.push_str("!DILabel(");
                let mut f = Fields::new(self, out);
                f.md("scope", *scope, false);
                f.string("name", *name, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.int("column", *column, true);
                f.bool("isArtificial", *artificial, Some(false));
                if let Some(idx) = coro_suspend_idx {
                    f.int("coroSuspendIdx", *idx, false);
                }
                out.push(')');
            }
            DiNode::GlobalVariableExpression { var, expr } => {
                out.push_str("!DIGlobalVariableExpression(");
                let mut f = Fields::new(self, out);
                f.md("var", *var, true);
                f.md("expr", *expr, true);
                out.push(')');
            }
            DiNode::ObjcProperty { name, file, line, setter, getter, attributes, ty } => {
                out.push_str("!DIObjCProperty(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                // Up to LLVM 21 the reader took the writer's setter for the getter and
                // the other way round (the model holds what those versions read); LLVM 22
                // reads them as written.
                let (setter, getter) =
                    if self.llvm_major >= 22 { (getter, setter) } else { (setter, getter) };
                f.string("setter", *setter, true);
                f.string("getter", *getter, true);
                f.int("attributes", *attributes, true);
                f.md("type", *ty, true);
                out.push(')');
            }
            DiNode::ImportedEntity { tag: t, scope, entity, line, name, file, elements } => {
                out.push_str("!DIImportedEntity(");
                let mut f = Fields::new(self, out);
                f.dwarf("tag", u64::from(*t), tag(*t), false);
                f.string("name", *name, true);
                f.md("scope", *scope, false);
                f.md("entity", *entity, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                f.md("elements", *elements, true);
                out.push(')');
            }
            DiNode::Macro { macinfo_type, line, name, value } => {
                out.push_str("!DIMacro(");
                let mut f = Fields::new(self, out);
                let kind = enum_name::<DimacinfoType>(u64::from(*macinfo_type), DimacinfoType::name);
                match kind {
                    Some(k) => f.word("type", k),
                    None => f.int("type", *macinfo_type, false),
                }
                f.int("line", *line, true);
                f.string("name", *name, true);
                f.string("value", *value, true);
                out.push(')');
            }
            DiNode::MacroFile { macinfo_type, line, file, elements } => {
                out.push_str("!DIMacroFile(");
                let mut f = Fields::new(self, out);
                // DW_MACINFO_start_file, the usual type, goes unsaid.
                if *macinfo_type != 3 {
                    let kind = enum_name::<DimacinfoType>(u64::from(*macinfo_type), DimacinfoType::name);
                    match kind {
                        Some(k) => f.word("type", k),
                        None => f.int("type", *macinfo_type, false),
                    }
                }
                f.int("line", *line, true);
                f.md("file", *file, false);
                f.md("nodes", *elements, true);
                out.push(')');
            }
            DiNode::SubrangeType {
                name,
                file,
                line,
                scope,
                size,
                align,
                flags,
                base_type,
                lower_bound,
                upper_bound,
                stride,
                bias,
            } => {
                out.push_str("!DISubrangeType(");
                let mut f = Fields::new(self, out);
                f.string("name", *name, true);
                f.md("scope", *scope, true);
                f.md("file", *file, true);
                f.int("line", *line, true);
                self.bits(&mut f, "size", *size);
                f.int("align", *align, true);
                f.di_flags("flags", *flags);
                f.md("baseType", *base_type, false);
                f.md("lowerBound", *lower_bound, true);
                f.md("upperBound", *upper_bound, true);
                f.md("stride", *stride, true);
                f.md("bias", *bias, true);
                out.push(')');
            }
        }
    }

    /// `encoding: DW_ATE_*`, skipped when 0.
    fn encoding(&self, f: &mut Fields<'_, '_>, encoding: u32) {
        let name = enum_name::<Diencoding>(u64::from(encoding), Diencoding::name);
        f.dwarf("encoding", u64::from(encoding), name, true);
    }
}

/// A metadata name as AsmWriter writes it: letters, digits (not first) and `-$._` as
/// they are, any other byte as `\XX`.
fn write_identifier(out: &mut String, name: &[u8]) {
    for (i, &b) in name.iter().enumerate() {
        let plain = b.is_ascii_alphabetic()
            || matches!(b, b'-' | b'$' | b'.' | b'_')
            || (i > 0 && b.is_ascii_digit());
        if plain {
            out.push(b as char);
        } else {
            hex_escape(out, b);
        }
    }
}

/// An enumerator's value in decimal: signed unless `is_unsigned`, of its bit width.
fn write_enumerator_value(out: &mut String, e: &Enumerator) {
    let width = e.bit_width.max(1) as usize;
    let words = width.div_ceil(64);
    // The value's words, zero-extended to the width, then masked to it.
    let mut value: Vec<u64> = (0..words).map(|i| e.words.get(i).copied().unwrap_or(0)).collect();
    if !width.is_multiple_of(64) {
        if let Some(last) = value.last_mut() {
            *last &= (1u64 << (width % 64)) - 1;
        }
    }
    let negative = !e.is_unsigned && value.last().is_some_and(|&w| (w >> ((width - 1) % 64)) & 1 == 1);
    if negative {
        // Two's complement negation within the width.
        let mut carry = true;
        for w in value.iter_mut() {
            let (n, c) = (!*w).overflowing_add(u64::from(carry));
            *w = n;
            carry = c;
        }
        if !width.is_multiple_of(64) {
            if let Some(last) = value.last_mut() {
                *last &= (1u64 << (width % 64)) - 1;
            }
        }
        out.push('-');
    }
    if let [only] = value[..] {
        let _ = write!(out, "{only}");
        return;
    }
    // Repeated division by 10^18 for wide values.
    let mut digits: Vec<u64> = Vec::new();
    while value.iter().any(|&w| w != 0) {
        let mut rem: u128 = 0;
        for w in value.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*w);
            *w = (cur / 1_000_000_000_000_000_000) as u64;
            rem = cur % 1_000_000_000_000_000_000;
        }
        digits.push(rem as u64);
    }
    match digits.split_last() {
        None => out.push('0'),
        Some((top, rest)) => {
            let _ = write!(out, "{top}");
            for d in rest.iter().rev() {
                let _ = write!(out, "{d:018}");
            }
        }
    }
}
