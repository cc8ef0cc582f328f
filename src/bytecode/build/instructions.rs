//! Instruction lists: the opcode numbering of each revision, what each operand of each
//! opcode means (slots in which plane, blocks, type ids, calling-convention and attribute
//! words), and the result type that gives the next slot of the function's planes.

use super::values::Slot;
use super::{bad, Builder, Result};
use crate::bytecode::ir::{BlockId, Instruction, Opcode, Type, TypeId, ValueRef};
use crate::bytecode::schema::{self, CallingConv, Opcode5, Opcode6, Opcode7, OpcodeOld, PrimitiveType};

// Revision 7's integer types are derived types, not primitive ones: the revision 7 writer
// always puts i1, i8, i16, i32 and i64 first in the module's type table, so their ids are
// 4 to 8, and LLVM's reader relied on that (bool conditions from plane 4, counts and
// struct getelementptr indices from plane 7, 64-bit indices from plane 8). A writer
// convention, not the schema's: docs/llvm-bytecode.md §4.1, "Rev 7 integer types".

/// The type id of `i1` in revision 7 (§4.1).
const I1: u64 = 4;
/// The type id of `i32` in revision 7 (§4.1).
const I32: u64 = 7;
/// The type id of `i64` in revision 7 (§4.1).
const I64: u64 = 8;

/// What an opcode number does, beyond the plain opcodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// An opcode read as is.
    Plain(Opcode),
    /// A call: its calling convention (`None`: a trailing word has it and the tail bit).
    Call { cc: Option<u32>, tail: bool },
    /// An invoke: its calling convention (`None`: a trailing word has it).
    Invoke { cc: Option<u32> },
    /// A load: volatile, and whether an attribute word follows (revision 7).
    Load { volatile: bool, word: bool },
    /// A store: volatile, and whether an attribute word follows (revision 7).
    Store { volatile: bool, word: bool },
}

fn fast() -> u32 {
    u32::try_from(CallingConv::Fast.code()).unwrap_or(8)
}

