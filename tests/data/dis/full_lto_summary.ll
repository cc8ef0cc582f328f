; versions: 13 14 16 19 22
; A full-LTO module (module flag ThinLTO = 0) with its summary: the writer puts the
; summary in FULL_LTO_GLOBALVAL_SUMMARY_BLOCK (24), whose records are the ThinLTO
; block's, and llvm-dis prints it the same way. The index flags (8: split LTO unit) print
; as `^N = flags:` before the block count. LLVM 13 prints six function flags, 14 and
; later ten.
source_filename = "full_lto_summary.c"

@tally = internal global i32 0

define i32 @plus_one(i32 %x) #0 {
  %r = add nsw i32 %x, 1
  ret i32 %r
}

define i32 @bump() {
  %old = load i32, i32* @tally
  %new = add nsw i32 %old, 1
  store i32 %new, i32* @tally
  ret i32 %new
}

define i32 @both(i32 %x) {
  %a = call i32 @plus_one(i32 %x)
  %b = call i32 @bump()
  %s = add nsw i32 %a, %b
  ret i32 %s
}

attributes #0 = { noinline nounwind readnone }

!llvm.module.flags = !{!0, !1}

!0 = !{i32 1, !"ThinLTO", i32 0}
!1 = !{i32 1, !"EnableSplitLTOUnit", i32 1}

^0 = module: (path: "full_lto_summary.bc", hash: (0, 0, 0, 0, 0))
^1 = gv: (name: "tally", summaries: (variable: (module: ^0, flags: (linkage: internal, visibility: default, notEligibleToImport: 1, live: 0, dsoLocal: 1, canAutoHide: 0), varFlags: (readonly: 0, writeonly: 0, constant: 0))))
^2 = gv: (name: "plus_one", summaries: (function: (module: ^0, flags: (linkage: external, visibility: default, notEligibleToImport: 1, live: 0, dsoLocal: 1, canAutoHide: 0), insts: 2, funcFlags: (readNone: 1, readOnly: 0, noRecurse: 1, returnDoesNotAlias: 0, noInline: 1, alwaysInline: 0))))
^3 = gv: (name: "bump", summaries: (function: (module: ^0, flags: (linkage: external, visibility: default, notEligibleToImport: 1, live: 0, dsoLocal: 1, canAutoHide: 0), insts: 4, refs: (^1))))
^4 = gv: (name: "both", summaries: (function: (module: ^0, flags: (linkage: external, visibility: default, notEligibleToImport: 1, live: 0, dsoLocal: 1, canAutoHide: 0), insts: 4, calls: ((callee: ^2), (callee: ^3)))))
^5 = flags: 8
^6 = blockcount: 3
