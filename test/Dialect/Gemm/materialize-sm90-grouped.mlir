// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Grouped (MoE) kernels (gemm.matmul ... grouped): A and C rank 2, B rank 3
// (the group as entry); after M, N, K the group count, the group table, C's
// address and leading dimension. The units are the table's R row units by
// the units along N (gemm.sched.group_units); each tile's row unit gives its
// first row, its group's end row and its group (gemm.sched.group_unit). A
// consumer whose rows end inside the group stores through TMA, one that
// crosses the group's end with masked plain stores up to it.

// CHECK: \22dim\22:\22k\22},{\22kind\22:\22problem_size\22,\22dim\22:\22groups\22},{\22kind\22:\22group_table\22},{\22kind\22:\22pointer\22,\22tensor\22:\22c\22},{\22kind\22:\22leading_dim\22,\22tensor\22:\22c\22}]
// CHECK-LABEL: gpu.module @grp
// CHECK-NEXT: gpu.func @grp(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>, %[[DB:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 256, 1], swizzle = 128>, %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, %{{.*}}: i32, %[[N:[a-z0-9]+]]: i32, %{{.*}}: i32, %{{.*}}: i32, %[[TABLE:[a-z0-9]+]]: !llvm.ptr<1>, %[[CPTR:[a-z0-9]+]]: !llvm.ptr<1>, %[[LDC:[a-z0-9]+]]: i64) kernel
// CHECK: %[[R:.*]] = gemm.sched.group_units %[[TABLE]] : !llvm.ptr<1>
// CHECK: %[[UNITSN:.*]] = arith.ceildivui %{{.*}}, %c1_i32{{.*}} : i32
// CHECK-NEXT: arith.muli %[[R]], %[[UNITSN]] : i32
// CHECK: gemm.warp_specialize
// Producer: the row unit's rows and group; A at the unit's row (rank 2), B
// at the group's entry.
// CHECK: %[[M:.*]], %{{.*}} = gemm.sched.static_tile %{{.*}} of(%[[R]], %[[UNITSN]]) raster( along_m) swizzle(8)
// CHECK-NEXT: %[[BEGIN:.*]], %{{.*}}, %[[GROUP:.*]] = gemm.sched.group_unit %[[TABLE]][%[[M]]] : !llvm.ptr<1>
// CHECK: gemm.tma.load %[[DA]][%{{.*}}, %{{.*}}] -> %{{.*}} : <bf16, box = [64, 128], swizzle = 128>
// CHECK-NEXT: gemm.tma.load %[[DB]][%{{.*}}, %{{.*}}, %[[GROUP]]] -> %{{.*}} : <bf16, box = [64, 256, 1], swizzle = 128>
// CHECK: } consumer {
// CHECK: %{{.*}}, %[[END:.*]], %{{.*}} = gemm.sched.group_unit %[[TABLE]][%{{.*}}] : !llvm.ptr<1>
// The consumer's 64 rows from its first row end at or before the group's end.
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: %[[FIRST:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[FIRST]], %[[C64]] : i32
// CHECK-NEXT: %[[INSIDE:.*]] = arith.cmpi ule, %[[LAST]], %[[END]] : i32
// CHECK-NEXT: scf.if %[[INSIDE]] -> (i32) {
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %{{.*}} : <bf16, box = [64, 64], swizzle = 128>
// CHECK: } else {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: gemm.accum.store_direct %{{.*}} -> %[[CPTR]][%[[FIRST]], %{{.*}}] strides(%[[LDC]], %[[ONE]]) bounds(%[[END]], %[[N]]) : <64 x 256 x f32>, !llvm.ptr<1> -> bf16
gemm.matmul @grp a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// A 2x1 cluster: a row unit is 256 rows of one group; the CTA of rank 1
// (rankM 1) starts 128 rows into it. An N-major B ([G, K, N]) is read in
// 64-column blocks at the group's entry. The epilogue region goes to both
// stores.
// CHECK-LABEL: gpu.func @grp_c2x1_bn
// CHECK: %[[BEGIN:.*]], %[[END:.*]], %[[GROUP:.*]] = gemm.sched.group_unit
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %c128_i32{{.*}} : i32
// CHECK-NEXT: arith.addi %[[BEGIN]], %[[OFF]] : i32
// CHECK: gemm.tma.load %{{.*}}[%{{.*}}, %{{.*}}, %[[GROUP]]] -> %{{.*}} : <bf16, box = [64, 32, 1], swizzle = 128>
// CHECK: } consumer {
// CHECK: gemm.accum.store_smem
// CHECK: arith.mulf
// CHECK: gemm.accum.store_direct
// CHECK: arith.mulf
gemm.matmul @grp_c2x1_bn a(bf16, row) b(bf16, row) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>) {
^bb0(%x: f32):
  %c = arith.constant 2.0 : f32
  %y = arith.mulf %x, %c : f32
  %z = arith.truncf %y : f32 to bf16
  gemm.yield %z : bf16
}
