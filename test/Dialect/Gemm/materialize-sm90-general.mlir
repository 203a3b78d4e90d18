// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// General grouped kernels (gemm.matmul ... grouped(general)): the three
// descriptor parameters are templates (rank 2, no prefetch), then M, N, K,
// the group count and the general group table. The units are the table's
// (gemm.sched.group_units); a unit's group is found by binary search over
// the groups' first units (scf.while of gemm.sched.group_problem), the
// unit's tile by raster order over the group's own grid, its k-blocks by
// the group's K. The producer loads through the group's A and B tensor
// maps, acquired first; each consumer stores through the group's C map,
// acquired by its storing thread.

// CHECK: \22dim\22:\22k\22},{\22kind\22:\22problem_size\22,\22dim\22:\22groups\22},{\22kind\22:\22group_problem_table\22}]
// CHECK-LABEL: gpu.module @ge
// CHECK-NEXT: gpu.func @ge(%{{.*}}: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>, %{{.*}}: !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>, %{{.*}}: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[G:[a-z0-9]+]]: i32, %[[TABLE:[a-z0-9]+]]: !llvm.ptr<1>) kernel
// CHECK-NOT: gemm.tma.prefetch_descriptor
// CHECK: %[[U:.*]] = gemm.sched.group_units %[[TABLE]] : !llvm.ptr<1>
// CHECK: gemm.warp_specialize
// Producer: the search, the group's sizes, its grid and k-blocks.
// CHECK: %[[UNIT:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[FOUND:.*]]:2 = scf.while (%[[LO:.*]] = %{{.*}}, %[[HI:.*]] = %[[G]]) : (i32, i32) -> (i32, i32) {
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK: } do {
// CHECK: %[[FIRSTMID:.*]], %{{.*}}, %{{.*}}, %{{.*}} = gemm.sched.group_problem %[[TABLE]][%{{.*}}] : !llvm.ptr<1>
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpi ule, %[[FIRSTMID]], %[[UNIT]] : i32
// CHECK: }
// CHECK-NEXT: %[[FIRST:.*]], %[[M:.*]], %[[N:.*]], %[[K:.*]] = gemm.sched.group_problem %[[TABLE]][%[[FOUND]]#0] : !llvm.ptr<1>
// CHECK: %[[UM:.*]] = arith.ceildivui %[[M]], %c128_i32{{.*}} : i32
// CHECK: %[[UN:.*]] = arith.ceildivui %[[N]], %c256_i32{{.*}} : i32
// CHECK-NEXT: %[[LOCAL:.*]] = arith.subi %[[UNIT]], %[[FIRST]] : i32
// CHECK-NEXT: gemm.sched.static_tile %[[LOCAL]] of(%[[UM]], %[[UN]]) raster( along_m) swizzle(8)
// CHECK: %[[KB:.*]] = arith.ceildivui %[[K]], %c64_i32{{.*}} : i32
// CHECK: %[[DA:.*]] = gemm.tma.group_descriptor %[[TABLE]][%[[FOUND]]#0], %[[G]], 0 : !llvm.ptr<1> -> <bf16, box = [64, 128], swizzle = 128>
// CHECK-NEXT: gemm.tma.acquire_descriptor %[[DA]]
// CHECK-NEXT: %[[DB:.*]] = gemm.tma.group_descriptor %[[TABLE]][%[[FOUND]]#0], %[[G]], 1 : !llvm.ptr<1> -> <bf16, box = [64, 256], swizzle = 128>
// CHECK-NEXT: gemm.tma.acquire_descriptor %[[DB]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KB]]
// CHECK: gemm.tma.load %[[DA]][%{{.*}}, %{{.*}}] -> %{{.*}} : <bf16, box = [64, 128], swizzle = 128>
// CHECK-NEXT: gemm.tma.load %[[DB]][%{{.*}}, %{{.*}}] -> %{{.*}} : <bf16, box = [64, 256], swizzle = 128>
// CHECK: } consumer {
// CHECK: scf.while
// CHECK: gemm.sched.group_problem %[[TABLE]]
// CHECK: %[[DC:.*]] = gemm.tma.group_descriptor %[[TABLE]][%{{.*}}], %[[G]], 2 : !llvm.ptr<1> -> <bf16, box = [64, 64], swizzle = 128>
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: gemm.tma.acquire_descriptor %[[DC]]
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %{{.*}} : <bf16, box = [64, 64], swizzle = 128>
// CHECK-NOT: gemm.accum.store_direct
// CHECK: gpu.return
gemm.matmul @ge a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// Pingpong: a consumer skips the other consumer's item by that item's own
// group's k-blocks (a second search). A 2x1 cluster: a unit is 256 rows of
// one group. Every storage order: an M-major A and an N-major B in 64-row
// blocks, a column-major C in square boxes, through the groups' maps.
// CHECK-LABEL: gpu.func @ge_pp
// CHECK: } consumer {
// CHECK-COUNT-2: scf.while
// CHECK-LABEL: gpu.func @ge_c2x1
// CHECK: arith.ceildivui %{{.*}}, %c256_i32{{.*}} : i32
// CHECK: arith.ceildivui %{{.*}}, %c128_i32{{.*}} : i32
// CHECK-LABEL: gpu.func @ge_mn
// CHECK: gemm.tma.group_descriptor %{{.*}}, 0 : !llvm.ptr<1> -> <bf16, box = [64, 64], swizzle = 128>
// CHECK: gemm.tma.group_descriptor %{{.*}}, 2 : !llvm.ptr<1> -> <bf16, box = [64, 64], swizzle = 128>
gemm.matmul @ge_pp a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @ge_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1]>)
gemm.matmul @ge_mn a(bf16, col) b(bf16, row) c(bf16, col) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
