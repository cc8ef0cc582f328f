; versions: 13 14 16 19 22
; As types_in_metadata.ll, with numbered structs among the types only metadata reaches:
; their numbers need the whole module's order before the first body is printed, which a
; pass over every body (metadata included) finds first.
%0 = type { i8, i32 }
%1 = type { i16, i32 }
%in_named = type { i64, %1 }
%in_attachment = type { i32 }
%in_nested = type { double }
%in_bundle = type { float }
%in_arg_node = type { i16 }
%in_arg_value = type { i8 }
%in_arglist = type { i8, i8, %0 }
%first = type { i1 }

define void @f() !dbg !11 {
  %a = alloca %first
  call void @llvm.dbg.value(metadata %in_arg_value zeroinitializer, metadata !10, metadata !DIExpression()), !dbg !12
  call void @llvm.codeview.annotation(metadata !{!"a", %in_arg_node zeroinitializer}) [ "tag"(%in_bundle zeroinitializer) ], !mine !20
  call void @llvm.dbg.value(metadata !DIArgList(%in_arglist zeroinitializer), metadata !10, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_stack_value)), !dbg !12
  ret void
}

declare void @llvm.codeview.annotation(metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!named = !{!30}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "x.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!10 = !DILocalVariable(name: "v", scope: !11, file: !1, line: 1, type: !13)
!11 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, spFlags: DISPFlagDefinition, unit: !0)
!12 = !DILocation(line: 2, column: 3, scope: !11)
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = !{!21, %in_attachment zeroinitializer}
!21 = !{%in_nested zeroinitializer}
!30 = !{%in_named zeroinitializer}
