; ModuleID = 'values22.50834a8e48bc737e-cgu.0'
source_filename = "values22.50834a8e48bc737e-cgu.0"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@alloc_9a171d34a1621756c75858e193be7281 = private unnamed_addr constant [12 x i8] c"values22.rs\00", align 1
@alloc_97918696091ac47abc53bc6888c476fb = private unnamed_addr constant [11 x i8] c"ninety-nine", align 1
@alloc_8f71f336e6ec41c97c29bca4aed20202 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_9a171d34a1621756c75858e193be7281, [16 x i8] c"\0B\00\00\00\00\00\00\00!\00\00\00\09\00\00\00" }>, align 8

; <values22::Guard as core::ops::drop::Drop>::drop
; Function Attrs: nounwind nonlazybind uwtable
define void @"_ZN57_$LT$values22..Guard$u20$as$u20$core..ops..drop..Drop$GT$4drop17h7befb670410ef5d0E"(ptr noalias noundef readonly align 4 captures(none) dereferenceable(4) %self) unnamed_addr #0 {
start:
  %0 = alloca [4 x i8], align 4
  %_3 = load i32, ptr %self, align 4, !noundef !3
  call void @llvm.lifetime.start.p0(ptr nonnull %0)
  store i32 %_3, ptr %0, align 4
  call void asm sideeffect "", "r,~{memory}"(ptr nonnull %0) #10, !srcloc !4
  call void @llvm.lifetime.end.p0(ptr nonnull %0)
  ret void
}

; values22::may_panic
; Function Attrs: noinline nonlazybind uwtable
define internal fastcc noundef range(i32 101, 100) i32 @_ZN8values229may_panic17hb9cee1f908526f08E(i32 noundef %v) unnamed_addr #1 {
start:
  %0 = icmp eq i32 %v, 99
  br i1 %0, label %bb1, label %bb3, !prof !5

bb1:                                              ; preds = %start
; call core::panicking::panic_fmt
  tail call void @_RNvNtCsgEmfK2I1SDS_4core9panicking9panic_fmt(ptr noundef nonnull @alloc_97918696091ac47abc53bc6888c476fb, ptr noundef nonnull inttoptr (i64 23 to ptr), ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24) @alloc_8f71f336e6ec41c97c29bca4aed20202) #11
  unreachable

bb3:                                              ; preds = %start
  %_0 = add i32 %v, 1
  ret i32 %_0
}

; Function Attrs: nonlazybind uwtable
define noundef i32 @guarded(i32 noundef %v) unnamed_addr #2 personality ptr @rust_eh_personality {
start:
  %0 = alloca [4 x i8], align 4
  %1 = alloca [4 x i8], align 4
; invoke values22::may_panic
  %r = invoke fastcc noundef i32 @_ZN8values229may_panic17hb9cee1f908526f08E(i32 noundef %v)
          to label %bb1 unwind label %cleanup

cleanup:                                          ; preds = %start
  %2 = landingpad { ptr, i32 }
          cleanup
  call void @llvm.lifetime.start.p0(ptr nonnull %1), !noalias !6
  store i32 %v, ptr %1, align 4, !noalias !6
  call void asm sideeffect "", "r,~{memory}"(ptr nonnull %1) #10, !noalias !6, !srcloc !4
  call void @llvm.lifetime.end.p0(ptr nonnull %1), !noalias !6
  resume { ptr, i32 } %2

bb1:                                              ; preds = %start
  %_0 = add i32 %r, %v
  call void @llvm.lifetime.start.p0(ptr nonnull %0), !noalias !11
  store i32 %v, ptr %0, align 4, !noalias !11
  call void asm sideeffect "", "r,~{memory}"(ptr nonnull %0) #10, !noalias !11, !srcloc !4
  call void @llvm.lifetime.end.p0(ptr nonnull %0), !noalias !11
  ret i32 %_0
}

; Function Attrs: nofree norecurse nosync nounwind nonlazybind memory(none) uwtable
define noundef i32 @mix(i32 noundef %a, i32 noundef %b) unnamed_addr #3 {
start:
  %_0.i.i.i9.not = icmp eq i32 %b, 0
  br i1 %_0.i.i.i9.not, label %bb6, label %bb5.preheader