/// The meaning of opcode `raw` in `revision`.
pub(super) fn kind(revision: u32, raw: u64) -> Option<Kind> {
    use Opcode as O;
    let plain = |o: O| Some(Kind::Plain(o));
    match revision {
        0..=4 => match OpcodeOld::try_from(raw).ok()? {
            OpcodeOld::Call => Some(Kind::Call { cc: Some(0), tail: false }),
            OpcodeOld::Invoke => Some(Kind::Invoke { cc: Some(0) }),
            OpcodeOld::Load => Some(Kind::Load { volatile: false, word: false }),
            OpcodeOld::VolatileLoad => Some(Kind::Load { volatile: true, word: false }),
            OpcodeOld::Store => Some(Kind::Store { volatile: false, word: false }),
            OpcodeOld::VolatileStore => Some(Kind::Store { volatile: true, word: false }),
            other => plain(old_opcode(other)?),
        },
        5 => match Opcode5::try_from(raw).ok()? {
            Opcode5::Call => Some(Kind::Call { cc: Some(0), tail: false }),
            Opcode5::CallCc => Some(Kind::Call { cc: None, tail: false }),
            Opcode5::TailCallFast => Some(Kind::Call { cc: Some(fast()), tail: true }),
            Opcode5::CallFast => Some(Kind::Call { cc: Some(fast()), tail: false }),
            Opcode5::TailCall => Some(Kind::Call { cc: Some(0), tail: true }),
            Opcode5::Invoke => Some(Kind::Invoke { cc: Some(0) }),
            Opcode5::InvokeCc => Some(Kind::Invoke { cc: None }),
            Opcode5::InvokeFast => Some(Kind::Invoke { cc: Some(fast()) }),
            Opcode5::Load => Some(Kind::Load { volatile: false, word: false }),
            Opcode5::VolatileLoad => Some(Kind::Load { volatile: true, word: false }),
            Opcode5::Store => Some(Kind::Store { volatile: false, word: false }),
            Opcode5::VolatileStore => Some(Kind::Store { volatile: true, word: false }),
            other => plain(opcode5(other)?),
        },
        6 => match Opcode6::try_from(raw).ok()? {
            Opcode6::Call => Some(Kind::Call { cc: Some(0), tail: false }),
            Opcode6::CallCc => Some(Kind::Call { cc: None, tail: false }),
            Opcode6::TailCallFast => Some(Kind::Call { cc: Some(fast()), tail: true }),
            Opcode6::CallFast => Some(Kind::Call { cc: Some(fast()), tail: false }),
            Opcode6::TailCall => Some(Kind::Call { cc: Some(0), tail: true }),
            Opcode6::Invoke => Some(Kind::Invoke { cc: Some(0) }),
            Opcode6::InvokeCc => Some(Kind::Invoke { cc: None }),
            Opcode6::InvokeFast => Some(Kind::Invoke { cc: Some(fast()) }),
            Opcode6::Load => Some(Kind::Load { volatile: false, word: false }),
            Opcode6::VolatileLoad => Some(Kind::Load { volatile: true, word: false }),
            Opcode6::Store => Some(Kind::Store { volatile: false, word: false }),
            Opcode6::VolatileStore => Some(Kind::Store { volatile: true, word: false }),
            other => plain(opcode6(other)?),
        },
        _ => match Opcode7::try_from(raw).ok()? {
            Opcode7::Call => Some(Kind::Call { cc: Some(0), tail: false }),
            Opcode7::CallCc => Some(Kind::Call { cc: None, tail: false }),
            Opcode7::TailCallFast => Some(Kind::Call { cc: Some(fast()), tail: true }),
            Opcode7::CallFast => Some(Kind::Call { cc: Some(fast()), tail: false }),
            Opcode7::TailCall => Some(Kind::Call { cc: Some(0), tail: true }),
            Opcode7::Invoke | Opcode7::InvokeCc => Some(Kind::Invoke { cc: None }),
            Opcode7::InvokeFast => Some(Kind::Invoke { cc: Some(fast()) }),
            Opcode7::Load => Some(Kind::Load { volatile: false, word: false }),
            Opcode7::LoadAligned => Some(Kind::Load { volatile: false, word: true }),
            Opcode7::Store => Some(Kind::Store { volatile: false, word: false }),
            Opcode7::StoreAligned => Some(Kind::Store { volatile: false, word: true }),
            other => plain(opcode7(other)?),
        },
    }
}

/// The opcode of a constant expression (which uses the instruction numbering).
pub(super) fn expression_opcode(revision: u32, raw: u64) -> Option<Opcode> {
    match kind(revision, raw)? {
        Kind::Plain(o) => Some(o),
        _ => None,
    }
}

fn old_opcode(o: OpcodeOld) -> Option<Opcode> {
    use Opcode as O;
    Some(match o {
        OpcodeOld::Ret => O::Ret,
        OpcodeOld::Br => O::Br,
        OpcodeOld::Switch => O::Switch,
        OpcodeOld::Unwind => O::Unwind,
        OpcodeOld::Add => O::Add,
        OpcodeOld::Sub => O::Sub,
        OpcodeOld::Mul => O::Mul,
        OpcodeOld::Div => O::Div,
        OpcodeOld::Rem => O::Rem,
        OpcodeOld::And => O::And,
        OpcodeOld::Or => O::Or,
        OpcodeOld::Xor => O::Xor,
        OpcodeOld::Seteq => O::SetEQ,
        OpcodeOld::Setne => O::SetNE,
        OpcodeOld::Setle => O::SetLE,
        OpcodeOld::Setge => O::SetGE,
        OpcodeOld::Setlt => O::SetLT,
        OpcodeOld::Setgt => O::SetGT,
        OpcodeOld::Malloc => O::Malloc,
        OpcodeOld::Free => O::Free,
        OpcodeOld::Alloca => O::Alloca,
        OpcodeOld::Getelementptr => O::GetElementPtr,
        OpcodeOld::Phi => O::Phi,
        OpcodeOld::Cast => O::Cast,
        OpcodeOld::Shl => O::Shl,
        OpcodeOld::Shr => O::Shr,
        OpcodeOld::Vanext => O::VaNext,
        OpcodeOld::Vaarg => O::VaArg,
        OpcodeOld::Select => O::Select,
        _ => return None,
    })
}

