; The second module: longer names, so that its string table's offsets name nothing
; sensible in alpha's; `shared` and `helper` also appear in alpha.ll.
target triple = "x86_64-pc-linux-gnu"

@shared = global i32 7, align 4
@a_variable_with_a_longer_name = internal global [4 x i32] zeroinitializer, align 16
@0 = private constant i32 42

define void @helper() {
  ret void
}

define i32 @beta_function_with_a_long_name(i32* %p) {
  %v = load i32, i32* %p, align 4
  ret i32 %v
}

@beta_alias = alias i32 (i32*), i32 (i32*)* @beta_function_with_a_long_name