bb5.preheader:                                    ; preds = %start
  %xtraiter = and i32 %b, 7
  %0 = icmp ult i32 %b, 8
  br i1 %0, label %bb5.epil.preheader, label %bb5.preheader.new

bb5.preheader.new:                                ; preds = %bb5.preheader
  %unroll_iter = and i32 %b, -8
  br label %bb5

bb5:                                              ; preds = %bb5, %bb5.preheader.new
  %total.sroa.0.011 = phi i32 [ %a, %bb5.preheader.new ], [ %_0.i.7, %bb5 ]
  %iter.sroa.0.010 = phi i32 [ 0, %bb5.preheader.new ], [ %spec.select.7, %bb5 ]
  %niter = phi i32 [ 0, %bb5.preheader.new ], [ %niter.next.7, %bb5 ]
  %spec.select = or disjoint i32 %iter.sroa.0.010, 1
  %_0.i7 = mul i32 %total.sroa.0.011, 3
  %_0.i = add i32 %_0.i7, %iter.sroa.0.010
  %spec.select.1 = or disjoint i32 %iter.sroa.0.010, 2
  %_0.i7.1 = mul i32 %_0.i, 3
  %_0.i.1 = add i32 %_0.i7.1, %spec.select
  %spec.select.2 = or disjoint i32 %iter.sroa.0.010, 3
  %_0.i7.2 = mul i32 %_0.i.1, 3
  %_0.i.2 = add i32 %_0.i7.2, %spec.select.1
  %spec.select.3 = or disjoint i32 %iter.sroa.0.010, 4
  %_0.i7.3 = mul i32 %_0.i.2, 3
  %_0.i.3 = add i32 %_0.i7.3, %spec.select.2
  %spec.select.4 = or disjoint i32 %iter.sroa.0.010, 5
  %_0.i7.4 = mul i32 %_0.i.3, 3
  %_0.i.4 = add i32 %_0.i7.4, %spec.select.3
  %spec.select.5 = or disjoint i32 %iter.sroa.0.010, 6
  %_0.i7.5 = mul i32 %_0.i.4, 3
  %_0.i.5 = add i32 %_0.i7.5, %spec.select.4
  %spec.select.6 = or disjoint i32 %iter.sroa.0.010, 7
  %_0.i7.6 = mul i32 %_0.i.5, 3
  %_0.i.6 = add i32 %_0.i7.6, %spec.select.5
  %spec.select.7 = add nuw i32 %iter.sroa.0.010, 8
  %_0.i7.7 = mul i32 %_0.i.6, 3
  %_0.i.7 = add i32 %_0.i7.7, %spec.select.6
  %niter.next.7 = add i32 %niter, 8
  %niter.ncmp.7 = icmp eq i32 %niter.next.7, %unroll_iter
  br i1 %niter.ncmp.7, label %bb6.loopexit.unr-lcssa, label %bb5

bb6.loopexit.unr-lcssa:                           ; preds = %bb5
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %bb6, label %bb5.epil.preheader

bb5.epil.preheader:                               ; preds = %bb6.loopexit.unr-lcssa, %bb5.preheader
  %total.sroa.0.011.epil.init = phi i32 [ %a, %bb5.preheader ], [ %_0.i.7, %bb6.loopexit.unr-lcssa ]
  %iter.sroa.0.010.epil.init = phi i32 [ 0, %bb5.preheader ], [ %spec.select.7, %bb6.loopexit.unr-lcssa ]
  %lcmp.mod14 = icmp ne i32 %xtraiter, 0
  tail call void @llvm.assume(i1 %lcmp.mod14)
  br label %bb5.epil

