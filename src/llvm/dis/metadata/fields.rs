//! The `name: value` fields of a specialized node, as AsmWriter's MDFieldPrinter writes
//! them: `, ` between fields, and each kind of field skipped when it holds its default.

use std::fmt::Write;

use crate::llvm::module::metadata::Ref;

use super::dwarf::{DISP_FLAG_BITS, DI_FLAG_BITS};
use super::printer::MdPrinter;

/// Writes the fields of one node into `out`.
pub(super) struct Fields<'p, 'm> {
    pub(super) printer: &'p MdPrinter<'m>,
    pub(super) out: &'p mut String,
    first: bool,
}

impl<'p, 'm> Fields<'p, 'm> {
    /// Fields written after `out`'s `!DIKind(`.
    pub(super) fn new(printer: &'p MdPrinter<'m>, out: &'p mut String) -> Self {
        Fields { printer, out, first: true }
    }

    /// Starts a field: the separator and `name: `.
    fn name(&mut self, name: &str) {
        if !self.first {
            self.out.push_str(", ");
        }
        self.first = false;
        self.out.push_str(name);
        self.out.push_str(": ");
    }

    /// A string field; a null or empty string is skipped when `skip_empty`.
    pub(super) fn string(&mut self, name: &str, value: Ref, skip_empty: bool) {
        let bytes = value.and_then(|v| self.printer.md.string(v)).unwrap_or(&[]);
        if skip_empty && bytes.is_empty() {
            return;
        }
        self.name(name);
        self.out.push('"');
        crate::llvm::dis::names::escaped(self.out, bytes);
        self.out.push('"');
    }

    /// A metadata field; null is skipped when `skip_null`, else printed `null`.
    pub(super) fn md(&mut self, name: &str, value: Ref, skip_null: bool) {
        if skip_null && value.is_none() {
            return;
        }
        self.name(name);
        match value {
            Some(v) => self.printer.write_operand(self.out, v),
            None => self.out.push_str("null"),
        }
    }

    /// An integer field, skipped when zero and `skip_zero`.
    pub(super) fn int(&mut self, name: &str, value: impl Into<i128>, skip_zero: bool) {
        let value = value.into();
        if skip_zero && value == 0 {
            return;
        }
        self.name(name);
        push_int(self.out, value);
    }

    /// A boolean field, skipped when it equals `default`.
    pub(super) fn bool(&mut self, name: &str, value: bool, default: Option<bool>) {
        if default == Some(value) {
            return;
        }
        self.name(name);
        self.out.push_str(if value { "true" } else { "false" });
    }

    /// A field spelled from a table (a DWARF enum), skipped when zero; a value the table
    /// lacks prints as its number.
    pub(super) fn dwarf(&mut self, name: &str, value: u64, spelling: Option<&str>, skip_zero: bool) {
        if skip_zero && value == 0 {
            return;
        }
        self.name(name);
        match spelling {
            Some(s) => self.out.push_str(s),
            None => {
                let _ = write!(self.out, "{value}");
            }
        }
    }

    /// A bare word (an enum spelled by the schema) always printed.
    pub(super) fn word(&mut self, name: &str, word: &str) {
        self.name(name);
        self.out.push_str(word);
    }

    /// A DIFlags field: access, inheritance and indirect virtual base first, then each
    /// flag bit lowest first, then the bits no name covers as a number.
    pub(super) fn di_flags(&mut self, name: &str, flags: u64) {
        if flags == 0 {
            return;
        }
        self.name(name);
        let mut list = FlagList { out: self.out, any: false };
        let mut rest = flags;
        list.push(match rest & 3 {
            1 => "DIFlagPrivate",
            2 => "DIFlagProtected",
            3 => "DIFlagPublic",
            _ => "",
        });
        rest &= !3;
        list.push(match (rest >> 16) & 3 {
            1 => "DIFlagSingleInheritance",
            2 => "DIFlagMultipleInheritance",
            3 => "DIFlagVirtualInheritance",
            _ => "",
        });
        rest &= !(3 << 16);
        // FwdDecl | Virtual together: an indirect virtual base.
        if rest & 0x24 == 0x24 {
            list.push("DIFlagIndirectVirtualBase");
            rest &= !0x24;
        }
        for (bit, flag) in DI_FLAG_BITS {
            if rest & (1 << bit) != 0 {
                list.push(flag);
                rest &= !(1 << bit);
            }
        }
        // LLVM 22 named bit 30.
        if rest & (1 << 30) != 0 && self.printer.llvm_major >= 22 {
            list.push("DIFlagNameIsSimplified");
            rest &= !(1 << 30);
        }
        list.finish(rest);
    }

    /// A DISPFlags field, always printed (`0` when empty).
    pub(super) fn sp_flags(&mut self, name: &str, flags: u64) {
        self.name(name);
        if flags == 0 {
            self.out.push('0');
            return;
        }
        let mut list = FlagList { out: self.out, any: false };
        let mut rest = flags;
        match rest & 3 {
            1 => list.push("DISPFlagVirtual"),
            2 => list.push("DISPFlagPureVirtual"),
            _ => {}
        }
        // Both virtuality bits together name nothing: they stay for the number.
        if rest & 3 != 3 {
            rest &= !3;
        }
        for (bit, flag) in DISP_FLAG_BITS {
            if rest & (1 << bit) != 0 {
                list.push(flag);
                rest &= !(1 << bit);
            }
        }
        list.finish(rest);
    }
}

/// Flags written as `A | B | extra`.
struct FlagList<'o> {
    out: &'o mut String,
    any: bool,
}

impl FlagList<'_> {
    /// One flag (nothing for an empty name).
    fn push(&mut self, flag: &str) {
        if flag.is_empty() {
            return;
        }
        if self.any {
            self.out.push_str(" | ");
        }
        self.any = true;
        self.out.push_str(flag);
    }

    /// The bits no flag named, as a number, when there are any or no flag was written.
    fn finish(self, extra: u64) {
        if extra != 0 || !self.any {
            if self.any {
                self.out.push_str(" | ");
            }
            let _ = write!(self.out, "{extra}");
        }
    }
}

/// An integer in decimal, without the formatting machinery (the printer writes millions).
pub(super) fn push_int(out: &mut String, value: i128) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// A `u64` in decimal.
pub(super) fn push_u64(out: &mut String, value: u64) {
    out.push_str(itoa::Buffer::new().format(value));
}
