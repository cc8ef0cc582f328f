; versions: 22
; Operand bundles with metadata inputs, which LLVM 22 writes as a marker (0x80000000)
; followed by a metadata id relative to the call's value number.
declare void @callee(i32)

define void @f(i32 %x) {
  call void @callee(i32 %x) [ "tagged"(metadata !"first") ]
  call void @callee(i32 1) [ "mixed"(i32 %x, metadata !"second", i32 2), "more"(metadata !"third") ]
  ret void
}