fn opcode5(o: Opcode5) -> Option<Opcode> {
    use Opcode as O;
    Some(match o {
        Opcode5::Ret => O::Ret,
        Opcode5::Br => O::Br,
        Opcode5::Switch => O::Switch,
        Opcode5::Unwind => O::Unwind,
        Opcode5::Unreachable => O::Unreachable,
        Opcode5::Add => O::Add,
        Opcode5::Sub => O::Sub,
        Opcode5::Mul => O::Mul,
        Opcode5::Div => O::Div,
        Opcode5::Rem => O::Rem,
        Opcode5::And => O::And,
        Opcode5::Or => O::Or,
        Opcode5::Xor => O::Xor,
        Opcode5::Seteq => O::SetEQ,
        Opcode5::Setne => O::SetNE,
        Opcode5::Setle => O::SetLE,
        Opcode5::Setge => O::SetGE,
        Opcode5::Setlt => O::SetLT,
        Opcode5::Setgt => O::SetGT,
        Opcode5::Malloc => O::Malloc,
        Opcode5::Free => O::Free,
        Opcode5::Alloca => O::Alloca,
        Opcode5::Getelementptr => O::GetElementPtr,
        Opcode5::Phi => O::Phi,
        Opcode5::Cast => O::Cast,
        Opcode5::Shl => O::Shl,
        Opcode5::Shr => O::Shr,
        Opcode5::Vanext => O::VaNext,
        Opcode5::VaargOld | Opcode5::Vaarg => O::VaArg,
        Opcode5::Select => O::Select,
        Opcode5::Extractelement => O::ExtractElement,
        Opcode5::Insertelement => O::InsertElement,
        Opcode5::Shufflevector => O::ShuffleVector,
        _ => return None,
    })
}

fn opcode6(o: Opcode6) -> Option<Opcode> {
    use Opcode as O;
    Some(match o {
        Opcode6::Ret => O::Ret,
        Opcode6::Br => O::Br,
        Opcode6::Switch => O::Switch,
        Opcode6::Unwind => O::Unwind,
        Opcode6::Unreachable => O::Unreachable,
        Opcode6::Add => O::Add,
        Opcode6::Sub => O::Sub,
        Opcode6::Mul => O::Mul,
        Opcode6::Udiv => O::UDiv,
        Opcode6::Sdiv => O::SDiv,
        Opcode6::Fdiv => O::FDiv,
        Opcode6::Urem => O::URem,
        Opcode6::Srem => O::SRem,
        Opcode6::Frem => O::FRem,
        Opcode6::And => O::And,
        Opcode6::Or => O::Or,
        Opcode6::Xor => O::Xor,
        Opcode6::Seteq => O::SetEQ,
        Opcode6::Setne => O::SetNE,
        Opcode6::Setle => O::SetLE,
        Opcode6::Setge => O::SetGE,
        Opcode6::Setlt => O::SetLT,
        Opcode6::Setgt => O::SetGT,
        Opcode6::Malloc => O::Malloc,
        Opcode6::Free => O::Free,
        Opcode6::Alloca => O::Alloca,
        Opcode6::Getelementptr => O::GetElementPtr,
        Opcode6::Phi => O::Phi,
        Opcode6::Cast => O::Cast,
        Opcode6::Shl => O::Shl,
        Opcode6::Lshr => O::LShr,
        Opcode6::Ashr => O::AShr,
        Opcode6::Select => O::Select,
        Opcode6::Vaarg => O::VaArg,
        Opcode6::Extractelement => O::ExtractElement,
        Opcode6::Insertelement => O::InsertElement,
        Opcode6::Shufflevector => O::ShuffleVector,
        _ => return None,
    })
}

