// RUN: gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=0 store-slots=1" | FileCheck %s
// RUN: gemm-opt %s --gemm-to-nvvm="wgmma-lookahead=0 store-slots=1" -o /dev/null
// RUN: not gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=2" 2>&1 | FileCheck %s --check-prefix=LOOKAHEAD
// RUN: not gemm-opt %s --gemm-materialize-sm90="store-slots=0" 2>&1 | FileCheck %s --check-prefix=SLOTS

// The options of gemm-materialize-sm90 turn off two latency-hiding
// techniques so that benchmarks can measure them (issue: performance).
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

// LOOKAHEAD: error: wgmma-lookahead must be 0 or 1, got 2
// SLOTS: error: store-slots must be in [1, 4], got 0
gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
