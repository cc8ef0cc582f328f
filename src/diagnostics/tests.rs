use super::*;

fn sample() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/warnings.dia")).unwrap()
}

/// The located lines clang printed for the sample.
fn clang_lines() -> String {
    let stderr =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/warnings.stderr"))
            .unwrap();
    stderr.lines().filter(|l| l.starts_with("warnings.c:")).map(|l| format!("{l}\n")).collect()
}

#[test]
fn sample_prints_as_clang_printed_it() {
    let list = read(&sample()).unwrap();
    assert_eq!(text(&list), clang_lines());
    let mut out = Vec::new();
    write_text(&list, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), clang_lines());
}

#[test]
fn sample_has_ranges_fixits_categories_and_every_severity_it_printed() {
    let list = read(&sample()).unwrap();
    assert_eq!(list.len(), 4);
    let parens = &list[0];
    let at = parens.location.as_ref().unwrap();
    assert_eq!((at.file.as_str(), at.line, at.column), ("warnings.c", 7, 9));
    assert_eq!(parens.ranges.len(), 1);
    assert_eq!(parens.ranges[0].start.column, 7);
    assert_eq!(parens.category.as_deref(), Some("Semantic Issue"));
    let fixits: Vec<&str> = parens.notes[0].fixits.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(fixits, ["(", ")"]);
    assert!(parens.notes.iter().all(|n| n.severity == Severity::Note && n.flag.is_none()));
    assert_eq!(list[1].severity, Severity::Error);
    assert_eq!(list[1].flag.as_deref(), Some("implicit-function-declaration"));
}

#[test]
fn remarks_print_with_r_and_no_location_is_left_out() {
    let mut d = Diagnostic::new();
    d.severity = Severity::Remark;
    d.message = "f inlined into g".into();
    d.flag = Some("pass".into());
    assert_eq!(d.to_string(), "remark: f inlined into g [-Rpass]");
}

#[test]
fn truncated_and_foreign_input_is_an_error() {
    let bytes = sample();
    // (The magic alone is an empty stream: no diagnostics.)
    assert_eq!(read(&bytes[..4]).unwrap(), []);
    for len in [0, 3, 5, 9, 40, bytes.len() / 2, bytes.len() - 1] {
        assert!(read(&bytes[..len]).is_err(), "{len} bytes read without error");
    }
    let hello = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/bcdump/data/hello.bc")).unwrap();
    assert!(read(&hello).is_err());
}

#[test]
fn an_unnamed_file_id_is_an_error_with_its_offset() {
    use crate::runtime::writer::StreamWriter;
    let mut w = StreamWriter::new(*b"DIAG");
    w.enter_block(diag::ID, 3).unwrap();
    let mut ops = vec![2, 7, 1, 1, 0, 0, 0, 2];
    ops.extend([u64::from(b'h'), u64::from(b'i')]);
    w.unabbreviated_record(2, &ops).unwrap();
    w.end_block().unwrap();
    let bytes = w.finish().unwrap();
    let err = read(&bytes).unwrap_err();
    assert!(err.to_string().contains("file id 7 is named by no record"), "{err}");
    assert_eq!(err.block_path(), [diag::ID]);
}
