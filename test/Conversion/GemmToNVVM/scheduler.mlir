// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// gemm.sched.static_tile: tiles are grouped in panels `swizzle` tiles long
// along the raster dimension (the last panel may be shorter); inside a panel
// consecutive indices walk along the raster dimension first.
//   swizzle = min(swizzle, walked) (a longer panel is the same walk, and the
//   product below stays within the grid's tile count: 32 bits)
//   perPanel = swizzle * crossed, panel = t / perPanel, in = t mod perPanel
//   start = panel * swizzle, length = min(swizzle, walked - start)
//   along = start + in mod length, across = in / length

// along_m: walk M (tiles_m), cross N (tiles_n); results (along, across).
// CHECK-LABEL: func.func @along_m
// CHECK-SAME: (%[[T:.*]]: i32, %[[TM:.*]]: i32, %[[TN:.*]]: i32)
// CHECK-NEXT: %[[SWC:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[SW:.*]] = llvm.intr.umin(%[[SWC]], %[[TM]]) : (i32, i32) -> i32
// CHECK-NEXT: %[[PER:.*]] = llvm.mul %[[SW]], %[[TN]] : i32
// CHECK-NEXT: %[[PANEL:.*]] = llvm.udiv %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[IN:.*]] = llvm.urem %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[START:.*]] = llvm.mul %[[PANEL]], %[[SW]] : i32
// CHECK-NEXT: %[[REM:.*]] = llvm.sub %[[TM]], %[[START]] : i32
// CHECK-NEXT: %[[LEN:.*]] = llvm.intr.umin(%[[SW]], %[[REM]]) : (i32, i32) -> i32
// CHECK-NEXT: %[[OFF:.*]] = llvm.urem %[[IN]], %[[LEN]] : i32
// CHECK-NEXT: %[[ALONG:.*]] = llvm.add %[[START]], %[[OFF]] : i32
// CHECK-NEXT: %[[ACROSS:.*]] = llvm.udiv %[[IN]], %[[LEN]] : i32
// CHECK-NEXT: return %[[ALONG]], %[[ACROSS]] : i32, i32
func.func @along_m(%t: i32, %tm: i32, %tn: i32) -> (i32, i32) {
  %m, %n = gemm.sched.static_tile %t of (%tm, %tn) raster(along_m) swizzle(8)
  return %m, %n : i32, i32
}

// along_n: walk N (tiles_n), cross M (tiles_m); results (across, along).
// CHECK-LABEL: func.func @along_n
// CHECK-SAME: (%[[T:.*]]: i32, %[[TM:.*]]: i32, %[[TN:.*]]: i32)
// CHECK-NEXT: %[[SWC:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[SW:.*]] = llvm.intr.umin(%[[SWC]], %[[TN]]) : (i32, i32) -> i32
// CHECK-NEXT: %[[PER:.*]] = llvm.mul %[[SW]], %[[TM]] : i32
// CHECK-NEXT: %[[PANEL:.*]] = llvm.udiv %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[IN:.*]] = llvm.urem %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[START:.*]] = llvm.mul %[[PANEL]], %[[SW]] : i32
// CHECK-NEXT: %[[REM:.*]] = llvm.sub %[[TN]], %[[START]] : i32
// CHECK-NEXT: %[[LEN:.*]] = llvm.intr.umin(%[[SW]], %[[REM]]) : (i32, i32) -> i32
// CHECK-NEXT: %[[OFF:.*]] = llvm.urem %[[IN]], %[[LEN]] : i32
// CHECK-NEXT: %[[ALONG:.*]] = llvm.add %[[START]], %[[OFF]] : i32
// CHECK-NEXT: %[[ACROSS:.*]] = llvm.udiv %[[IN]], %[[LEN]] : i32
// CHECK-NEXT: return %[[ACROSS]], %[[ALONG]] : i32, i32
func.func @along_n(%t: i32, %tm: i32, %tn: i32) -> (i32, i32) {
  %m, %n = gemm.sched.static_tile %t of (%tm, %tn) raster(along_n) swizzle(4)
  return %m, %n : i32, i32
}

