//! The schema! macro end to end on tests/schemas/every_kind.toml, a made-up format using
//! every construct of the schema language: streams written with the runtime's writer are
//! read with the cursor and decoded into the generated types.

use bitcode_schema::runtime::decode::{Align, BasicContext, Bytes, TypeId, ValueId, ValueRef, Warning};
use bitcode_schema::runtime::encode::EncodedRecord;
use bitcode_schema::runtime::writer::StreamWriter;
use bitcode_schema::{Abbrev, AbbrevOp, Bitstream, Entry, ErrorKind, Record, ScalarEncoding};

mod every_kind {
    bitcode_schema::schema!("tests/schemas/every_kind.toml");
}

use every_kind::{body_block, header_block, AnyRecord, Attr, Color, Mode, Shape, Style};

/// Writes one block holding `records` (code, operands), unabbreviated.
fn stream(block: u32, records: &[(u32, Vec<u64>)]) -> Vec<u8> {
    let mut w = StreamWriter::new(*b"EVRY");
    w.enter_block(block, 4).unwrap();
    for (code, ops) in records {
        w.unabbreviated_record(*code, ops).unwrap();
    }
    w.end_block().unwrap();
    w.finish().unwrap()
}

/// Decodes every record of a stream with the schema's dispatcher.
fn decode_all(bytes: &[u8], ctx: &mut BasicContext) -> Vec<bitcode_schema::Result<AnyRecord<'static>>> {
    // The streams here are leaked so that the decoded records may borrow them.
    let bytes: &'static [u8] = Box::leak(bytes.to_vec().into_boxed_slice());
    let stream = Bitstream::new(bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut out = Vec::new();
    let mut block = 0;
    while let Some(entry) = cursor.next_entry().unwrap() {
        match entry {
            Entry::Block(h) => block = h.id,
            Entry::EndBlock(_) => {}
            Entry::Record(r) => {
                // check_record decodes the same way, without building an AnyRecord.
                let checked = every_kind::check_record(block, &r, &mut ctx.clone());
                let decoded = every_kind::decode_record(block, &r, ctx);
                match (&checked, &decoded) {
                    (Ok(known), Ok(any)) => assert_eq!(*known, !any.is_unknown(), "{any:?}"),
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    _ => panic!("check_record {checked:?}, decode_record {decoded:?}"),
                }
                out.push(decoded)
            }
        }
    }
    out
}

fn one(
    block: u32,
    code: u32,
    ops: Vec<u64>,
    ctx: &mut BasicContext,
) -> bitcode_schema::Result<AnyRecord<'static>> {
    decode_all(&stream(block, &[(code, ops)]), ctx).pop().unwrap()
}

fn body(code: u32, ops: Vec<u64>, ctx: &mut BasicContext) -> body_block::Record<'static> {
    match one(9, code, ops, ctx).unwrap() {
        AnyRecord::BodyBlock(r) => r,
        other => panic!("not a body record: {other:?}"),
    }
}

/// Signed VBR as LLVM writes it: magnitude shifted left, sign in bit 0.
fn signed(v: i64) -> u64 {
    bitcode_schema::runtime::decode::encode_signed(v)
}

pub fn constants_and_name_tables() {
    assert_eq!(every_kind::FORMAT_NAME, "every_kind");
    assert_eq!(&every_kind::MAGIC, b"EVRY");
    assert_eq!((header_block::ID, header_block::NAME), (8, "HEADER_BLOCK"));
    assert!(body_block::DEFERRABLE && every_kind::deferrable(9));
    assert!(!every_kind::deferrable(8) && !every_kind::deferrable(33));
    assert_eq!(every_kind::block_name(9), Some("BODY_BLOCK"));
    assert_eq!(every_kind::block_name(10), Some("CODE_BLOCK"));
    assert_eq!(every_kind::block_name(11), None);
    assert_eq!(every_kind::record_name(9, 8), Some("WORDS"));
    assert_eq!(every_kind::record_name(9, 99), None);
    assert_eq!(body_block::WordList::CODE, 8);
}