fn opcode7(o: Opcode7) -> Option<Opcode> {
    use Opcode as O;
    Some(match o {
        Opcode7::Ret => O::Ret,
        Opcode7::Br => O::Br,
        Opcode7::Switch => O::Switch,
        Opcode7::Unwind => O::Unwind,
        Opcode7::Unreachable => O::Unreachable,
        Opcode7::Add => O::Add,
        Opcode7::Sub => O::Sub,
        Opcode7::Mul => O::Mul,
        Opcode7::Udiv => O::UDiv,
        Opcode7::Sdiv => O::SDiv,
        Opcode7::Fdiv => O::FDiv,
        Opcode7::Urem => O::URem,
        Opcode7::Srem => O::SRem,
        Opcode7::Frem => O::FRem,
        Opcode7::Shl => O::Shl,
        Opcode7::Lshr => O::LShr,
        Opcode7::Ashr => O::AShr,
        Opcode7::And => O::And,
        Opcode7::Or => O::Or,
        Opcode7::Xor => O::Xor,
        Opcode7::Malloc => O::Malloc,
        Opcode7::Free => O::Free,
        Opcode7::Alloca => O::Alloca,
        Opcode7::Getelementptr => O::GetElementPtr,
        Opcode7::Trunc => O::Trunc,
        Opcode7::Zext => O::ZExt,
        Opcode7::Sext => O::SExt,
        Opcode7::Fptoui => O::FPToUI,
        Opcode7::Fptosi => O::FPToSI,
        Opcode7::Uitofp => O::UIToFP,
        Opcode7::Sitofp => O::SIToFP,
        Opcode7::Fptrunc => O::FPTrunc,
        Opcode7::Fpext => O::FPExt,
        Opcode7::Ptrtoint => O::PtrToInt,
        Opcode7::Inttoptr => O::IntToPtr,
        Opcode7::Bitcast => O::BitCast,
        Opcode7::Icmp => O::ICmp,
        Opcode7::Fcmp => O::FCmp,
        Opcode7::Phi => O::Phi,
        Opcode7::Select => O::Select,
        Opcode7::Vaarg => O::VaArg,
        Opcode7::Extractelement => O::ExtractElement,
        Opcode7::Insertelement => O::InsertElement,
        Opcode7::Shufflevector => O::ShuffleVector,
        _ => return None,
    })
}

/// One instruction as written: opcode, type field, operands.
struct Raw {
    opcode: u64,
    type_id: u64,
    ops: Vec<u32>,
}

fn raw(inst: &schema::Instruction) -> Raw {
    let small = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    match inst {
        schema::Instruction::Long { head, type_id, operands } => {
            Raw { opcode: head.opcode, type_id: u64::from(*type_id), ops: operands.clone() }
        }
        schema::Instruction::One { word } => Raw {
            opcode: word.opcode,
            type_id: word.type_id,
            ops: if word.operand == 4095 { Vec::new() } else { vec![small(word.operand)] },
        },
        schema::Instruction::Two { word } => Raw {
            opcode: word.opcode,
            type_id: word.type_id,
            ops: vec![small(word.operand0), small(word.operand1)],
        },
        schema::Instruction::Three { word } => Raw {
            opcode: word.opcode,
            type_id: word.type_id,
            ops: vec![small(word.operand0), small(word.operand1), small(word.operand2)],
        },
    }
}

/// An instruction after the first pass: its meaning, type field and result type.
struct Decoded {
    kind: Kind,
    ty: TypeId,
    ops: Vec<u32>,
    result: TypeId,
    block: u32,
}

fn op(ops: &[u32], i: usize) -> Result<u32> {
    ops.get(i).copied().ok_or_else(|| bad("an instruction lacks an operand"))
}

/// An alignment stored as log2 + 1.
fn align(v: u32) -> u32 {
    if v == 0 || v > 32 {
        0
    } else {
        1u32 << (v - 1)
    }
}

