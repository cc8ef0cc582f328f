; versions: 13 14 16 19 22
; An Objective-C property's getter and setter. LLVM's writer puts the setter first; up to
; LLVM 21 its reader took that for the getter, so llvm-dis printed the two swapped; LLVM
; 22 reads them as written.
@g = global i32 0, !dbg !8

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!6}

!0 = distinct !DICompileUnit(language: DW_LANG_ObjC, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 2, emissionKind: FullDebug, retainedTypes: !2, globals: !7)
!1 = !DIFile(filename: "property.m", directory: "/")
!2 = !{!3}
!3 = !DICompositeType(tag: DW_TAG_structure_type, name: "Box", file: !1, line: 2, size: 32, elements: !4, runtimeLang: DW_LANG_ObjC)
!4 = !{!5}
!5 = !DIObjCProperty(name: "size", file: !1, line: 3, setter: "setSize:", getter: "size", attributes: 2316, type: !9)
!6 = !{i32 2, !"Debug Info Version", i32 3}
!7 = !{!8}
!8 = !DIGlobalVariableExpression(var: !10, expr: !DIExpression())
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !1, line: 1, type: !9, isLocal: false, isDefinition: true)
