// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Narrow tiles (docs/SM90.md, "Narrow tiles"): a column-major C whose tile N
// is not a multiple of the 128-byte epilogue sub-tile. The sub-tiles are
// staged transposed as for any column-major C (64 lines of M per box), the
// last one narrower (`columns`), and every TMA store takes gcd(BN, W) lines
// (W = 128 / sizeof(C)): the C box is [W, lines].

//===----------------------------------------------------------------------===//
// (a) bf16, 128x72 cooperative: a 64-column sub-tile and one of 8; boxes of
// 8 lines, 8 stores for the first and 1 for the second.
//===----------------------------------------------------------------------===//

// CHECK: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22b\22,\22box\22:[64,72],
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[64,8],
// CHECK-LABEL: gpu.func @narrow_bf16
// CHECK-SAME: %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 8], swizzle = 128>
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) transposed -> %[[STAGE:.*]][%[[SLOT0:.*]]] : <64 x 72 x f32>
// CHECK: gemm.tma.store %[[DC]][%[[M:.*]], %[[N:.*]]] from %[[STAGE]][%[[SLOT0]], %c0_i32{{.*}}]
// CHECK: %[[N8:.*]] = arith.addi %[[N]], %c8_i32
// CHECK-NEXT: gemm.tma.store %[[DC]][%[[M]], %[[N8]]] from %[[STAGE]][%[[SLOT0]], %c8_i32]
// CHECK-COUNT-6: gemm.tma.store %[[DC]][%[[M]], %{{.*}}] from %[[STAGE]][%[[SLOT0]], %c{{[1-5][0-9]}}_i32]
// CHECK-NEXT: gemm.tma.store_commit
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64) columns(8) transposed -> %[[STAGE]][%[[SLOT1:.*]]] : <64 x 72 x f32>
// CHECK: %[[N64:.*]] = arith.addi %{{.*}}, %c64_i32
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %[[N64]]] from %[[STAGE]][%[[SLOT1]], %c0_i32{{.*}}]
// CHECK-NEXT: gemm.tma.store_commit
// CHECK-NOT: gemm.accum.store_smem
// CHECK: gpu.return
gemm.matmul @narrow_bf16 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 72, 64]>)

// -----

//===----------------------------------------------------------------------===//
// (b) f32 C, 128x88 cooperative: sub-tiles of 32, 32 and 24 columns, each in
// two 32-row boxes; boxes of 8 lines, lines 32 + l of the slot for the
// second 32 rows (M + 32).
//===----------------------------------------------------------------------===//

// CHECK: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[32,8],
// CHECK-LABEL: gpu.func @narrow_f32
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) transposed
// CHECK-COUNT-8: gemm.tma.store
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(32) transposed
// CHECK-COUNT-8: gemm.tma.store
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64) columns(24) transposed -> %[[STAGE:.*]][%[[SLOT:.*]]] :
// CHECK: gemm.tma.store %{{.*}} from %[[STAGE]][%[[SLOT]], %c0_i32{{.*}}]
// CHECK: gemm.tma.store %{{.*}} from %[[STAGE]][%[[SLOT]], %c8_i32]
// CHECK: gemm.tma.store %{{.*}} from %[[STAGE]][%[[SLOT]], %c16_i32]
// CHECK: %[[M32:.*]] = arith.addi %{{.*}}, %c32_i32
// CHECK: gemm.tma.store %{{.*}}[%[[M32]], %{{.*}}] from %[[STAGE]][%[[SLOT]], %c32_i32]
// CHECK: gemm.tma.store %{{.*}} from %[[STAGE]][%[[SLOT]], %c40_i32]
// CHECK: gemm.tma.store %{{.*}} from %[[STAGE]][%[[SLOT]], %c48_i32]
// CHECK-NEXT: gemm.tma.store_commit
// CHECK-NOT: gemm.tma.store %
// CHECK: gpu.return
gemm.matmul @narrow_f32 a(bf16, row) b(bf16, col) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 88, 64]>)
