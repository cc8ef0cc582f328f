//! Reading constants and function bodies: instructions with their result types, local
//! constants, names, attachments, debug locations and debug records.

use bitcode_schema_runtime::decode::ValueRef as Operand;
use bitcode_schema_runtime::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicU64, Ordering};

use super::constants::{Constant, ValueRef};
use super::fold::Folder;
use super::function::{BasicBlock, FunctionBody};
use super::instructions::{
    Atomic, AttachmentList, BundleInput, Call, DebugLoc, DebugRecord, Instruction, Op, ValueList,
};
use super::types::{Type, TypeRef, Types};
use super::values::{Value, ValueKind};
use super::Module;
use crate::llvm::ir::{
    self, constants_block as cb, function_block as fb, metadata_attachment_block as attachments,
    metadata_block as md, value_symtab_block as vst,
};
use crate::llvm::{Walker, WalkerEvent};

/// About how many bits a function-level metadata record takes, for reserving its records.
const MD_RECORD_BITS: usize = 96;

/// The operand-bundle input that says a metadata id follows (bitc::OB_METADATA).
const METADATA_BUNDLE_INPUT: u64 = 0x8000_0000;

/// An error of the module's content (not of the bitstream) at `bit_offset`.
pub(crate) fn invalid(bit_offset: u64, problem: String) -> Error {
    Error::new(ErrorKind::Invalid(problem), bit_offset)
}

/// The type LLVM's reader gives constant `c`, read after a SETTYPE of `ty`: a string's
/// is `[N x i8]` whatever the SETTYPE says (it is built from its bytes alone), any
/// other's is `ty`.
pub(super) fn constant_value_type(types: &mut Types, c: &Constant<'_>, ty: TypeRef) -> TypeRef {
    let Constant::String { bytes, cstring } = c else { return ty };
    let len = bytes.len() as u64 + u64::from(*cstring);
    match types.get(ty) {
        Some(&Type::Array { len: l, element })
            if l == len && types.get(element) == Some(&Type::Integer(8)) =>
        {
            ty
        }
        _ => {
            let element = types.intern(Type::Integer(8));
            types.intern(Type::Array { len, element })
        }
    }
}

/// A constant of type `ty` from its CONSTANTS_BLOCK record; `is_function` tells whether
/// a value id names a function (what a blockaddress must name).
pub(super) fn read_constant<'a>(
    types: &Types,
    r: cb::Record<'a>,
    ty: TypeRef,
    is_function: impl Fn(u32) -> bool,
) -> std::result::Result<Constant<'a>, String> {
    use cb::Record as C;
    let gep = |source: u32, flags: ir::GepFlags, inrange: Option<u64>, ops: Vec<u32>| Constant::Gep {
        source,
        flags,
        inrange_index: inrange,
        inrange: None,
        operands: ops,
    };
    // The records before GepFlags: inbounds or not, nothing else.
    let only_inbounds = |inbounds: bool| ir::GepFlags { inbounds, nusw: false, nuw: false, other_bits: 0 };
    // LLVM's reader refuses an integer of another type (newer ones take a vector of
    // integers too, which no writer this reads writes) and a null of a type without one.
    let integer = |what: &str| match types.is_integer(ty) {
        true => Ok(()),
        false => Err(format!("{what} constant of type {ty}, which is not an integer type")),
    };
    Ok(match r {
        C::Null(_) => {
            if matches!(types.get(ty), Some(Type::Void | Type::Function { .. } | Type::Label)) {
                return Err(format!("a null constant of type {ty}, which has no null value"));
            }
            Constant::Null
        }
        C::Undef(_) => Constant::Undef,
        C::Poison(_) => Constant::Poison,
        C::Integer(i) => {
            integer("an integer")?;
            Constant::Int(i.value)
        }
        C::WideInteger(w) => {
            integer("a wide integer")?;
            Constant::WideInt(w.words.iter().map(|&w| w as u64).collect())
        }
        C::Float(f) => Constant::Float(f.bits, f.extra_bits.unwrap_or(0)),
        C::Aggregate(a) => Constant::Aggregate(a.elements.iter().map(|e| e.0).collect()),
        C::String(s) => Constant::String { bytes: s.bytes, cstring: false },
        C::Cstring(s) => Constant::String { bytes: s.bytes, cstring: true },
        C::Data(d) => Constant::Data(d.elements),
        C::CeBinop(b) => {
            Constant::Binary { opcode: b.opcode, flags: b.flags.unwrap_or(0), lhs: b.lhs.0, rhs: b.rhs.0 }
        }
        C::CeUnop(u) => Constant::Unary { opcode: u.opcode, operand: u.operand.0 },
        C::CeCast(c) => Constant::Cast { opcode: c.opcode, operand: c.operand.0 },
        C::CeGepOld(g) => {
            let source = g.source_type.ok_or("an old getelementptr constant")?.0;
            gep(
                source,
                only_inbounds(false),
                None,
                g.operands.unwrap_or_default().iter().map(|o| o.value.0).collect(),
            )
        }
        C::CeInboundsGep(g) => {
            let source = g.source_type.ok_or("an old getelementptr constant")?.0;
            gep(
                source,
                only_inbounds(true),
                None,
                g.operands.unwrap_or_default().iter().map(|o| o.value.0).collect(),
            )
        }
        C::CeGepWithInrangeIndexOld(g) => {
            let ops = g.operands.iter().map(|o| o.value.0).collect();
            gep(g.source_type.0, only_inbounds(g.flags.inbounds), Some(g.flags.inrange_index), ops)
        }
        C::CeGep(g) => {
            let ops = g.operands.iter().map(|o| o.value.0).collect();
            gep(g.source_type.0, g.flags, None, ops)
        }
        C::CeGepWithInrange(g) => {
            // The range comes first; the pairs are the rest (ranges up to 64 bits only).
            let (range, rest) = match g.range_and_operands.split_at_checked(2) {
                Some((r, rest)) if g.range_bit_width <= 64 => (r, rest),
                _ => return Err("a getelementptr constant with a range this reader does not read".into()),
            };
            let ops = rest.chunks(2).filter_map(|p| p.get(1).map(|v| *v as u32)).collect();
            let bound =
                |i: usize| range.get(i).map_or(0, |&v| bitcode_schema_runtime::decode::decode_signed(v));
            let mut c = gep(g.source_type.0, g.flags, None, ops);
            if let Constant::Gep { inrange, .. } = &mut c {
                *inrange = Some((bound(0), bound(1)));
            }
            c
        }
        C::CeSelect(s) => Constant::Select(s.condition.0, s.true_value.0, s.false_value.0),
        C::CeExtractelt(e) => {
            let index = e.index.map(|i| i.0).ok_or("an old extractelement constant")?;
            Constant::ExtractElement(e.vector.0, index)
        }
        C::CeInsertelt(e) => {
            let index = e.index.map(|i| i.0).ok_or("an old insertelement constant")?;
            Constant::InsertElement(e.vector.0, e.element.0, index)
        }
        C::CeShufflevec(s) => Constant::ShuffleVector(s.vector1.0, s.vector2.0, s.mask.0),
        C::CeShufvecEx(s) => Constant::ShuffleVector(s.vector1.0, s.vector2.0, s.mask.0),
        C::CeCmp(c) => Constant::Compare { predicate: c.predicate, lhs: c.lhs.0, rhs: c.rhs.0 },
        C::Blockaddress(b) => {
            if !is_function(b.function.0) {
                return Err(format!("a blockaddress of value {}, which is not a function", b.function.0));
            }
            Constant::BlockAddress { function: b.function.0, block: b.block }
        }
        C::DsoLocalEquivalent(d) => Constant::DsoLocalEquivalent(d.global.0),
        C::NoCfiValue(n) => Constant::NoCfi(n.function.0),
        C::Inlineasm(a) => Constant::InlineAsm {
            function_type: a.function_type.0,
            side_effect: a.flags.has_side_effects,
            align_stack: a.flags.is_align_stack,
            intel: a.flags.intel_dialect,
            unwind: a.flags.can_throw,
            asm: a.asm_string,
            constraints: a.constraints,
        },
        C::InlineasmOld3(a) => Constant::InlineAsm {
            function_type: types.pointee(ty).unwrap_or(ty),
            side_effect: a.flags.has_side_effects,
            align_stack: a.flags.is_align_stack,
            intel: a.flags.intel_dialect,
            unwind: a.flags.can_throw,
            asm: a.asm_string,
            constraints: a.constraints,
        },
        C::InlineasmOld2(a) => Constant::InlineAsm {
            function_type: types.pointee(ty).unwrap_or(ty),
            side_effect: a.flags.has_side_effects,
            align_stack: a.flags.is_align_stack,
            intel: a.flags.intel_dialect,
            unwind: false,
            asm: a.asm_string,
            constraints: a.constraints,
        },
        C::Ptrauth(p) => {
            Constant::PtrAuth(vec![p.pointer.0, p.key.0, p.discriminator.0, p.address_discriminator.0])
        }
        C::Ptrauth2(p) => Constant::PtrAuth(vec![
            p.pointer.0,
            p.key.0,
            p.discriminator.0,
            p.address_discriminator.0,
            p.deactivation_symbol.0,
        ]),
        // LLVM's reader takes a constant of a code it does not know for `undef`.
        C::Unknown(_) => Constant::Undef,
        _ => return Err("a constant record this reader does not know".into()),
    })
}

