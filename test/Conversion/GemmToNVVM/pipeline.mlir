// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// Pipeline ops become mbarrier operations on the full barrier (index
// n mod stages) or the empty barrier (index stages + n mod stages) of the
// pipeline's barrier array, with parity (n / stages) & 1.

!pipe = !gemm.pipeline<stages = 3, producers = 1, consumers = 4>

gpu.module @kernels {
  // Every stage gets a full barrier (producer count) then an empty barrier
  // (consumer count).
  // CHECK-LABEL: gpu.func @init
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>)
  // CHECK: %[[PRODUCERS:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[CONSUMERS:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK: %[[S0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[F0IDX:.*]] = llvm.urem %[[S0]], %{{.*}} : i32
  // CHECK: %[[F0:.*]] = llvm.getelementptr %[[P]][%[[F0IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK: nvvm.mbarrier.init %[[F0]], %[[PRODUCERS]] : !llvm.ptr<3>, i32
  // CHECK: %[[E0SLOT:.*]] = llvm.urem
  // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: %[[E0IDX:.*]] = llvm.add %[[E0SLOT]], %[[THREE]] : i32
  // CHECK: %[[E0:.*]] = llvm.getelementptr %[[P]][%[[E0IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK: nvvm.mbarrier.init %[[E0]], %[[CONSUMERS]] : !llvm.ptr<3>, i32
  // CHECK: llvm.mlir.constant(1 : i32) : i32
  // CHECK: nvvm.mbarrier.init %{{.*}}, %[[PRODUCERS]]
  // CHECK: nvvm.mbarrier.init %{{.*}}, %[[CONSUMERS]]
  // CHECK: llvm.mlir.constant(2 : i32) : i32
  // CHECK: nvvm.mbarrier.init %{{.*}}, %[[PRODUCERS]]
  // CHECK: nvvm.mbarrier.init %{{.*}}, %[[CONSUMERS]]
  // CHECK-NOT: nvvm.mbarrier.init
  // CHECK: gpu.return
  gpu.func @init(%p: !pipe) {
    gemm.pipeline.init %p : !pipe
    gpu.return
  }

  // The producer waits on the empty barrier with the parity of the phase
  // before its own.
  // CHECK-LABEL: gpu.func @producer_acquire
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // CHECK: %[[STAGES:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.urem %[[N]], %[[STAGES]] : i32
  // CHECK-NEXT: %[[STAGES2:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[IDX:.*]] = llvm.add %[[SLOT]], %[[STAGES2]] : i32
  // CHECK-NEXT: %[[EMPTY:.*]] = llvm.getelementptr %[[P]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: %[[XORONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[STAGES3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[PASS:.*]] = llvm.udiv %[[N]], %[[STAGES3]] : i32
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[PHASE:.*]] = llvm.and %[[PASS]], %[[ONE]] : i32
  // CHECK-NEXT: %[[PARITY:.*]] = llvm.xor %[[PHASE]], %[[XORONE]] : i32
  // CHECK-NEXT: %[[HINT:.*]] = llvm.mlir.constant(10000000 : i32) : i32
  // CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[EMPTY]], %[[PARITY]], %[[HINT]] : !llvm.ptr<3>, i32, i32
  gpu.func @producer_acquire(%p: !pipe, %n: i32) {
    gemm.pipeline.producer_acquire %p[%n] : !pipe
    gpu.return
  }

  // CHECK-LABEL: gpu.func @producer_commit
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // CHECK: %[[STAGES:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.urem %[[N]], %[[STAGES]] : i32
  // CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[P]][%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: %[[TX:.*]] = llvm.mlir.constant(49152 : i32) : i32
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[FULL]], %[[TX]] : !llvm.ptr<3>, i32
  gpu.func @producer_commit(%p: !pipe, %n: i32) {
    gemm.pipeline.producer_commit %p[%n] tx(49152) : !pipe
    gpu.return
  }

  // With cta_group(2) the arrival goes to the full barrier of the even CTA
  // of the pair, mapped into the shared::cluster window.
  // CHECK-LABEL: gpu.func @producer_commit_pair
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // CHECK: %[[FULL:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK-NEXT: %[[EVEN:.*]] = llvm.mlir.constant(-2 : i32) : i32
  // CHECK-NEXT: %[[LEADER:.*]] = llvm.and %[[RANK]], %[[EVEN]] : i32
  // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[FULL]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: %[[TX:.*]] = llvm.mlir.constant(32768 : i32) : i32
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[REMOTE]], %[[TX]] : !llvm.ptr<7>, i32
  gpu.func @producer_commit_pair(%p: !pipe, %n: i32) {
    gemm.pipeline.producer_commit %p[%n] tx(32768) cta_group(2) : !pipe
    gpu.return
  }

  // The consumer waits on the full barrier with the parity of its phase.
  // CHECK-LABEL: gpu.func @consumer_wait
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // CHECK: %[[STAGES:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.urem %[[N]], %[[STAGES]] : i32
  // CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[P]][%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: %[[STAGES2:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[PASS:.*]] = llvm.udiv %[[N]], %[[STAGES2]] : i32
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[PARITY:.*]] = llvm.and %[[PASS]], %[[ONE]] : i32
  // CHECK-NEXT: %[[HINT:.*]] = llvm.mlir.constant(10000000 : i32) : i32
  // CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[FULL]], %[[PARITY]], %[[HINT]] : !llvm.ptr<3>, i32, i32
  // CHECK-NOT: llvm.xor
  gpu.func @consumer_wait(%p: !pipe, %n: i32) {
    gemm.pipeline.consumer_wait %p[%n] : !pipe
    gpu.return
  }

  // A local release is one CTA-scope arrive on the empty barrier.
  // CHECK-LABEL: gpu.func @consumer_release
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // CHECK: %[[SLOT:.*]] = llvm.urem %[[N]], %{{.*}} : i32
  // CHECK-NEXT: %[[STAGES:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[IDX:.*]] = llvm.add %[[SLOT]], %[[STAGES]] : i32
  // CHECK-NEXT: %[[EMPTY:.*]] = llvm.getelementptr %[[P]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: nvvm.mbarrier.arrive %[[EMPTY]] : !llvm.ptr<3>
  // CHECK-NOT: nvvm.mapa
  // CHECK: gpu.return
  gpu.func @consumer_release(%p: !pipe, %n: i32) {
    gemm.pipeline.consumer_release %p[%n] : !pipe
    gpu.return
  }

  // With peers: for each CTA of the cluster whose mask bit is set, map the
  // empty barrier into that CTA and arrive there (CTA-scope release).
  // CHECK-LABEL: gpu.func @consumer_release_peers
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32, %[[MASK:.*]]: i32)
  // CHECK: %[[EMPTY:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK: %[[BIT0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[SHIFT0:.*]] = llvm.lshr %[[MASK]], %[[BIT0]] : i32
  // CHECK-NEXT: %[[AND0:.*]] = llvm.and %[[SHIFT0]], %{{.*}} : i32
  // CHECK: %[[SEL0:.*]] = llvm.icmp "ne" %[[AND0]], %{{.*}} : i32
  // CHECK-NEXT: scf.if %[[SEL0]] {
  // CHECK-NEXT: %[[CTA0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[REMOTE0:.*]] = nvvm.mapa %[[EMPTY]], %[[CTA0]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE0]] : !llvm.ptr<7>
  // CHECK-NEXT: }
  // CHECK: llvm.lshr %[[MASK]], %{{.*}} : i32
  // CHECK: scf.if
  // CHECK-NEXT: %[[CTA1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[REMOTE1:.*]] = nvvm.mapa %[[EMPTY]], %[[CTA1]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE1]] : !llvm.ptr<7>
  // CHECK-NEXT: }
  // Only cluster_size(2) CTAs.
  // CHECK-NOT: nvvm.mapa
  // CHECK: gpu.return
  gpu.func @consumer_release_peers(%p: !pipe, %n: i32, %mask: i32) {
    gemm.pipeline.consumer_release %p[%n] peers(%mask) cluster_size(2) : !pipe
    gpu.return
  }
}
