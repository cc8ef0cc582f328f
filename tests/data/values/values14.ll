; Value-numbering fixture in LLVM 14 syntax (typed pointers). Every argument and every
; instruction that defines a value is named, so each function's value symbol table maps
; the value ids the bitcode uses back to these names. make.sh assembles it with llvm-as-14.
source_filename = "values14.ll"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%pair = type { i32, i64 }

@counter = global i32 7
@table = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]

declare i32 @ext(i32, i32)
declare void @sink(i32)
declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)

define i32 @arith(i32 %a, i32 %b) {
entry:
  %sum = add i32 %a, %b
  %diff = sub nsw i32 %sum, %b
  %prod = mul i32 %diff, 3
  %quot = sdiv exact i32 %prod, %a
  %isbig = icmp sgt i32 %quot, %a
  %pick = select i1 %isbig, i32 %quot, i32 %b
  br i1 %isbig, label %then, label %else

then:
  %called = call i32 @ext(i32 %pick, i32 %a)
  call void @sink(i32 %called)
  br label %join

else:
  %loaded = load i32, i32* @counter, align 4
  store i32 %pick, i32* @counter, align 4
  br label %join

join:
  %merged = phi i32 [ %called, %then ], [ %loaded, %else ]
  ret i32 %merged
}

define i32 @loop(i32 %n) {
entry:
  br label %body

body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %acc = phi i32 [ 1, %entry ], [ %accnext, %body ]
  %slot = getelementptr inbounds [4 x i32], [4 x i32]* @table, i64 0, i32 %i
  %elem = load i32, i32* %slot, align 4
  %accnext = add i32 %acc, %elem
  %next = add nuw i32 %i, 1
  %done = icmp uge i32 %next, %n
  br i1 %done, label %exit, label %body

exit:
  %result = phi i32 [ %accnext, %body ]
  ret i32 %result
}

define i32 @choose(i32 %sel, i32 %x) {
entry:
  switch i32 %sel, label %other [
    i32 0, label %zero
    i32 5, label %five
  ]

zero:
  %neg = sub i32 0, %x
  ret i32 %neg

five:
  %fivefold = mul i32 %x, 5
  ret i32 %fivefold

other:
  ret i32 %x
}

define i64 @aggregates(i32 %x, i64 %y) {
entry:
  %mem = alloca %pair, align 8
  %first = insertvalue %pair undef, i32 %x, 0
  %both = insertvalue %pair %first, i64 %y, 1
  store %pair %both, %pair* %mem, align 8
  %field = getelementptr inbounds %pair, %pair* %mem, i32 0, i32 1
  %reread = load i64, i64* %field, align 8
  %back = extractvalue %pair %both, 0
  %wide = zext i32 %back to i64
  %total = add i64 %wide, %reread
  ret i64 %total
}

define i32 @guarded(i32 %v) personality i32 (...)* @__gxx_personality_v0 {
entry:
  %attempt = invoke i32 @may_throw(i32 %v)
          to label %ok unwind label %failed

ok:
  %plus = add i32 %attempt, %v
  ret i32 %plus

failed:
  %caught = landingpad { i8*, i32 }
          cleanup
  %selector = extractvalue { i8*, i32 } %caught, 1
  ret i32 %selector
}