/// The body of function `function`, read by `walker` (just inside its block).
pub(super) fn read_body<'a>(
    m: &Module<'a>,
    types: &mut Types,
    function: u32,
    mut walker: Walker<'a>,
) -> Result<FunctionBody<'a>> {
    let f = m.functions.get(function as usize).ok_or_else(|| invalid(0, "no such function".into()))?;
    let fty = f.common.value_type;
    let (_, params, _) =
        types.function(fty).ok_or_else(|| invalid(0, "a function without a function type".into()))?;
    let params = params.to_vec();
    let mut reader = BodyReader {
        m,
        types,
        body: FunctionBody { function, first_local: m.values.len() as u32, ..FunctionBody::default() },
        constant_type: 0,
        last_loc: None,
        bundles: Vec::new(),
        declared_blocks: 0,
        block_names: Vec::new(),
        common: CommonTypes::default(),
    };
    for (i, p) in params.iter().enumerate() {
        reader.body.values.push(Value { ty: *p, kind: ValueKind::Argument(i as u32) });
    }
    // Reserved at once rather than grown and copied as they come, at about the size the
    // body read last suggests.
    let bits = walker.cursor().bits_left_in_block();
    m.body_density.reserve(&mut reader.body, bits);
    reader.body.blocks.push(BasicBlock::default());
    let mut depth = 0usize;
    loop {
        let step = {
            let Some(event) = walker.next_event()? else { break };
            match event {
                WalkerEvent::Block(h) => {
                    depth += 1;
                    if h.id == cb::ID {
                        reader.constant_type = 0;
                    }
                    // A metadata record takes about a hundred bits (a DILocation less, a
                    // node with many operands more): the body's records reserved at once,
                    // not copied at every doubling (a body with debug info has thousands).
                    // (The length word is the input's, unchecked inside a body: no more
                    // than the body's own bits.)
                    if h.id == md::ID {
                        let words = (h.words as u64).min(bits / 32);
                        reader.body.metadata.reserve(words as usize * 32 / MD_RECORD_BITS);
                    }
                    None
                }
                WalkerEvent::EndBlock(_) | WalkerEvent::Deferred { .. } => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                    None
                }
                // A value's use-list order is not in the model (llvm-dis prints none):
                // such records, one per value with several uses, are not decoded.
                WalkerEvent::Record { block, record, .. }
                    if block == ir::uselist_block::ID
                        && record.code == ir::uselist_block::UseListDefault::CODE =>
                {
                    None
                }
                WalkerEvent::Record { block, record, ctx } => {
                    let offset = record.bit_offset;
                    // The records of the blocks a body has most of (instructions, names,
                    // attachments, metadata) are decoded by their block's decoder and
                    // matched as they are, not wrapped in a 256-byte `AnyRecord` and copied
                    // out of it; each is taken where it is decoded (moved out of this
                    // scope, it was copied once more).
                    let read = match block {
                        fb::ID => fb::Record::decode(&record, ctx).map(|r| reader.instruction(r)),
                        vst::ID => vst::Record::decode(&record, ctx).map(|r| reader.symbol(r)),
                        attachments::ID => {
                            attachments::Record::decode(&record, ctx).map(|r| reader.attachment(r))
                        }
                        md::ID => md::Record::decode(&record, ctx).map(|r| {
                            reader.body.metadata.push(r);
                            Ok(())
                        }),
                        _ => ir::decode_record(block, &record, ctx).map(|r| reader.record(r)),
                    };
                    Some((read.map_err(|e| e.with_block_path(record.path.ids()))?, offset))
                }
            }
        };
        let Some((read, offset)) = step else { continue };
        read.map_err(|p| walker.locate(invalid(offset, in_function(m, function, p))))?;
    }
    m.body_density.note(&reader.body, bits);
    // At the block's end (which the walk has just left): the body as a whole is wrong.
    let end = walker.cursor().position();
    let path = walker.cursor().block_path().chain([fb::ID]);
    reader.finish().map_err(|p| invalid(end, in_function(m, function, p)).with_block_path(path))
}

