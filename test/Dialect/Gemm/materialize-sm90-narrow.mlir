// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Narrow tiles (docs/SM90.md, "Narrow tiles"): tile N not a multiple of the
// 128-byte epilogue sub-tile. With a column-major C the sub-tiles are staged
// transposed as for any column-major C (64 lines of M per box), the last one
// narrower (`columns`), and every TMA store takes gcd(BN, W) lines (W = 128
// / sizeof(C)): the C box is [W, lines]. With a row-major C (c, d) the last
// sub-tile is staged packed (`columns` without `transposed`) and stored
// through a second, unswizzled C descriptor of [BN mod W, 64] boxes, the
// parameter after the kernel's others (before a partial-tile A
// descriptor).

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

// -----

//===----------------------------------------------------------------------===//
// (c) bf16, row-major C, 128x144 cooperative: two whole sub-tiles through the
// 128-byte-swizzled [64, 64] C descriptor, then 16 columns packed and stored
// through the unswizzled [16, 64] one.
//===----------------------------------------------------------------------===//

// CHECK: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[64,64],\22swizzle\22:\22128B\22
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[16,64],\22swizzle\22:\22none\22
// CHECK-LABEL: gpu.func @narrow_row_bf16
// CHECK-SAME: %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>
// CHECK-SAME: %[[DN:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [16, 64], swizzle = 0>,
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %[[STAGE:.*]][%[[SLOT0:.*]]] : <64 x 144 x f32>
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %[[STAGE]][%[[SLOT0]]] :
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64) -> %[[STAGE]][%[[SLOT1:.*]]] :
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %[[STAGE]][%[[SLOT1]]] :
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(128) columns(16) -> %[[STAGE]][%[[SLOT2:.*]]] :
// CHECK: %[[N128:.*]] = arith.addi %{{.*}}, %c128_i32
// CHECK: gemm.tma.store %[[DN]][%[[N128]], %{{.*}}] from %[[STAGE]][%[[SLOT2]]] : <bf16, box = [16, 64], swizzle = 0>
// CHECK-NEXT: gemm.tma.store_commit
// CHECK-NOT: gemm.accum.store_smem
// CHECK: gpu.return
gemm.matmul @narrow_row_bf16 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 64]>)

// -----

//===----------------------------------------------------------------------===//
// (d) Batched f32 C, 128x80: 32-column sub-tiles, the last of 16 columns;
// the narrow descriptor is rank 3 like the others.
//===----------------------------------------------------------------------===//

// CHECK: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[16,64],\22swizzle\22:\22none\22
// CHECK-LABEL: gpu.func @narrow_row_batched
// CHECK-SAME: %[[DN:[a-z0-9]+]]: !gemm.tma_desc<f32, box = [16, 64, 1], swizzle = 0>,
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64) columns(16) -> %[[STAGE:.*]][%[[SLOT:.*]]] :
// CHECK: gemm.tma.store %[[DN]][%{{.*}}, %{{.*}}, %{{.*}}] from %[[STAGE]][%[[SLOT]]] :
gemm.matmul @narrow_row_batched a(bf16, row) b(bf16, col) c(f32, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 80, 64]>)
