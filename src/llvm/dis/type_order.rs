//! The order of the struct definitions at the top of a module: TypeFinder's walk over the
//! globals, then each function's type, attributes and body, met one function at a time so
//! that a body can be dropped once it has been walked.

use super::module::{for_each_constant_operand, for_each_operand};
use super::types::TypeFinder;
use crate::llvm::module::{
    Attribute, Constant, FunctionBody, Module, Op, TypeRef, Types, ValueKind, ValueRef,
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
    pub fn function(&mut self, m: &Module<'_>, types: &Types, index: usize, body: Option<&FunctionBody<'_>>) {
        if let StructOrder::Walking(walk) = self {
            walk.function(m, types, index, body);
        }
    }

    /// The order, once every function has been walked; leaves an empty known order.
    pub fn take(&mut self) -> Vec<TypeRef> {
        match std::mem::replace(self, StructOrder::Known(Vec::new())) {
            StructOrder::Known(order) => order,
            StructOrder::Walking(walk) => walk.finish(),
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
}

impl TypeOrder {
    /// Walks the module's global variables, aliases and ifuncs.
    pub fn new(m: &Module<'_>) -> Self {
        let mut order = TypeOrder {
            finder: TypeFinder::new(m.types.len()),
            seen_constants: vec![false; m.values.len()],
            seen_local: Vec::new(),
            work: Vec::new(),
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
    /// holds the types the body's reading added.
    pub fn function(&mut self, m: &Module<'_>, types: &Types, index: usize, body: Option<&FunctionBody<'_>>) {
        let Some(func) = m.functions.get(index) else { return };
        self.finder
            .incorporate(types, if m.typed_pointers { func.common.ty } else { func.common.value_type });
        if !m.typed_pointers {
            self.attributes(m, types, func.attributes);
        }
        for v in [func.prefix, func.prologue, func.personality].into_iter().flatten() {
            self.value(m, types, None, v);
        }
        let Some(body) = body else { return };
        self.seen_local.clear();
        self.seen_local.resize(body.values.len(), false);
        for inst in &body.instructions {
            self.finder.incorporate(types, inst.ty);
            for_each_operand(&inst.op, |op| self.value(m, types, Some(body), op));
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
        }
    }

    /// The identified structs in the order met.
    pub fn finish(self) -> Vec<TypeRef> {
        self.finder.structs
    }

    /// TypeFinder::incorporateAttributes: the types of type attributes (`byval(%T)`...).
    fn attributes(&mut self, m: &Module<'_>, types: &Types, list: Option<u32>) {
        let Some(list) = m.attributes.list(list) else { return };
        for (_, set) in &list.sets {
            for a in set {
                if let Attribute::Type(_, Some(t)) = a {
                    self.finder.incorporate(types, *t);
                }
            }
        }
    }

    /// TypeFinder::incorporateValue: constants' types and operands, not globals or locals.
    fn value(&mut self, m: &Module<'_>, types: &Types, body: Option<&FunctionBody<'_>>, id: ValueRef) {
        self.work.clear();
        self.work.push(id);
        while let Some(id) = self.work.pop() {
            let (value, flag) = match body.and_then(|b| id.checked_sub(b.first_local).map(|l| (b, l))) {
                Some((b, l)) => (b.values.get(l as usize), self.seen_local.get_mut(l as usize)),
                None => (m.values.get(id as usize), self.seen_constants.get_mut(id as usize)),
            };
            let (Some(value), Some(flag)) = (value, flag) else { continue };
            let ValueKind::Constant(c) = &value.kind else { continue };
            if *flag {
                continue;
            }
            *flag = true;
            self.finder.incorporate(types, value.ty);
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
