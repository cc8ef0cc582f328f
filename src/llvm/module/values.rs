//! The value table: every value an operand can name, with its type.

use super::constants::Constant;
use super::types::TypeRef;

/// What a value is.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind<'a> {
    /// The `n`th global variable.
    Global(u32),
    /// The `n`th function.
    Function(u32),
    /// The `n`th alias.
    Alias(u32),
    /// The `n`th ifunc.
    Ifunc(u32),
    /// A constant.
    Constant(Constant<'a>),
    /// The `n`th argument of the function being read.
    Argument(u32),
    /// The instruction at this index of the function being read.
    Instruction(u32),
    /// A value referred to before its definition that never got one.
    Placeholder,
}

/// A value and its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Value<'a> {
    /// Its type.
    pub ty: TypeRef,
    /// What it is.
    pub kind: ValueKind<'a>,
}