// split_k_range: [split * k / splits, (split + 1) * k / splits), in 64 bits.
// CHECK-LABEL: func.func @split_k
// CHECK-SAME: (%[[S:.*]]: i32, %[[K:.*]]: i32)
// CHECK-NEXT: %[[K64:.*]] = llvm.zext %[[K]] : i32 to i64
// CHECK-NEXT: %[[SPLITS:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[SPLITS64:.*]] = llvm.zext %[[SPLITS]] : i32 to i64
// CHECK-NEXT: %[[S64:.*]] = llvm.zext %[[S]] : i32 to i64
// CHECK-NEXT: %[[PROD:.*]] = llvm.mul %[[S64]], %[[K64]] : i64
// CHECK-NEXT: %[[Q:.*]] = llvm.udiv %[[PROD]], %[[SPLITS64]] : i64
// CHECK-NEXT: %[[BEGIN:.*]] = llvm.trunc %[[Q]] : i64 to i32
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[NEXT:.*]] = llvm.add %[[S]], %[[ONE]] : i32
// CHECK-NEXT: %[[NEXT64:.*]] = llvm.zext %[[NEXT]] : i32 to i64
// CHECK-NEXT: %[[PROD1:.*]] = llvm.mul %[[NEXT64]], %[[K64]] : i64
// CHECK-NEXT: %[[Q1:.*]] = llvm.udiv %[[PROD1]], %[[SPLITS64]] : i64
// CHECK-NEXT: %[[END:.*]] = llvm.trunc %[[Q1]] : i64 to i32
// CHECK-NEXT: return %[[BEGIN]], %[[END]] : i32, i32
func.func @split_k(%split: i32, %k: i32) -> (i32, i32) {
  %begin, %end = gemm.sched.split_k_range %split of %k splits(3)
  return %begin, %end : i32, i32
}

// split_k_arrive: one acq_rel atomic add at GPU scope, as PTX (NVPTX drops
// an atomicrmw's own ordering); the arrival that completes %n resets the
// counter.
// CHECK-LABEL: func.func @split_k_arrive
// CHECK-SAME: (%[[C:.*]]: !llvm.ptr<1>, %[[I:.*]]: i32, %[[N:.*]]: i32)
// CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr %[[C]][%[[I]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// CHECK-NEXT: %[[OLD:.*]] = nvvm.inline_ptx "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;" ro(%[[PTR]] : !llvm.ptr<1>) -> i32
// CHECK-NEXT: %[[ONE2:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[BEFORE:.*]] = llvm.sub %[[N]], %[[ONE2]] : i32
// CHECK-NEXT: %[[LAST:.*]] = llvm.icmp "eq" %[[OLD]], %[[BEFORE]] : i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.store %[[ZERO]], %[[PTR]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[LAST]] : i1
func.func @split_k_arrive(%c: !llvm.ptr<1>, %i: i32, %n: i32) -> i1 {
  %last = gemm.sched.split_k_arrive %c[%i] of %n : !llvm.ptr<1>
  return %last : i1
}

// The stream-K schedule ops are checked by running them:
// stream-k-schedule.mlir.

// barrier_any: bar.red.or.pred on a named barrier, through the LLVM
// intrinsic (NVVM's barrier op reduces on barrier 0 only), then a warp vote
// of the result so that ptxas knows it is warp-uniform.
// CHECK-LABEL: func.func @barrier_any
// CHECK-SAME: (%[[P:.*]]: i1, %[[ID:.*]]: i32)
// CHECK-NEXT: %[[N:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[OR:.*]] = llvm.call_intrinsic "llvm.nvvm.barrier.cta.red.or.aligned.count"(%[[ID]], %[[N]], %[[P]]) : (i32, i32, i1) -> i1
// CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[ANY:.*]] = nvvm.vote.sync any %[[MASK]], %[[OR]] -> i1
// CHECK-NEXT: return %[[ANY]] : i1
func.func @barrier_any(%p: i1, %id: i32) -> i1 {
  %any = gemm.barrier_any %p barrier(%id) threads(128)
  return %any : i1
}
