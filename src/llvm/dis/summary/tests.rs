//! GUIDs as llvm-dis prints them (`; guid = N`), taken from the corpus references.

use super::{global_identifier, guid};
use crate::llvm::ir::Linkage;

#[test]
fn guid_of_an_external_name_is_the_md5_of_the_name() {
    assert_eq!(guid(b"llvm.global_ctors"), 2412314959268824392);
}

#[test]
fn a_local_name_is_prefixed_by_its_file_and_the_delimiter_of_the_version() {
    let name = b"_ZN4core3ptr47drop_in_place$LT$std..ffi..os_str..OsString$GT$17hcfa3a6d94c035f92E";
    let id = global_identifier(name, Linkage::Internal, b"hello.1273d9ed416c1fbf-cgu.0", b';');
    assert_eq!(guid(&id), 4106020194258539020);
    // An external name ignores the file; a leading \1 is dropped.
    assert_eq!(global_identifier(b"\x01f", Linkage::External, b"a.c", b':'), b"f".to_vec());
    assert_eq!(global_identifier(b"f", Linkage::Private, b"", b':'), b"<unknown>:f".to_vec());
}
