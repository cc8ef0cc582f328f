; Assembled by every producer the producers test finds that still reads typed pointers
; (LLVM 13 to 16): IR features from across the bitcode format's history.
source_filename = "history.ll"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$grouped = comdat any
$largest = comdat largest

%struct.node = type { %struct.node*, i32 }
%opaque = type opaque

@grouped = linkonce_odr global i32 1, comdat
@largest_member = global [2 x i32] zeroinitializer, comdat($largest)
@private_string = private unnamed_addr constant [4 x i8] c"abc\00", align 1
@local_unnamed = internal local_unnamed_addr global i8 0
@in_space = addrspace(1) global i64 0, align 8
@exported = dllexport global i32 5
@imported = external dllimport global i32
@tls_dynamic = thread_local(localdynamic) global i32 0
@ext_init = externally_initialized global i32 0
@partitioned = global i32 0, partition "part"
@list = global %struct.node { %struct.node* null, i32 3 }
@opaque_ref = external global %opaque
@ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @init, i8* null }]
@blockref = global i8* blockaddress(@jumps, %second)

@weak_alias = weak alias i32, i32* @grouped
@hidden_alias = hidden alias [4 x i8], [4 x i8]* @private_string
@chosen = ifunc i32 (i32), i32 (i32)* ()* @chooser

declare i32 @external_fn(i32)
declare extern_weak void @weak_fn()
declare i32 @__gxx_personality_v0(...)
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg)

define internal void @init() {
  ret void
}

define internal i32 (i32)* @chooser() {
  ret i32 (i32)* @external_fn
}

define fastcc i32 @fast(i32 %x) gc "shadow-stack" prefix i32 7 {
  %r = tail call fastcc i32 @fast(i32 %x)
  ret i32 %r
}

define coldcc void @cold_path() cold noreturn {
  unreachable
}

define x86_vectorcallcc <4 x float> @vectors(<4 x float> %a, <4 x float> %b) {
  %sum = fadd fast <4 x float> %a, %b
  %neg = fneg nnan <4 x float> %sum
  %lane = extractelement <4 x float> %neg, i32 2
  %put = insertelement <4 x float> %a, float %lane, i32 0
  %mix = shufflevector <4 x float> %put, <4 x float> %b, <4 x i32> <i32 0, i32 5, i32 2, i32 7>
  %frozen = freeze <4 x float> %mix
  ret <4 x float> %frozen
}

define i32 @jumps(i32 %i) {
entry:
  %target = select i1 true, i8* blockaddress(@jumps, %first), i8* blockaddress(@jumps, %second)
  indirectbr i8* %target, [label %first, label %second]
first:
  ret i32 1
second:
  ret i32 2
}

define i64 @memory(i64* %p, i8* %dst, i8* %src) {
  %old = atomicrmw add i64* %p, i64 1 seq_cst
  %pair = cmpxchg weak i64* %p, i64 %old, i64 7 acq_rel monotonic
  %loaded = load atomic i64, i64* %p syncscope("singlethread") acquire, align 8
  store atomic i64 %loaded, i64* %p release, align 8
  fence syncscope("singlethread") seq_cst
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %dst, i8* %src, i64 16, i1 false)
  %ok = extractvalue { i64, i1 } %pair, 1
  %ext = zext i1 %ok to i64
  ret i64 %ext
}

define i32 @unwinding(i32 %v) personality i32 (...)* @__gxx_personality_v0 {
entry:
  %r = invoke i32 @external_fn(i32 %v) [ "deopt"(i32 %v) ]
          to label %ok unwind label %lpad
ok:
  ret i32 %r
lpad:
  %lp = landingpad { i8*, i32 }
          cleanup
          catch i8* null
  resume { i8*, i32 } %lp
}

define void @walk(%struct.node* %n, ...) {
entry:
  %ap = alloca i8*, align 8
  %next.addr = getelementptr inbounds %struct.node, %struct.node* %n, i32 0, i32 0
  %next = load %struct.node*, %struct.node** %next.addr, align 8
  %is.null = icmp eq %struct.node* %next, null
  br i1 %is.null, label %done, label %more
more:
  %arg = va_arg i8** %ap, i32
  musttail call void (%struct.node*, ...) @walk(%struct.node* %next, ...)
  ret void
done:
  call void asm sideeffect "nop", "~{dirflag},~{fpsr},~{flags}"()
  ret void
}