pub fn enums_convert_display_and_apply_their_unknown_policy() {
    assert_eq!(Color::try_from(7), Ok(Color::Blue));
    assert_eq!(Color::try_from(2), Ok(Color::GreenOld), "an obsolete code keeps its own value");
    assert_eq!(
        (Color::GreenOld.code(), Color::GreenOld.folded(), Color::Blue.folded()),
        (2, Color::Green, Color::Blue)
    );
    assert!(Color::try_from(3).is_err());
    assert_eq!(Color::Blue.to_string(), "blue");
    assert_eq!(Color::Blue.code(), 7);
    assert_eq!(Shape::try_from(9), Ok(Shape::Unknown(9)));
    assert_eq!(Shape::try_from(2), Ok(Shape::Error), "a variant named Error beside TryFrom::Error");
    assert_eq!(Mode::try_from(9), Ok(Mode::Normal));
    assert_eq!(Mode::Type.to_string(), "type");
}

pub fn unsigned_bool_and_signed_vbr() {
    let mut ctx = BasicContext::default();
    for (delta, encoded) in [(0i64, 0u64), (1, 2), (-1, 3), (i64::MAX, u64::MAX - 1), (i64::MIN, 1)] {
        let r = body(1, vec![255, 65535, u64::MAX, 2, encoded], &mut ctx);
        let body_block::Record::Numbers(n) = r else { panic!("{r:?}") };
        assert_eq!((n.small, n.medium, n.large, n.flag), (255, 65535, u64::MAX, true));
        assert_eq!(n.delta, delta, "signed VBR {encoded}");
        assert!(n.extra_operands.is_empty());
    }
    assert_eq!(signed(i64::MAX), u64::MAX - 1);
    // 256 does not fit in u8: the error names block, record, field and value
    let err = one(9, 1, vec![256, 0, 0, 0, 0], &mut ctx).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Field { field: "small", .. }), "{err}");
    let at = err.bit_offset();
    assert_eq!(
        err.to_string(),
        format!("BODY_BLOCK/NUMBERS at bit {at}: field small: 256 does not fit in u8 (block path 9)")
    );
}