impl Builder {
    /// Reads the current function's instructions (one list, or 1.0's blocks in turn).
    pub(super) fn read_instructions(&mut self, insts: &[schema::Instruction]) -> Result<()> {
        let Some(fid) = self.current else { return Err(bad("instructions outside a function")) };
        let base = self.m.functions.get(fid.0 as usize).map_or(0, |f| f.insts.len());
        let mut decoded = Vec::with_capacity(insts.len());
        let mut block = 0u32;
        for inst in insts {
            let r = raw(inst);
            let kind = kind(self.revision, r.opcode).ok_or_else(|| bad(format!("opcode {}", r.opcode)))?;
            let ty = self.types.get(r.type_id)?;
            let result = self.result_type(kind, ty, &r.ops)?;
            let d = Decoded { kind, ty, ops: r.ops, result, block };
            let void = self.types.void();
            if result != void {
                let inst_id = u32::try_from(base + decoded.len()).unwrap_or(u32::MAX);
                self.planes.push(
                    self.types.class(result),
                    Slot::Value(ValueRef::Inst(crate::bytecode::ir::InstId(inst_id))),
                );
            }
            if is_terminator(kind) {
                block += 1;
            }
            decoded.push(d);
        }
        let blocks = if decoded.last().is_some_and(|d| !is_terminator(d.kind)) { block + 1 } else { block };
        let mut built = Vec::with_capacity(decoded.len());
        for d in &decoded {
            built.push((d.block, self.instruction(d, blocks)?));
        }
        let func = self.m.function_mut(fid).ok_or_else(|| bad("no such function"))?;
        let first = u32::try_from(func.blocks.len()).unwrap_or(u32::MAX);
        for _ in 0..blocks {
            func.add_block(None);
        }
        for (b, inst) in built {
            func.push_inst(BlockId(first + b), inst);
        }
        Ok(())
    }

    fn bool_type(&self) -> Result<TypeId> {
        if self.revision >= 7 {
            self.types.get(I1)
        } else {
            self.types.old(PrimitiveType::Bool)
        }
    }

    /// The 32-bit unsigned type (counts, vector indices).
    fn uint_type(&self) -> Result<TypeId> {
        if self.revision >= 7 {
            self.types.get(I32)
        } else {
            self.types.old(PrimitiveType::Uint)
        }
    }

    fn pointee(&self, t: TypeId) -> Result<TypeId> {
        match self.m.ty(t) {
            Some(Type::Pointer { pointee }) => Ok(*pointee),
            _ => Err(bad("a pointer operand whose type is no pointer")),
        }
    }

    /// For a pointer-to-function type: return type, parameter types, varargs.
    fn callee_type(&self, t: TypeId) -> Result<(TypeId, Vec<TypeId>, bool)> {
        self.m
            .function_type_of(t)
            .map(|(r, p, v)| (r, p.to_vec(), v))
            .ok_or_else(|| bad("a call of something that is no function"))
    }

    fn result_type(&mut self, kind: Kind, ty: TypeId, ops: &[u32]) -> Result<TypeId> {
        use Opcode as O;
        let void = self.types.void();
        Ok(match kind {
            Kind::Call { .. } | Kind::Invoke { .. } => self.callee_type(ty)?.0,
            Kind::Load { .. } => self.pointee(ty)?,
            Kind::Store { .. } => void,
            Kind::Plain(o) => match o {
                O::Ret | O::Br | O::Switch | O::Unwind | O::Unreachable | O::Free => void,
                O::SetEQ | O::SetNE | O::SetLE | O::SetGE | O::SetLT | O::SetGT | O::ICmp | O::FCmp => {
                    self.bool_type()?
                }
                O::GetElementPtr => self.gep_type(ty, ops)?,
                O::ExtractElement => match self.m.ty(ty) {
                    Some(Type::Vector { element, .. }) => *element,
                    _ => return Err(bad("extractelement of no vector")),
                },
                o if o.is_cast() || o == O::VaArg => self.types.get(u64::from(op(ops, 1)?))?,
                _ => ty,
            },
        })
    }

