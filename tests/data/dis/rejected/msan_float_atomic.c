// Compiled by clang 13 and 14 with -O1 -fsanitize=memory: MemorySanitizer stores a float
// through an i32* (the shadow of an atomic float add), which LLVM's reader of those
// versions rejects ("Explicit load/store type does not match pointee type of pointer
// operand"), and so llvm-dis does.
float total;
float add(float f) { return __atomic_fetch_add(&total, f, __ATOMIC_SEQ_CST); }
