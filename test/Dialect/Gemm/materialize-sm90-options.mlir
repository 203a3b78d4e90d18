// RUN: gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=0 store-slots=1" | FileCheck %s
// RUN: gemm-opt %s --gemm-to-nvvm="wgmma-lookahead=0 store-slots=1" -o /dev/null
// RUN: gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=2" | FileCheck %s --check-prefix=TWO
// RUN: not gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=5" 2>&1 | FileCheck %s --check-prefix=LOOKAHEAD
// RUN: not gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=4" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not gemm-opt %s --gemm-materialize-sm90="store-slots=0" 2>&1 | FileCheck %s --check-prefix=SLOTS

// The options of gemm-materialize-sm90 turn off two latency-hiding
// techniques, or deepen the first, so that benchmarks can measure them
// (issue: performance).
// Without the WGMMA lookahead each k-block waits for its own MMAs and
// releases its own stage; with one staging slot per consumer every
// sub-tile waits until the previous TMA store has read shared memory.
// The default kernel is checked in materialize-sm90.mlir.

// One slot per consumer: 2 x 8 KiB of staging (the ring stays at 4 stages
// of 48 KiB).
// CHECK: gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
// CHECK: } consumer {
// The peeled first k-block and the loop over the others alike.
// CHECK: gemm.pipeline.consumer_wait %{{.*}}[%[[IT:.*]]] :
// CHECK: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gemm.pipeline.consumer_release %{{.*}}[%[[IT]]] :
// CHECK: gemm.pipeline.consumer_wait %{{.*}}[%[[IT2:.*]]] :
// CHECK: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gemm.pipeline.consumer_release %{{.*}}[%[[IT2]]] :
// CHECK-NOT: gemm.wgmma.wait
// CHECK: gemm.tma.store_wait pending(0) read
// CHECK: gemm.accum.store_smem
// CHECK: gpu.return

// Two groups in flight: k-block j's stage goes back after k-block j + 2's
// MMAs are issued (none in the range's first two k-blocks), and the last
// two after the final wait, the older only if the range had two k-blocks
// (simulated in test/Simulator/wgmma-lookahead.mlir).
// TWO: } consumer {
// TWO: gemm.wgmma.wait pending(2)
// TWO: scf.for %[[K:.*]] = %[[FIRST:.*]] to
// TWO: gemm.pipeline.consumer_wait %{{.*}}[%[[IT:.*]]] :
// TWO: gemm.wgmma.wait pending(2)
// TWO: %[[OLD:.*]] = arith.subi %[[IT]], %{{.*}}
// TWO: %[[PAST:.*]] = arith.cmpi uge, %[[K]],
// TWO: %[[REL:.*]] = arith.andi %{{.*}}, %[[PAST]]
// TWO-NEXT: scf.if %[[REL]] {
// TWO-NEXT: gemm.pipeline.consumer_release %{{.*}}[%[[OLD]]] :
// TWO: gemm.wgmma.wait pending(0)
// TWO: arith.cmpi uge, %{{.*}}, %{{.*}} : i32
// TWO: scf.if %{{.*}} {
// TWO: gemm.pipeline.consumer_release
// TWO: scf.if %{{.*}} {
// TWO: gemm.pipeline.consumer_release
// TWO-NOT: gemm.wgmma.wait
// TWO: gemm.accum.store_smem

// LOOKAHEAD: error: wgmma-lookahead must be in [0, 4], got 5
// STAGES: error: 'gemm.matmul' op a ring of 4 stages cannot keep 4 WGMMA groups in flight: use more stages (0 derives the deepest ring that fits) or a smaller wgmma-lookahead
// SLOTS: error: store-slots must be in [1, 4], got 0
gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
