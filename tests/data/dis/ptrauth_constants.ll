; versions: 19 22
; Signed pointers. llvm-dis leaves out the trailing operands that are null (a zero
; discriminator before a null address discriminator); LLVM 22 writes them in its
; five-operand record (with a deactivation symbol).
@target = global i32 0
@plain = global ptr ptrauth (ptr @target, i32 0)
@keyed = global ptr ptrauth (ptr @target, i32 3)
@discriminated = global ptr ptrauth (ptr @target, i32 0, i64 -1)
@address_discriminated = global ptr ptrauth (ptr @target, i32 2, i64 1234, ptr @address_discriminated)
@zero_then_address = global ptr ptrauth (ptr @target, i32 1, i64 0, ptr @zero_then_address)
