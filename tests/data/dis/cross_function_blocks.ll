; versions: 16
; Blocks and structs that cross function boundaries, which the printer, holding one body
; at a time, must look up again: blockaddress constants naming a later function's
; numbered block (in a body and in a global initializer), numbered struct types used
; first in bodies (their numbers need every body's types before the first function is
; printed), and a metadata value in a body. tests/it/llvm_dis.rs assembles it with
; llvm-as-16 and compares the printer with llvm-dis-16.
%0 = type { i32, ptr }
%1 = type { %0, i8 }
%named = type { %1 }

@table = global [2 x ptr] [ptr blockaddress(@later, %1), ptr blockaddress(@later, %named_block)]
@anon = global %1 zeroinitializer

define ptr @early(i32 %x) {
entry:
  %s = alloca %named
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  ret ptr blockaddress(@later, %1)
b:
  call void @llvm.dbg.value(metadata i32 7, metadata !10, metadata !DIExpression()), !dbg !12
  ret ptr blockaddress(@early, %b)
}

define void @later(ptr %p) {
  %v = load %0, ptr %p
  indirectbr ptr %p, [label %1, label %named_block]
1:
  br label %named_block
named_block:
  ret void
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "x.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!10 = !DILocalVariable(name: "v", scope: !11, file: !1, line: 1, type: !13)
!11 = distinct !DISubprogram(name: "early", scope: !1, file: !1, line: 1, spFlags: DISPFlagDefinition, unit: !0)
!12 = !DILocation(line: 2, column: 3, scope: !11)
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
