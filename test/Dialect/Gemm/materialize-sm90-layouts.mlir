// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Operand layouts (docs/SM90.md, "Layouts"). An M-major A (a(col)) and an
// N-major B (b(row)) live in MN-major rings: blocks of 64 rows (one
// 128-byte swizzle span of M or N), each one TMA box of 64 x BK with M or N
// along the box's inner dimension. A multicast operand is sliced along K:
// each CTA of the group loads K lines [rank * BK / CTAs, ...) of every
// block, at that k_offset of the slot. The stage bytes, the pipeline and the
// MMAs' structure are those of the K-major kernel.

//===----------------------------------------------------------------------===//
// (a) 128x256 cooperative, 2x1 cluster, a(col) b(row): A in two unshared
// 64-row blocks, B shared by the cluster column in K slices of 32 lines.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {mn = "{{.*}}\22layouts\22:{\22a\22:\22col\22,\22b\22:\22row\22,\22c\22:\22row\22}
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22a\22,\22box\22:[64,64],
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22b\22,\22box\22:[64,32],
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[64,64],
// CHECK-LABEL: gpu.module @mn
// CHECK-NEXT: gpu.func @mn(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, %[[DB:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
// CHECK-NEXT: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 4, producers = 1, consumers = 4>{{$}}
// CHECK: gemm.warp_specialize consumers(2) regs(40, 232) producer {
// CHECK: gemm.pipeline.producer_commit %[[PLAN]]#3[%[[IT:.*]]] tx(49152) :
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %{{.*}} : i32
// CHECK: %[[K:.*]] = arith.muli %{{.*}}, %c64_i32{{.*}} : i32
// A: block 0 at [M origin, k], block 1 at [M origin + 64, k], no multicast.
// CHECK: gemm.tma.load %[[DA]][%[[M0:.*]], %[[K]]] -> %[[PLAN]]#0[%[[SLOT]], %c0_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] : <bf16, box = [64, 64], swizzle = 128>, <4 x 128 x 64 x bf16, swizzle = 128, major = mn>
// CHECK: %[[M1:.*]] = arith.addi %{{.*}}, %c64_i32{{.*}} : i32
// CHECK-NEXT: gemm.tma.load %[[DA]][%[[M1]], %[[K]]] -> %[[PLAN]]#0[%[[SLOT]], %c64_i32{{.*}}] barrier
// B: this CTA's 32 K lines (rankM * 32) of each of the four 64-column
// blocks, multicast to the cluster column.
// CHECK: %[[LINE:.*]] = arith.muli %{{.*}}, %c32_i32 : i32
// CHECK-NEXT: %[[KB:.*]] = arith.addi %[[K]], %[[LINE]] : i32
// CHECK: gemm.tma.load %[[DB]][%{{.*}}, %[[KB]]] -> %[[PLAN]]#1[%[[SLOT]], %c0_i32{{.*}}] k_offset(%[[LINE]]) barrier %[[PLAN]]#3[%[[IT]]] multicast(%[[MASK:.*]]) : <bf16, box = [64, 32], swizzle = 128>, <4 x 256 x 64 x bf16, swizzle = 128, major = mn>
// CHECK: gemm.tma.load %[[DB]][%{{.*}}, %[[KB]]] -> %[[PLAN]]#1[%[[SLOT]], %c64_i32{{.*}}] k_offset(%[[LINE]]) barrier %[[PLAN]]#3[%[[IT]]] multicast(%[[MASK]])
// CHECK: gemm.tma.load %[[DB]][%{{.*}}, %[[KB]]] -> %[[PLAN]]#1[%[[SLOT]], %c128_i32{{.*}}] k_offset(%[[LINE]]) barrier %[[PLAN]]#3[%[[IT]]] multicast(%[[MASK]])
// CHECK: gemm.tma.load %[[DB]][%{{.*}}, %[[KB]]] -> %[[PLAN]]#1[%[[SLOT]], %c192_i32{{.*}}] k_offset(%[[LINE]]) barrier %[[PLAN]]#3[%[[IT]]] multicast(%[[MASK]])
// CHECK-NOT: gemm.tma.load
// CHECK: } consumer {
// CHECK: gemm.mma.sm90 %{{.*}}, %[[PLAN]]#0[%{{.*}}], %[[PLAN]]#1 slot(%{{.*}}) : <64 x 256 x f32>, <4 x 128 x 64 x bf16, swizzle = 128, major = mn>, <4 x 256 x 64 x bf16, swizzle = 128, major = mn>
gemm.matmul @mn a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)

// -----

//===----------------------------------------------------------------------===//
// (b) 64x256 pingpong, 1x2 cluster, a(col): the 64-row A slot is one block,
// shared by the cluster row in K slices; an M-major A has no second
// descriptor of 16-row boxes (its M is the boxes' inner dimension), so the
// kernel keeps the six common parameters.
//===----------------------------------------------------------------------===//

