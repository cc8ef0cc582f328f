//! The type table of a module: every type the TYPE_BLOCK defines, by id, and the few
//! derived types the reader needs that the table may lack (a result's `i1`, a pointer to
//! an allocated type), added on demand.

use rustc_hash::FxHashMap;

/// A type id: an index into [`Types`].
pub type TypeRef = u32;

/// One type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// `half`.
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128`.
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
    /// `label`.
    Label,
    /// `metadata`.
    Metadata,
    /// `x86_mmx`.
    X86Mmx,
    /// `x86_amx`.
    X86Amx,
    /// `token`.
    Token,
    /// `iN`.
    Integer(u32),
    /// A typed pointer `pointee addrspace(N)*`, or with no pointee the opaque `ptr`.
    Pointer {
        /// The pointee (typed pointers only).
        pointee: Option<TypeRef>,
        /// The address space.
        address_space: u32,
    },
    /// A function type.
    Function {
        /// `...` at the end.
        vararg: bool,
        /// The return type.
        ret: TypeRef,
        /// The parameter types.
        params: Vec<TypeRef>,
    },
    /// A struct: literal (no name, not identified) or identified (named or numbered).
    Struct {
        /// Identified structs carry their table id here, so that equal bodies stay apart.
        identified: Option<u32>,
        /// `<{ }>`.
        packed: bool,
        /// The elements; `None` for an opaque struct.
        elements: Option<Vec<TypeRef>>,
    },
    /// `[N x T]`.
    Array {
        /// N.
        len: u64,
        /// T.
        element: TypeRef,
    },
    /// `<N x T>` or `<vscale x N x T>`.
    Vector {
        /// N.
        len: u32,
        /// T.
        element: TypeRef,
        /// vscale.
        scalable: bool,
    },
    /// `target("name", types..., ints...)`.
    Target {
        /// The type parameters.
        types: Vec<TypeRef>,
        /// The integer parameters.
        ints: Vec<u32>,
    },
}

impl Type {
    /// Floating-point (scalar).
    pub fn is_float(&self) -> bool {
        matches!(
            self,
            Type::Half
                | Type::BFloat
                | Type::Float
                | Type::Double
                | Type::X86Fp80
                | Type::Fp128
                | Type::PpcFp128
        )
    }
}

/// The struct names an LLVM context holds, and the number its next renamed struct takes
/// (LLVMContextImpl's NamedStructTypes and NamedStructTypesUniqueID).
#[derive(Clone, Debug, Default)]
pub struct StructNames {
    taken: std::collections::HashSet<Vec<u8>>,
    next_suffix: u64,
}

/// The module's types.
#[derive(Clone, Debug, Default)]
pub struct Types {
    list: Vec<Type>,
    /// Names of identified structs and target types, by type id.
    names: FxHashMap<TypeRef, Vec<u8>>,
    /// Structural types (not identified) to their ids, for the derived types looked up
    /// (a pointer for every getelementptr and alloca of a body): a few words each, hashed
    /// with FxHash rather than SipHash.
    interned: FxHashMap<Type, TypeRef>,
}

impl Types {
    /// Adds a type from the table (ids in order); `name` for a named struct or target type.
    pub fn push(&mut self, ty: Type, name: Option<Vec<u8>>) -> TypeRef {
        let id = self.list.len() as TypeRef;
        let ty = match ty {
            Type::Struct { identified: Some(_), packed, elements } => {
                Type::Struct { identified: Some(id), packed, elements }
            }
            other => other,
        };
        if let Some(name) = name {
            self.names.insert(id, name);
        }
        if !matches!(ty, Type::Struct { identified: Some(_), .. } | Type::Target { .. }) {
            self.interned.entry(ty.clone()).or_insert(id);
        }
        self.list.push(ty);
        id
    }

    /// The type `id`, if the table has it.
    pub fn get(&self, id: TypeRef) -> Option<&Type> {
        self.list.get(id as usize)
    }

    /// Whether `a` and `b` are one type, as LLVM's uniqued types are: the same id, or
    /// structural types of the same shape (a malformed table may list one twice). An
    /// identified struct or a target type is only itself.
    pub fn same(&self, a: TypeRef, b: TypeRef) -> bool {
        self.same_within(a, b, 32)
    }

    /// [`same`](Self::same), looking at most `depth` levels down (a table's forward
    /// references can make a malformed type contain itself).
    fn same_within(&self, a: TypeRef, b: TypeRef, depth: u32) -> bool {
        if a == b {
            return true;
        }
        let (Some(x), Some(y), Some(depth)) = (self.get(a), self.get(b), depth.checked_sub(1)) else {
            return false;
        };
        let same = |p: &TypeRef, q: &TypeRef| self.same_within(*p, *q, depth);
        let all_same = |ps: &[TypeRef], qs: &[TypeRef]| {
            ps.len() == qs.len() && ps.iter().zip(qs).all(|(p, q)| same(p, q))
        };
        match (x, y) {
            (
                Type::Pointer { pointee: p, address_space: s },
                Type::Pointer { pointee: q, address_space: t },
            ) => {
                s == t
                    && match (p, q) {
                        (Some(p), Some(q)) => same(p, q),
                        (p, q) => p == q,
                    }
            }
            (
                Type::Function { vararg: v, ret: r, params: ps },
                Type::Function { vararg: w, ret: s, params: qs },
            ) => v == w && same(r, s) && all_same(ps, qs),
            (
                Type::Struct { identified: None, packed: p, elements: Some(es) },
                Type::Struct { identified: None, packed: q, elements: Some(fs) },
            ) => p == q && all_same(es, fs),
            (Type::Array { len: l, element: e }, Type::Array { len: m, element: f }) => l == m && same(e, f),
            (
                Type::Vector { len: l, element: e, scalable: s },
                Type::Vector { len: m, element: f, scalable: t },
            ) => l == m && s == t && same(e, f),
            (Type::Struct { .. } | Type::Target { .. }, _) => false,
            (x, y) => x == y,
        }
    }

    /// How many types.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The name of an identified struct or target type.
    pub fn name(&self, id: TypeRef) -> Option<&[u8]> {
        self.names.get(&id).map(|n| n.as_slice())
    }

    /// Renames the named structs as LLVM's reader names them in a context that already
    /// holds the names in `context` (those of the modules read into it before): in table
    /// order, a name the context holds takes the suffix `.N`, N the context's next
    /// number, until the name is new to the context; each name is then the context's.
    pub fn name_structs_in(&mut self, context: &mut StructNames) {
        for id in 0..self.list.len() as TypeRef {
            if !matches!(self.list.get(id as usize), Some(Type::Struct { identified: Some(_), .. })) {
                continue;
            }
            let Some(name) = self.names.get_mut(&id) else { continue };
            if name.is_empty() {
                continue;
            }
            if context.taken.contains(name.as_slice()) {
                let base = name.clone();
                loop {
                    let mut renamed = base.clone();
                    renamed.push(b'.');
                    renamed.extend_from_slice(context.next_suffix.to_string().as_bytes());
                    context.next_suffix += 1;
                    if !context.taken.contains(&renamed) {
                        *name = renamed;
                        break;
                    }
                }
            }
            context.taken.insert(name.clone());
        }
    }

    /// The id of a structural type, added when the table lacks it.
    pub fn intern(&mut self, ty: Type) -> TypeRef {
        if let Some(&id) = self.interned.get(&ty) {
            return id;
        }
        let id = self.list.len() as TypeRef;
        self.interned.insert(ty.clone(), id);
        self.list.push(ty);
        id
    }

    /// The types added to this table from id `from` on, such as [`intern`](Self::intern)
    /// adds while a body is read.
    pub fn added_since(&self, from: usize) -> &[Type] {
        self.list.get(from..).unwrap_or_default()
    }

    /// Takes back the types added from id `len` on: the table as it was when it had `len`.
    pub fn truncate(&mut self, len: usize) {
        let Some(removed) = self.list.get(len..) else { return };
        for (id, ty) in (len..).zip(removed) {
            if self.interned.get(ty) == Some(&(id as TypeRef)) {
                self.interned.remove(ty);
            }
        }
        self.names.retain(|&id, _| (id as usize) < len);
        self.list.truncate(len);
    }

    /// Adds the types another copy of this table added ([`added_since`](Self::added_since)
    /// the length the copies shared), so that they have the same ids in both.
    pub fn add_from_copy(&mut self, added: &[Type]) {
        for ty in added {
            self.intern(ty.clone());
        }
    }

    /// A type id some type refers to that the table does not hold, if any.
    pub fn dangling(&self) -> Option<TypeRef> {
        let n = self.list.len() as TypeRef;
        let bad = |t: &TypeRef| *t >= n;
        self.list.iter().find_map(|t| refs_of(t).into_iter().find(bad))
    }

    /// A type (its id, and the id it refers to) that refers to a later type which is not
    /// an identified struct, if any. LLVM's reader takes a forward reference for a named
    /// struct to come; so only named structs can close a cycle of types, and printing,
    /// which names them rather than going into them, ends.
    pub fn forward_non_struct(&self) -> Option<(TypeRef, TypeRef)> {
        self.list.iter().enumerate().find_map(|(i, t)| {
            let i = i as TypeRef;
            let is_named = |r: TypeRef| matches!(self.get(r), Some(Type::Struct { identified: Some(_), .. }));
            refs_of(t).into_iter().find(|&r| r >= i && !is_named(r)).map(|r| (i, r))
        })
    }

    /// Whether `id` is a typed-pointer type (so the module prints typed pointers).
    pub fn has_typed_pointers(&self) -> bool {
        self.list.iter().any(|t| matches!(t, Type::Pointer { pointee: Some(_), .. }))
    }

    /// `i1` (whose id is `i1`), or a vector of it as long as `like` when `like` is a vector.
    pub fn bool_like(&mut self, like: TypeRef, i1: TypeRef) -> TypeRef {
        match self.get(like) {
            Some(&Type::Vector { len, scalable, .. }) => {
                self.intern(Type::Vector { len, element: i1, scalable })
            }
            _ => i1,
        }
    }

    /// A pointer to `pointee` in `address_space`: typed when the module has typed pointers.
    pub fn pointer_to(&mut self, pointee: TypeRef, address_space: u32, typed: bool) -> TypeRef {
        let pointee = typed.then_some(pointee);
        self.intern(Type::Pointer { pointee, address_space })
    }

    /// The element type of an array or vector, the `index`th element of a struct.
    pub fn element(&self, ty: TypeRef, index: u64) -> Option<TypeRef> {
        match self.get(ty)? {
            Type::Array { element, .. } | Type::Vector { element, .. } => Some(*element),
            Type::Struct { elements: Some(e), .. } => e.get(usize::try_from(index).ok()?).copied(),
            _ => None,
        }
    }

    /// The pointee of a typed pointer.
    pub fn pointee(&self, ty: TypeRef) -> Option<TypeRef> {
        match self.get(ty)? {
            Type::Pointer { pointee, .. } => *pointee,
            Type::Vector { element, .. } => self.pointee(*element),
            _ => None,
        }
    }

    /// The address space of a pointer (or vector of pointers).
    pub fn address_space(&self, ty: TypeRef) -> u32 {
        match self.get(ty) {
            Some(Type::Pointer { address_space, .. }) => *address_space,
            Some(Type::Vector { element, .. }) => self.address_space(*element),
            _ => 0,
        }
    }

    /// `(return type, params, vararg)` of a function type (seen through a typed pointer).
    pub fn function(&self, ty: TypeRef) -> Option<(TypeRef, &[TypeRef], bool)> {
        match self.get(ty)? {
            Type::Function { vararg, ret, params } => Some((*ret, params, *vararg)),
            Type::Pointer { pointee: Some(p), .. } => match self.get(*p)? {
                Type::Function { vararg, ret, params } => Some((*ret, params, *vararg)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `ty` is `void`.
    pub fn is_void(&self, ty: TypeRef) -> bool {
        matches!(self.get(ty), Some(Type::Void))
    }

    /// Whether `ty` is an integer type (`i1`, `i32`...).
    pub fn is_integer(&self, ty: TypeRef) -> bool {
        matches!(self.get(ty), Some(Type::Integer(_)))
    }

    /// Whether `ty` is `metadata` (a parameter whose arguments are metadata ids).
    pub fn is_metadata(&self, ty: TypeRef) -> bool {
        matches!(self.get(ty), Some(Type::Metadata))
    }
}

/// The type ids a type refers to.
fn refs_of(t: &Type) -> Vec<TypeRef> {
    match t {
        Type::Pointer { pointee: Some(p), .. } => vec![*p],
        Type::Function { ret, params, .. } => std::iter::once(*ret).chain(params.iter().copied()).collect(),
        Type::Struct { elements: Some(e), .. } => e.clone(),
        Type::Array { element, .. } | Type::Vector { element, .. } => vec![*element],
        Type::Target { types, .. } => types.clone(),
        _ => Vec::new(),
    }
}