bb5.epil:                                         ; preds = %bb5.epil, %bb5.epil.preheader
  %total.sroa.0.011.epil = phi i32 [ %_0.i.epil, %bb5.epil ], [ %total.sroa.0.011.epil.init, %bb5.epil.preheader ]
  %iter.sroa.0.010.epil = phi i32 [ %spec.select.epil, %bb5.epil ], [ %iter.sroa.0.010.epil.init, %bb5.epil.preheader ]
  %epil.iter = phi i32 [ %epil.iter.next, %bb5.epil ], [ 0, %bb5.epil.preheader ]
  %spec.select.epil = add nuw i32 %iter.sroa.0.010.epil, 1
  %_0.i7.epil = mul i32 %total.sroa.0.011.epil, 3
  %_0.i.epil = add i32 %_0.i7.epil, %iter.sroa.0.010.epil
  %epil.iter.next = add i32 %epil.iter, 1
  %epil.iter.cmp.not = icmp eq i32 %epil.iter.next, %xtraiter
  br i1 %epil.iter.cmp.not, label %bb6, label %bb5.epil, !llvm.loop !16

bb6:                                              ; preds = %bb6.loopexit.unr-lcssa, %bb5.epil, %start
  %total.sroa.0.0.lcssa = phi i32 [ %a, %start ], [ %_0.i.7, %bb6.loopexit.unr-lcssa ], [ %_0.i.epil, %bb5.epil ]
  %_12 = and i32 %total.sroa.0.0.lcssa, 3
  switch i32 %_12, label %default.unreachable12 [
    i32 0, label %bb12
    i32 1, label %bb11
    i32 2, label %bb10
    i32 3, label %bb14
  ]

default.unreachable12:                            ; preds = %bb6
  unreachable

bb12:                                             ; preds = %bb6
  br label %bb14

bb11:                                             ; preds = %bb6
  %_0.i6 = add i32 %total.sroa.0.0.lcssa, %a
  br label %bb14

bb10:                                             ; preds = %bb6
  %1 = xor i32 %total.sroa.0.0.lcssa, %b
  br label %bb14

bb14:                                             ; preds = %bb6, %bb10, %bb11, %bb12
  %_0.sroa.0.0 = phi i32 [ %total.sroa.0.0.lcssa, %bb12 ], [ %_0.i6, %bb11 ], [ %1, %bb10 ], [ 7, %bb6 ]
  ret i32 %_0.sroa.0.0
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define { i64, i32 } @pair(i32 noundef %x, i64 noundef %y) unnamed_addr #4 personality ptr @rust_eh_personality {
start:
  %_4 = zext i32 %x to i64
  %_0.i1 = add i64 %y, %_4
  %0 = tail call noundef i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 3)
  %1 = insertvalue { i64, i32 } poison, i64 %_0.i1, 0
  %2 = insertvalue { i64, i32 } %1, i32 %0, 1
  ret { i64, i32 } %2
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind nonlazybind willreturn memory(argmem: read) uwtable
define { i64, i64 } @pick(ptr noalias noundef nonnull readonly align 8 captures(none) %values.0, i64 noundef range(i64 0, 1152921504606846976) %values.1, i64 noundef %index) unnamed_addr #5 {
start:
  %_3.i.i.not = icmp ult i64 %index, %values.1
  br i1 %_3.i.i.not, label %bb3.i, label %"_ZN4core6option15Option$LT$T$GT$3map17h0291c596288cc675E.exit"

bb3.i:                                            ; preds = %start
  %_5.i.i = getelementptr inbounds nuw i64, ptr %values.0, i64 %index
  %self1.i.i.i = load i64, ptr %_5.i.i, align 8, !alias.scope !18, !noundef !3
  %_4.0.i.i.i = shl i64 %self1.i.i.i, 1
  br label %"_ZN4core6option15Option$LT$T$GT$3map17h0291c596288cc675E.exit"

"_ZN4core6option15Option$LT$T$GT$3map17h0291c596288cc675E.exit": ; preds = %start, %bb3.i
  %_0.sroa.0.0.i = phi i64 [ 1, %bb3.i ], [ 0, %start ]
  %_0.sroa.3.0.i = phi i64 [ %_4.0.i.i.i, %bb3.i ], [ undef, %start ]
  %0 = insertvalue { i64, i64 } poison, i64 %_0.sroa.0.0.i, 0
  %1 = insertvalue { i64, i64 } %0, i64 %_0.sroa.3.0.i, 1
  ret { i64, i64 } %1
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #6

