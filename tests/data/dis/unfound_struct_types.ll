; versions: 13 14 16 19 22
; Struct types in the type table that TypeFinder never meets: the writer enumerates the
; types of a global's and a function's attachments, TypeFinder does not walk them, and
; llvm-dis prints no definition for them. Printed into a file, the header goes out with
; every struct before the bodies are read; this one has to lose two of them, and the
; text after them moves up.
%unfound_global = type { i32, i32 }
%found = type { i8 }
%unfound_function = type { i64 }

@g = global i32 0, !mine !0

define void @f() !mine !1 {
  %a = alloca %found
  ret void
}

!0 = !{%unfound_global zeroinitializer}
!1 = !{%unfound_function zeroinitializer}