    /// The plane and slot of a getelementptr index: struct fields and sequential steps.
    fn gep_index(&self, on_struct: bool, slot: u32) -> Result<(TypeId, u32)> {
        use PrimitiveType as P;
        let p = |t: P| self.types.old(t);
        Ok(match self.revision {
            0 | 1 => (p(if on_struct { P::Ubyte } else { P::Long })?, slot),
            2..=6 if on_struct => (p(P::Uint)?, slot),
            2..=6 => {
                let t = match slot & 3 {
                    0 => P::Uint,
                    1 => P::Int,
                    2 => P::Ulong,
                    _ => P::Long,
                };
                (p(t)?, slot >> 2)
            }
            _ if on_struct => (self.types.get(I32)?, slot),
            _ => (self.types.get(if slot & 1 == 0 { I32 } else { I64 })?, slot >> 1),
        })
    }

    fn gep_type(&mut self, ty: TypeId, ops: &[u32]) -> Result<TypeId> {
        if ops.len() <= 1 {
            return Ok(ty);
        }
        let mut cur = ty;
        for slot in ops.iter().skip(1) {
            let t = self.m.ty(cur).cloned();
            cur = match t {
                Some(Type::Pointer { pointee }) => pointee,
                Some(Type::Array { element, .. }) | Some(Type::Vector { element, .. }) => element,
                Some(Type::Struct { fields, .. }) => {
                    let (plane, s) = self.gep_index(true, *slot)?;
                    let index = match self.slot(plane, s)? {
                        Slot::Value(ValueRef::Const(c)) => match self.m.constant(c) {
                            Some(crate::bytecode::ir::Constant::Int { value, .. }) => value.low_word(),
                            _ => 0,
                        },
                        _ => 0,
                    };
                    usize::try_from(index)
                        .ok()
                        .and_then(|i| fields.get(i).copied())
                        .ok_or_else(|| bad("a getelementptr field index out of range"))?
                }
                _ => return Err(bad("getelementptr through a type that is not composite")),
            };
        }
        Ok(self.types.pointer_to(&mut self.m, cur))
    }

    /// A value operand: the value at `slot` of the plane of `ty`.
    fn value(&mut self, ty: TypeId, slot: u32) -> Result<ValueRef> {
        match self.slot(ty, slot)? {
            Slot::Value(v) => Ok(v),
            Slot::Null(t) => Ok(ValueRef::Const(self.null_constant(t, 0))),
            Slot::Pending(_) => Err(bad("an operand refers to an unresolved constant")),
        }
    }

    fn block_ref(blocks: u32, id: u32) -> Result<ValueRef> {
        if id < blocks {
            Ok(ValueRef::Block(BlockId(id)))
        } else {
            Err(bad(format!("block {id} of {blocks}")))
        }
    }

    /// Arguments of a call or invoke: fixed ones in their parameters' planes, then
    /// (varargs) pairs of type id and slot.
    fn call_args(&mut self, params: &[TypeId], varargs: bool, ops: &[u32]) -> Result<Vec<ValueRef>> {
        let mut out = Vec::new();
        for (p, slot) in params.iter().zip(ops) {
            out.push(self.value(*p, *slot)?);
        }
        if !varargs {
            if ops.len() != params.len() {
                return Err(bad("a call with the wrong number of arguments"));
            }
            return Ok(out);
        }
        let rest = ops.get(params.len()..).unwrap_or(&[]);
        for pair in rest.chunks(2) {
            if let [t, slot] = pair {
                let ty = self.types.get(u64::from(*t))?;
                out.push(self.value(ty, *slot)?);
            } else {
                return Err(bad("varargs operands not in pairs"));
            }
        }
        Ok(out)
    }

