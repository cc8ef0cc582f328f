//! Types as the assembly writer prints them, and the order of the struct definitions at
//! the top of a module (TypeFinder's, numbered structs first).

use rustc_hash::FxHashMap;
use std::fmt::Write;

use super::names;
use crate::llvm::module::{Type, TypeRef, Types};

/// Prints types: identified structs by name or number.
#[derive(Debug, Default)]
pub struct TypePrinter {
    /// Numbers of unnamed identified structs.
    numbers: FxHashMap<TypeRef, u32>,
    /// Print typed pointers (`i8*`) rather than `ptr`.
    pub typed: bool,
    /// Each type's text, by id, for the types [`cache`](Self::cache) was given: a type is
    /// written once per operand, so a module's text is mostly the same few types.
    texts: Vec<Box<str>>,
}

impl TypePrinter {
    /// A printer numbering the unnamed identified structs of `order` in turn.
    pub fn new(types: &Types, order: &[TypeRef], typed: bool) -> Self {
        let mut numbers = FxHashMap::default();
        for &t in order {
            if types.name(t).is_none_or(|n| n.is_empty()) {
                let n = numbers.len() as u32;
                numbers.insert(t, n);
            }
        }
        TypePrinter { numbers, typed, texts: Vec::new() }
    }

    /// Keeps the text of every type of `types` not kept yet.
    pub fn cache(&mut self, types: &Types) {
        for ty in self.texts.len()..types.len() {
            let mut text = String::new();
            self.render(&mut text, types, ty as TypeRef);
            self.texts.push(text.into_boxed_str());
        }
    }

    /// Writes type `ty`.
    pub fn write(&self, out: &mut String, types: &Types, ty: TypeRef) {
        match self.texts.get(ty as usize) {
            Some(text) => out.push_str(text),
            None => self.render(out, types, ty),
        }
    }

    /// Writes type `ty` from its parts.
    fn render(&self, out: &mut String, types: &Types, ty: TypeRef) {
        let Some(t) = types.get(ty) else {
            out.push_str("<invalid type>");
            return;
        };
        match t {
            Type::Void => out.push_str("void"),
            Type::Half => out.push_str("half"),
            Type::BFloat => out.push_str("bfloat"),
            Type::Float => out.push_str("float"),
            Type::Double => out.push_str("double"),
            Type::X86Fp80 => out.push_str("x86_fp80"),
            Type::Fp128 => out.push_str("fp128"),
            Type::PpcFp128 => out.push_str("ppc_fp128"),
            Type::Label => out.push_str("label"),
            Type::Metadata => out.push_str("metadata"),
            Type::X86Mmx => out.push_str("x86_mmx"),
            Type::X86Amx => out.push_str("x86_amx"),
            Type::Token => out.push_str("token"),
            Type::Integer(w) => {
                super::text::push_tagged(out, "i", *w);
            }
            Type::Pointer { pointee, address_space } => match pointee {
                Some(p) if self.typed => {
                    self.write(out, types, *p);
                    if *address_space != 0 {
                        let _ = write!(out, " addrspace({address_space})");
                    }
                    out.push('*');
                }
                _ => {
                    out.push_str("ptr");
                    if *address_space != 0 {
                        let _ = write!(out, " addrspace({address_space})");
                    }
                }
            },
            Type::Function { vararg, ret, params } => {
                self.write(out, types, *ret);
                out.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, types, *p);
                }
                if *vararg {
                    if !params.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("...");
                }
                out.push(')');
            }
            Type::Struct { identified: Some(_), .. } => match types.name(ty).filter(|n| !n.is_empty()) {
                Some(n) => names::name(out, '%', n),
                None => match self.numbers.get(&ty) {
                    Some(n) => {
                        super::text::push_tagged(out, "%", *n);
                    }
                    None => {
                        let _ = write!(out, "%\"type {ty:#x}\"");
                    }
                },
            },
            Type::Struct { identified: None, .. } => self.write_body(out, types, ty),
            Type::Array { len, element } => {
                super::text::push_tagged(out, "[", *len);
                out.push_str(" x ");
                self.write(out, types, *element);
                out.push(']');
            }
            Type::Vector { len, element, scalable } => {
                out.push('<');
                if *scalable {
                    out.push_str("vscale x ");
                }
                super::text::push_int(out, *len);
                out.push_str(" x ");
                self.write(out, types, *element);
                out.push('>');
            }
            Type::Target { types: params, ints } => {
                out.push_str("target(\"");
                names::escaped(out, types.name(ty).unwrap_or_default());
                out.push('"');
                for p in params {
                    out.push_str(", ");
                    self.write(out, types, *p);
                }
                for i in ints {
                    super::text::push_tagged(out, ", ", *i);
                }
                out.push(')');
            }
        }
    }

    /// Writes a struct's body: `{ i32, i8 }`, `<{ ... }>`, `{}` or `opaque`.
    pub fn write_body(&self, out: &mut String, types: &Types, ty: TypeRef) {
        let Some(Type::Struct { packed, elements, .. }) = types.get(ty) else {
            return self.write(out, types, ty);
        };
        let Some(elements) = elements else {
            out.push_str("opaque");
            return;
        };
        if *packed {
            out.push('<');
        }
        if elements.is_empty() {
            out.push_str("{}");
        } else {
            out.push_str("{ ");
            for (i, e) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                self.write(out, types, *e);
            }
            out.push_str(" }");
        }
        if *packed {
            out.push('>');
        }
    }
}

/// TypeFinder's walk: which identified structs a module uses, in the order it meets them.
#[derive(Debug, Default)]
pub struct TypeFinder {
    visited: Vec<bool>,
    /// Identified structs in the order met.
    pub structs: Vec<TypeRef>,
}

impl TypeFinder {
    /// A finder for a table of `n` types.
    pub fn new(n: usize) -> Self {
        TypeFinder { visited: vec![false; n], structs: Vec::new() }
    }

    /// Meets `ty` and, depth first, its subtypes. Inlined for the test that passes over a
    /// type met before: a body's instructions are almost all of types met before.
    #[inline]
    pub fn incorporate(&mut self, types: &Types, ty: TypeRef) {
        if self.visited.get(ty as usize) != Some(&true) {
            self.incorporate_new(types, ty);
        }
    }

    /// [`TypeFinder::incorporate`] of a type not met yet, or beyond the table so far.
    fn incorporate_new(&mut self, types: &Types, ty: TypeRef) {
        if self.visited.len() < types.len() {
            self.visited.resize(types.len(), false);
        }
        let Some(seen) = self.visited.get_mut(ty as usize) else { return };
        if *seen {
            return;
        }
        *seen = true;
        let mut work = vec![ty];
        while let Some(t) = work.pop() {
            let Some(ty) = types.get(t) else { continue };
            if matches!(ty, Type::Struct { identified: Some(_), .. }) {
                self.structs.push(t);
            }
            let subs: Vec<TypeRef> = match ty {
                Type::Pointer { pointee: Some(p), .. } => vec![*p],
                Type::Function { ret, params, .. } => {
                    std::iter::once(*ret).chain(params.iter().copied()).collect()
                }
                Type::Struct { elements: Some(e), .. } => e.clone(),
                Type::Array { element, .. } | Type::Vector { element, .. } => vec![*element],
                Type::Target { types, .. } => types.clone(),
                _ => Vec::new(),
            };
            for s in subs.into_iter().rev() {
                if let Some(v) = self.visited.get_mut(s as usize) {
                    if !*v {
                        *v = true;
                        work.push(s);
                    }
                }
            }
        }
    }
}