pub fn enums_and_flags_in_records() {
    let mut ctx = BasicContext::default();
    let style = 1 | (7 << 4) | (200 << 8) | (1 << 40);
    let r = body(2, vec![2, 5, 1, style], &mut ctx);
    let body_block::Record::Choices(c) = r else { panic!("{r:?}") };
    assert_eq!(
        (c.color, c.color.folded(), c.shape, c.mode),
        (Color::GreenOld, Color::Green, Shape::Unknown(5), Mode::Fast)
    );
    let s: Style = c.style;
    assert!(s.bold && !s.italic);
    assert_eq!((s.color, s.weight, s.other_bits), (Color::Blue, 200, 1 << 40));
    assert_eq!(s.bits(), style);
    // a color code that is no Color, directly and inside the flag word
    let err = one(9, 2, vec![3, 0, 0, 0], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field color: 3 is not a Color"), "{err}");
    let err = one(9, 2, vec![0, 0, 0, 3 << 4], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field style: flag color: 3 is not valid"), "{err}");
}

pub fn value_ids_relative_signed_and_forward_references() {
    let mut ctx = BasicContext::new().with_value_number(100);
    // relative 3 -> 97; phi -2 -> 102; pair 5 -> 95 (backward, no type); section 0 -> None
    let r = body(3, vec![42, 3, signed(-2), 5, 9, 0, 4], &mut ctx);
    let body_block::Record::Values(v) = r else { panic!("{r:?}") };
    assert_eq!((v.absolute, v.relative, v.phi), (ValueId(42), ValueId(97), ValueId(102)));
    assert_eq!(v.pair, ValueRef { id: ValueId(95), ty: None });
    assert_eq!(v.r#type, TypeId(9));
    assert_eq!(v.section, None);
    assert_eq!(v.align.map(Align::bytes), Some(8));
    // a forward reference (relative 0 = the value being defined) carries its type
    let r = body(3, vec![1, 1, signed(3), 0, 77, 6, 3, 0], &mut ctx);
    let body_block::Record::Values(v) = r else { panic!("{r:?}") };
    assert_eq!(v.pair, ValueRef { id: ValueId(100), ty: Some(TypeId(77)) });
    assert_eq!((v.r#type, v.section, v.align.map(Align::bytes)), (TypeId(6), Some(2), None));
    assert_eq!(v.phi, ValueId(97));
    // with absolute ids (LLVM module version 0), relative operands are plain ids, and phi
    // operands are not sign-rotated
    let mut abs = BasicContext::new().with_value_number(100).with_absolute_ids(true);
    let r = body(3, vec![1, 3, 5, 5, 9, 1, 0], &mut abs);
    let body_block::Record::Values(v) = r else { panic!("{r:?}") };
    assert_eq!((v.relative, v.phi, v.section), (ValueId(3), ValueId(5), Some(0)));
    // a phi operand pointing before value 0 is an error
    let err = one(9, 3, vec![1, 1, signed(101), 0, 0, 0, 0], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field phi: relative id 202 from value 100 is out of range"), "{err}");
}

pub fn counted_arrays_value_type_arrays_and_groups() {
    let mut ctx = BasicContext::new().with_value_number(10);
    // 2 types, 3 colors, then value-type args: 1 (-> 9), 0 (-> 10, forward: type 4), 2 (-> 8)
    let r = body(4, vec![2, 11, 12, 3, 0, 1, 7, 1, 0, 4, 2], &mut ctx);
    let body_block::Record::Lists(l) = r else { panic!("{r:?}") };
    assert_eq!(l.types.as_slice(), [TypeId(11), TypeId(12)]);
    assert_eq!(l.colors.as_slice(), [Color::Red, Color::Green, Color::Blue]);
    let ids: Vec<(u32, Option<u32>)> = l.args.iter().map(|a| (a.id.0, a.ty.map(|t| t.0))).collect();
    assert_eq!(ids, vec![(9, None), (10, Some(4)), (8, None)]);
    // a count beyond the operands is an error
    let err = one(9, 4, vec![5, 1], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field types: missing"), "{err}");

    let text = |s: &str| s.bytes().map(u64::from).chain([0]).collect::<Vec<u64>>();
    let mut ops = vec![17, 0, 5, 1, 6, 99, 3];
    ops.extend(text("no-inline"));
    ops.push(4);
    ops.extend(text("target-cpu"));
    ops.extend(text("x86-64"));
    let r = body(5, ops, &mut ctx);
    let body_block::Record::Attrs(a) = r else { panic!("{r:?}") };
    assert_eq!(a.id, 17);
    assert_eq!(a.attrs.len(), 4);
    assert_eq!(a.attrs[0], Attr::Key { key: 5 });
    assert_eq!(a.attrs[1], Attr::KeyValue { key: 6, value: 99 });
    assert!(matches!(&a.attrs[2], Attr::Text { key } if *key == "no-inline"));
    assert!(
        matches!(&a.attrs[3], Attr::TextValue { key, value } if *key == "target-cpu" && *value == "x86-64")
    );
    // an unknown tag, and a string without its 0
    let err = one(9, 5, vec![1, 2, 5], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("2 is not a tag of group Attr"), "{err}");
    let err = one(9, 5, vec![1, 3, b'a' as u64], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("string without its terminating 0"), "{err}");
}

pub fn optional_trailing_operands_absent_and_present() {
    let mut ctx = BasicContext::default();
    let r = body(6, vec![40], &mut ctx);
    let body_block::Record::Trailing(t) = r else { panic!("{r:?}") };
    assert_eq!((t.base, t.scale, t.mode, t.enabled, t.note, t.label), (40, 1, Mode::Fast, true, None, None));
    let r = body(6, vec![40, 3, 0, 0, 5, 123], &mut ctx);
    let body_block::Record::Trailing(t) = r else { panic!("{r:?}") };
    assert_eq!(
        (t.base, t.scale, t.mode, t.enabled, t.note, t.label),
        (40, 3, Mode::Normal, false, Some(4), Some(123))
    );
    // the required field is still required
    let err = one(9, 6, vec![], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field base: missing (the record has 0 operands)"), "{err}");
    assert!(ctx.warnings.is_empty(), "{:?}", ctx.warnings);
}

pub fn layouts_follow_the_format_version() {
    let mut v2 = BasicContext::new().with_version(2);
    let r = body(7, vec![100, 5, 7], &mut v2);
    let body_block::Record::Entry(e) = r else { panic!("{r:?}") };
    assert_eq!((e.strtab_offset, e.strtab_size, e.color), (Some(100), Some(5), Color::Blue));
    let mut v1 = BasicContext::new().with_version(1);
    let r = body(7, vec![7], &mut v1);
    let body_block::Record::Entry(e) = r else { panic!("{r:?}") };
    assert_eq!((e.strtab_offset, e.strtab_size, e.color), (None, None, Color::Blue));
}

pub fn strings_char6_arrays_and_blobs() {
    let mut w = StreamWriter::new(*b"EVRY");
    w.enter_block(8, 4).unwrap();
    let char6 = w
        .define_abbrev(
            Abbrev::new(vec![AbbrevOp::Literal(2), AbbrevOp::Array(ScalarEncoding::Char6)]).unwrap(),
        )
        .unwrap();
    let blob = w
        .define_abbrev(
            Abbrev::new(vec![
                AbbrevOp::Literal(3),
                AbbrevOp::Scalar(ScalarEncoding::Fixed(16)),
                AbbrevOp::Blob,
            ])
            .unwrap(),
        )
        .unwrap();
    let raw = w
        .define_abbrev(
            Abbrev::new(vec![AbbrevOp::Literal(4), AbbrevOp::Scalar(ScalarEncoding::Vbr(6)), AbbrevOp::Blob])
                .unwrap(),
        )
        .unwrap();
    w.abbreviated_record(char6, 2, &b"main_loop.2".map(u64::from), None).unwrap();
    w.abbreviated_record(blob, 3, &[3], Some(b"a\xffz")).unwrap();
    w.unabbreviated_record(2, &b"plain".map(u64::from)).unwrap();
    w.abbreviated_record(raw, 4, &[0xBEEF], Some(&[1, 2, 3, 4, 5])).unwrap();
    w.end_block().unwrap();
    let mut ctx = BasicContext::default();
    let records: Vec<header_block::Record> = decode_all(&w.finish().unwrap(), &mut ctx)
        .into_iter()
        .map(|r| match r.unwrap() {
            AnyRecord::HeaderBlock(h) => h,
            other => panic!("{other:?}"),
        })
        .collect();
    let header_block::Record::Name(n) = &records[0] else { panic!() };
    assert_eq!(n.name, "main_loop.2");
    let header_block::Record::BlobName(b) = &records[1] else { panic!() };
    assert_eq!((b.count, b.text.as_bytes()), (3, &b"a\xffz"[..]));
    assert_eq!(b.text.to_string(), "a\u{fffd}z");
    let header_block::Record::Name(n) = &records[2] else { panic!() };
    assert_eq!(n.name, Bytes::from(b"plain".to_vec()));
    let header_block::Record::RawBlob(r) = &records[3] else { panic!() };
    assert_eq!((r.data, r.checksum), (&[1u8, 2, 3, 4, 5][..], 0xBEEF));
    // a blob field without a blob
    let err = one(8, 4, vec![1], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field data: the record has no blob"), "{err}");
}

pub fn unknown_codes_and_extra_operands_are_kept_with_warnings() {
    let mut ctx = BasicContext::default();
    let r = body(99, vec![1, 2], &mut ctx);
    let body_block::Record::Unknown(raw) = r else { panic!("{r:?}") };
    assert_eq!((raw.code, raw.ops.as_slice()), (99, &[1u64, 2][..]));
    let r = body(8, vec![1, 2, 3], &mut ctx);
    let body_block::Record::WordList(w) = r else { panic!("{r:?}") };
    assert_eq!(w.words.as_slice(), [1, 2, 3]);
    let r = body(1, vec![1, 2, 3, 0, 0, 77, 88], &mut ctx);
    let body_block::Record::Numbers(n) = r else { panic!("{r:?}") };
    assert_eq!(n.extra_operands, vec![77, 88]);
    assert!(
        matches!(ctx.warnings[0], Warning::UnknownRecord { block: "BODY_BLOCK", code: 99, .. }),
        "{:?}",
        ctx.warnings
    );
    assert!(
        matches!(
            ctx.warnings[1],
            Warning::ExtraOperands { block: "BODY_BLOCK", record: "NUMBERS", count: 2, .. }
        ),
        "{:?}",
        ctx.warnings
    );
    assert_eq!(ctx.warnings.len(), 2);
    // a block the schema does not know
    let r = one(33, 1, vec![5], &mut ctx).unwrap();
    assert!(matches!(r, AnyRecord::UnknownBlock { block_id: 33, .. }), "{r:?}");
}

pub fn fields_present_only_when_an_earlier_flag_says_so() {
    let mut ctx = BasicContext::new().with_value_number(50);
    // cc = explicit type (bit 15) and fast-math flags (bit 17), convention 8 (bits 1..11)
    let cc = (1 << 15) | (1 << 17) | (8 << 1);
    let r = body(9, vec![3, cc, 0x1f, 12, 4, 2, 7], &mut ctx);
    let body_block::Record::Call(c) = r else { panic!("{r:?}") };
    assert!(c.cc.explicit_type && c.cc.has_fmf && !c.cc.tail);
    assert_eq!(c.cc.conv, 8);
    assert_eq!((c.fmf, c.function_type), (Some(0x1f), Some(TypeId(12))));
    assert_eq!(c.callee, ValueRef { id: ValueId(46), ty: None });
    assert_eq!(
        c.args.as_slice(),
        [ValueRef { id: ValueId(48), ty: None }, ValueRef { id: ValueId(43), ty: None }]
    );
    // neither flag: the callee comes right after the flag word
    let r = body(9, vec![3, 1, 4], &mut ctx);
    let body_block::Record::Call(c) = r else { panic!("{r:?}") };
    assert!(c.cc.tail);
    assert_eq!((c.fmf, c.function_type, c.callee.id), (None, None, ValueId(46)));
    assert!(c.args.is_empty());
}

pub fn arrays_of_structs() {
    let mut ctx = BasicContext::new().with_value_number(20);
    let r = body(10, vec![1, 4, signed(-5), 6, signed(9), 7], &mut ctx);
    let body_block::Record::Switch(s) = r else { panic!("{r:?}") };
    assert_eq!((s.condition, s.default), (ValueId(19), 4));
    let cases: Vec<(i64, u32)> = s.cases.iter().map(|c| (c.value, c.target)).collect();
    assert_eq!(cases, vec![(-5, 6), (9, 7)]);
    // arrays of structs take whole elements: an element cut short is left over, kept raw
    // with a warning
    let r = body(10, vec![1, 4, 2], &mut ctx);
    let body_block::Record::Switch(s) = r else { panic!("{r:?}") };
    assert!(s.cases.is_empty());
    assert_eq!(s.extra_operands, vec![2]);
    assert!(matches!(ctx.warnings.last(), Some(Warning::ExtraOperands { record: "SWITCH", count: 1, .. })));
    // counted structs, then a bool that decides whether the last field is there
    let r = body(11, vec![2, signed(1), 3, signed(-2), 4, 1, 9], &mut ctx);
    let body_block::Record::Phi(p) = r else { panic!("{r:?}") };
    let incoming: Vec<(u32, u32)> = p.incoming.iter().map(|i| (i.value.0, i.block)).collect();
    assert_eq!(incoming, vec![(19, 3), (22, 4)]);
    assert_eq!((p.has_flags, p.flags), (true, Some(9)));
    let r = body(11, vec![0, 0], &mut ctx);
    let body_block::Record::Phi(p) = r else { panic!("{r:?}") };
    assert_eq!((p.incoming.len(), p.has_flags, p.flags), (0, false, None));
}

pub fn fields_of_some_versions_only() {
    let mut v2 = BasicContext::new().with_version(2);
    let r = body(12, vec![100, 5, 7], &mut v2);
    let body_block::Record::Named(n) = r else { panic!("{r:?}") };
    assert_eq!((n.strtab_offset, n.strtab_size, n.color, n.legacy), (Some(100), Some(5), Color::Blue, None));
    let mut v1 = BasicContext::new().with_version(1);
    let r = body(12, vec![7, 9], &mut v1);
    let body_block::Record::Named(n) = r else { panic!("{r:?}") };
    assert_eq!((n.strtab_offset, n.strtab_size, n.color, n.legacy), (None, None, Color::Blue, Some(9)));
    // in version 2 the legacy operand is an extra one
    let r = body(12, vec![100, 5, 7, 9], &mut v2);
    let body_block::Record::Named(n) = r else { panic!("{r:?}") };
    assert_eq!(n.extra_operands, vec![9]);
}

pub fn constant_ranges_and_counts_from_earlier_fields() {
    let mut ctx = BasicContext::default();
    // 32-bit: [-3, 10); then two more ranges counted by `count`
    let r =
        body(13, vec![32, signed(-3), signed(10), 2, signed(0), signed(1), signed(5), signed(6)], &mut ctx);
    let body_block::Record::Ranges(x) = r else { panic!("{r:?}") };
    assert_eq!((x.range.lower[0] as i64, x.range.upper[0] as i64), (-3, 10));
    assert_eq!(x.more.len(), 2);
    assert_eq!((x.more[1].lower[0], x.more[1].upper[0]), (5, 6));
    // 128-bit: one word of counts (lower 2 words, upper 1 word), then the words
    let r = body(13, vec![128, 2 | (1 << 32), signed(7), signed(-1), signed(9), 0], &mut ctx);
    let body_block::Record::Ranges(x) = r else { panic!("{r:?}") };
    assert_eq!(x.range.lower, vec![7, u64::MAX]);
    assert_eq!(x.range.upper, vec![9]);
    assert!(x.more.is_empty());
    // a count beyond the operands
    let err = one(9, 13, vec![8, 0, 2, 5, 0, 2], &mut ctx).unwrap_err();
    assert!(err.to_string().contains("field more: missing"), "{err}");
}

pub fn whole_struct_elements_then_a_trailing_field() {
    let mut ctx = BasicContext::new().with_value_number(10);
    let r = body(14, vec![signed(1), 2, signed(2), 3], &mut ctx);
    let body_block::Record::PhiFmf(p) = r else { panic!("{r:?}") };
    assert_eq!((p.incoming.len(), p.fast_math), (2, None));
    let r = body(14, vec![signed(1), 2, signed(2), 3, 31], &mut ctx);
    let body_block::Record::PhiFmf(p) = r else { panic!("{r:?}") };
    assert_eq!((p.incoming.len(), p.fast_math), (2, Some(31)));
}

pub fn call_arguments_fixed_then_variadic() {
    // two fixed parameters: plain relative ids; then variadic value-type pairs
    let mut ctx = BasicContext::new().with_value_number(10).with_call_params(Some(2));
    let r = body(15, vec![1, 3, 0, 4, 0, 5], &mut ctx);
    let body_block::Record::CallArgs(c) = r else { panic!("{r:?}") };
    let args: Vec<(u32, Option<u32>)> = c.args.iter().map(|a| (a.id.0, a.ty.map(|t| t.0))).collect();
    // 3 -> 7 and 0 -> 10 (fixed: no type even when forward), then 4 -> 6, then 0 -> 10 with type 5
    assert_eq!(args, vec![(7, None), (10, None), (6, None), (10, Some(5))]);
    // unknown parameter count: every argument is a value-type pair
    let mut ctx = BasicContext::new().with_value_number(10);
    let r = body(15, vec![1, 3, 0, 4], &mut ctx);
    let body_block::Record::CallArgs(c) = r else { panic!("{r:?}") };
    let args: Vec<(u32, Option<u32>)> = c.args.iter().map(|a| (a.id.0, a.ty.map(|t| t.0))).collect();
    assert_eq!(args, vec![(7, None), (10, Some(4))]);
}

/// The record `encoded` as a decoder would see it after the writer wrote it: a `string`
/// field's bytes in the blob when the original record had one (the abbreviation it was
/// written with ends in a blob), else among the operands.
fn as_written(encoded: &EncodedRecord<'_>, had_blob: bool) -> (Vec<u64>, Option<Vec<u8>>) {
    match (had_blob, &encoded.blob, encoded.string_start) {
        (true, None, Some(start)) => {
            let bytes = encoded.ops[start..].iter().map(|&v| u8::try_from(v).unwrap()).collect();
            (encoded.ops[..start].to_vec(), Some(bytes))
        }
        _ => (encoded.ops.clone(), encoded.blob.as_deref().map(<[u8]>::to_vec)),
    }
}

/// A random operand: mostly small (codes, flags, counts, ids near the value number),
/// sometimes any 64-bit value.
fn random_operand(rng: &mut impl rand::Rng) -> u64 {
    use rand::RngExt;
    match rng.random_range(0..10) {
        0 => rng.random(),
        1 => rng.random_range(0..100_000),
        _ => rng.random_range(0..24),
    }
}

/// Every record of the schema, from random operands and contexts: what decodes encodes
/// back to operands that decode to the same typed record, and those operands are a fixed
/// point (encoding their decoding gives them again). With the original operand count as
/// the minimum, a record whose operands were already canonical comes back unchanged.
pub fn encoders_give_back_what_decoders_read() {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    let (mut decoded_count, mut unchanged) = (0, 0);
    let codes: Vec<(u32, u32)> = (1..=4).map(|c| (8, c)).chain((1..=15).map(|c| (9, c))).collect();
    for round in 0..40_000 {
        let (block, code) = codes[round % codes.len()];
        let ops: Vec<u64> = (0..rng.random_range(0..9)).map(|_| random_operand(&mut rng)).collect();
        let blob: Option<Vec<u8>> =
            rng.random_bool(0.3).then(|| (0..rng.random_range(0..6)).map(|_| rng.random()).collect());
        let mut ctx = BasicContext::new()
            .with_version(rng.random_range(0..4))
            .with_value_number(rng.random_range(0..40))
            .with_absolute_ids(rng.random_bool(0.1))
            .with_call_params(rng.random_bool(0.5).then(|| rng.random_range(0..4)));
        let record = Record::new(code, &ops);
        let record = match &blob {
            Some(b) => record.with_blob(b),
            None => record,
        };
        // Declared before the records that borrow them (the records are compared, so they
        // share one lifetime).
        let (again_ops, again_blob, short_ops, short_blob);
        let Ok(first) = every_kind::decode_record(block, &record, &mut ctx) else { continue };
        decoded_count += 1;
        let shown = format!("block {block} code {code} ops {ops:?} blob {blob:?} ctx {ctx:?}: {first:?}");
        let encoded = first.encode_with_len(&ctx, ops.len()).unwrap_or_else(|e| panic!("{shown}: {e}"));
        assert_eq!(encoded.code, code, "{shown}");
        (again_ops, again_blob) = as_written(&encoded, blob.is_some());
        let again = Record::new(code, &again_ops);
        let again = match &again_blob {
            Some(b) => again.with_blob(b),
            None => again,
        };
        let second = every_kind::decode_record(block, &again, &mut ctx.clone())
            .unwrap_or_else(|e| panic!("{shown}: encoded as {encoded:?}, which does not decode: {e}"));
        assert_eq!(first, second, "{shown}: encoded as {encoded:?}");
        let fixed = second.encode_with_len(&ctx, again_ops.len()).unwrap();
        assert_eq!(fixed, encoded, "{shown}: not a fixed point");
        if (&again_ops, &again_blob) == (&ops, &blob) {
            unchanged += 1;
        }
        // Without a minimum, trailing defaults go; the record still decodes the same.
        let short = first.encode_with_len(&ctx, 0).unwrap();
        assert!(short.ops.len() <= encoded.ops.len(), "{shown}");
        (short_ops, short_blob) = as_written(&short, blob.is_some());
        let short_record = Record::new(code, &short_ops);
        let short_record = match &short_blob {
            Some(b) => short_record.with_blob(b),
            None => short_record,
        };
        let third = every_kind::decode_record(block, &short_record, &mut ctx.clone()).unwrap();
        assert_eq!(first, third, "{shown}: shortest form {short:?}");
    }
    // Most random records do not decode (a value out of range, an operand missing); of those
    // that do, many come back byte for byte. Both counts keep the test from passing empty.
    println!("{decoded_count} of 40000 random records decoded; {unchanged} came back operand for operand");
    assert!(decoded_count > 5_000, "{decoded_count} records decoded");
    assert!(unchanged > decoded_count / 4, "{unchanged} of {decoded_count} unchanged");
}
