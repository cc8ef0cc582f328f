; The third module: an ifunc, a thread-local and a weak function.
target triple = "x86_64-pc-linux-gnu"

@gamma_tls = thread_local global i64 0, align 8

define weak i32 @gamma() {
  ret i32 3
}

define internal i32 ()* @gamma_resolver() {
  ret i32 ()* @gamma
}

@gamma_ifunc = ifunc i32 (), i32 ()* ()* @gamma_resolver
