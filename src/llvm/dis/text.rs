//! Integers into the text, the hot part of printing a module: through `itoa`, not the
//! formatting machinery.

/// Appends `value` in decimal.
pub(super) fn push_int(out: &mut String, value: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// Appends `prefix` and `value` in decimal (`%7`, `, align 8`).
pub(super) fn push_tagged(out: &mut String, prefix: &str, value: impl itoa::Integer) {
    out.push_str(prefix);
    push_int(out, value);
}
