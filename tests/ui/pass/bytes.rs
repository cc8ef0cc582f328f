mod tiny {
    bitcode_schema_derive::schema!("tests/ui/pass/bytes.toml");
}

use bitcode_schema_runtime::byte_fields::{ByteContext, ByteFields};
use bitcode_schema_runtime::bytes::ByteReader;

/// Answers `@value_kind` from the entry kind it was told.
struct Ctx {
    version: u64,
    kind: u64,
}

impl ByteContext for Ctx {
    fn version(&self) -> u64 {
        self.version
    }
    fn query(&mut self, name: &'static str) -> Option<u64> {
        (name == "value_kind").then_some(self.kind % 3)
    }
    fn tell(&mut self, name: &'static str, value: u64) {
        if name == "kind" {
            self.kind = value;
        }
    }
}

fn main() {
    let mut body = vec![1, 1, b'a', 0x05]; // kind 1 (signed), "a", -2
    body.extend([2, 0]); // kind 2 (f64), "", then 1.5
    body.extend(1.5f64.to_le_bytes());
    body.push(9); // the end of the entries
    body.push(2); // two words
    body.extend([0x08, 0x03]); // long: head (count 0, kind 2), type 3
    body.extend(0x0000_0105u32.to_le_bytes()); // short: count 1, kind 0x41
    body.extend([7, 0]); // ints: 7, then the end
                         // raw: absent, @value_kind being 0 (the last kind told was 9); note: "x".
    body.extend([1, b'x']);
    let path = [2];
    let mut ops = ByteFields::new(ByteReader::new(&body, 0), "VALUES", &path);
    let mut ctx = Ctx { version: 3, kind: 0 };
    let v = tiny::values::Body::read_bytes(&mut ops, &mut ctx).unwrap();
    assert_eq!(v.entries.len(), 2);
    assert_eq!(v.entries[0].value, tiny::Value::Signed { v: -2 });
    assert_eq!(v.entries[1].value, tiny::Value::Float { v: 1.5 });
    assert_eq!(v.words.len(), 2);
    assert!(matches!(v.words[0], tiny::Word::Long { extra: bitcode_schema_runtime::decode::TypeId(3), .. }));
    assert!(matches!(&v.words[1], tiny::Word::Short { head } if head.count == 1 && head.kind == 0x41));
    assert_eq!(v.ints, vec![7]);
    assert_eq!(v.raw, None);
    assert_eq!(v.note.as_ref().map(|n| n.as_bytes().to_vec()), Some(b"x".to_vec()));
    assert!(ops.is_empty());
    assert_eq!(tiny::block_name(0x12, 0), Some("VALUES"));
    assert_eq!(tiny::block_name(2, 0), None);
    assert_eq!(tiny::block_name(2, 1), Some("VALUES"));
    assert_eq!((tiny::outer::ID, tiny::outer::NAME), (1, "OUTER"));
}