/// `problem` after the name of function `function`.
pub(super) fn in_function(m: &Module<'_>, function: u32, problem: String) -> String {
    let name = m.functions.get(function as usize).map_or(&b""[..], |f| &f.common.name);
    format!("function {}: {problem}", String::from_utf8_lossy(name))
}

/// How many bits of a body's block each of its instructions and each of its values took
/// in the body read last: from about 80 in a module without debug info to over 400 in one
/// with it (its metadata and names take the rest). A body's vectors are reserved from it:
/// a fixed guess reserved up to seven times what the bodies held, and the pages of what
/// went unused were faulted in by later allocations.
#[derive(Clone, Debug, Default)]
pub(super) struct BodyDensity {
    instructions: BitsPer,
    values: BitsPer,
}

impl BodyDensity {
    /// Reserves the instructions and values of `body`, whose block has `bits` bits.
    fn reserve(&self, body: &mut FunctionBody<'_>, bits: u64) {
        body.instructions.reserve(self.instructions.count_in(bits));
        body.values.reserve(self.values.count_in(bits));
    }

    /// Notes `body`, read from `bits` bits, for the next.
    fn note(&self, body: &FunctionBody<'_>, bits: u64) {
        self.instructions.note(bits, body.instructions.len());
        self.values.note(bits, body.values.len());
    }
}

/// Bits of a body's block for each of a kind of item, as the body read last found.
#[derive(Debug, Default)]
struct BitsPer(AtomicU64);

impl BitsPer {
    /// The guess before any body is read: dense, as a body without debug info is.
    const FIRST: u64 = 64;

    /// How many to reserve for a block of `bits` bits: somewhat more than the last body
    /// suggests, so that a body a little denser is not grown and copied.
    fn count_in(&self, bits: u64) -> usize {
        let per = match self.0.load(Ordering::Relaxed) {
            0 => Self::FIRST,
            per => (per * 3 / 4).max(32),
        };
        usize::try_from(bits / per).unwrap_or(0)
    }

    /// Notes a body of `count` read from `bits` bits (one of a few instructions says
    /// little: its block is mostly its header and names).
    fn note(&self, bits: u64, count: usize) {
        if count >= 16 {
            self.0.store(bits / count as u64, Ordering::Relaxed);
        }
    }
}

impl Clone for BitsPer {
    fn clone(&self) -> Self {
        BitsPer(AtomicU64::new(self.0.load(Ordering::Relaxed)))
    }
}

struct BodyReader<'m, 'a> {
    m: &'m Module<'a>,
    types: &'m mut Types,
    body: FunctionBody<'a>,
    constant_type: TypeRef,
    last_loc: Option<DebugLoc>,
    bundles: Vec<(u32, Vec<BundleInput>)>,
    declared_blocks: u32,
    block_names: Vec<(u32, bitcode_schema_runtime::decode::Bytes<'a>)>,
    common: CommonTypes,
}

/// The ids of the types many instructions have (`void` for every store, branch and
/// return), each interned the first time the body needs it rather than looked up in the
/// table for every instruction.
#[derive(Default)]
struct CommonTypes {
    void: Option<TypeRef>,
    token: Option<TypeRef>,
    i1: Option<TypeRef>,
}

type Res<T> = std::result::Result<T, String>;

impl<'a> BodyReader<'_, 'a> {
    /// The type of a value operand: a defined value's, or the one a forward reference gives.
    /// The type a cmpxchg of `compared` values yields: `{ compared, i1 }`.
    fn cmpxchg_type(&mut self, compared: TypeRef) -> TypeRef {
        let i1 = self.types.intern(Type::Integer(1));
        self.types.intern(Type::Struct {
            identified: None,
            packed: false,
            elements: Some(vec![compared, i1]),
        })
    }

    fn type_of(&self, op: Operand) -> Res<TypeRef> {
        if let Some(t) = self.value(op.id.0).map(|v| v.ty) {
            return Ok(t);
        }
        op.ty
            .map(|t| t.0)
            .ok_or_else(|| format!("value {} is used before it is defined, without a type", op.id.0))
    }

