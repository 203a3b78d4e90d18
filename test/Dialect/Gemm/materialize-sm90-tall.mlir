// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// 192-row cooperative tiles (docs/SM90.md, "192-row tiles"): three consumer
// warpgroups of 64 rows each (512 threads), whose setmaxnreg budget is 152
// registers (40 + 3 x 152 of the 512 a thread has, times 128), every stage
// read by all three, six staging slots (two per consumer), and the ring
// that fits beside them: 4 stages of 40 KB for 192x128, 3 of 48 KB for
// 192x192. Each consumer's A rows start at 64 x its index.

// CHECK: \22block\22:[512,1,1]
// CHECK-SAME: \22dynamic_smem_bytes\22:213056
// CHECK-LABEL: gpu.func @tall_192x128
// CHECK: gemm.smem.plan : !gemm.smem<4 x 192 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<6 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 4, producers = 1, consumers = 3>
// CHECK: gemm.warp_specialize consumers(3) regs(40, 152) producer {
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(40960)
// CHECK: } consumer {
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32):
// CHECK: %[[AROW:.*]] = arith.muli %[[CONSUMER]], %c64_i32{{.*}} : i32
// CHECK: gemm.mma.sm90 %{{.*}}, %{{.*}}[%[[AROW]]], %{{.*}} slot(%{{.*}}) : <64 x 128 x f32>, <4 x 192 x 64 x bf16, swizzle = 128>
gemm.matmul @tall_192x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 64]>)

// -----

// CHECK: \22dynamic_smem_bytes\22:196656
// CHECK-LABEL: gpu.func @tall_192x192
// CHECK: gemm.smem.plan : !gemm.smem<3 x 192 x 64 x bf16, swizzle = 128>, !gemm.smem<3 x 192 x 64 x bf16, swizzle = 128>, !gemm.smem<6 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 3, producers = 1, consumers = 3>
// CHECK: gemm.warp_specialize consumers(3) regs(40, 152)
// CHECK: gemm.mma.sm90 {{.*}} : <64 x 192 x f32>
gemm.matmul @tall_192x192 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 192, 64]>)