; Function Attrs: nounwind nonlazybind uwtable
declare noundef range(i32 0, 10) i32 @rust_eh_personality(i32 noundef, i32 noundef, i64 noundef, ptr noundef, ptr noundef) unnamed_addr #0

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.fshl.i32(i32, i32, i32) #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #6

; core::panicking::panic_fmt
; Function Attrs: cold noinline noreturn nonlazybind uwtable
declare void @_RNvNtCsgEmfK2I1SDS_4core9panicking9panic_fmt(ptr noundef nonnull, ptr noundef nonnull, ptr noalias noundef readonly align 8 captures(address, read_provenance) dereferenceable(24)) unnamed_addr #8

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #9

attributes #0 = { nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #1 = { noinline nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #2 = { nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #3 = { nofree norecurse nosync nounwind nonlazybind memory(none) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #4 = { mustprogress nofree norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #5 = { mustprogress nofree norecurse nosync nounwind nonlazybind willreturn memory(argmem: read) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #6 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #7 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #8 = { cold noinline noreturn nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #9 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }
attributes #10 = { nounwind }
attributes #11 = { noinline noreturn }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 2, !"RtLibUseGOT", i32 1}
!2 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!3 = !{}
!4 = !{i64 5076878978320706}
!5 = !{!"branch_weights", !"expected", i32 1, i32 2000}
!6 = !{!7, !9}
!7 = distinct !{!7, !8, !"_ZN57_$LT$values22..Guard$u20$as$u20$core..ops..drop..Drop$GT$4drop17h7befb670410ef5d0E: %self"}
!8 = distinct !{!8, !"_ZN57_$LT$values22..Guard$u20$as$u20$core..ops..drop..Drop$GT$4drop17h7befb670410ef5d0E"}
!9 = distinct !{!9, !10, !"_ZN4core3ptr36drop_in_place$LT$values22..Guard$GT$17h57325dcd62670174E: %_1"}
!10 = distinct !{!10, !"_ZN4core3ptr36drop_in_place$LT$values22..Guard$GT$17h57325dcd62670174E"}
!11 = !{!12, !14}
!12 = distinct !{!12, !13, !"_ZN57_$LT$values22..Guard$u20$as$u20$core..ops..drop..Drop$GT$4drop17h7befb670410ef5d0E: %self"}
!13 = distinct !{!13, !"_ZN57_$LT$values22..Guard$u20$as$u20$core..ops..drop..Drop$GT$4drop17h7befb670410ef5d0E"}
!14 = distinct !{!14, !15, !"_ZN4core3ptr36drop_in_place$LT$values22..Guard$GT$17h57325dcd62670174E: %_1"}
!15 = distinct !{!15, !"_ZN4core3ptr36drop_in_place$LT$values22..Guard$GT$17h57325dcd62670174E"}
!16 = distinct !{!16, !17}
!17 = !{!"llvm.loop.unroll.disable"}
!18 = !{!19, !21, !23}
!19 = distinct !{!19, !20, !"_RNvXs2u_NtNtCsgEmfK2I1SDS_4core3ops5arithRyINtB6_3MulyE3mul: %self"}
!20 = distinct !{!20, !"_RNvXs2u_NtNtCsgEmfK2I1SDS_4core3ops5arithRyINtB6_3MulyE3mul"}
!21 = distinct !{!21, !22, !"_ZN8values224pick28_$u7b$$u7b$closure$u7d$$u7d$17h82611609918fbcbeE: %v"}
!22 = distinct !{!22, !"_ZN8values224pick28_$u7b$$u7b$closure$u7d$$u7d$17h82611609918fbcbeE"}
!23 = distinct !{!23, !24, !"_ZN4core6option15Option$LT$T$GT$3map17h0291c596288cc675E: argument 0"}
!24 = distinct !{!24, !"_ZN4core6option15Option$LT$T$GT$3map17h0291c596288cc675E"}
