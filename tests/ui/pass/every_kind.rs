// The every-kind schema (tests/schemas/every_kind.toml): every construct of the schema
// language, and the generated API used with explicit types, field by field.
mod every_kind {
    bitcode_schema_derive::schema!("tests/schemas/every_kind.toml");
}

use bitcode_schema_runtime::decode::{Align, Array, BasicContext, Bytes, TypeId, ValueId, ValueRef};
use bitcode_schema_runtime::numbering::{Called, Defines, Numbers};
use bitcode_schema_runtime::writer::StreamWriter;
use bitcode_schema_runtime::{Bitstream, Entry};
use every_kind::{body_block, code_block, header_block, AnyRecord, Attr, Color, Mode, Shape, Style};

fn header(r: &header_block::Record<'_>) -> String {
    match r {
        header_block::Record::Version(header_block::Version { version, extra_operands }) => {
            let (_, _): (&u32, &Vec<u64>) = (version, extra_operands);
            format!("version {version}")
        }
        header_block::Record::Name(n) => {
            let name: &Bytes<'_> = &n.name;
            format!("name {name}")
        }
        header_block::Record::BlobName(b) => {
            let (count, text): (u16, &Bytes<'_>) = (b.count, &b.text);
            format!("{count} {text}")
        }
        header_block::Record::RawBlob(b) => {
            let (data, checksum): (&[u8], u32) = (b.data, b.checksum);
            format!("{data:?} {checksum}")
        }
        header_block::Record::Unknown(raw) => format!("unknown {}", raw.code),
    }
}

fn body(r: &body_block::Record<'_>) -> String {
    match r {
        body_block::Record::Numbers(n) => {
            let _: (u8, u16, u64, bool, i64) = (n.small, n.medium, n.large, n.flag, n.delta);
            format!("{n:?}")
        }
        body_block::Record::Choices(c) => {
            let (color, shape, mode, style): (Color, Shape, Mode, Style) =
                (c.color, c.shape, c.mode, c.style);
            let _: (bool, bool, Color, u64, u64) =
                (style.bold, style.italic, style.color, style.weight, style.other_bits);
            format!("{color} {shape} {mode} {}", style.bits())
        }
        body_block::Record::Values(v) => {
            let _: (ValueId, ValueId, ValueId, ValueRef, TypeId) =
                (v.absolute, v.relative, v.phi, v.pair, v.r#type);
            let _: (Option<u32>, Option<Align>) = (v.section, v.align);
            format!("{v:?}")
        }
        body_block::Record::Lists(l) => {
            let _: (&Array<TypeId>, &Array<Color>, &Array<ValueRef>) = (&l.types, &l.colors, &l.args);
            format!("{l:?}")
        }
        body_block::Record::Attrs(a) => a
            .attrs
            .iter()
            .map(|attr: &Attr<'_>| match attr {
                Attr::Key { key } => format!("{key}"),
                Attr::KeyValue { key, value } => format!("{key}={value}"),
                Attr::Text { key } => format!("{key}"),
                Attr::TextValue { key, value } => format!("{key}={value}"),
            })
            .collect::<Vec<_>>()
            .join(","),
        body_block::Record::Trailing(t) => {
            let _: (u32, u32, Mode, bool, Option<u32>, Option<u64>) =
                (t.base, t.scale, t.mode, t.enabled, t.note, t.label);
            format!("{t:?}")
        }
        body_block::Record::Entry(e) => {
            let _: (Option<u32>, Option<u32>, Color) = (e.strtab_offset, e.strtab_size, e.color);
            format!("{e:?}")
        }
        body_block::Record::WordList(w) => {
            let _: &Array<u32> = &w.words;
            format!("{w:?}")
        }
        body_block::Record::Call(c) => {
            let _: (Option<u8>, Option<TypeId>, &Array<ValueRef>) = (c.fmf, c.function_type, &c.args);
            format!("{c:?}")
        }
        body_block::Record::Switch(s) => {
            let _: &Array<every_kind::Case> = &s.cases;
            format!("{s:?}")
        }
        body_block::Record::Phi(p) => {
            let _: (&Array<every_kind::Incoming>, Option<u8>) = (&p.incoming, p.flags);
            format!("{p:?}")
        }
        body_block::Record::Named(n) => {
            let _: (Option<u32>, Option<u8>) = (n.strtab_offset, n.legacy);
            format!("{n:?}")
        }
        body_block::Record::Ranges(r) => format!("{r:?}"),
        body_block::Record::PhiFmf(p) => format!("{p:?}"),
        body_block::Record::CallArgs(c) => format!("{c:?}"),
        body_block::Record::Unknown(raw) => format!("unknown {}", raw.code),
    }
}

fn main() {
    assert_eq!(every_kind::FORMAT_NAME, "every_kind");
    assert!(every_kind::deferrable(body_block::ID) && body_block::DEFERRABLE);
    assert!(!every_kind::deferrable(header_block::ID) && !every_kind::deferrable(99));
    // The numbered block: what each code defines, as a table and through NUMBERING.
    let numbered = every_kind::NUMBERING.block(code_block::ID).unwrap();
    assert_eq!((numbered.name, numbered.numbers, code_block::NUMBERS), ("CODE_BLOCK", Numbers::Values, Numbers::Values));
    let names: Vec<&str> = (0..6).map(|code| code_block::defines(code).name()).collect();
    assert_eq!(names, ["nothing", "value", "nothing", "nothing", "call_result", "nothing"]);
    assert!(every_kind::NUMBERING.block(body_block::ID).is_none());
    let Defines::CallResult(called) = numbered.defines(code_block::Call::CODE) else { panic!("CALL is a call result") };
    // flags with explicit_type (bit 15), function type 3, callee 2 back from value 10; the
    // arguments are not read.
    let ops = [1 << 15, 3, 2, 99, 98];
    let mut w = StreamWriter::new(every_kind::MAGIC);
    w.enter_block(code_block::ID, 4).unwrap();
    w.unabbreviated_record(code_block::Call::CODE, &ops).unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let _ = cursor.next_entry().unwrap();
    let Some(Entry::Record(call)) = cursor.next_entry().unwrap() else { panic!("a record") };
    let ctx = BasicContext::new().with_version(1).with_value_number(10);
    let got: Called = called(&call, &ctx).unwrap();
    assert_eq!(got, Called { function_type: Some(TypeId(3)), callee: ValueRef { id: ValueId(8), ty: None } });
    assert_eq!(code_block::Call::called(&call, &ctx).unwrap(), got);
    assert_eq!(every_kind::block_name(8), Some(header_block::NAME));
    assert_eq!(every_kind::record_name(9, body_block::WordList::CODE), Some("WORDS"));
    assert_eq!(Color::try_from(2).map(Color::folded), Ok(Color::Green));
    assert_eq!((Color::Blue.code(), Color::Blue.name()), (7, "blue"));
    assert_eq!(Shape::try_from(9), Ok(Shape::Unknown(9)));
    assert_eq!(Mode::try_from(9), Ok(Mode::Normal));

    let mut w = StreamWriter::new(every_kind::MAGIC);
    w.enter_block(header_block::ID, 4).unwrap();
    w.unabbreviated_record(header_block::Version::CODE, &[2]).unwrap();
    w.end_block().unwrap();
    w.enter_block(body_block::ID, 4).unwrap();
    w.unabbreviated_record(body_block::Numbers::CODE, &[1, 2, 3, 1, 3]).unwrap();
    w.unabbreviated_record(body_block::Attrs::CODE, &[17, 1, 6, 99]).unwrap();
    w.unabbreviated_record(body_block::Trailing::CODE, &[40]).unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();

    let stream = Bitstream::new(&bytes).unwrap();
    let mut cursor = stream.cursor();
    let mut ctx = BasicContext::default();
    let mut block = 0;
    let mut seen = Vec::new();
    while let Some(entry) = cursor.next_entry().unwrap() {
        match entry {
            Entry::Block(h) => block = h.id,
            Entry::EndBlock(_) => {}
            Entry::Record(r) => seen.push(match every_kind::decode_record(block, &r, &mut ctx).unwrap() {
                AnyRecord::HeaderBlock(h) => format!("{}: {}", h.name(), header(&h)),
                AnyRecord::BodyBlock(b) => format!("{}: {}", b.name(), body(&b)),
                AnyRecord::CodeBlock(c) => format!("{}", c.name()),
                AnyRecord::UnknownBlock { block_id, .. } => format!("block {block_id}"),
            }),
        }
    }
    assert_eq!(seen[0], "VERSION: version 2");
    assert_eq!(seen[2], "ATTRS: 6=99");
    assert_eq!(seen.len(), 4);
    assert!(ctx.warnings.is_empty());
}
