//! Unit tests of the emitter: small models emitted and inspected as a syn AST.

use super::*;
use crate::model::*;
use crate::model::{Defines, EnumValue, FlagField, Format, GroupVariant, Numbers, Spanned};
use crate::names;

fn sp<T>(value: T) -> Spanned<T> {
    Spanned::new(value, 0..0)
}

fn field(name: &str, kind: Kind) -> Field {
    Field {
        name: sp(name.into()),
        rust_name: names::snake(name),
        doc: None,
        kind: sp(kind),
        presence: Presence::Required,
        condition: None,
        versions: None,
        fixed: false,
        until: None,
        tell: false,
    }
}

fn with(mut f: Field, presence: Presence) -> Field {
    f.presence = presence;
    f
}

fn default(v: DefaultValue) -> Presence {
    Presence::Default(sp(v))
}

fn of(k: Kind) -> Box<Spanned<Kind>> {
    Box::new(sp(k))
}

/// An enum of `values`; `folds` pairs an obsolete value with the current one it folds to.
fn enum_def(name: &str, unknown: UnknownPolicy, values: &[(&str, u64)], folds: &[(&str, &str)]) -> Enum {
    Enum {
        name: sp(name.into()),
        rust_name: names::upper_camel(name),
        doc: None,
        unknown,
        values: values
            .iter()
            .map(|&(n, c)| EnumValue {
                name: sp(n.into()),
                rust_name: names::upper_camel(n),
                code: sp(c),
                doc: None,
                folds_to: folds.iter().find(|(old, _)| *old == n).map(|(_, to)| sp(to.to_string())),
            })
            .collect(),
    }
}

fn flag(name: &str, bits: std::ops::Range<u32>, enumeration: Option<&str>) -> FlagField {
    FlagField {
        name: sp(name.into()),
        rust_name: names::snake(name),
        doc: None,
        single: bits.end == bits.start + 1 && enumeration.is_none(),
        bits: sp(bits),
        enumeration: enumeration.map(|e| sp(e.into())),
    }
}

fn variant(name: &str, tag: u64, fields: Vec<Field>) -> GroupVariant {
    GroupVariant {
        name: sp(name.into()),
        rust_name: names::upper_camel(name),
        doc: None,
        tag: sp(tag),
        more_tags: Vec::new(),
        tag_by_version: Vec::new(),
        other: false,
        versions: None,
        fields,
    }
}

fn record(name: &str, code: u32, fields: Vec<Field>) -> RecordDef {
    layouts(name, code, vec![(0..u64::MAX, fields)])
}

fn layouts(name: &str, code: u32, layouts: Vec<(std::ops::Range<u64>, Vec<Field>)>) -> RecordDef {
    RecordDef {
        name: sp(name.into()),
        rust_name: names::upper_camel(name),
        code: sp(code),
        doc: None,
        layouts: layouts
            .into_iter()
            .map(|(v, fields)| Layout { versions: sp(v), operands: None, fields })
            .collect(),
        defines: None,
    }
}

fn block(name: &str, id: u32, deferrable: bool, records: Vec<RecordDef>) -> Block {
    Block {
        name: sp(name.into()),
        module_name: names::snake(name),
        id: sp(id),
        doc: None,
        deferrable,
        numbers: None,
        records,
        ids: Vec::new(),
        fields: Vec::new(),
    }
}