    /// Pass two: the instruction with its operands resolved.
    fn instruction(&mut self, d: &Decoded, blocks: u32) -> Result<Instruction> {
        use Opcode as O;
        let ops = &d.ops;
        let t = d.ty;
        let mut inst = Instruction::new(O::Ret, d.result, Vec::new());
        match d.kind {
            Kind::Call { cc, tail } => {
                let (_, params, varargs) = self.callee_type(t)?;
                let mut rest = ops.get(1..).unwrap_or(&[]).to_vec();
                let (mut cc, mut tail) = (cc, tail);
                if cc.is_none() {
                    let word = if !varargs || rest.len().saturating_sub(params.len()) % 2 == 1 {
                        rest.pop()
                    } else {
                        None
                    };
                    let w = word.unwrap_or(0);
                    tail = w & 1 != 0;
                    cc = Some(w >> 1);
                }
                inst.opcode = O::Call;
                inst.operands.push(self.value(t, op(ops, 0)?)?);
                let args = self.call_args(&params, varargs, &rest)?;
                inst.operands.extend(args);
                inst.calling_conv = cc.unwrap_or(0);
                inst.tail = tail;
            }
            Kind::Invoke { cc } => {
                let (_, params, varargs) = self.callee_type(t)?;
                let mut rest = ops.get(3..).unwrap_or(&[]).to_vec();
                let mut cc = cc;
                if cc.is_none() {
                    let word = if !varargs || rest.len().saturating_sub(params.len()) % 2 == 1 {
                        rest.pop()
                    } else {
                        None
                    };
                    cc = Some(word.unwrap_or(0));
                }
                inst.opcode = O::Invoke;
                inst.operands.push(self.value(t, op(ops, 0)?)?);
                inst.operands.push(Self::block_ref(blocks, op(ops, 1)?)?);
                inst.operands.push(Self::block_ref(blocks, op(ops, 2)?)?);
                let args = self.call_args(&params, varargs, &rest)?;
                inst.operands.extend(args);
                inst.calling_conv = cc.unwrap_or(0);
            }
            Kind::Load { volatile, word } => {
                inst.opcode = O::Load;
                inst.operands.push(self.value(t, op(ops, 0)?)?);
                inst.volatile = volatile;
                if word {
                    let w = op(ops, 1)?;
                    inst.volatile = w & 1 != 0;
                    inst.align = align(w >> 1);
                }
            }
            Kind::Store { volatile, word } => {
                inst.opcode = O::Store;
                let pointee = self.pointee(t)?;
                inst.operands.push(self.value(pointee, op(ops, 0)?)?);
                inst.operands.push(self.value(t, op(ops, 1)?)?);
                inst.volatile = volatile;
                if word {
                    let w = op(ops, 2)?;
                    inst.volatile = w & 1 != 0;
                    inst.align = align(w >> 1);
                }
            }
            Kind::Plain(o) => {
                inst.opcode = o;
                self.plain_operands(&mut inst, d, blocks)?;
            }
        }
        Ok(inst)
    }