    fn value(&self, id: u32) -> Option<&Value<'a>> {
        match id.checked_sub(self.body.first_local) {
            None => self.m.values.get(id as usize),
            Some(local) => self.body.values.get(local as usize),
        }
    }

    fn void(&mut self) -> TypeRef {
        *self.common.void.get_or_insert_with(|| self.types.intern(Type::Void))
    }

    fn token(&mut self) -> TypeRef {
        *self.common.token.get_or_insert_with(|| self.types.intern(Type::Token))
    }

    /// A comparison's type: `i1`, or a vector of it as long as `like` is.
    fn bool_like(&mut self, like: TypeRef) -> TypeRef {
        let i1 = *self.common.i1.get_or_insert_with(|| self.types.intern(Type::Integer(1)));
        self.types.bool_like(like, i1)
    }

    fn next_id(&self) -> u32 {
        self.body.first_local + self.body.values.len() as u32
    }

    /// A record of a block `read_body` does not decode with the block's own decoder:
    /// constants and use-list orders (the rest are passed over).
    fn record(&mut self, record: ir::AnyRecord<'a>) -> Res<()> {
        use ir::AnyRecord as A;
        match record {
            A::ConstantsBlock(cb::Record::Settype(t)) => {
                if self.types.get(t.r#type.0).is_none() {
                    return Err(format!("SETTYPE names type {}, not in the table", t.r#type.0));
                }
                self.constant_type = t.r#type.0;
                Ok(())
            }
            A::ConstantsBlock(r) => {
                let is_function =
                    |id: u32| matches!(self.value(id), Some(Value { kind: ValueKind::Function(_), .. }));
                let c = read_constant(self.types, r, self.constant_type, is_function)?;
                let ty = constant_value_type(self.types, &c, self.constant_type);
                let value = |id: u32| self.value(id);
                let c = Folder { m: self.m, types: self.types, value: &value }.fold(c, ty);
                self.body.values.push(Value { ty, kind: ValueKind::Constant(c) });
                Ok(())
            }
            A::UselistBlock(ir::uselist_block::Record::UseListBb(u)) => {
                let mut order = u.indexes_then_block;
                let block = order.pop().ok_or("an empty USELIST_BB record")?;
                self.body.use_lists.push((block as u32, order));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A record of the body's value symbol table: a local value's or a block's name.
    fn symbol(&mut self, r: ir::value_symtab_block::Record<'a>) -> Res<()> {
        use ir::value_symtab_block::Record as V;
        match r {
            V::Entry(e) => {
                // A name for a value the body does not define (a global's) is not one the
                // printer looks up.
                let local = e.value.0.checked_sub(self.body.first_local).map(|l| l as usize);
                if let Some(local) = local.filter(|&l| l < self.body.values.len()) {
                    if local >= self.body.names.len() {
                        self.body.names.resize(self.body.values.len(), None);
                    }
                    if let Some(name) = self.body.names.get_mut(local) {
                        *name = Some(e.name);
                    }
                }
            }
            V::Bbentry(b) => {
                if b.bb as usize >= self.body.blocks.len().max(self.declared_blocks as usize) {
                    return Err(format!("a name for block {}, which does not exist", b.bb));
                }
                if self.block_names.capacity() == 0 {
                    // Most blocks have a name in a body that names any.
                    self.block_names.reserve(self.body.blocks.len().max(1));
                }
                self.block_names.push((b.bb, b.name));
            }
            _ => {}
        }
        Ok(())
    }

    /// A record of the body's METADATA_ATTACHMENT block: an instruction's attachments, or
    /// the function's own.
    fn attachment(&mut self, r: ir::metadata_attachment_block::Record<'a>) -> Res<()> {
        let ir::metadata_attachment_block::Record::Attachment(a) = r else { return Ok(()) };
        let ops = a.operands;
        match ops.split_first() {
            Some((&i, rest)) if ops.len() % 2 == 1 => {
                let inst =
                    self.body.instructions.get_mut(i as usize).ok_or("an attachment to no instruction")?;
                inst.attachments.extend(pairs(rest));
            }
            _ => self.body.attachments.extend(pairs(&ops)),
        }
        Ok(())
    }
}

/// (kind, metadata id) pairs of an attachment record's operands.
fn pairs(ops: &[u64]) -> impl Iterator<Item = (u32, u32)> + '_ {
    ops.chunks_exact(2)
        .map(|p| (p.first().copied().unwrap_or(0) as u32, p.get(1).copied().unwrap_or(0) as u32))
}

/// The tail kind bits of a call's cc word: 0 none, 1 tail, 2 musttail, 3 notail.
fn tail_kind(cc: &ir::CallFlags) -> u8 {
    if cc.must_tail {
        2
    } else if cc.no_tail {
        3
    } else {
        u8::from(cc.tail)
    }
}

fn align(a: Option<bitcode_schema_runtime::decode::Align>) -> Option<u64> {
    a.map(|a| a.bytes())
}

impl<'a> BodyReader<'_, 'a> {
    fn push(&mut self, ty: TypeRef, op: Op) -> Res<()> {
        let value = if self.types.is_void(ty) {
            None
        } else {
            let id = self.next_id();
            let index = self.body.instructions.len() as u32;
            self.body.values.push(Value { ty, kind: ValueKind::Instruction(index) });
            Some(id)
        };
        let terminator = matches!(
            op,
            Op::Ret(_)
                | Op::Br { .. }
                | Op::Switch { .. }
                | Op::IndirectBr { .. }
                | Op::Invoke { .. }
                | Op::CallBr { .. }
                | Op::Unreachable
                | Op::Resume(_)
                | Op::CleanupRet { .. }
                | Op::CatchRet { .. }
                | Op::CatchSwitch { .. }
        );
        self.body.instructions.push(Instruction {
            ty,
            value,
            op,
            debug_loc: None,
            attachments: AttachmentList::new(),
            debug_records: Vec::new(),
        });
        let n = self.body.instructions.len() as u32;
        let Some(block) = self.body.blocks.last_mut() else { return Err("no basic block".into()) };
        block.end = n;
        // A terminator opens the next block; after the last one that block stays empty
        // and `finish` drops it (an instruction in it makes one block too many).
        if terminator {
            self.body.blocks.push(BasicBlock { name: None, start: n, end: n });
        }
        Ok(())
    }

    fn call(
        &mut self,
        attrs: Option<u32>,
        cc: ir::CallingConv,
        explicit: Option<u32>,
        callee: Operand,
        args: Vec<Operand>,
    ) -> Res<(Call, TypeRef)> {
        let function_type = match explicit {
            Some(t) => t,
            None => {
                let t = self.type_of(callee)?;
                self.types.pointee(t).ok_or("a call through a callee that is not a function pointer")?
            }
        };
        let (ret, params, _) =
            self.types.function(function_type).ok_or("a call with a type that is not a function type")?;
        if args.len() < params.len() {
            return Err("a call with fewer arguments than its function has parameters".into());
        }
        let call = Call {
            attributes: attrs,
            calling_conv: cc,
            function_type,
            callee: callee.id.0,
            args: args.iter().map(|a| a.id.0).collect(),
            bundles: std::mem::take(&mut self.bundles),
        };
        Ok((call, ret))
    }

    fn instruction(&mut self, r: fb::Record<'a>) -> Res<()> {
        use fb::Record as F;
        let typed = self.m.typed_pointers;
        match r {
            F::Declareblocks(d) => {
                self.declared_blocks = d.num_blocks;
                // Each block ends in an instruction: no more than the instructions reserved
                // (the count is the input's word).
                let blocks = (d.num_blocks as usize).min(self.body.instructions.capacity());
                self.body.blocks.reserve(blocks.saturating_sub(self.body.blocks.len()));
            }
            F::InstBinop(b) => {
                let ty = self.type_of(b.lhs)?;
                self.push(
                    ty,
                    Op::Binary {
                        opcode: b.opcode,
                        flags: b.flags.unwrap_or(0),
                        lhs: b.lhs.id.0,
                        rhs: b.rhs.0,
                    },
                )?;
            }
            F::InstUnop(u) => {
                let ty = self.type_of(u.operand)?;
                let flags = u.fast_math.map_or(0, |f| f.bits());
                self.push(ty, Op::Unary { opcode: u.opcode, flags, operand: u.operand.id.0 })?;
            }
            F::InstCast(c) => {
                self.check_type(c.dest_type.0)?;
                let from = self.type_of(c.operand)?;
                if !self.types.cast_is_valid(c.opcode, from, c.dest_type.0) {
                    return Err(format!(
                        "a {} of type {from} to type {}, which LLVM's reader refuses (an invalid cast)",
                        c.opcode, c.dest_type.0
                    ));
                }
                self.push(
                    c.dest_type.0,
                    Op::Cast { opcode: c.opcode, flags: c.flags.unwrap_or(0), operand: c.operand.id.0 },
                )?;
            }
            F::InstGep(g) => {
                let mut operands = ValueList::with_capacity(g.indices.len() + 1);
                operands.push(g.base.id.0);
                operands.extend(g.indices.iter().map(|i| i.id.0));
                let ty = self.gep_type(g.source_type.0, g.base, &g.indices, typed)?;
                let op = Op::Gep { source: g.source_type.0, flags: g.flags, operands };
                self.push(ty, op)?;
            }
            F::InstVselect(s) => {
                let ty = self.type_of(s.true_value)?;
                let flags = s.fast_math.map_or(0, |f| f.bits());
                let op = Op::Select {
                    condition: s.condition.id.0,
                    true_value: s.true_value.id.0,
                    false_value: s.false_value.0,
                    flags,
                };
                self.push(ty, op)?;
            }
            F::InstExtractelt(e) => {
                let vty = self.type_of(e.vector)?;
                let ty =
                    self.types.element(vty, 0).ok_or("extractelement of a value that is not a vector")?;
                self.push(ty, Op::ExtractElement { vector: e.vector.id.0, index: e.index.id.0 })?;
            }
            F::InstInsertelt(e) => {
                let ty = self.type_of(e.vector)?;
                self.push(
                    ty,
                    Op::InsertElement { vector: e.vector.id.0, element: e.element.0, index: e.index.id.0 },
                )?;
            }
            F::InstShufflevec(s) => {
                let vty = self.type_of(s.vector1)?;
                let mty = self.type_of(s.mask)?;
                let element =
                    self.types.element(vty, 0).ok_or("shufflevector of a value that is not a vector")?;
                let (len, scalable) = match self.types.get(mty) {
                    Some(Type::Vector { len, scalable, .. }) => (*len, *scalable),
                    _ => return Err("shufflevector with a mask that is not a vector".into()),
                };
                let ty = self.types.intern(Type::Vector { len, element, scalable });
                self.push(
                    ty,
                    Op::ShuffleVector { vector1: s.vector1.id.0, vector2: s.vector2.0, mask: s.mask.id.0 },
                )?;
            }
            F::InstCmp2(c) => {
                let lty = self.type_of(c.lhs)?;
                let ty = self.bool_like(lty);
                self.push(
                    ty,
                    Op::Compare {
                        predicate: c.predicate,
                        flags: c.flags.unwrap_or(0),
                        lhs: c.lhs.id.0,
                        rhs: c.rhs.0,
                    },
                )?;
            }
            F::InstCmp(c) => {
                let lty = self.type_of(c.lhs)?;
                let ty = self.bool_like(lty);
                self.push(
                    ty,
                    Op::Compare {
                        predicate: c.predicate,
                        flags: c.flags.unwrap_or(0),
                        lhs: c.lhs.id.0,
                        rhs: c.rhs.0,
                    },
                )?;
            }
            F::InstRet(r) => {
                let void = self.void();
                self.push(void, Op::Ret(r.value.map(|v| v.id.0)))?;
            }
            F::InstBr(b) => {
                let void = self.void();
                let conditional = match (b.false_dest, b.condition) {
                    (Some(f), Some(c)) => Some((c.0, f)),
                    (None, None) => None,
                    _ => return Err("a branch with two operands".into()),
                };
                self.push(void, Op::Br { dest: b.true_dest, conditional })?;
            }
            F::InstSwitch(s) => {
                let void = self.void();
                let (condition, default, cases) = match (s.condition, s.default_dest, s.cases) {
                    (Some(c), Some(d), Some(cases)) => {
                        (c.0, d, cases.iter().map(|c| (c.value.0, c.dest)).collect())
                    }
                    _ => return Err("a switch in an old form".into()),
                };
                self.push(void, Op::Switch { condition, default, cases })?;
            }
            F::InstIndirectbr(i) => {
                let void = self.void();
                self.push(void, Op::IndirectBr { address: i.address.0, dests: i.destinations })?;
            }
            F::InstInvoke(i) => {
                let (call, ret) = self.call(
                    i.paramattrs,
                    i.cc.calling_conv,
                    i.function_type.map(|t| t.0),
                    i.callee,
                    i.args,
                )?;
                self.push(ret, Op::Invoke { call, normal: i.normal_dest, unwind: i.unwind_dest })?;
            }
            F::InstCallbr(i) => {
                let (call, ret) = self.call(
                    i.paramattrs,
                    i.cc.calling_conv,
                    i.function_type.map(|t| t.0),
                    i.callee,
                    i.args,
                )?;
                self.push(ret, Op::CallBr { call, default: i.default_dest, indirect: i.indirect_dests })?;
            }
            F::InstCall(c) => {
                let (call, ret) = self.call(
                    c.paramattrs,
                    c.cc.calling_conv,
                    c.function_type.map(|t| t.0),
                    c.callee,
                    c.args,
                )?;
                let flags = c.fast_math.map_or(0, |f| f.bits());
                self.push(ret, Op::Call { call, tail: tail_kind(&c.cc), flags })?;
            }
            F::InstUnreachable(_) => {
                let void = self.void();
                self.push(void, Op::Unreachable)?;
            }
            F::InstPhi(p) => {
                self.check_type(p.r#type.0)?;
                let incoming = p.incoming.iter().map(|i| (i.value.0, i.block)).collect();
                let flags = p.fast_math.map_or(0, |f| f.bits());
                self.push(p.r#type.0, Op::Phi { incoming, flags })?;
            }
            F::InstAlloca(a) => {
                let allocated = if a.flags.explicit_type {
                    a.r#type.0
                } else {
                    self.types.pointee(a.r#type.0).ok_or("an alloca of a type that is not a pointer")?
                };
                self.check_type(allocated)?;
                let address_space = a.address_space.unwrap_or(self.m.alloca_address_space);
                let ty = self.types.pointer_to(allocated, address_space, typed);
                // LLVM's reader reads the count as of the record's type ("Invalid record"
                // when the value has another; a value defined later is checked as used).
                if let Some(count) = self.value(a.size.0) {
                    if !self.types.same(count.ty, a.size_type.0) {
                        return Err(format!(
                            "an alloca's count, value {}, is of type {} where the record says {}",
                            a.size.0, count.ty, a.size_type.0
                        ));
                    }
                }
                let log2 = a.flags.align_lower | (a.flags.align_upper << 5);
                let align = (log2 != 0).then(|| 1u64 << ((log2 - 1) & 63));
                let op = Op::Alloca {
                    allocated,
                    size: a.size.0,
                    align,
                    inalloca: a.flags.used_with_inalloca,
                    swifterror: a.flags.swift_error,
                    address_space,
                };
                self.push(ty, op)?;
            }
            F::InstLoad(l) => {
                let ty = l.r#type.ok_or("a load in an old form")?.0;
                self.check_type(ty)?;
                self.check_access("load", ty, l.ptr)?;
                let op = Op::Load {
                    ptr: l.ptr.id.0,
                    align: align(l.align),
                    volatile: l.is_volatile.unwrap_or(false),
                    atomic: None,
                };
                self.push(ty, op)?;
            }
            F::InstLoadatomic(l) => {
                let ty = l.r#type.ok_or("a load in an old form")?.0;
                self.check_type(ty)?;
                self.check_access("load", ty, l.ptr)?;
                let atomic = Some(Atomic {
                    ordering: l.ordering.ok_or("a load in an old form")?,
                    scope: l.syncscope.unwrap_or(1),
                });
                let op = Op::Load {
                    ptr: l.ptr.id.0,
                    align: align(l.align),
                    volatile: l.is_volatile.unwrap_or(false),
                    atomic,
                };
                self.push(ty, op)?;
            }
            F::InstStore(s) => {
                let stored = self.type_of(s.value)?;
                self.check_access("store", stored, s.ptr)?;
                let void = self.void();
                let op = Op::Store {
                    ptr: s.ptr.id.0,
                    value: s.value.id.0,
                    align: align(s.align),
                    volatile: s.is_volatile,
                    atomic: None,
                };
                self.push(void, op)?;
            }
            F::InstStoreatomic(s) => {
                let stored = self.type_of(s.value)?;
                self.check_access("store", stored, s.ptr)?;
                let void = self.void();
                let atomic = Some(Atomic { ordering: s.ordering, scope: s.syncscope });
                let op = Op::Store {
                    ptr: s.ptr.id.0,
                    value: s.value.id.0,
                    align: align(s.align),
                    volatile: s.is_volatile,
                    atomic,
                };
                self.push(void, op)?;
            }
            F::InstVaarg(v) => {
                self.check_type(v.r#type.0)?;
                self.push(v.r#type.0, Op::VaArg { list: v.valist.0 })?;
            }
            F::InstExtractval(e) => {
                let mut ty = self.type_of(e.aggregate)?;
                for &i in &e.indices {
                    ty = self
                        .types
                        .element(ty, u64::from(i))
                        .ok_or("extractvalue with an index out of its type")?;
                }
                self.push(ty, Op::ExtractValue { aggregate: e.aggregate.id.0, indices: e.indices })?;
            }
            F::InstInsertval(e) => {
                let ty = self.type_of(e.aggregate)?;
                self.push(
                    ty,
                    Op::InsertValue { aggregate: e.aggregate.id.0, value: e.value.id.0, indices: e.indices },
                )?;
            }
            F::InstFence(f) => {
                let void = self.void();
                self.push(void, Op::Fence(Atomic { ordering: f.ordering, scope: f.syncscope }))?;
            }
            // The forms of LLVM 12 and before, on typed pointers: the value has the
            // pointer's element type, and no alignment is given (the store size is meant).
            F::InstAtomicrmwOld(a) => {
                let ptr = self.type_of(a.ptr)?;
                let ty = self
                    .types
                    .pointee(ptr)
                    .ok_or("an old atomicrmw through a pointer without an element type")?;
                let op = Op::AtomicRmw {
                    operation: a.operation.operation,
                    ptr: a.ptr.id.0,
                    value: a.value.0,
                    volatile: a.is_volatile,
                    atomic: Atomic { ordering: a.ordering, scope: a.syncscope },
                    align: align(a.align),
                };
                self.push(ty, op)?;
            }
            F::InstCmpxchgOld(c) => {
                // Without `weak` (before LLVM 3.5) LLVM's reader adds an extractvalue of
                // the loaded value, a second instruction: not read.
                let (Some(weak), Some(failure)) = (c.weak, c.failure_ordering) else {
                    return Err("a cmpxchg from before LLVM 3.5 (without weak)".into());
                };
                let ptr = self.type_of(c.ptr)?;
                let cty = self
                    .types
                    .pointee(ptr)
                    .ok_or("an old cmpxchg through a pointer without an element type")?;
                let ty = self.cmpxchg_type(cty);
                let op = Op::CmpXchg {
                    ptr: c.ptr.id.0,
                    cmp: c.cmp.0,
                    new: c.new.0,
                    volatile: c.is_volatile,
                    weak,
                    success: Atomic { ordering: c.success_ordering, scope: c.syncscope },
                    failure,
                    align: None,
                };
                self.push(ty, op)?;
            }
            F::InstCmpxchg(c) => {
                let cty = self.type_of(c.cmp)?;
                let ty = self.cmpxchg_type(cty);
                let op = Op::CmpXchg {
                    ptr: c.ptr.id.0,
                    cmp: c.cmp.id.0,
                    new: c.new.0,
                    volatile: c.is_volatile,
                    weak: c.weak,
                    success: Atomic { ordering: c.success_ordering, scope: c.syncscope },
                    failure: c.failure_ordering,
                    align: align(c.align),
                };
                self.push(ty, op)?;
            }
            F::InstAtomicrmw(a) => {
                let ty = self.type_of(a.value)?;
                let op = Op::AtomicRmw {
                    operation: a.operation.operation,
                    ptr: a.ptr.id.0,
                    value: a.value.id.0,
                    volatile: a.is_volatile,
                    atomic: Atomic { ordering: a.ordering, scope: a.syncscope },
                    align: align(a.align),
                };
                self.push(ty, op)?;
            }
            F::InstResume(r) => {
                let void = self.void();
                self.push(void, Op::Resume(r.value.id.0))?;
            }
            F::InstLandingpad(l) => {
                self.check_type(l.r#type.0)?;
                let clauses = l
                    .clauses
                    .iter()
                    .map(|c| match c {
                        ir::LandingPadClause::Catch { value } => (true, value.id.0),
                        ir::LandingPadClause::Filter { value } => (false, value.id.0),
                    })
                    .collect();
                self.push(l.r#type.0, Op::LandingPad { cleanup: l.is_cleanup, clauses })?;
            }
            F::InstCleanupret(c) => {
                let void = self.void();
                self.push(void, Op::CleanupRet { pad: c.cleanup_pad.0, unwind: c.unwind_dest })?;
            }
            F::InstCatchret(c) => {
                let void = self.void();
                self.push(void, Op::CatchRet { pad: c.catch_pad.0, successor: c.successor })?;
            }
            F::InstCatchpad(c) => {
                let token = self.token();
                let args = c.args.iter().map(|a| a.id.0).collect();
                self.push(token, Op::Pad { cleanup: false, parent: c.parent_pad.0, args })?;
            }
            F::InstCleanuppad(c) => {
                let token = self.token();
                let args = c.args.iter().map(|a| a.id.0).collect();
                self.push(token, Op::Pad { cleanup: true, parent: c.parent_pad.0, args })?;
            }
            F::InstCatchswitch(c) => {
                let token = self.token();
                self.push(
                    token,
                    Op::CatchSwitch { parent: c.parent_pad.0, handlers: c.handlers, unwind: c.unwind_dest },
                )?;
            }
            F::InstFreeze(f) => {
                let ty = self.type_of(f.operand)?;
                self.push(ty, Op::Freeze(f.operand.id.0))?;
            }
            F::OperandBundle(b) => {
                // Inputs: value-type pairs (relative ids); the pair's value is relative to
                // the call's value number.
                let base = self.next_id();
                let mut inputs = Vec::new();
                let mut it = b.inputs.iter();
                while let Some(&v) = it.next() {
                    // LLVM 22: a marker, then a metadata id relative to the call's number.
                    if v == METADATA_BUNDLE_INPUT {
                        let relative =
                            it.next().ok_or("an operand bundle's metadata input without its id")?;
                        inputs.push(BundleInput::Metadata(base.wrapping_sub(*relative as u32)));
                        continue;
                    }
                    let id = if self.m.version >= 1 { base.wrapping_sub(v as u32) } else { v as u32 };
                    if self.value(id).is_none() {
                        it.next();
                    }
                    inputs.push(BundleInput::Value(id));
                }
                self.bundles.push((b.tag, inputs));
            }
            F::DebugLoc(d) => {
                // LLVM's reader takes the atom only from a record with both its fields.
                let (atom_group, atom_rank) = d.atom_group.zip(d.atom_rank).unwrap_or((0, 0));
                let loc = DebugLoc {
                    line: d.line,
                    column: d.column,
                    scope: d.scope,
                    inlined_at: d.inlined_at,
                    implicit: d.is_implicit_code,
                    atom_group,
                    atom_rank,
                };
                let inst =
                    self.body.instructions.last_mut().ok_or("a debug location before any instruction")?;
                inst.debug_loc = Some(loc);
                self.last_loc = Some(loc);
            }
            F::DebugLocAgain(_) => {
                let loc = self.last_loc.ok_or("DEBUG_LOC_AGAIN with no location before")?;
                let inst =
                    self.body.instructions.last_mut().ok_or("a debug location before any instruction")?;
                inst.debug_loc = Some(loc);
            }
            F::DebugRecordValue(d) => self.debug_record(
                fb::DebugRecordValue::CODE,
                &[d.location, d.variable, d.expression, d.value],
                None,
            )?,
            F::DebugRecordDeclare(d) => self.debug_record(
                fb::DebugRecordDeclare::CODE,
                &[d.location, d.variable, d.expression, d.address],
                None,
            )?,
            F::DebugRecordDeclareValue(d) => self.debug_record(
                fb::DebugRecordDeclareValue::CODE,
                &[d.location, d.variable, d.expression, d.value],
                None,
            )?,
            F::DebugRecordAssign(d) => self.debug_record(
                fb::DebugRecordAssign::CODE,
                &[
                    d.location,
                    d.variable,
                    d.expression,
                    d.value,
                    d.assign_id,
                    d.address_expression,
                    d.address,
                ],
                None,
            )?,
            F::DebugRecordValueSimple(d) => self.debug_record(
                fb::DebugRecordValueSimple::CODE,
                &[d.location, d.variable, d.expression],
                Some(d.value.id.0),
            )?,
            F::DebugRecordLabel(d) => {
                self.debug_record(fb::DebugRecordLabel::CODE, &[d.location, d.label], None)?
            }
            F::BlockaddrUsers(_) => {}
            _ => return Err("an instruction record this reader does not know".into()),
        }
        Ok(())
    }

    fn debug_record(&mut self, code: u32, operands: &[u32], value: Option<ValueRef>) -> Res<()> {
        let inst = self.body.instructions.last_mut().ok_or("a debug record before any instruction")?;
        inst.debug_records.push(DebugRecord { code, operands: operands.into(), value });
        Ok(())
    }

    /// LLVM's reader's check of a load or store (`typeCheckLoadStoreInst`): through a
    /// pointer, of a type that can be loaded and stored, and through a typed pointer only
    /// of its element type (a module LLVM 14's MemorySanitizer wrote breaks that, and
    /// llvm-dis 14 rejects it).
    fn check_access(&self, what: &str, ty: TypeRef, ptr: Operand) -> Res<()> {
        let ptr_ty = self.type_of(ptr)?;
        let Some(Type::Pointer { pointee, .. }) = self.types.get(ptr_ty) else {
            return Err(format!("a {what} through a value that is not a pointer (type {ptr_ty})"));
        };
        if let Some(pointee) = *pointee {
            if !self.types.same(pointee, ty) {
                return Err(format!(
                    "a {what} of type {ty} through a pointer to type {pointee}: the type of a load or store must be the element type of a typed pointer"
                ));
            }
        }
        match self.types.get(ty) {
            Some(
                Type::Void
                | Type::Label
                | Type::Metadata
                | Type::Token
                | Type::X86Amx
                | Type::Function { .. },
            ) => Err(format!("a {what} of type {ty}, which cannot be loaded or stored")),
            _ => Ok(()),
        }
    }

    fn check_type(&self, ty: TypeRef) -> Res<()> {
        match self.types.get(ty) {
            Some(_) => Ok(()),
            None => Err(format!("type {ty} is not in the table")),
        }
    }

    /// The result type of a getelementptr.
    fn gep_type(&mut self, source: TypeRef, base: Operand, indices: &[Operand], typed: bool) -> Res<TypeRef> {
        let base_ty = self.type_of(base)?;
        let address_space = self.types.address_space(base_ty);
        let mut vector = match self.types.get(base_ty) {
            Some(Type::Vector { len, scalable, .. }) => Some((*len, *scalable)),
            _ => None,
        };
        let mut ty = source;
        for (n, index) in indices.iter().enumerate() {
            let ity = self.type_of(*index)?;
            if let Some(Type::Vector { len, scalable, .. }) = self.types.get(ity) {
                vector = Some((*len, *scalable));
            }
            if n == 0 || !typed {
                continue;
            }
            let k = match self.value(index.id.0).map(|v| &v.kind) {
                Some(ValueKind::Constant(Constant::Int(k))) => *k as u64,
                _ => 0,
            };
            ty = self.types.element(ty, k).ok_or("getelementptr indexes into a type that has no elements")?;
        }
        let mut result = self.types.pointer_to(ty, address_space, typed);
        if let Some((len, scalable)) = vector {
            result = self.types.intern(Type::Vector { len, element: result, scalable });
        }
        Ok(result)
    }

    fn finish(mut self) -> std::result::Result<FunctionBody<'a>, String> {
        // The block opened after the last terminator is empty.
        if self.body.blocks.last().is_some_and(|b| b.start == b.end) && self.body.blocks.len() > 1 {
            self.body.blocks.pop();
        }
        // Blocks declared and never used are empty, as LLVM's reader leaves them (llvm-dis
        // prints them, with no predecessors); more blocks than declared is an error.
        let declared = self.declared_blocks as usize;
        if self.body.blocks.len() < declared && self.declared_blocks > 0 {
            let end = self.body.blocks.last().map_or(0, |b| b.end);
            self.body.blocks.resize(declared, BasicBlock { name: None, start: end, end });
        }
        if self.body.blocks.len() != declared {
            return Err(format!(
                "the body declares {} blocks and has {}",
                self.declared_blocks,
                self.body.blocks.len()
            ));
        }
        for (bb, name) in std::mem::take(&mut self.block_names) {
            if let Some(b) = self.body.blocks.get_mut(bb as usize) {
                b.name = Some(name);
            }
        }
        Ok(self.body)
    }
}
