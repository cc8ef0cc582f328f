//! How decoded fields print in a typed dump: numbers plainly, value ids as `%N`, type ids
//! as `tN`, strings quoted, enums in the schema's spelling. Generated records implement
//! `Display` as their schema name followed by `field=value` pairs.

use std::fmt;

use crate::decode::{Align, Bytes, ConstantRange, RawRecord, TypeId, ValueId, ValueRef};

/// A decoded value that can show itself in a typed dump.
pub trait ShowField {
    /// Writes the value.
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// Lets `write!` show a field: `write!(f, "{}", Shown(&value))`.
pub struct Shown<'a, T: ?Sized>(pub &'a T);

impl<T: ShowField + ?Sized> fmt::Display for Shown<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.show(f)
    }
}

macro_rules! show_with_display {
    ($($t:ty),*) => {
        $(impl ShowField for $t {
            fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        })*
    };
}

show_with_display!(u8, u16, u32, u64, i64, bool);

impl ShowField for ValueId {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl ShowField for TypeId {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl ShowField for ValueRef {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.id.show(f)?;
        match self.ty {
            Some(ty) => write!(f, ":t{}", ty.0),
            None => Ok(()),
        }
    }
}

impl ShowField for Align {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.bytes())
    }
}

impl ShowField for Bytes<'_> {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_str_lossy())
    }
}

impl ShowField for &[u8] {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} bytes>", self.len())
    }
}

impl ShowField for ConstantRange {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = |w: &[u64]| match w {
            [one] => (*one as i64).to_string(),
            many => format!("{many:x?}"),
        };
        write!(f, "[{}, {})", word(&self.lower), word(&self.upper))
    }
}

impl ShowField for RawRecord<'_> {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "code {} ops={:?}", self.code, self.ops)?;
        match self.blob {
            Some(b) => write!(f, " blob=<{} bytes>", b.len()),
            None => Ok(()),
        }
    }
}

impl<T: ShowField> ShowField for Option<T> {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Some(v) => v.show(f),
            None => f.write_str("none"),
        }
    }
}

impl<T: ShowField, const N: usize> ShowField for smallvec::SmallVec<[T; N]> {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().show(f)
    }
}

impl<T: ShowField> ShowField for [T] {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            v.show(f)?;
        }
        f.write_str("]")
    }
}

impl<T: ShowField> ShowField for Vec<T> {
    fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().show(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_show_as_a_dump_reads_them() {
        let s = |v: &dyn Fn(&mut fmt::Formatter<'_>) -> fmt::Result| {
            struct F<'a>(&'a dyn Fn(&mut fmt::Formatter<'_>) -> fmt::Result);
            impl fmt::Display for F<'_> {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    (self.0)(f)
                }
            }
            F(v).to_string()
        };
        assert_eq!(s(&|f| ValueRef { id: ValueId(5), ty: Some(TypeId(2)) }.show(f)), "%5:t2");
        assert_eq!(s(&|f| vec![ValueId(1), ValueId(2)].show(f)), "[%1, %2]");
        assert_eq!(s(&|f| None::<u32>.show(f)), "none");
        assert_eq!(s(&|f| Bytes::from(b"a\"b".to_vec()).show(f)), "\"a\\\"b\"");
        let r = ConstantRange { lower: vec![(-3i64) as u64], upper: vec![10] };
        assert_eq!(s(&|f| r.show(f)), "[-3, 10)");
    }
}
