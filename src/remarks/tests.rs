use super::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data").join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

/// What the sample's YAML says of each remark: its header lines (type, pass, name, location,
/// function, hotness) and its argument keys.
fn outline(yaml: &str) -> Vec<String> {
    yaml.lines().filter(|l| !l.starts_with("  - String:") && !l.starts_with(' ')).map(String::from).collect()
}

#[cfg(feature = "object")]
#[test]
fn object_sample_equals_clangs_yaml() {
    let list = load(Some(&data("inline.o")), &bytes("inline.o")).unwrap();
    assert_eq!(to_yaml(&list), std::fs::read_to_string(data("inline.opt.yaml")).unwrap());
    assert_eq!(load_file(&data("inline.o")).unwrap(), list);
    let mut out = Vec::new();
    write_yaml(&list, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), to_yaml(&list));
    assert!(list[0].message().starts_with("'square' inlined into 'sum_squares'"), "{}", list[0].message());
}

/// The standalone sample comes from LLVM 19's yaml2bitstream, which keeps the YAML's
/// spelling of quoted scalars in its strings: the remarks are the same, with the same
/// headers, locations and argument keys, but quoted argument values differ.
#[test]
fn standalone_sample_has_the_remarks_of_clangs_yaml() {
    let list = read(&bytes("inline.opt.bitstream")).unwrap();
    let yaml = std::fs::read_to_string(data("inline.opt.yaml")).unwrap();
    assert_eq!(outline(&to_yaml(&list)), outline(&yaml));
    let keys = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix("  - "))
            .map(|l| l.split(':').next().unwrap().into())
            .collect()
    };
    assert_eq!(keys(&to_yaml(&list)), keys(&yaml));
    let standalone = bytes("inline.opt.bitstream");
    let container = Container::parse(&standalone).unwrap();
    assert_eq!((container.version, container.container_type), (Some(0), Some(2)));
    assert_eq!(container.len(), list.len());
}

#[cfg(feature = "object")]
#[test]
fn separate_remarks_file_needs_its_object_or_its_strings() {
    let err = read(&bytes("inline.o.opt.bitstream")).unwrap_err();
    assert!(matches!(err, Error::NoStringTable(_)), "{err:?}");
    assert!(err.to_string().contains("pass that object file"), "{err}");
    // The object's section holds the table: with it, the file reads alone.
    let object = bytes("inline.o");
    let sections = crate::runtime::embedded::embedded_remarks(&object).unwrap();
    let section = Container::parse(&sections[0].data).unwrap();
    assert!(section.is_empty());
    assert!(section.external_file.as_deref().unwrap().ends_with("inline.o.opt.bitstream"));
    assert_eq!(section.remarks().unwrap(), []);
    let list = read_with_strings(&bytes("inline.o.opt.bitstream"), section.strings.unwrap()).unwrap();
    assert_eq!(list, load(Some(&data("inline.o")), &object).unwrap());
}

#[cfg(feature = "object")]
#[test]
fn a_moved_object_finds_its_remarks_file_beside_it_or_says_what_is_missing() {
    let dir = std::env::temp_dir().join(format!("bitcode-schema-remarks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The object, its recorded path changed (same length) to one that does not exist.
    let mut moved = bytes("inline.o");
    let sections = crate::runtime::embedded::embedded_remarks(&moved).unwrap();
    let recorded = Container::parse(&sections[0].data).unwrap().external_file.unwrap();
    let at = moved.windows(recorded.len()).position(|w| w == recorded.as_bytes()).unwrap();
    let gone = recorded.replace("/data/", "/gone/");
    assert_ne!(gone, recorded);
    moved[at..at + gone.len()].copy_from_slice(gone.as_bytes());
    let object = dir.join("moved.o");
    std::fs::write(&object, &moved).unwrap();
    let remarks_file = dir.join("inline.o.opt.bitstream");
    std::fs::write(&remarks_file, bytes("inline.o.opt.bitstream")).unwrap();
    assert_eq!(load_file(&object).unwrap(), load_file(&data("inline.o")).unwrap());
    // A truncated remarks file: an error in that file.
    let whole = bytes("inline.o.opt.bitstream");
    std::fs::write(&remarks_file, &whole[..whole.len() / 2]).unwrap();
    let err = load_file(&object).unwrap_err();
    assert!(matches!(&err, Error::InFile { file, .. } if *file == remarks_file), "{err:?}");
    assert!(matches!(err.innermost(), Error::Bitstream(_)), "{err:?}");
    // No remarks file: an error that names it.
    std::fs::remove_file(&remarks_file).unwrap();
    let err = load_file(&object).unwrap_err();
    assert!(matches!(err, Error::MissingFile { .. }), "{err:?}");
    assert!(err.to_string().contains("is missing") && err.to_string().contains(".opt.bitstream"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn truncated_input_and_bad_indices_are_errors() {
    let whole = bytes("inline.opt.bitstream");
    for len in [0, 3, 4, 7, 30, whole.len() / 2, whole.len() - 1] {
        assert!(read(&whole[..len]).is_err(), "{len} bytes read without error");
    }
    let container = Container::parse(&whole).unwrap();
    let err = container.resolve(b"only\0two\0").unwrap_err();
    assert!(matches!(err, Error::StringIndex { strings: 2, .. }), "{err:?}");
    assert!(read(&bytes("warnings.dia")).is_err());
}

#[test]
fn yaml_quotes_as_llvm_does() {
    let scalars = [
        ("plain", "plain"),
        ("", "''"),
        ("'", "''''"),
        ("337", "'337'"),
        ("true", "'true'"),
        ("a: b", "'a: b'"),
        ("line\nbreak", "\"line\\nbreak\""),
        ("caf\u{e9}", "\"caf\u{e9}\""),
        ("1.5e3", "'1.5e3'"),
        ("1e", "1e"),
        ("0xg", "0xg"),
    ];
    for (s, expected) in scalars {
        assert_eq!(yaml::scalar(s), expected, "{s:?}");
    }
}
