//! Global values: variables, functions, aliases and ifuncs with every field of their
//! records (as LLVM's reader leaves them: obsolete linkages folded, implied dso_local).

use super::constants::ValueRef;
use super::types::TypeRef;
use crate::llvm::ir::{
    CallingConv, CodeModel, ComdatSelection, DllStorage, Linkage, ThreadLocal, UnnamedAddr, Visibility,
};
use bitcode_schema_runtime::decode::Bytes;

/// What all global values share.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalCommon<'a> {
    /// The value id.
    pub value_id: ValueRef,
    /// The name (empty: unnamed).
    pub name: Bytes<'a>,
    /// The value type (a function's function type).
    pub value_type: TypeRef,
    /// The type of the value itself (a pointer).
    pub ty: TypeRef,
    /// The address space.
    pub address_space: u32,
    /// Linkage (folded).
    pub linkage: Linkage,
    /// Visibility.
    pub visibility: Visibility,
    /// DLL storage.
    pub dll_storage: DllStorage,
    /// dso_local as written or implied.
    pub dso_local: bool,
    /// unnamed_addr.
    pub unnamed_addr: UnnamedAddr,
    /// Thread-local mode.
    pub thread_local: ThreadLocal,
    /// Partition name.
    pub partition: Bytes<'a>,
    /// Where the partition name sits in the string table.
    pub partition_at: Option<(u64, u64)>,
    /// Where the name sits in the string table (version 2), resolved later.
    pub strtab: Option<(u64, u64)>,
}

impl GlobalCommon<'_> {
    /// Whether dso_local follows from linkage and visibility (printed only when not).
    pub fn implicit_dso_local(&self) -> bool {
        matches!(self.linkage, Linkage::Private | Linkage::Internal)
            || (self.visibility != Visibility::Default && self.linkage != Linkage::ExternWeak)
    }
}

/// A global variable.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar<'a> {
    /// Shared fields.
    pub common: GlobalCommon<'a>,
    /// constant or global.
    pub constant: bool,
    /// The initializer.
    pub initializer: Option<ValueRef>,
    /// Alignment in bytes.
    pub align: Option<u64>,
    /// Section.
    pub section: Option<Bytes<'a>>,
    /// externally_initialized.
    pub externally_initialized: bool,
    /// Comdat index.
    pub comdat: Option<u32>,
    /// Attribute list reference (1-based).
    pub attributes: Option<u32>,
    /// Sanitizer bits.
    pub sanitizer: u64,
    /// Code model.
    pub code_model: CodeModel,
}

/// A function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function<'a> {
    /// Shared fields.
    pub common: GlobalCommon<'a>,
    /// Calling convention.
    pub calling_conv: CallingConv,
    /// A declaration.
    pub is_proto: bool,
    /// Attribute list reference (1-based).
    pub attributes: Option<u32>,
    /// Alignment in bytes.
    pub align: Option<u64>,
    /// Section.
    pub section: Option<Bytes<'a>>,
    /// gc name.
    pub gc: Option<Bytes<'a>>,
    /// Comdat index.
    pub comdat: Option<u32>,
    /// prefix data.
    pub prefix: Option<ValueRef>,
    /// prologue data.
    pub prologue: Option<ValueRef>,
    /// personality.
    pub personality: Option<ValueRef>,
    /// Preferred alignment.
    pub preferred_align: Option<u64>,
}

/// An alias or an ifunc.
#[derive(Clone, Debug, PartialEq)]
pub struct Indirect<'a> {
    /// Shared fields.
    pub common: GlobalCommon<'a>,
    /// The aliasee or resolver.
    pub target: ValueRef,
}

/// A comdat.
#[derive(Clone, Debug, PartialEq)]
pub struct Comdat<'a> {
    /// The name.
    pub name: Bytes<'a>,
    /// Where the name sits in the string table.
    pub strtab: Option<(u64, u64)>,
    /// Selection kind.
    pub selection: ComdatSelection,
}
