//! A downstream crate reads clang's serialized diagnostics through the facade alone
//! (`bitcode_schema::diagnostics`, default features off): examples/data/warnings.dia prints
//! as clang printed it (examples/data/warnings.stderr, its located lines).

use std::path::Path;

use bitcode_schema::diagnostics::{self, Severity};

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data").join(name)
}

#[test]
fn warnings_dia_prints_as_clang_printed_it() {
    let dia = std::fs::read(data("warnings.dia")).unwrap();
    let list = diagnostics::read(&dia).unwrap();
    let stderr = std::fs::read_to_string(data("warnings.stderr")).unwrap();
    // Clang's lines with a location: the source lines, carets and counts are not in the file.
    let expected: String =
        stderr.lines().filter(|l| l.starts_with("warnings.c:")).map(|l| format!("{l}\n")).collect();
    assert_eq!(diagnostics::text(&list), expected);
    let mut written = Vec::new();
    diagnostics::write_text(&list, &mut written).unwrap();
    assert_eq!(String::from_utf8(written).unwrap(), expected);

    let severities: Vec<Severity> = list.iter().map(|d| d.severity).collect();
    assert_eq!(severities, [Severity::Warning, Severity::Error, Severity::Warning, Severity::Warning]);
    let note = &list[0].notes[1];
    assert_eq!(
        note.to_string(),
        "warnings.c:7:9: note: use '==' to turn this assignment into an equality comparison"
    );
    assert_eq!(note.fixits[0].text, "==");
}

#[test]
fn truncated_dia_is_an_error_not_a_panic() {
    let dia = std::fs::read(data("warnings.dia")).unwrap();
    for len in 5..dia.len() {
        let _ = diagnostics::read(&dia[..len]);
    }
    assert!(diagnostics::read(&dia[..dia.len() - 1]).is_err());
}
