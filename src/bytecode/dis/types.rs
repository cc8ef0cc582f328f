//! Types: structural identity (LLVM uniqued types, so equal structures are one type) and
//! their spelling, symbolic where the module symbol table names them.

use std::collections::HashMap;

use super::names::{llvm_name, Sigil};
use super::release::Flavor;
use crate::bytecode::equal_types::representatives;
use crate::bytecode::ir::{Module, Type, TypeId};

/// The module's types with a canonical representative per structurally equal class, and
/// the name cache of LLVM's AsmWriter (named types, then unnamed ones as first printed).
pub(crate) struct Types {
    types: Vec<Type>,
    canon: Vec<u32>,
    label: TypeId,
    void: TypeId,
    names: HashMap<u32, String>,
}

impl Types {
    /// Canonicalizes the module's types and loads the type names llvm-dis used.
    pub fn new(module: &Module, flavor: &Flavor) -> Types {
        let mut types = module.types.clone();
        let label = find_or_push(&mut types, Type::Label);
        let void = find_or_push(&mut types, Type::Void);
        let canon = representatives(&types);
        let mut t = Types { types, canon, label, void, names: HashMap::new() };
        for (name, id) in sorted_type_names(module) {
            if t.uses_name(id, flavor) {
                let key = t.key(id);
                t.names.entry(key).or_insert_with(|| llvm_name(&name, Sigil::Local, false));
            }
        }
        t
    }

    /// The type of basic blocks.
    pub fn label(&self) -> TypeId {
        self.label
    }

    /// The void type.
    pub fn void(&self) -> TypeId {
        self.void
    }

    /// The type behind an id (`None` for a dangling id).
    pub fn get(&self, id: TypeId) -> Option<&Type> {
        self.types.get(id.0 as usize)
    }

    /// Whether two ids name the same (structurally equal) type.
    pub fn same(&self, a: TypeId, b: TypeId) -> bool {
        self.key(a) == self.key(b)
    }

    /// The canonical class of a type (dangling ids share one class).
    pub fn key(&self, id: TypeId) -> u32 {
        self.canon.get(id.0 as usize).copied().unwrap_or(u32::MAX)
    }

    /// The type a pointer type points to.
    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id)? {
            Type::Pointer { pointee } => Some(*pointee),
            _ => None,
        }
    }

    /// Whether the type is void.
    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.get(id), Some(Type::Void))
    }

    /// The element type of an array or vector.
    pub fn element(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id)? {
            Type::Array { element, .. } | Type::Vector { element, .. } => Some(*element),
            _ => None,
        }
    }

    /// Whether a named type is used by name in other types (LLVM skipped names of pointers
    /// to primitive types: they are used too often to be useful).
    fn uses_name(&self, id: TypeId, flavor: &Flavor) -> bool {
        if flavor.name_pointers_to_primitives {
            return true;
        }
        match self.pointee(id).and_then(|p| self.get(p)) {
            Some(pointee) => !is_primitive(pointee),
            None => true,
        }
    }

    /// The spelling of a type in an operand position (`printType`).
    pub fn name(&mut self, id: TypeId) -> String {
        let Some(ty) = self.get(id) else { return "<unrecognized-type>".to_string() };
        if is_primitive(ty) {
            return primitive_name(ty);
        }
        if let Some(name) = self.names.get(&self.key(id)) {
            return name.clone();
        }
        let mut out = String::new();
        self.describe(id, &mut Vec::new(), &mut out);
        self.names.insert(self.key(id), out.clone());
        out
    }

    /// The spelling of a type at least one level deep (the right side of `%T = type`).
    pub fn one_level(&mut self, id: TypeId) -> String {
        let Some(ty) = self.get(id).cloned() else { return "<unrecognized-type>".to_string() };
        match ty {
            Type::Function { ret, params, varargs, param_attrs } => {
                let ret = self.name(ret);
                let params: Vec<String> = params.iter().map(|p| self.name(*p)).collect();
                function_spelling(&ret, &params, varargs, &param_attrs)
            }
            Type::Struct { fields, packed } => {
                let fields: Vec<String> = fields.iter().map(|f| self.name(*f)).collect();
                struct_spelling(&fields, packed)
            }
            Type::Pointer { pointee } => format!("{}*", self.name(pointee)),
            Type::Array { element, len } => format!("[{} x {}]", len, self.name(element)),
            Type::Vector { element, len } => format!("<{} x {}>", len, self.name(element)),
            Type::Opaque => "opaque".to_string(),
            other => primitive_name(&other),
        }
    }

    /// `calcTypeName`: structural spelling using names for named parts and `\N`
    /// up-references for unnamed recursion.
    fn describe(&mut self, id: TypeId, stack: &mut Vec<u32>, out: &mut String) {
        let Some(ty) = self.get(id).cloned() else {
            out.push_str("<unrecognized-type>");
            return;
        };
        if is_primitive(&ty) {
            out.push_str(&primitive_name(&ty));
            return;
        }
        let key = self.key(id);
        if let Some(name) = self.names.get(&key) {
            out.push_str(name);
            return;
        }
        if ty == Type::Opaque {
            out.push_str("opaque");
            return;
        }
        if let Some(pos) = stack.iter().position(|k| *k == key) {
            out.push_str(&format!("\\{}", stack.len() - pos));
            return;
        }
        stack.push(key);
        self.describe_derived(&ty, stack, out);
        stack.pop();
    }

    fn describe_derived(&mut self, ty: &Type, stack: &mut Vec<u32>, out: &mut String) {
        match ty {
            Type::Function { ret, params, varargs, param_attrs } => {
                let ret = self.describe_to_string(*ret, stack);
                let params: Vec<String> = params.iter().map(|p| self.describe_to_string(*p, stack)).collect();
                out.push_str(&function_spelling(&ret, &params, *varargs, param_attrs));
            }
            Type::Struct { fields, packed } => {
                let fields: Vec<String> = fields.iter().map(|f| self.describe_to_string(*f, stack)).collect();
                out.push_str(&struct_spelling(&fields, *packed));
            }
            Type::Pointer { pointee } => {
                self.describe(*pointee, stack, out);
                out.push('*');
            }
            Type::Array { element, len } => {
                out.push_str(&format!("[{len} x "));
                self.describe(*element, stack, out);
                out.push(']');
            }
            Type::Vector { element, len } => {
                out.push_str(&format!("<{len} x "));
                self.describe(*element, stack, out);
                out.push('>');
            }
            _ => out.push_str("<unrecognized-type>"),
        }
    }

    fn describe_to_string(&mut self, id: TypeId, stack: &mut Vec<u32>) -> String {
        let mut s = String::new();
        self.describe(id, stack, &mut s);
        s
    }
}

