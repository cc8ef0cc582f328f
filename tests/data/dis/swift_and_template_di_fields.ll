; versions: 22
; Debug info fields of LLVM 22: extra inhabitants (Swift) on basic and composite types,
; in the places LLVM 22 prints them (dataSize before the encoding), and the flag for a
; simplified template name (bit 30).
define void @f() !dbg !5 {
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !10)
!1 = !DIFile(filename: "fields.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, flags: DIFlagPrototyped | DIFlagNameIsSimplified, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!10 = !{!11, !13}
!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "Pair", file: !1, line: 3, baseType: !13, size: 64, align: 32, offset: 8, num_extra_inhabitants: 66, flags: DIFlagPublic, elements: !12, runtimeLang: DW_LANG_C99, templateParams: !12, identifier: "Pair", annotations: !12)
!12 = !{}
!13 = !DIBasicType(name: "tag", size: 8, align: 8, encoding: DW_ATE_unsigned, num_extra_inhabitants: 254, dataSize: 4, flags: DIFlagBigEndian)
