; The first module of the multi-module fixtures: short names, one shared with beta.ll.
target triple = "x86_64-pc-linux-gnu"

@alpha_var = global i32 1, align 4
@shared = external global i32
@.str = private unnamed_addr constant [3 x i8] c"a\0A\00", align 1

define i32 @alpha_fn(i32 %x) {
  %v = load i32, i32* @shared, align 4
  %r = add i32 %x, %v
  ret i32 %r
}

define internal void @helper() {
  ret void
}

declare i32 @puts(i8*)