/// The module's type names sorted by name (LLVM kept them in a std::map), first of
/// duplicates kept.
pub(crate) fn sorted_type_names(module: &Module) -> Vec<(String, TypeId)> {
    let mut names = module.type_names.clone();
    names.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    names.dedup_by(|a, b| a.0 == b.0);
    names
}

/// Types that always print as their own description, never by a name.
fn is_primitive(ty: &Type) -> bool {
    !matches!(
        ty,
        Type::Function { .. }
            | Type::Struct { .. }
            | Type::Array { .. }
            | Type::Pointer { .. }
            | Type::Opaque
            | Type::Vector { .. }
    )
}

fn primitive_name(ty: &Type) -> String {
    let s = match ty {
        Type::Void => "void",
        Type::Bool => "bool",
        Type::SByte => "sbyte",
        Type::UByte => "ubyte",
        Type::Short => "short",
        Type::UShort => "ushort",
        Type::Int => "int",
        Type::UInt => "uint",
        Type::Long => "long",
        Type::ULong => "ulong",
        Type::Float => "float",
        Type::Double => "double",
        Type::Label => "label",
        Type::Integer(bits) => return format!("i{bits}"),
        _ => "<unrecognized-type>",
    };
    s.to_string()
}

fn function_spelling(ret: &str, params: &[String], varargs: bool, attrs: &[u16]) -> String {
    let mut s = format!("{ret} (");
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(p);
        push_attrs(&mut s, attrs.get(i + 1).copied().unwrap_or(0));
    }
    if varargs {
        if !params.is_empty() {
            s.push_str(", ");
        }
        s.push_str("...");
    }
    s.push(')');
    push_attrs(&mut s, attrs.first().copied().unwrap_or(0));
    s
}

fn push_attrs(s: &mut String, attrs: u16) {
    if attrs != 0 {
        s.push(' ');
        s.push_str(&param_attrs_text(attrs));
    }
}

/// 2.0dev's parameter attribute words, each followed by a space.
pub(crate) fn param_attrs_text(attrs: u16) -> String {
    const WORDS: [(u16, &str); 6] =
        [(1, "zext "), (2, "sext "), (4, "noreturn "), (32, "nounwind "), (8, "inreg "), (16, "sret ")];
    WORDS.iter().filter(|(bit, _)| attrs & bit != 0).map(|(_, w)| *w).collect()
}

fn struct_spelling(fields: &[String], packed: bool) -> String {
    let body = format!("{{ {} }}", fields.join(", "));
    if packed {
        format!("<{body}>")
    } else {
        body
    }
}

fn find_or_push(types: &mut Vec<Type>, ty: Type) -> TypeId {
    let pos = types.iter().position(|t| *t == ty).unwrap_or_else(|| {
        types.push(ty);
        types.len() - 1
    });
    TypeId(u32::try_from(pos).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::dis::release::Release;

    #[test]
    fn recursive_types_unify_and_print_with_up_references() {
        let mut m = Module::new(5);
        let int = m.push_type(Type::Int);
        // Two copies of { int, \2* }.
        let s1 = m.push_type(Type::Struct { fields: vec![int, TypeId(2)], packed: false });
        let _p1 = m.push_type(Type::Pointer { pointee: s1 });
        let s2 = m.push_type(Type::Struct { fields: vec![int, TypeId(4)], packed: false });
        let _p2 = m.push_type(Type::Pointer { pointee: s2 });
        let flavor = Flavor::of(Release::V1_5);
        let mut t = Types::new(&m, &flavor);
        assert!(t.same(s1, s2));
        assert_eq!(t.name(s1), "{ int, \\2* }");
    }

    #[test]
    fn named_types_print_by_name_except_pointers_to_primitives() {
        let mut m = Module::new(5);
        let int = m.push_type(Type::Int);
        let p = m.push_type(Type::Pointer { pointee: int });
        let s = m.push_type(Type::Struct { fields: vec![p], packed: false });
        m.type_names.push(("intp".into(), p));
        m.type_names.push(("S".into(), s));
        let mut t = Types::new(&m, &Flavor::of(Release::V1_5));
        assert_eq!(t.name(s), "%S");
        assert_eq!(t.one_level(s), "{ int* }");
        let mut t2 = Types::new(&m, &Flavor::of(Release::V2_0Dev));
        assert_eq!(t2.one_level(s), "{ %intp }");
    }
}