/// A schema that uses every construct.
pub(super) fn demo() -> Schema {
    let mut linkage = enum_def(
        "Linkage",
        UnknownPolicy::Error,
        &[("external", 0), ("weak_any", 16), ("appending", 2), ("internal", 3), ("weak_old", 1), ("odd", 4)],
        &[("weak_old", "weak_any"), ("odd", "nonexistent")],
    );
    linkage.doc = Some("How a global value is linked.".into());
    let visibility = enum_def(
        "Visibility",
        UnknownPolicy::Default(sp("default".into())),
        &[("default", 0), ("hidden", 1), ("protected", 2)],
        &[],
    );
    let cc = enum_def("CallingConv", UnknownPolicy::Keep, &[("c", 0), ("fast", 8)], &[]);
    let empty = enum_def("Nothing", UnknownPolicy::Error, &[], &[]);
    let kept_empty = enum_def("Opaque", UnknownPolicy::Keep, &[], &[]);
    let var_flags = Flags {
        name: sp("VarFlags".into()),
        rust_name: "VarFlags".into(),
        doc: None,
        fields: vec![
            flag("is_const", 0..1, None),
            flag("explicit_type", 1..2, None),
            flag("address_space", 2..34, None),
            flag("visibility", 34..36, Some("Visibility")),
            flag("linkage", 40..45, Some("Linkage")),
        ],
    };
    let attribute = Group {
        name: sp("Attribute".into()),
        rust_name: "Attribute".into(),
        doc: Some("One attribute.".into()),
        variants: vec![
            variant("enum_attr", 0, vec![field("kind", Kind::Unsigned(64))]),
            variant(
                "int_attr",
                1,
                vec![field("kind", Kind::Unsigned(64)), field("value", Kind::Unsigned(64))],
            ),
            variant("string_attr", 3, vec![field("key", Kind::CString)]),
            variant("string_value_attr", 4, vec![field("key", Kind::CString), field("value", Kind::CString)]),
            variant("none_attr", 5, vec![]),
        ],
        select: Spanned::default(),
    };
    let operand = Group {
        name: sp("Operand".into()),
        rust_name: "Operand".into(),
        doc: None,
        variants: vec![
            variant("val", 0, vec![field("v", Kind::ValueType)]),
            variant(
                "lit",
                1,
                vec![field("x", Kind::Signed), with(field("ty", Kind::Type), Presence::Optional)],
            ),
        ],
        select: Spanned::default(),
    };
    let module = block(
        "MODULE_BLOCK",
        8,
        false,
        vec![
            record("VERSION", 1, vec![field("version", Kind::Unsigned(32))]),
            layouts(
                "GLOBALVAR",
                7,
                vec![
                    (
                        0..2,
                        vec![
                            field("type", Kind::Type),
                            field("is_const", Kind::Bool),
                            field("linkage", Kind::Enum(sp("Linkage".into()))),
                            field("alignment", Kind::Align),
                        ],
                    ),
                    (
                        2..u64::MAX,
                        vec![
                            field("strtab_offset", Kind::Unsigned(32)),
                            field("strtab_size", Kind::Unsigned(32)),
                            field("type", Kind::Type),
                            field("is_const", Kind::Bool),
                            field("linkage", Kind::Enum(sp("Linkage".into()))),
                            with(
                                field("visibility", Kind::Enum(sp("Visibility".into()))),
                                Presence::Optional,
                            ),
                        ],
                    ),
                ],
            ),
            record(
                "EVERYTHING",
                9,
                vec![
                    field("a", Kind::Unsigned(8)),
                    field("b", Kind::Unsigned(16)),
                    field("c", Kind::Signed),
                    field("d", Kind::Flags(sp("VarFlags".into()))),
                    field("e", Kind::Value),
                    field("f", Kind::Relative),
                    field("g", Kind::SignedRelative),
                    field("h", Kind::ValueType),
                    field("i", Kind::OptionalIndex),
                    field("j", Kind::Enum(sp("CallingConv".into()))),
                    field("k", Kind::Invalid),
                    field("l", Kind::Blob),
                    field("m", Kind::CountedArray(of(Kind::Relative), None)),
                    field("n", Kind::Array(of(Kind::Unsigned(32)))),
                ],
            ),
            record(
                "DEFAULTS",
                10,
                vec![
                    field("version", Kind::Unsigned(32)),
                    with(field("dso_local", Kind::Bool), default(DefaultValue::Bool(false))),
                    with(
                        field("vis", Kind::Enum(sp("Visibility".into()))),
                        default(DefaultValue::Variant("hidden".into())),
                    ),
                    with(field("cc", Kind::Enum(sp("CallingConv".into()))), default(DefaultValue::Int(77))),
                    with(field("delta", Kind::Signed), default(DefaultValue::Int(-5))),
                    with(field("idx", Kind::OptionalIndex), Presence::Optional),
                    with(field("al", Kind::Align), default(DefaultValue::Int(3))),
                    with(
                        field("fl", Kind::Flags(sp("VarFlags".into()))),
                        default(DefaultValue::Int(0b101 | (1 << 34) | (1 << 50))),
                    ),
                    with(field("t", Kind::Type), default(DefaultValue::Int(4))),
                    with(field("partition", Kind::Unsigned(64)), Presence::Optional),
                ],
            ),
            record("SOURCE_FILENAME", 16, vec![field("name", Kind::String)]),
            record(
                "ATTRS",
                17,
                vec![field("id", Kind::Unsigned(32)), field("attrs", Kind::Group(sp("Attribute".into())))],
            ),
            record("OPERANDS", 18, vec![field("ops", Kind::Group(sp("Operand".into())))]),
            record("EMPTY", 19, vec![]),
            {
                // A record struct named like a type of the schema: fields of that type
                // must name it through `super::`.
                let mut r =
                    record("LINKAGE_REC", 20, vec![field("linkage", Kind::Enum(sp("Linkage".into())))]);
                r.rust_name = "Linkage".into();
                r
            },
            record("RAW_ARRAY", 21, vec![field("stuff", Kind::Array(of(Kind::Blob)))]),
        ],
    );
    Schema {
        format: Format {
            name: sp("demo".into()),
            magic: sp(*b"DEMO"),
            doc: Some("A made-up format.".into()),
            framing: Default::default(),
            queries: Vec::new(),
            type_escape: None,
        },
        enums: vec![linkage, visibility, cc, empty, kept_empty],
        flags: vec![var_flags],
        groups: vec![attribute, operand],
        structs: vec![],
        blocks: vec![
            module,
            block("PARAMATTR_BLOCK", 9, true, vec![]),
            Block {
                numbers: Some(sp(Numbers::Values)),
                ..block(
                    "FUNCTION_BLOCK",
                    12,
                    true,
                    vec![
                        RecordDef {
                            defines: Some(sp(Defines::Nothing)),
                            ..record("DECLAREBLOCKS", 1, vec![field("n", Kind::Unsigned(32))])
                        },
                        RecordDef {
                            defines: Some(sp(Defines::Value)),
                            ..record("INST_BINOP", 3, vec![field("lhs", Kind::Relative)])
                        },
                    ],
                )
            },
        ],
    }
}

fn emit_file(schema: &Schema) -> syn::File {
    let tokens = emit(&Resolved::new(schema), &quote!(::bitcode_schema_runtime), "/tmp/demo.toml");
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(f) => f,
        Err(e) => panic!("emitted code does not parse: {e}\n{tokens}"),
    }
}

fn s(t: impl quote::ToTokens) -> String {
    t.to_token_stream().to_string()
}

fn find_item<'f>(items: &'f [syn::Item], name: &str) -> Vec<&'f syn::Item> {
    items
        .iter()
        .filter(|i| match i {
            syn::Item::Struct(x) => x.ident == name,
            syn::Item::Enum(x) => x.ident == name,
            syn::Item::Mod(x) => x.ident == name,
            syn::Item::Fn(x) => x.sig.ident == name,
            syn::Item::Const(x) => x.ident == name,
            _ => false,
        })
        .collect()
}

