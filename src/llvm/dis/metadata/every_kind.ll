source_filename = "kinds.c"

@g = global i32 0, !dbg !30
@h = global i32 0

define void @f(i32 %x) !dbg !10 {
entry:
  call void @llvm.dbg.value(metadata !DIArgList(i32 %x, i32 1), metadata !20, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !21
  call void @llvm.dbg.label(metadata !22), !dbg !21
  ret void, !dbg !21
}

declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.label(metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!6, !7}
!named.odd = !{!40, !41, !42, !43, !44, !45, !46, !47, !48, !49, !50, !51, !52, !53, !54, !55, !56, !57, !58}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "p\22q\\", isOptimized: true, flags: "-O2", runtimeVersion: 2, splitDebugFilename: "x.dwo", emissionKind: FullDebug, enums: !2, globals: !29, imports: !3, macros: !4, dwoId: 12345, splitDebugInlining: false, debugInfoForProfiling: true, nameTableKind: GNU, rangesBaseAddress: true, sysroot: "/sys", sdk: "sdk")
!1 = !DIFile(filename: "kinds.c", directory: "/d", checksumkind: CSK_SHA1, checksum: "0123456789012345678901234567890123456789", source: "int x;\0A")
!2 = !{!5}
!3 = !{!23}
!4 = !{!24}
!5 = !DICompositeType(tag: DW_TAG_enumeration_type, name: "E", file: !1, line: 3, baseType: !9, size: 128, flags: DIFlagEnumClass, elements: !8, identifier: "_E")
!6 = !{i32 2, !"Debug Info Version", i32 3}
!7 = !{i32 7, !"Dwarf Version", i32 5}
!8 = !{!25, !26, !27, !28}
!9 = !DIBasicType(name: "__int128", size: 128, encoding: DW_ATE_signed)
!10 = distinct !DISubprogram(name: "f", linkageName: "_f", scope: !1, file: !1, line: 5, type: !11, scopeLine: 6, flags: DIFlagPrototyped | DIFlagNoReturn, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !13, thrownTypes: !13)
!11 = !DISubroutineType(cc: DW_CC_LLVM_Win64, types: !12)
!12 = !{null, !14}
!13 = !{}
!14 = !DIBasicType(name: "int", size: 32, align: 32, encoding: DW_ATE_signed, flags: DIFlagArtificial)
!20 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 5, type: !14, flags: DIFlagArtificial | DIFlagObjectPointer, align: 64)
!21 = !DILocation(line: 0, scope: !10, isImplicitCode: true)
!22 = !DILabel(scope: !10, name: "lbl", file: !1, line: 7)
!23 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !0, entity: !45, file: !1, line: 2)
!24 = !DIMacroFile(file: !1, nodes: !31)
!25 = !DIEnumerator(name: "A", value: 0)
!26 = !DIEnumerator(name: "B", value: -5)
!27 = !DIEnumerator(name: "C", value: 18446744073709551615, isUnsigned: true)
!28 = !DIEnumerator(name: "D", value: 170141183460469231731687303715884105727)
!29 = !{!30}
!30 = !DIGlobalVariableExpression(var: !32, expr: !DIExpression(DW_OP_constu, 4, DW_OP_stack_value))
!31 = !{!33, !34}
!32 = distinct !DIGlobalVariable(name: "g", linkageName: "_g", scope: !0, file: !1, line: 1, type: !14, isLocal: true, isDefinition: true, align: 32)
!33 = !DIMacro(type: DW_MACINFO_define, line: 1, name: "M", value: "1")
!34 = !DIMacro(type: DW_MACINFO_undef, line: 2, name: "M")
!40 = !DIStringType(name: "s", stringLength: !32, stringLengthExpression: !DIExpression(), size: 64)
!41 = !DIGenericSubrange(count: !DIExpression(DW_OP_consts, 3), lowerBound: !DIExpression(DW_OP_consts, 1), stride: !DIExpression(DW_OP_consts, 4))
!42 = !DISubrange(count: !20, lowerBound: -1, stride: 8)
!43 = !DIObjCProperty(name: "p", file: !1, line: 4, setter: "setP:", getter: "p", attributes: 7, type: !14)
!44 = !DICommonBlock(scope: !10, declaration: !32, name: "cb", file: !1, line: 9)
!45 = !DIModule(scope: !0, name: "M", configMacros: "-DX", includePath: "/inc", apinotes: "m.apinotes", file: !1, line: 3, isDecl: true)
!46 = !GenericDINode(tag: DW_TAG_entry_point, header: "hdr", operands: {!1, null, !"s"})
!47 = !DITemplateValueParameter(name: "N", type: !14, defaulted: true, value: i32 3)
!48 = !DITemplateValueParameter(tag: DW_TAG_GNU_template_parameter_pack, name: "P", value: !13)
!49 = !DITemplateTypeParameter(name: "T", type: !14, defaulted: true)
!50 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !14, size: 64, flags: DIFlagSingleInheritance, extraData: !5)
!51 = !DIDerivedType(tag: DW_TAG_inheritance, scope: !5, baseType: !5, offset: 8, flags: DIFlagPublic | DIFlagVirtual | DIFlagFwdDecl, extraData: i32 0)
!52 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64, dwarfAddressSpace: 1, annotations: !53)
!53 = !{!54}
!54 = !{!"btf_decl_tag", !"tag1"}
!55 = !DILexicalBlockFile(scope: !10, file: !1, discriminator: 0)
!56 = distinct !DILexicalBlock(scope: !10, file: !1, line: 3, column: 4)
!57 = distinct !DISubprogram(name: "v", scope: !5, file: !1, line: 8, type: !11, scopeLine: 8, containingType: !5, virtualIndex: 0, thisAdjustment: -8, flags: DIFlagPrivate | DIFlagExplicit, spFlags: DISPFlagPureVirtual | DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, templateParams: !13, annotations: !53, targetFuncName: "tgt")
!58 = !DINamespace(name: "ns", scope: null, exportSymbols: true)
