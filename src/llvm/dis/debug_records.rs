//! Debug records (LLVM 19+), printed before the instruction they are attached to as
//! `#dbg_value(...)`, `#dbg_declare(...)`, `#dbg_assign(...)`, `#dbg_label(...)`.

use super::md::{MdPrinter, ValueWriter};
use super::module::Printer;
use crate::llvm::ir::function_block as fb;
use crate::llvm::module::DebugRecord;

/// The record's kind as printed after `#dbg_`, and whether it is a variable record (with a
/// location value, variable and expression) rather than a label.
fn kind(code: u32) -> Option<(&'static str, bool)> {
    Some(match code {
        fb::DebugRecordValue::CODE | fb::DebugRecordValueSimple::CODE => ("value", true),
        fb::DebugRecordDeclare::CODE => ("declare", true),
        fb::DebugRecordDeclareValue::CODE => ("declare_value", true),
        fb::DebugRecordAssign::CODE => ("assign", true),
        fb::DebugRecordLabel::CODE => ("label", false),
        _ => return None,
    })
}

/// The metadata ids of `record` that get a slot, in the order SlotTracker numbers them
/// (processDbgRecordMetadata): the location value (when it is a node, such as `!{}`), the
/// variable, for an assign its DIAssignID and address, for a label the label; then the
/// DILocation. Ids that are strings or values get no slot, which numbering skips anyway.
pub fn numbered_operands(record: &DebugRecord) -> Vec<u32> {
    let ops = &record.operands;
    let at = |i: usize| ops.get(i).copied();
    let list = match record.code {
        fb::DebugRecordAssign::CODE => vec![at(3), at(1), at(4), at(6), at(0)],
        fb::DebugRecordValueSimple::CODE => vec![at(1), at(0)],
        fb::DebugRecordLabel::CODE => vec![at(1), at(0)],
        _ => vec![at(3), at(1), at(0)],
    };
    list.into_iter().flatten().collect()
}

impl Printer<'_, '_> {
    /// One debug record's line: four spaces, `#dbg_KIND(operands)`, a newline.
    pub(super) fn print_debug_record(
        &self,
        out: &mut String,
        record: &DebugRecord,
        values: &dyn ValueWriter,
    ) {
        let printer = MdPrinter::new(&self.md, &self.md_slots, self.major, values);
        let Some((name, variable)) = kind(record.code) else { return };
        out.push_str("    #dbg_");
        out.push_str(name);
        out.push('(');
        let operand = |out: &mut String, i: usize| match record
            .operands
            .get(i)
            .and_then(|&id| self.md.get(u64::from(id)))
        {
            Some(node) => printer.write_operand(out, node),
            None => out.push_str("<badref>"),
        };
        if variable {
            match record.value {
                // DEBUG_RECORD_VALUE_SIMPLE: a plain value as the location.
                Some(value) => match self.value(value) {
                    Some(v) => {
                        self.tp.write(out, &self.types, v.ty);
                        out.push(' ');
                        self.write_value(out, value);
                    }
                    None => out.push_str("<badref>"),
                },
                None => operand(out, 3),
            }
            for i in [1, 2] {
                out.push_str(", ");
                operand(out, i);
            }
            if record.code == fb::DebugRecordAssign::CODE {
                for i in [4, 6, 5] {
                    out.push_str(", ");
                    operand(out, i);
                }
            }
        } else {
            operand(out, 1);
        }
        out.push_str(", ");
        operand(out, 0);
        out.push_str(")\n");
    }
}