    fn plain_operands(&mut self, inst: &mut Instruction, d: &Decoded, blocks: u32) -> Result<()> {
        use Opcode as O;
        let ops = &d.ops;
        let t = d.ty;
        let mut out = Vec::with_capacity(ops.len());
        match inst.opcode {
            O::Ret | O::Free => {
                if let Some(s) = ops.first() {
                    out.push(self.value(t, *s)?);
                }
            }
            O::Unwind | O::Unreachable => {}
            O::Br => match ops.as_slice() {
                [b] => out.push(Self::block_ref(blocks, *b)?),
                [a, b, c] => {
                    out.push(Self::block_ref(blocks, *a)?);
                    out.push(Self::block_ref(blocks, *b)?);
                    let bool_ty = self.bool_type()?;
                    out.push(self.value(bool_ty, *c)?);
                }
                _ => return Err(bad("br with a wrong operand count")),
            },
            O::Switch => {
                out.push(self.value(t, op(ops, 0)?)?);
                out.push(Self::block_ref(blocks, op(ops, 1)?)?);
                for pair in ops.get(2..).unwrap_or(&[]).chunks(2) {
                    if let [v, b] = pair {
                        out.push(self.value(t, *v)?);
                        out.push(Self::block_ref(blocks, *b)?);
                    } else {
                        return Err(bad("switch cases not in pairs"));
                    }
                }
            }
            O::Phi => {
                for pair in ops.chunks(2) {
                    if let [v, b] = pair {
                        out.push(self.value(t, *v)?);
                        out.push(Self::block_ref(blocks, *b)?);
                    } else {
                        return Err(bad("phi operands not in pairs"));
                    }
                }
            }
            O::Malloc | O::Alloca => {
                let uint = self.uint_type()?;
                out.push(self.value(uint, op(ops, 0)?)?);
                if let Some(a) = ops.get(1) {
                    inst.align = align(*a);
                }
            }
            O::GetElementPtr => {
                out.push(self.value(t, op(ops, 0)?)?);
                let mut cur = t;
                for slot in ops.iter().skip(1) {
                    let ty = self.m.ty(cur).cloned();
                    let on_struct = matches!(ty, Some(Type::Struct { .. }));
                    let (plane, s) = self.gep_index(on_struct, *slot)?;
                    let v = self.value(plane, s)?;
                    out.push(v);
                    cur = match ty {
                        Some(Type::Pointer { pointee }) => pointee,
                        Some(Type::Array { element, .. }) | Some(Type::Vector { element, .. }) => element,
                        Some(Type::Struct { fields, .. }) => {
                            let index = match v {
                                ValueRef::Const(c) => match self.m.constant(c) {
                                    Some(crate::bytecode::ir::Constant::Int { value, .. }) => {
                                        value.low_word()
                                    }
                                    _ => 0,
                                },
                                _ => 0,
                            };
                            usize::try_from(index).ok().and_then(|i| fields.get(i).copied()).unwrap_or(cur)
                        }
                        _ => cur,
                    };
                }
            }
            O::Select => {
                let bool_ty = self.bool_type()?;
                out.push(self.value(bool_ty, op(ops, 0)?)?);
                out.push(self.value(t, op(ops, 1)?)?);
                out.push(self.value(t, op(ops, 2)?)?);
            }
            O::ICmp | O::FCmp => {
                out.push(self.value(t, op(ops, 0)?)?);
                out.push(self.value(t, op(ops, 1)?)?);
                inst.predicate = u16::try_from(op(ops, 2)?).unwrap_or(u16::MAX);
            }
            O::Shl | O::Shr | O::LShr | O::AShr if self.revision <= 6 => {
                out.push(self.value(t, op(ops, 0)?)?);
                let ubyte = self.types.old(PrimitiveType::Ubyte)?;
                out.push(self.value(ubyte, op(ops, 1)?)?);
            }
            O::VaNext => {
                out.push(self.value(t, op(ops, 0)?)?);
                inst.vanext_type = Some(self.types.get(u64::from(op(ops, 1)?))?);
            }
            o if o.is_cast() || o == O::VaArg => {
                out.push(self.value(t, op(ops, 0)?)?);
            }
            O::ExtractElement => {
                out.push(self.value(t, op(ops, 0)?)?);
                let uint = self.uint_type()?;
                out.push(self.value(uint, op(ops, 1)?)?);
            }
            O::InsertElement => {
                out.push(self.value(t, op(ops, 0)?)?);
                let element = match self.m.ty(t) {
                    Some(Type::Vector { element, .. }) => *element,
                    _ => return Err(bad("insertelement into no vector")),
                };
                out.push(self.value(element, op(ops, 1)?)?);
                let uint = self.uint_type()?;
                out.push(self.value(uint, op(ops, 2)?)?);
            }
            O::ShuffleVector => {
                out.push(self.value(t, op(ops, 0)?)?);
                out.push(self.value(t, op(ops, 1)?)?);
                let len = match self.m.ty(t) {
                    Some(Type::Vector { len, .. }) => *len,
                    _ => return Err(bad("shufflevector of no vector")),
                };
                let uint = self.uint_type()?;
                let mask = self.types.find_or_make(&mut self.m, Type::Vector { element: uint, len });
                out.push(self.value(mask, op(ops, 2)?)?);
            }
            _ => {
                out.push(self.value(t, op(ops, 0)?)?);
                out.push(self.value(t, op(ops, 1)?)?);
            }
        }
        inst.operands = out;
        Ok(())
    }
}

fn is_terminator(kind: Kind) -> bool {
    match kind {
        Kind::Invoke { .. } => true,
        Kind::Plain(o) => o.is_terminator(),
        _ => false,
    }
}