fn module<'f>(file: &'f syn::File, name: &str) -> &'f [syn::Item] {
    match find_item(&file.items, name).first() {
        Some(syn::Item::Mod(m)) => m.content.as_ref().map(|(_, items)| items.as_slice()).unwrap_or(&[]),
        _ => panic!("no module {name}"),
    }
}

fn strukt<'f>(items: &'f [syn::Item], name: &str) -> &'f syn::ItemStruct {
    match find_item(items, name).first() {
        Some(syn::Item::Struct(x)) => x,
        _ => panic!("no struct {name}"),
    }
}

fn enumm<'f>(items: &'f [syn::Item], name: &str) -> &'f syn::ItemEnum {
    match find_item(items, name).first() {
        Some(syn::Item::Enum(x)) => x,
        _ => panic!("no enum {name}"),
    }
}

/// `(field name, type)` of a struct, types as token strings.
fn fields(st: &syn::ItemStruct) -> Vec<(String, String)> {
    st.fields.iter().map(|f| (s(f.ident.as_ref().unwrap()), s(&f.ty))).collect()
}

/// Every `impl` block (anywhere in `items`) of the type named `name`, as text.
fn impls_of(items: &[syn::Item], name: &str) -> String {
    items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Impl(x) if s(&x.self_ty).split(' ').next() == Some(name) => Some(s(x)),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn demo_parses_and_has_the_format_items() {
    let file = emit_file(&demo());
    let text = s(&file);
    assert!(text.contains("pub const FORMAT_NAME : & :: core :: primitive :: str = \"demo\""), "{text}");
    assert!(text.contains("pub const MAGIC : [:: core :: primitive :: u8 ; 4] = [68 , 69 , 77 , 79]"));
    assert!(text.contains(
        "const _ : & [:: core :: primitive :: u8] = :: core :: include_bytes ! (\"/tmp/demo.toml\")"
    ));
    for f in ["block_name", "record_name", "deferrable", "decode_record", "check_record"] {
        assert_eq!(find_item(&file.items, f).len(), 1, "{f}");
    }
}

#[test]
fn enums_map_values_folds_and_unknown_codes() {
    let file = emit_file(&demo());
    let linkage = enumm(&file.items, "Linkage");
    let names: Vec<String> = linkage.variants.iter().map(|v| v.ident.to_string()).collect();
    assert_eq!(names, ["External", "WeakAny", "Appending", "Internal", "WeakOld", "Odd"]);
    let impls = impls_of(&file.items, "Linkage");
    // An obsolete value keeps its own code and folds to the current one; a fold to a
    // value that does not exist is left out.
    assert!(impls.contains("16 => :: core :: option :: Option :: Some (Self :: WeakAny)"), "{impls}");
    assert!(impls.contains("1 => :: core :: option :: Option :: Some (Self :: WeakOld)"), "{impls}");
    assert!(impls.contains("Self :: WeakOld => 1"), "{impls}");
    assert!(impls.contains("match self { Self :: WeakOld => Self :: WeakAny , other => other }"), "{impls}");
    assert!(impls.contains("_ => :: core :: option :: Option :: None"));
    assert!(impls.contains("const NAME : & 'static :: core :: primitive :: str = \"Linkage\""));
    assert!(impls.contains("Self :: WeakAny => \"weak_any\""));
    assert!(impls.contains("impl :: core :: convert :: TryFrom < :: core :: primitive :: u64 > for Linkage"));
    assert!(impls.contains("impl :: core :: fmt :: Display for Linkage"));

    let vis = impls_of(&file.items, "Visibility");
    assert!(vis.contains("_ => :: core :: option :: Option :: Some (Self :: Default)"), "{vis}");
    assert!(!vis.contains("0 =>"), "the default's own code is the fallback's");

    let cc = enumm(&file.items, "CallingConv");
    assert_eq!(
        s(cc.variants.last().unwrap()).rsplit(']').next().unwrap().trim(),
        "Unknown (:: core :: primitive :: u64)"
    );
    let cci = impls_of(&file.items, "CallingConv");
    assert!(cci.contains("_ => :: core :: option :: Option :: Some (Self :: Unknown (code))"), "{cci}");
    assert!(cci.contains("Self :: Unknown (code) => code"));
    assert!(cci.contains("Self :: Unknown (_) => \"unknown\""));
    assert!(
        cci.contains("Self :: Unknown (code) => :: core :: write ! (f , \"unknown({})\" , code)"),
        "{cci}"
    );
    assert!(cci.contains("other => f . write_str (other . name ())"));

    assert!(enumm(&file.items, "Nothing").variants.is_empty());
    assert_eq!(enumm(&file.items, "Opaque").variants.len(), 1);
}

#[test]
fn flags_split_the_word_into_typed_fields() {
    let file = emit_file(&demo());
    let st = strukt(&file.items, "VarFlags");
    let want = [
        ("is_const", ":: core :: primitive :: bool"),
        ("explicit_type", ":: core :: primitive :: bool"),
        ("address_space", ":: core :: primitive :: u64"),
        ("visibility", "Visibility"),
        ("linkage", "Linkage"),
        ("other_bits", ":: core :: primitive :: u64"),
    ];
    let got = fields(st);
    assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    let impls = impls_of(&file.items, "VarFlags");
    assert!(impls.contains("(bits >> 2) & 0xffffffffu64"), "{impls}");
    assert!(
        impls.contains("return :: core :: result :: Result :: Err ((\"linkage\" , (bits >> 40) & 0x1fu64))")
    );
    // every named bit is outside other_bits
    let known: u64 = 0b11 | (0xffff_ffff << 2) | (0b11 << 34) | (0x1f << 40);
    assert!(impls.contains(&format!("other_bits : bits & {:#x}u64", !known)), "{impls}");
    assert!(impls.contains("pub fn bits (& self) -> :: core :: primitive :: u64"));
    assert!(impls.contains("self . linkage . code ()"));
}

#[test]
fn groups_read_a_tag_then_the_variant_fields() {
    let file = emit_file(&demo());
    let attr = enumm(&file.items, "Attribute");
    assert_eq!(s(&attr.generics), "< 'a >", "cstring fields borrow the input");
    let v: Vec<String> = attr.variants.iter().map(|v| v.ident.to_string()).collect();
    assert_eq!(v, ["EnumAttr", "IntAttr", "StringAttr", "StringValueAttr", "NoneAttr"]);
    assert!(matches!(attr.variants[4].fields, syn::Fields::Unit));
    let impls = impls_of(&file.items, "Attribute");
    assert!(impls.contains(
        "impl < 'a > :: bitcode_schema_runtime :: __private :: SchemaGroup < 'a > for Attribute < 'a >"
    ));
    assert!(impls.contains("let tag = ops . raw (field) ?"));
    assert!(impls.contains(
        "1 => :: core :: result :: Result :: Ok (Self :: IntAttr { kind : ops . uint :: < :: core :: primitive :: u64 > (\"kind\") ? , value : ops . uint :: < :: core :: primitive :: u64 > (\"value\") ? , })"
    ), "{impls}");
    assert!(impls.contains("5 => :: core :: result :: Result :: Ok (Self :: NoneAttr)"));
    assert!(impls.contains("ops . unknown_tag (field , tag , \"Attribute\")"));
    assert!(impls.contains("ops . cstring (\"key\" , ctx) ?"), "{impls}");
    assert!(!impls.contains("_ctx : & C"), "cstring fields read with the context");

    let operand = enumm(&file.items, "Operand");
    assert!(operand.generics.params.is_empty(), "no borrowed field: no lifetime");
    let impls = impls_of(&file.items, "Operand");
    assert!(
        impls.contains(
            "impl < 'a > :: bitcode_schema_runtime :: __private :: SchemaGroup < 'a > for Operand {"
        ),
        "{impls}"
    );
    assert!(impls.contains("ops . value_type (\"v\" , ctx)"));
    assert!(impls.contains("ops . optional (| ops | ops . type_id (\"ty\")) ?"));
}

#[test]
fn blocks_are_modules_with_constants_records_and_dispatch() {
    let file = emit_file(&demo());
    let m = module(&file, "module_block");
    let text = s(quote!(#(#m)*));
    assert!(text.contains("pub const ID : :: core :: primitive :: u32 = 8u32"), "{text}");
    assert!(text.contains("pub const NAME : & :: core :: primitive :: str = \"MODULE_BLOCK\""));
    assert!(text.contains("pub const DEFERRABLE : :: core :: primitive :: bool = false"), "{text}");
    assert!(!text.contains("DEFINES"), "an unnumbered block has no table: {text}");
    let rec = enumm(m, "Record");
    let variants: Vec<String> = rec.variants.iter().map(|v| s(&v.fields)).collect();
    assert_eq!(
        variants,
        [
            "(Version)",
            "(Globalvar)",
            "(Everything < 'a >)",
            "(Defaults)",
            "(SourceFilename < 'a >)",
            "(Attrs < 'a >)",
            "(Operands)",
            "(Empty)",
            "(Linkage)",
            "(RawArray)",
            "(:: bitcode_schema_runtime :: decode :: RawRecord < 'a >)",
        ]
    );
    let impls = impls_of(m, "Record");
    assert!(impls.contains("7 => Globalvar :: decode (record , ctx) . map (Self :: Globalvar)"), "{impls}");
    assert!(impls.contains(
        "_ => :: core :: result :: Result :: Ok (Self :: Unknown (:: bitcode_schema_runtime :: __private :: unknown_record (NAME , record , ctx)))"
    ));
    assert!(impls.contains("Self :: Unknown (_) => \"unknown\""));
    assert!(impls.contains("const BLOCK_ID : :: core :: primitive :: u32 = ID"));
    assert!(text.contains("16 => :: core :: option :: Option :: Some (\"SOURCE_FILENAME\")"));

    let lazy = module(&file, "paramattr_block");
    assert!(s(quote!(#(#lazy)*)).contains("DEFERRABLE : :: core :: primitive :: bool = true"));
    assert_eq!(enumm(lazy, "Record").variants.len(), 1);
    // A numbered block: its table has an entry per code up to the largest.
    let body = module(&file, "function_block");
    let body = s(quote!(#(#body)*));
    assert!(body.contains("pub static DEFINES : [:: bitcode_schema_runtime :: numbering :: Defines ; 4] = [:: bitcode_schema_runtime :: numbering :: Defines :: Nothing , :: bitcode_schema_runtime :: numbering :: Defines :: Nothing , :: bitcode_schema_runtime :: numbering :: Defines :: Nothing , :: bitcode_schema_runtime :: numbering :: Defines :: Value]"), "{body}");

    let top = s(&file);
    assert!(
        top.contains("8 => module_block :: Record :: decode (record , ctx) . map (AnyRecord :: ModuleBlock)"),
        "{top}"
    );
    assert!(top.contains(":: core :: matches ! (block_id , 9 | 12)"), "{top}");
    assert!(
        top.contains(
            "blocks : & [:: bitcode_schema_runtime :: numbering :: NumberedBlock { id : function_block :: ID"
        ),
        "{top}"
    );
    let any = enumm(&file.items, "AnyRecord");
    let v: Vec<String> = any.variants.iter().map(|v| v.ident.to_string()).collect();
    assert_eq!(v, ["ModuleBlock", "ParamattrBlock", "FunctionBlock", "UnknownBlock"]);
}

#[test]
fn record_fields_are_typed_and_read_one_call_each() {
    let file = emit_file(&demo());
    let m = module(&file, "module_block");
    let every = strukt(m, "Everything");
    assert_eq!(s(&every.generics), "< 'a >");
    let rt = ":: bitcode_schema_runtime :: decode ::";
    let want = vec![
        ("a", ":: core :: primitive :: u8".to_string()),
        ("b", ":: core :: primitive :: u16".into()),
        ("c", ":: core :: primitive :: i64".into()),
        ("d", "VarFlags".into()),
        ("e", format!("{rt} ValueId")),
        ("f", format!("{rt} ValueId")),
        ("g", format!("{rt} ValueId")),
        ("h", format!("{rt} ValueRef")),
        ("i", ":: core :: option :: Option < :: core :: primitive :: u32 >".into()),
        ("j", "CallingConv".into()),
        ("k", ":: core :: primitive :: u64".into()),
        ("l", "& 'a [:: core :: primitive :: u8]".into()),
        ("m", format!("{rt} Array < {rt} ValueId >")),
        ("n", format!("{rt} Array < :: core :: primitive :: u32 >")),
    ];
    let want: Vec<(String, String)> = want.into_iter().map(|(a, b)| (a.to_string(), b)).collect();
    assert_eq!(fields(every), want, "an array takes the rest: no extra_operands");
    let body = impls_of(m, "Everything");
    for call in [
        "ops . uint :: < :: core :: primitive :: u8 > (\"a\") ?",
        "ops . signed (\"c\") ?",
        "ops . flags :: < VarFlags > (\"d\") ?",
        "ops . value (\"e\") ?",
        "ops . relative (\"f\" , & * ctx) ?",
        "ops . signed_relative (\"g\" , & * ctx) ?",
        "ops . value_type (\"h\" , & * ctx) ?",
        "ops . optional_index (\"i\") ?",
        "ops . enumeration :: < CallingConv > (\"j\") ?",
        "ops . raw (\"k\") ?",
        "ops . blob (\"l\") ?",
        "ops . counted_array (\"m\" , | ops | ops . relative (\"m\" , & * ctx)) ?",
        "ops . array (| ops | ops . uint :: < :: core :: primitive :: u32 > (\"n\")) ?",
        "static INFO : :: bitcode_schema_runtime :: __private :: RecordInfo = :: bitcode_schema_runtime :: __private :: RecordInfo { block : \"MODULE_BLOCK\" , record : \"EVERYTHING\" }",
        "pub const CODE : :: core :: primitive :: u32 = 9u32",
        "record : & :: bitcode_schema_runtime :: Record < '_ , 'a >",
    ] {
        assert!(body.contains(call), "{call}\n{body}");
    }
    assert!(!body.contains("ops . finish"), "the last field takes the rest");
    // The encoder writes the same fields back, one call each, from bindings of the fields.
    for call in [
        "out . uint (* field0) ; out . keep (\"a\") ?",
        "out . signed (* field2) ;",
        "out . flags (field3) ;",
        "out . relative (* field5 , ctx) ;",
        "out . signed_relative (* field6 , ctx) ;",
        "out . value_type (\"h\" , field7 , ctx) ?",
        "out . optional_index (* field8) ;",
        "out . enumeration (* field9) ;",
        "out . blob (* field11) ;",
        "out . count (field12 . len ()) ; for element in field12 . iter () { out . relative (* element , ctx) ; }",
        "builder . finish (\"extra_operands\" , min_operands , & [])",
    ] {
        assert!(body.contains(call), "{call}\n{body}");
    }

    let version = strukt(m, "Version");
    assert!(version.generics.params.is_empty());
    assert_eq!(
        fields(version),
        [
            ("version".to_string(), ":: core :: primitive :: u32".to_string()),
            ("extra_operands".into(), ":: std :: vec :: Vec < :: core :: primitive :: u64 >".into())
        ]
    );
    let body = impls_of(m, "Version");
    assert!(body.contains("extra_operands : ops . finish (ctx)"), "{body}");
    assert!(body.contains("record : & :: bitcode_schema_runtime :: Record < '_ , '_ >"));
    // One allow, the encoder's (its bindings go unused in some layouts); the decoder's ctx
    // is used by finish.
    assert_eq!(body.matches("allow").count(), 1, "ctx is used by finish\n{body}");

    let empty = impls_of(m, "Empty");
    assert!(empty.contains("let ops ="), "nothing read: ops need not be mut\n{empty}");

    let source = impls_of(m, "SourceFilename");
    assert!(source.contains("# [allow (unused_variables)]"), "ctx unused\n{source}");
    assert!(source.contains("let mut ops"));

    // An array of blobs would repeat forever: its elements are read raw.
    let raw = strukt(m, "RawArray");
    assert_eq!(
        fields(raw)[0].1,
        ":: bitcode_schema_runtime :: decode :: Array < :: core :: primitive :: u64 >"
    );
    assert!(impls_of(m, "RawArray").contains("ops . array (| ops | ops . raw (\"stuff\"))"));

    let attrs = impls_of(m, "Attrs");
    assert!(attrs.contains("ops . groups :: < Attribute < '_ > > (\"attrs\" , & * ctx) ?"), "{attrs}");
    assert_eq!(
        fields(strukt(m, "Attrs"))[1].1,
        ":: bitcode_schema_runtime :: decode :: Array < Attribute < 'a > >"
    );
    assert!(impls_of(m, "Operands").contains("ops . groups :: < Operand > (\"ops\" , & * ctx) ?"));
}

#[test]
fn optional_and_default_fields() {
    let file = emit_file(&demo());
    let m = module(&file, "module_block");
    let got = fields(strukt(m, "Defaults"));
    let types: Vec<&str> = got.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        types,
        [
            ":: core :: primitive :: u32",
            ":: core :: primitive :: bool",
            "Visibility",
            "CallingConv",
            ":: core :: primitive :: i64",
            ":: core :: option :: Option < :: core :: primitive :: u32 >",
            ":: core :: option :: Option < :: bitcode_schema_runtime :: decode :: Align >",
            "VarFlags",
            ":: bitcode_schema_runtime :: decode :: TypeId",
            ":: core :: option :: Option < :: core :: primitive :: u64 >",
            ":: std :: vec :: Vec < :: core :: primitive :: u64 >",
        ]
    );
    let body = impls_of(m, "Defaults");
    for call in [
        "ops . or_default (false , | ops | ops . boolean (\"dso_local\")) ?",
        "ops . or_default (Visibility :: Hidden , | ops | ops . enumeration :: < Visibility > (\"vis\")) ?",
        "ops . or_default (CallingConv :: Unknown (77u64) ,",
        "ops . or_default (- 5i64 , | ops | ops . signed (\"delta\")) ?",
        "ops . optional (| ops | ops . optional_index (\"idx\")) ? . flatten ()",
        "ops . or_default (:: bitcode_schema_runtime :: decode :: Align :: from_log2 (2u8) ,",
        "ops . or_default (VarFlags { is_const : true , explicit_type : false , address_space : 1u64 , visibility : Visibility :: Hidden , linkage : super :: Linkage :: External , other_bits : 0x4000000000000u64 } ,",
        "ops . or_default (:: bitcode_schema_runtime :: decode :: TypeId (4u32) ,",
        "partition : ops . optional (| ops | ops . uint :: < :: core :: primitive :: u64 > (\"partition\")) ?",
    ] {
        assert!(body.contains(call), "{call}\n{body}");
    }
}

#[test]
fn layouts_union_their_fields_and_pick_by_version() {
    let file = emit_file(&demo());
    let m = module(&file, "module_block");
    let got = fields(strukt(m, "Globalvar"));
    let want = [
        ("r#type", ":: bitcode_schema_runtime :: decode :: TypeId"),
        ("is_const", ":: core :: primitive :: bool"),
        ("linkage", "super :: Linkage"),
        ("alignment", ":: core :: option :: Option < :: bitcode_schema_runtime :: decode :: Align >"),
        ("strtab_offset", ":: core :: option :: Option < :: core :: primitive :: u32 >"),
        ("strtab_size", ":: core :: option :: Option < :: core :: primitive :: u32 >"),
        ("visibility", ":: core :: option :: Option < Visibility >"),
        ("extra_operands", ":: std :: vec :: Vec < :: core :: primitive :: u64 >"),
    ];
    assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    let body = impls_of(m, "Globalvar");
    assert!(body.contains("match ops . layout (ctx . version () , & [:: bitcode_schema_runtime :: layout :: LayoutRange :: new (0 , 2) , :: bitcode_schema_runtime :: layout :: LayoutRange :: new (2 , :: core :: primitive :: u64 :: MAX)]) ?"), "{body}");
    // layout 0 reads type, is_const, linkage, alignment; the strtab fields are None
    assert!(body.contains(
        "0 => { let v0 = ops . type_id (\"type\") ? ; let v1 = ops . boolean (\"is_const\") ? ; let v2 = ops . enumeration :: < super :: Linkage > (\"linkage\") ? ; let v3 = ops . align (\"alignment\") ? ; :: core :: result :: Result :: Ok (Self { r#type : v0 , is_const : v1 , linkage : v2 , alignment : v3 , strtab_offset : :: core :: option :: Option :: None , strtab_size : :: core :: option :: Option :: None , visibility : :: core :: option :: Option :: None , extra_operands : ops . finish (ctx) , }) }"
    ), "{body}");
    // layout 1, in its own operand order; an optional read is already an Option
    assert!(body.contains(
        "_ => { let v4 = ops . uint :: < :: core :: primitive :: u32 > (\"strtab_offset\") ? ; let v5"
    ));
    assert!(body.contains("strtab_offset : :: core :: option :: Option :: Some (v4)"));
    assert!(body.contains("alignment : :: core :: option :: Option :: None"));
    assert!(body.contains("visibility : v6"));
}

#[test]
fn a_layout_of_an_operand_count_is_read_by_count_and_written_for_its_fields() {
    let mut schema = demo();
    let mut rec = layouts(
        "TEMPLATE",
        40,
        vec![
            (
                0..u64::MAX,
                vec![field("tag", Kind::Bool), field("is_default", Kind::Bool), field("value", Kind::Type)],
            ),
            (0..u64::MAX, vec![field("tag", Kind::Bool), field("value", Kind::Type)]),
        ],
    );
    rec.layouts[1].operands = Some(sp(2..3));
    schema.blocks[0].records.push(rec);
    let file = emit_file(&schema);
    let body = impls_of(module(&file, "module_block"), "Template");
    let l = ":: bitcode_schema_runtime :: layout :: LayoutRange :: new";
    let ranges = format!(
        "& [{l} (0 , :: core :: primitive :: u64 :: MAX) , {l} (0 , :: core :: primitive :: u64 :: MAX) . with_operands (2 , 3)]"
    );
    assert!(body.contains(&format!("match ops . layout (ctx . version () , {ranges}) ?")), "{body}");
    // the short form is written when the value lacks is_default, the only field it omits
    assert!(
        body.contains(&format!(
            "match out . layout (ctx . version () , {ranges} , & [true , true && field1 . is_none ()]) ?"
        )),
        "{body}"
    );
}

#[test]
fn record_struct_named_like_a_schema_type_names_it_through_super() {
    let file = emit_file(&demo());
    let m = module(&file, "module_block");
    let st = strukt(m, "Linkage");
    assert_eq!(fields(st)[0].1, "super :: Linkage");
    assert!(impls_of(m, "Linkage").contains("ops . enumeration :: < super :: Linkage > (\"linkage\")"));
    // so is it everywhere in that block; in other blocks it is named plainly
    assert_eq!(fields(strukt(m, "Globalvar"))[2].1, "super :: Linkage");
    let mut schema = demo();
    schema.blocks[2].records[0].layouts[0].fields[0].kind = sp(Kind::Enum(sp("Linkage".into())));
    let file = emit_file(&schema);
    assert_eq!(fields(strukt(module(&file, "function_block"), "Declareblocks"))[0].1, "Linkage");
    assert!(m.iter().any(|i| s(i) == "# [allow (unused_imports)] use super :: * ;"));
}

/// Every `pub` item, field and variant has a doc attribute.
#[test]
fn every_public_item_is_documented() {
    fn has_doc(attrs: &[syn::Attribute]) -> bool {
        attrs.iter().any(|a| a.path().is_ident("doc"))
    }
    fn is_pub(v: &syn::Visibility) -> bool {
        matches!(v, syn::Visibility::Public(_))
    }
    fn check(items: &[syn::Item], missing: &mut Vec<String>) {
        for item in items {
            match item {
                syn::Item::Struct(x) if is_pub(&x.vis) => {
                    if !has_doc(&x.attrs) {
                        missing.push(x.ident.to_string());
                    }
                    for f in &x.fields {
                        if is_pub(&f.vis) && !has_doc(&f.attrs) {
                            missing.push(format!("{}.{}", x.ident, s(&f.ident)));
                        }
                    }
                }
                syn::Item::Enum(x) if is_pub(&x.vis) => {
                    if !has_doc(&x.attrs) {
                        missing.push(x.ident.to_string());
                    }
                    for v in &x.variants {
                        if !has_doc(&v.attrs) {
                            missing.push(format!("{}::{}", x.ident, v.ident));
                        }
                        for f in v.fields.iter().filter(|f| f.ident.is_some()) {
                            if !has_doc(&f.attrs) {
                                missing.push(format!("{}::{}.{}", x.ident, v.ident, s(&f.ident)));
                            }
                        }
                    }
                }
                syn::Item::Mod(x) if is_pub(&x.vis) => {
                    if !has_doc(&x.attrs) {
                        missing.push(x.ident.to_string());
                    }
                    if let Some((_, items)) = &x.content {
                        check(items, missing);
                    }
                }
                syn::Item::Fn(x) if is_pub(&x.vis) && !has_doc(&x.attrs) => {
                    missing.push(x.sig.ident.to_string())
                }
                syn::Item::Const(x) if is_pub(&x.vis) && !has_doc(&x.attrs) => {
                    missing.push(x.ident.to_string())
                }
                syn::Item::Impl(x) if x.trait_.is_none() => {
                    for i in &x.items {
                        let (vis, attrs, name) = match i {
                            syn::ImplItem::Fn(f) => (&f.vis, &f.attrs, f.sig.ident.to_string()),
                            syn::ImplItem::Const(c) => (&c.vis, &c.attrs, c.ident.to_string()),
                            _ => continue,
                        };
                        if is_pub(vis) && !has_doc(attrs) {
                            missing.push(format!("{}::{name}", s(&x.self_ty)));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut missing = Vec::new();
    check(&emit_file(&demo()).items, &mut missing);
    assert!(missing.is_empty(), "undocumented: {missing:?}");
}

#[test]
fn schema_docs_become_doc_attributes() {
    let file = emit_file(&demo());
    let linkage = enumm(&file.items, "Linkage");
    assert_eq!(s(&linkage.attrs[0]), "# [doc = \"How a global value is linked.\"]");
    let weak_old = &linkage.variants[4];
    assert!(s(&weak_old.attrs[0]).contains("LLVM reads it as `weak_any`"), "{}", s(&weak_old.attrs[0]));
    let name = find_item(&file.items, "FORMAT_NAME");
    assert!(s(name[0]).contains("A made-up format."));
}

/// A model the validator should never let through: invalid and duplicate names, codes,
/// tags and ids, bad bit ranges, defaults that do not fit, kinds that differ by layout.
fn broken() -> Schema {
    let mut schema = demo();
    let e = &mut schema.enums[0];
    e.rust_name = "1 bad".into();
    let mut dup = schema.enums[1].clone();
    dup.name = sp("Dup".into());
    schema.enums.push(dup); // duplicate rust name
    schema.enums[2].values.push(EnumValue {
        name: sp("unknown".into()),
        rust_name: "Unknown".into(),
        code: sp(5),
        doc: None,
        folds_to: None,
    });
    schema.enums[2].values.push(EnumValue {
        name: sp("again".into()),
        rust_name: "Again".into(),
        code: sp(0),
        doc: None,
        folds_to: None,
    });
    schema.flags[0].fields.push(flag("wide", 60..70, None));
    schema.flags[0].fields.push(flag("backwards", std::ops::Range { start: 9, end: 3 }, None));
    schema.flags[0].fields.push(flag("other_bits", 50..51, None));
    schema.groups[0].variants.push(variant("dup_tag", 0, vec![]));
    let mb = &mut schema.blocks[0];
    mb.records.push(record("VERSION_AGAIN", 1, vec![]));
    let mut r = record("RECORD", 30, vec![]);
    r.rust_name = "Record".into();
    mb.records.push(r);
    mb.records.push(record(
        "WEIRD",
        31,
        vec![
            field("x", Kind::Enum(sp("NoSuchEnum".into()))),
            field("x", Kind::Unsigned(8)),
            {
                let mut f = field("bad name", Kind::Unsigned(8));
                f.rust_name = "bad name".into();
                f
            },
            field("extra_operands", Kind::Bool),
            with(field("s", Kind::String), default(DefaultValue::Int(3))),
            with(
                field("f", Kind::Flags(sp("VarFlags".into()))),
                default(DefaultValue::Int(1 << 40 | 7 << 40)),
            ),
            with(field("u", Kind::Unsigned(8)), default(DefaultValue::Int(300))),
            with(field("al", Kind::Align), default(DefaultValue::Int(99))),
            with(field("i", Kind::Signed), default(DefaultValue::Int(i64::MIN as i128))),
        ],
    ));
    mb.records.push(layouts(
        "MISMATCH",
        32,
        vec![
            (0..1, vec![field("a", Kind::Bool)]),
            (1..3, vec![field("a", Kind::Unsigned(8)), field("b", Kind::Bool)]),
        ],
    ));
    mb.records.push(layouts("PARTIAL", 33, vec![(5..9, vec![field("a", Kind::Bool)])]));
    mb.records.push(layouts("NOLAYOUT", 34, vec![]));
    let mut b = block("MODULE_BLOCK", 8, false, vec![]);
    b.module_name = "module_block2".into();
    schema.blocks.push(b); // duplicate id
    schema.blocks.push(block("UNKNOWN_BLOCK", 40, false, vec![]));
    let mut b = block("BAD", 41, false, vec![]);
    b.module_name = "self".into();
    schema.blocks.push(b);

    schema
}

/// It still emits parseable code, skipping what cannot be emitted.
#[test]
fn a_broken_model_still_emits_parseable_code() {
    let schema = broken();
    let file = emit_file(&schema);
    assert!(find_item(&file.items, "Linkage").is_empty(), "invalid name skipped");
    assert_eq!(find_item(&file.items, "Visibility").len(), 1, "duplicate rust name skipped");
    let cc = enumm(&file.items, "CallingConv");
    assert_eq!(cc.variants.len(), 3, "C, Fast, Unknown(u64): the clashing and duplicate-code values skipped");
    let flags = fields(strukt(&file.items, "VarFlags"));
    assert_eq!(flags.len(), 6, "wide, backwards and other_bits skipped");
    assert_eq!(flags[4], ("linkage".into(), ":: core :: primitive :: u64".into()), "its enum is gone");
    let m = module(&file, "module_block");
    assert_eq!(enumm(m, "Record").variants.len(), 15, "duplicate code and `Record` skipped");
    let weird = fields(strukt(m, "Weird"));
    let names: Vec<&str> = weird.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["x", "s", "f", "u", "al", "i"], "a read-rest field: no extra_operands");
    let body = impls_of(m, "Weird");
    assert!(body.contains("let v0 = ops . raw (\"x\") ?"), "{body}");
    assert!(body.contains("let _r1 = ops . uint :: < :: core :: primitive :: u8 > (\"x\") ?"), "{body}");
    assert!(body.contains("let _r3 = ops . boolean (\"extra_operands\") ?"), "{body}");
    assert!(body.contains("let v1 = ops . string (\"s\" , & * ctx) ?"), "no default for a string");
    assert!(body.contains("let v3 = ops . uint :: < :: core :: primitive :: u8 > (\"u\") ?"), "300 is no u8");
    assert!(body.contains("let v4 = ops . align (\"al\") ?"));
    assert!(body.contains("ops . or_default (:: core :: primitive :: i64 :: MIN ,"));
    let mismatch = fields(strukt(m, "Mismatch"));
    assert_eq!(
        mismatch[0],
        ("a".into(), ":: core :: option :: Option < :: core :: primitive :: bool >".into())
    );
    let body = impls_of(m, "Mismatch");
    assert!(body.contains("_ => { let _r0 = ops . uint :: < :: core :: primitive :: u8 > (\"a\") ? ; let v1 = ops . boolean (\"b\") ? ;"), "{body}");
    let partial = impls_of(m, "Partial");
    assert!(partial.contains("let _ = ops . layout (ctx . version () , & [:: bitcode_schema_runtime :: layout :: LayoutRange :: new (5 , 9)]) ? ;"), "{partial}");
    assert!(!partial.contains("match"));
    assert!(impls_of(m, "Nolayout").contains("Ok (Self { extra_operands : ops . finish (ctx) , })"));
    let any = enumm(&file.items, "AnyRecord");
    let v: Vec<String> = any.variants.iter().map(|v| v.ident.to_string()).collect();
    assert_eq!(v, ["ModuleBlock", "ParamattrBlock", "FunctionBlock", "UnknownBlock2", "UnknownBlock"]);
    assert!(
        find_item(&file.items, "module_block2").len() == 1,
        "a block with a duplicate id keeps its module"
    );
}

#[test]
fn an_empty_schema_emits_the_schema_level_items() {
    let file = emit_file(&Schema::default());
    assert_eq!(enumm(&file.items, "AnyRecord").variants.len(), 1);
    assert_eq!(find_item(&file.items, "decode_record").len(), 1);
    assert_eq!(find_item(&file.items, "check_record").len(), 1);
}
