//! The order of the struct definitions at the top of a module: TypeFinder's walk over the
//! globals, then each function's type, attributes and body, met one function at a time so
//! that a body can be dropped once it has been walked, then the named metadata.

use smallvec::SmallVec;

use super::md::{MdRef, Metadata};
use super::module::{for_each_constant_operand, for_each_operand};
use super::types::TypeFinder;
use crate::llvm::module::metadata::{DiNode, Md};
use crate::llvm::module::{
    Attribute, BundleInput, Call, Constant, FunctionBody, Module, Op, TypeRef, Types, Value, ValueKind,
    ValueRef,
};

/// The order of the struct definitions, known before the bodies are printed or found by
/// walking each function as it is printed.
pub(super) enum StructOrder {
    /// Found by a pass over every body before any was printed.
    Known(Vec<TypeRef>),
    /// Being found, function by function.
    Walking(TypeOrder),
}

impl StructOrder {
    /// The order as known before printing (empty while it is being found).
    pub fn known(&self) -> &[TypeRef] {
        match self {
            StructOrder::Known(order) => order,
            StructOrder::Walking(_) => &[],
        }
    }

    /// Walks function `index` and its body, if the order is being found (see
    /// [`TypeOrder::function`]).
    pub fn function(
        &mut self,
        m: &Module<'_>,
        types: &Types,
        md: &Metadata<'_>,
        index: usize,
        body: Option<&FunctionBody<'_>>,
    ) {
        if let StructOrder::Walking(walk) = self {
            walk.function(m, types, md, index, body);
        }
    }

    /// The order, once every function has been walked (see [`TypeOrder::finish`]); leaves
    /// an empty known order.
    pub fn take(&mut self, m: &Module<'_>, types: &Types, md: &Metadata<'_>) -> Vec<TypeRef> {
        match std::mem::replace(self, StructOrder::Known(Vec::new())) {
            StructOrder::Known(order) => order,
            StructOrder::Walking(walk) => walk.finish(m, types, md),
        }
    }
}

/// TypeFinder's state over one module.
pub(super) struct TypeOrder {
    finder: TypeFinder,
    /// Module-level constants already walked.
    seen_constants: Vec<bool>,
    /// The current body's constants already walked.
    seen_local: Vec<bool>,
    /// The constants still to walk.
    work: Vec<ValueRef>,
    /// Metadata nodes already walked, by arena index.
    seen_nodes: Vec<bool>,
    /// The metadata operands still to walk.
    md_work: Vec<MdRef>,
    /// The attribute lists walked, by list id.
    walked_lists: Vec<bool>,
    /// Whether each function type has a metadata parameter, by type id, once asked.
    metadata_params: Vec<Option<bool>>,
}

impl TypeOrder {
    /// Walks the module's global variables, aliases and ifuncs.
    pub fn new(m: &Module<'_>) -> Self {
        let mut order = TypeOrder {
            finder: TypeFinder::new(m.types.len()),
            // Only constants are walked: every other value counts as walked already, so
            // that most operands are passed over on their flag alone.
            seen_constants: m.values.iter().map(|v| !matches!(v.kind, ValueKind::Constant(_))).collect(),
            seen_local: Vec::new(),
            work: Vec::new(),
            seen_nodes: Vec::new(),
            md_work: Vec::new(),
            walked_lists: vec![false; m.attributes.lists.len()],
            metadata_params: Vec::new(),
        };
        let pointer_or_value =
            |ty: TypeRef, value_type: TypeRef| if m.typed_pointers { ty } else { value_type };
        for g in &m.globals {
            order.finder.incorporate(&m.types, pointer_or_value(g.common.ty, g.common.value_type));
            if let Some(init) = g.initializer {
                order.value(m, &m.types, None, init);
            }
        }
        for a in &m.aliases {
            order.finder.incorporate(&m.types, pointer_or_value(a.common.ty, a.common.value_type));
            order.value(m, &m.types, None, a.target);
        }
        for i in &m.ifuncs {
            order.finder.incorporate(&m.types, pointer_or_value(i.common.ty, i.common.value_type));
        }
        order
    }

