// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Batched kernels (gemm.matmul ... batched): rank-3 descriptors (box
// [inner, outer, 1]), the batch size and broadcast mask as kernel
// parameters after M, N, K, and a persistent schedule over the tile units
// of all batch entries, entry by entry (unit u is unit u mod U of entry
// u / U, U = units per entry; raster and swizzle inside an entry). Each TMA
// load reads its operand's entry, or entry 0 where the broadcast mask says
// the operand is one matrix for every entry; the C stores write the
// tile's entry.

// CHECK: \22layouts\22:{\22a\22:\22row\22,\22b\22:\22col\22,\22c\22:\22row\22}
// CHECK-SAME: {\22kind\22:\22problem_size\22,\22dim\22:\22k\22},{\22kind\22:\22problem_size\22,\22dim\22:\22batch\22},{\22kind\22:\22problem_size\22,\22dim\22:\22batch_broadcast\22}
// CHECK-LABEL: gpu.module @bat
// CHECK-NEXT: gpu.func @bat(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>, %[[DB:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 256, 1], swizzle = 128>, %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64, 1], swizzle = 128>, %[[M:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32, %[[K:[a-z0-9]+]]: i32, %[[BATCH:[a-z0-9]+]]: i32, %[[BCAST:[a-z0-9]+]]: i32, %{{[a-z0-9]+}}: !gemm.tma_desc<bf16, box = [64, 64, 1], swizzle = 128>) kernel
// The units: U per entry, U x batch in all.
// CHECK: %[[UNITSM:.*]] = arith.ceildivui %{{.*}}, %c1_i32{{.*}} : i32
// CHECK: %[[UNITSN:.*]] = arith.ceildivui %{{.*}}, %c1_i32{{.*}} : i32
// CHECK-NEXT: %[[U:.*]] = arith.muli %[[UNITSM]], %[[UNITSN]] : i32
// CHECK-NEXT: %[[UNITS:.*]] = arith.muli %[[U]], %[[BATCH]] : i32
// CHECK: gemm.warp_specialize
// Producer: the unit's place in its entry, and its entry.
// CHECK: %[[INENTRY:.*]] = arith.remui %[[UNIT:.*]], %[[U]] : i32
// CHECK-NEXT: %{{.*}}, %{{.*}} = gemm.sched.static_tile %[[INENTRY]] of(%[[UNITSM]], %[[UNITSN]]) raster( along_m) swizzle(8)
// CHECK: %[[ENTRY:.*]] = arith.divui %[[UNIT]], %[[U]] : i32
// A reads entry 0 if bit 0 of the mask is set, B if bit 1 is.
// CHECK: %[[ABIT:.*]] = arith.andi %[[BCAST]], %c1_i32{{.*}} : i32
// CHECK-NEXT: %[[ABC:.*]] = arith.cmpi ne, %[[ABIT]], %c0_i32{{.*}} : i32
// CHECK: %[[AENTRY:.*]] = arith.select %[[ABC]], %c0_i32{{.*}}, %[[ENTRY]] : i32
// CHECK: %[[BBIT:.*]] = arith.andi %[[BCAST]], %c2_i32{{.*}} : i32
// CHECK-NEXT: %[[BBC:.*]] = arith.cmpi ne, %[[BBIT]], %c0_i32{{.*}} : i32
// CHECK: %[[BENTRY:.*]] = arith.select %[[BBC]], %c0_i32{{.*}}, %[[ENTRY]] : i32
// CHECK: gemm.tma.load %[[DA]][%{{.*}}, %{{.*}}, %[[AENTRY]]] -> %{{.*}} : <bf16, box = [64, 128, 1], swizzle = 128>
// CHECK: gemm.tma.load %[[DB]][%{{.*}}, %{{.*}}, %[[BENTRY]]] -> %{{.*}} : <bf16, box = [64, 256, 1], swizzle = 128>
// CHECK: } consumer {
// CHECK: %[[CENTRY:.*]] = arith.divui %{{.*}}, %[[U]] : i32
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}, %[[CENTRY]]] from %{{.*}} : <bf16, box = [64, 64, 1], swizzle = 128>
gemm.matmul @bat a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// Batched split-K: the workspaces come after the batch parameters; work
// units walk the splits of every tile of every entry.
// CHECK-LABEL: gpu.module @bat_split_k
// CHECK-NEXT: gpu.func @bat_split_k(%{{.*}}: !gemm.tma_desc<bf16, box = [64, 64, 1], swizzle = 128>, %{{.*}}: !gemm.tma_desc<bf16, box = [64, 64, 1], swizzle = 128>, %{{.*}}: !gemm.tma_desc<bf16, box = [64, 64, 1], swizzle = 128>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[PARTIALS:[a-z0-9]+]]: !llvm.ptr<1>, %[[COUNTERS:[a-z0-9]+]]: !llvm.ptr<1>, %{{.*}}: !gemm.tma_desc<bf16, box = [64, 16, 1], swizzle = 128>) kernel
// CHECK: gemm.accum.store_global %{{.*}} -> %[[PARTIALS]]
// CHECK: gemm.sched.split_k_arrive %[[COUNTERS]]
gemm.matmul @bat_split_k a(bf16, row) b(bf16, row) c(bf16, col) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