// CHECK: \22layouts\22:{\22a\22:\22col\22,\22b\22:\22col\22,\22c\22:\22row\22}
// CHECK-SAME: \22tensor\22:\22a\22,\22box\22:[64,32]
// CHECK-SAME: \22tensor\22:\22b\22,\22box\22:[64,256]
// CHECK-LABEL: gpu.module @m_major_64
// CHECK-NEXT: gpu.func @m_major_64(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<f16, box = [64, 32], swizzle = 128>, %{{.*}}: !gemm.tma_desc<f16, box = [64, 256], swizzle = 128>, %{{.*}}: !gemm.tma_desc<f16, box = [64, 64], swizzle = 128>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel
// CHECK-NEXT: %[[PLAN:.*]]:5 = gemm.smem.plan : !gemm.smem<4 x 64 x 64 x f16, swizzle = 128, major = mn>, !gemm.smem<4 x 256 x 64 x f16, swizzle = 128>,
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(40960) :
// CHECK: %[[LINE:.*]] = arith.muli %{{.*}}, %c32_i32 : i32
// CHECK: gemm.tma.load %[[DA]][%{{.*}}, %{{.*}}] -> %[[PLAN]]#0[%{{.*}}] k_offset(%[[LINE]]) barrier %{{.*}} multicast(%{{.*}}) : <f16, box = [64, 32], swizzle = 128>, <4 x 64 x 64 x f16, swizzle = 128, major = mn>
// CHECK-NOT: when(
// CHECK: gemm.tma.load %{{.*}} -> %[[PLAN]]#1[%{{.*}}] barrier %{{.*}} : <f16, box = [64, 256], swizzle = 128>, <4 x 256 x 64 x f16, swizzle = 128>
gemm.matmul @m_major_64 a(f16, col) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)

// -----

//===----------------------------------------------------------------------===//
// (c) 128x128 pingpong, a(row) b(row): a K-major A and an N-major B (x @ W
// with W [K, N]), no cluster: B in two whole blocks of 64 columns.
//===----------------------------------------------------------------------===//

// CHECK: \22layouts\22:{\22a\22:\22row\22,\22b\22:\22row\22,\22c\22:\22row\22}
// CHECK-SAME: \22tensor\22:\22a\22,\22box\22:[64,128]
// CHECK-SAME: \22tensor\22:\22b\22,\22box\22:[64,64]
// CHECK-LABEL: gpu.module @x_w
// CHECK: %[[PLAN:.*]]:5 = gemm.smem.plan : !gemm.smem<6 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<6 x 128 x 64 x bf16, swizzle = 128, major = mn>,
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(32768) :
// CHECK: gemm.tma.load %{{.*}} -> %[[PLAN]]#0[%{{.*}}] barrier
// CHECK: gemm.tma.load %{{.*}} -> %[[PLAN]]#1[%{{.*}}, %c0_i32{{.*}}] barrier
// CHECK: gemm.tma.load %{{.*}} -> %[[PLAN]]#1[%{{.*}}, %c64_i32{{.*}}] barrier
// CHECK-NOT: gemm.tma.load
// CHECK: } consumer {
gemm.matmul @x_w a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)

// -----

//===----------------------------------------------------------------------===//
// (d) A column-major C (c(col)), bf16: each 64 x 64 epilogue sub-tile is
// staged transposed and stored as one 64 x 64 box with M along its inner
// dimension: coordinates [M, N].
//===----------------------------------------------------------------------===//

// CHECK: \22layouts\22:{\22a\22:\22row\22,\22b\22:\22col\22,\22c\22:\22col\22}
// CHECK-SAME: \22tensor\22:\22c\22,\22box\22:[64,64]
// CHECK-LABEL: gpu.module @c_col
// CHECK-NEXT: gpu.func @c_col(%{{.*}}, %{{.*}}, %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
// CHECK: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
// CHECK: } consumer {
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) transposed -> %[[PLAN]]#2[%[[SLOT:.*]]] : <64 x 256 x f32>, <4 x 64 x 64 x bf16, swizzle = 128>
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %c0_i32{{.*}} : i32
// CHECK: %[[M0:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[M:.*]] = arith.addi %[[M0]], %c0_i32{{.*}} : i32
// CHECK-NEXT: gemm.tma.store %[[DC]][%[[M]], %[[N]]] from %[[PLAN]]#2[%[[SLOT]]] : <bf16, box = [64, 64], swizzle = 128>
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(192) transposed
// CHECK-NOT: gemm.accum.store_smem
gemm.matmul @c_col a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

//===----------------------------------------------------------------------===//
// (e) A column-major f32 C: a sub-tile (64 x 32) is two 32 x 32 boxes (32 f32
// of M are one 128-byte line), stored from lines 0 and 32 of the slot at M
// and M + 32.
//===----------------------------------------------------------------------===//

// CHECK: \22layouts\22:{\22a\22:\22col\22,\22b\22:\22row\22,\22c\22:\22col\22}
// CHECK-SAME: \22tensor\22:\22c\22,\22box\22:[32,32]
// CHECK-LABEL: gpu.module @c_col_f32
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) transposed -> %[[STAGE:.*]]#2[%[[SLOT:.*]]] : <128 x 128 x f32>, <4 x 64 x 32 x f32, swizzle = 128>
// CHECK: gemm.tma.store %[[DC:.*]][%[[M:.*]], %[[N:.*]]] from %[[STAGE]]#2[%[[SLOT]], %c0_i32{{.*}}] : <f32, box = [32, 32], swizzle = 128>, <4 x 64 x 32 x f32, swizzle = 128>
// CHECK: %[[M32:.*]] = arith.addi %{{.*}}, %c32_i32{{.*}} : i32
// CHECK-NEXT: gemm.tma.store %[[DC]][%[[M32]], %[[N]]] from %[[STAGE]]#2[%[[SLOT]], %c32_i32{{.*}}] : <f32, box = [32, 32], swizzle = 128>
// CHECK-NEXT: gemm.tma.store_commit
gemm.matmul @c_col_f32 a(bf16, col) b(bf16, row) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