    /// Walks function `index` (declared or defined) and its body, if it has one. `types`
    /// holds the types the body's reading added; `md` resolves the body's metadata ids.
    pub fn function(
        &mut self,
        m: &Module<'_>,
        types: &Types,
        md: &Metadata<'_>,
        index: usize,
        body: Option<&FunctionBody<'_>>,
    ) {
        let Some(func) = m.functions.get(index) else { return };
        self.finder
            .incorporate(types, if m.typed_pointers { func.common.ty } else { func.common.value_type });
        if !m.typed_pointers {
            self.attributes(m, types, func.attributes);
        }
        // The function's operands: personality, prefix and prologue, in that order.
        for v in [func.personality, func.prefix, func.prologue].into_iter().flatten() {
            self.value(m, types, None, v);
        }
        let Some(body) = body else { return };
        self.seen_local.clear();
        self.seen_local.extend(body.values.iter().map(|v| !matches!(v.kind, ValueKind::Constant(_))));
        for inst in &body.instructions {
            self.finder.incorporate(types, inst.ty);
            match &inst.op {
                Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. } => {
                    self.call_operands(m, types, md, body, call)
                }
                op => for_each_operand(op, |v| self.value(m, types, Some(body), v)),
            }
            match &inst.op {
                Op::Gep { source, .. } => self.finder.incorporate(types, *source),
                Op::Alloca { allocated, .. } => self.finder.incorporate(types, *allocated),
                Op::Call { call, .. } | Op::Invoke { call, .. } | Op::CallBr { call, .. }
                    if !m.typed_pointers =>
                {
                    self.attributes(m, types, call.attributes)
                }
                _ => {}
            }
            // Types hiding in the attachments (`!dbg` is the debug location, not one of
            // them), in kind order. The nodes are mostly walked already, and then passed
            // over without being gathered and sorted.
            if inst.attachments.iter().any(|&(_, n)| self.unwalked(md, n).is_some()) {
                let mut attached: SmallVec<[(u32, MdRef); 4]> =
                    inst.attachments.iter().filter_map(|&(k, n)| Some((k, self.unwalked(md, n)?))).collect();
                attached.sort_by_key(|&(k, _)| k);
                for (_, node) in attached {
                    self.node(m, types, md, Some(body), node);
                }
            }
            // And in the debug records' locations.
            for record in &inst.debug_records {
                match record.value {
                    Some(v) => self.value(m, types, Some(body), v),
                    // A variable record's location is its fourth operand (a label has two).
                    None => {
                        if let Some(location) = record.operands.get(3).and_then(|&id| md.get(u64::from(id))) {
                            self.metadata_as_value(m, types, md, Some(body), location);
                        }
                    }
                }
            }
        }
    }

    /// The identified structs in the order met, after the named metadata's are.
    pub fn finish(mut self, m: &Module<'_>, types: &Types, md: &Metadata<'_>) -> Vec<TypeRef> {
        for (_, nodes) in md.named() {
            for &node in nodes {
                self.node(m, types, md, None, node);
            }
        }
        self.finder.structs
    }

    /// A call's operands in LLVM's order: the arguments (metadata ones as metadata), the
    /// operand bundles' inputs, the callee.
    fn call_operands(
        &mut self,
        m: &Module<'_>,
        types: &Types,
        md: &Metadata<'_>,
        body: &FunctionBody<'_>,
        call: &Call,
    ) {
        let params = types.function(call.function_type).map_or(&[][..], |(_, params, _)| params);
        // The per-argument test only for a function type with a metadata parameter.
        let any_metadata = self.has_metadata_params(types, call.function_type, params);
        for (i, &arg) in call.args.iter().enumerate() {
            let is_metadata = any_metadata && params.get(i).is_some_and(|&p| types.is_metadata(p));
            match is_metadata.then(|| md.get(u64::from(arg))) {
                Some(Some(operand)) => self.metadata_as_value(m, types, md, Some(body), operand),
                Some(None) => {}
                None => self.value(m, types, Some(body), arg),
            }
        }
        for (_, inputs) in &call.bundles {
            for input in inputs {
                match *input {
                    BundleInput::Value(v) => self.value(m, types, Some(body), v),
                    BundleInput::Metadata(id) => {
                        if let Some(operand) = md.get(u64::from(id)) {
                            self.metadata_as_value(m, types, md, Some(body), operand);
                        }
                    }
                }
            }
        }
        self.value(m, types, Some(body), call.callee);
    }

    /// Whether function type `ty` (of parameters `params`) has a metadata parameter,
    /// worked out once per type: without one, every argument of a call is a value.
    fn has_metadata_params(&mut self, types: &Types, ty: TypeRef, params: &[TypeRef]) -> bool {
        if self.metadata_params.len() <= ty as usize {
            self.metadata_params.resize(types.len().max(ty as usize + 1), None);
        }
        let Some(known) = self.metadata_params.get_mut(ty as usize) else { return true };
        *known.get_or_insert_with(|| params.iter().any(|&p| types.is_metadata(p)))
    }

    /// TypeFinder::incorporateValue of a MetadataAsValue: a node's graph, a wrapped value,
    /// or a DIArgList's values.
    fn metadata_as_value(
        &mut self,
        m: &Module<'_>,
        types: &Types,
        md: &Metadata<'_>,
        body: Option<&FunctionBody<'_>>,
        operand: MdRef,
    ) {
        match md.entry(operand) {
            Some(Md::Value { value, .. }) => self.value(m, types, body, *value),
            Some(Md::Di { node, .. }) => match &**node {
                DiNode::ArgList(args) => {
                    for arg in args.iter().flatten() {
                        if let Some(Md::Value { value, .. }) = md.entry(*arg) {
                            self.value(m, types, body, *value);
                        }
                    }
                }
                _ => self.node(m, types, md, body, operand),
            },
            Some(Md::Tuple { .. } | Md::Location { .. }) => self.node(m, types, md, body, operand),
            _ => {}
        }
    }

    /// Whether metadata node `node` has been walked (a node walked leads nowhere new).
    fn node_walked(&self, node: MdRef) -> bool {
        self.seen_nodes.get(node.index() as usize).copied().unwrap_or(false)
    }

    /// The node metadata id `id` names in `md`'s current scope, unless it has been walked.
    fn unwalked(&self, md: &Metadata<'_>, id: u32) -> Option<MdRef> {
        md.get(u64::from(id)).filter(|&node| !self.node_walked(node))
    }

    /// TypeFinder::incorporateMDNode: `node` and, depth first in operand order, every node
    /// under it not walked before, with the values among their operands (only constants
    /// have types to find). `body` holds the values of a function's metadata.
    fn node(
        &mut self,
        m: &Module<'_>,
        types: &Types,
        md: &Metadata<'_>,
        body: Option<&FunctionBody<'_>>,
        node: MdRef,
    ) {
        if self.node_walked(node) {
            return;
        }
        let mut work = std::mem::take(&mut self.md_work);
        work.clear();
        work.push(node);
        while let Some(next) = work.pop() {
            let index = next.index() as usize;
            match md.entry(next) {
                Some(Md::Value { value, .. }) => self.value(m, types, body, *value),
                Some(Md::Tuple { .. } | Md::Di { .. } | Md::Location { .. }) => {
                    if self.seen_nodes.len() <= index {
                        self.seen_nodes.resize(md.len().max(index + 1), false);
                    }
                    match self.seen_nodes.get_mut(index) {
                        Some(seen) if !*seen => *seen = true,
                        _ => continue,
                    }
                    // The operands, to be taken in order off the stack.
                    let start = work.len();
                    md.push_operands(next, &mut work);
                    if let Some(pushed) = work.get_mut(start..) {
                        pushed.reverse();
                    }
                }
                _ => {}
            }
        }
        self.md_work = work;
    }

    /// TypeFinder::incorporateAttributes: the types of type attributes (`byval(%T)`...).
    /// A list walked before is passed over: its types were met then (a module's calls
    /// name a few hundred lists tens of thousands of times).
    fn attributes(&mut self, m: &Module<'_>, types: &Types, list: Option<u32>) {
        let Some(id) = list else { return };
        match self.walked_lists.get_mut(id as usize) {
            Some(true) => return,
            Some(walked) => *walked = true,
            None => {}
        }
        let Some(list) = m.attributes.list(list) else { return };
        for (_, set) in &list.sets {
            for a in set.iter() {
                if let Attribute::Type(_, Some(t)) = a {
                    self.finder.incorporate(types, *t);
                }
            }
        }
    }

    /// TypeFinder::incorporateValue: constants' types and operands, not globals or locals.
    #[inline]
    fn value(&mut self, m: &Module<'_>, types: &Types, body: Option<&FunctionBody<'_>>, id: ValueRef) {
        // Most operands are passed over here, on their flag, before the walk's stack.
        let local = body.and_then(|b| id.checked_sub(b.first_local));
        let walked = match local {
            Some(l) => self.seen_local.get(l as usize),
            None => self.seen_constants.get(id as usize),
        };
        if walked.copied().unwrap_or(true) {
            return;
        }
        self.walk_value(m, types, body, id);
    }

    /// The constant `id` and, depth first, every constant under it not walked before.
    /// Kept out of line: [`TypeOrder::value`], inlined at every operand, is then a flag test.
    #[inline(never)]
    fn walk_value(&mut self, m: &Module<'_>, types: &Types, body: Option<&FunctionBody<'_>>, id: ValueRef) {
        self.work.clear();
        self.work.push(id);
        while let Some(id) = self.work.pop() {
            let local = body.and_then(|b| id.checked_sub(b.first_local).map(|l| (b, l)));
            let flag = match local {
                Some((_, l)) => self.seen_local.get_mut(l as usize),
                None => self.seen_constants.get_mut(id as usize),
            };
            match flag {
                Some(flag) if !*flag => *flag = true,
                _ => continue,
            }
            let value = match local {
                Some((b, l)) => b.values.get(l as usize),
                None => m.values.get(id as usize),
            };
            let Some(Value { ty, kind: ValueKind::Constant(c) }) = value else { continue };
            self.finder.incorporate(types, *ty);
            if let Constant::Gep { source, .. } = c {
                self.finder.incorporate(types, *source);
            }
            // Operands in order off the stack: pushed, then the new ones reversed.
            let start = self.work.len();
            for_each_constant_operand(c, |v| self.work.push(v));
            if let Some(pushed) = self.work.get_mut(start..) {
                pushed.reverse();
            }
        }
    }
}
