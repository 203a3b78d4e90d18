// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s

// schedule = direct: gemm-materialize-sm90 builds the direct kernel (one CTA
// per tile, A and B read with gemm.direct.load into a two-stage ring, WGMMA,
// C written with gemm.accum.store_direct) and its launch contract: pointers
// and leading dimensions, a grid of tiles, element-size alignment.

// 64x64: one warpgroup, 2 x (64 + 64) rows of 128 bytes = 32 KiB, and C's
// staging rows (64 rows of 64 bf16 + 16 bytes = 9 KiB), three CTAs per SM
// (gemm::dispatch::directResidentCtas).
// CHECK: module attributes {gemm.bundles = {d64 = "{\22format\22:\22gemm-kernel-bundle\22,\22version\22:1,\22name\22:\22d64\22,\22kernel\22:\22d64\22,\22arch\22:\22sm_90a\22,\22ptx\22:\22d64.ptx\22,
// CHECK-SAME: \22block\22:[128,1,1],\22cluster\22:[1,1,1],\22grid\22:{\22policy\22:\22tiles\22},\22dynamic_smem_bytes\22:41984,\22tile\22:[64,64,64]
// CHECK-SAME: \22params\22:[{\22kind\22:\22pointer\22,\22tensor\22:\22a\22},{\22kind\22:\22pointer\22,\22tensor\22:\22b\22},{\22kind\22:\22pointer\22,\22tensor\22:\22c\22},{\22kind\22:\22problem_size\22,\22dim\22:\22m\22},{\22kind\22:\22problem_size\22,\22dim\22:\22n\22},{\22kind\22:\22problem_size\22,\22dim\22:\22k\22},{\22kind\22:\22leading_dim\22,\22tensor\22:\22a\22},{\22kind\22:\22leading_dim\22,\22tensor\22:\22b\22},{\22kind\22:\22leading_dim\22,\22tensor\22:\22c\22}]
// CHECK-SAME: \22constraints\22:{\22leading_dim_alignment_bytes\22:2,
// CHECK-LABEL: gpu.module @d64 [#nvvm.target<O = 3, chip = "sm_90a">]
// CHECK-NEXT: gpu.func @d64(%[[A:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: !llvm.ptr<1>, %[[C:[a-z0-9]+]]: !llvm.ptr<1>, %[[M:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32, %[[K:[a-z0-9]+]]: i32, %[[LDA:[a-z0-9]+]]: i64, %[[LDB:[a-z0-9]+]]: i64, %[[LDC:[a-z0-9]+]]: i64) kernel
// CHECK-SAME: attributes {gemm.arch = "sm_90a", nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32}
// CHECK-NEXT: %[[RING:.*]]:3 = gemm.smem.plan : !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, !gemm.smem<1 x 64 x 72 x bf16, swizzle = 0>{{$}}
// CHECK: %[[BLOCK:.*]] = arith.index_castui %block_id_x
// The CTA's tile: block b of the static schedule (raster, swizzle).
// CHECK: %[[KB:.*]] = arith.ceildivui %[[K]], %{{.*}} : i32
// CHECK: %[[TM:.*]], %[[TN:.*]] = gemm.sched.static_tile %[[BLOCK]] of(%{{.*}}, %{{.*}}) raster( along_m) swizzle(8)
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// The first k-block, loaded, stored, fenced for WGMMA and synchronised.
// CHECK: %[[FA:.*]] = gemm.direct.load %[[A]][%[[M0:[0-9]+]], %{{.*}}] strides(%[[LDA]], %[[ONE]]) bounds(%[[M]], %[[K]]) tile(64 x 64) threads(128) : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
// CHECK-NEXT: %[[FB:.*]] = gemm.direct.load %[[B]][%[[N0:[0-9]+]], %{{.*}}] strides(%[[LDB]], %[[ONE]]) bounds(%[[N]], %[[K]]) tile(64 x 64) threads(128) : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
// CHECK-NEXT: gemm.direct.store_smem %[[FA]] -> %[[RING]]#0[%{{.*}}] threads(128)
// CHECK-NEXT: gemm.direct.store_smem %[[FB]] -> %[[RING]]#1[%{{.*}}] threads(128)
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[ZERO:.*]] = gemm.accum.zero : <64 x 64 x f32>
// One k-block: its WGMMAs on the zero accumulator, waited for.
// CHECK: %[[ACC:.*]] = scf.if %{{.*}} -> (!gemm.accum<64 x 64 x f32>) {
// CHECK: gemm.wgmma.fence
// CHECK-NEXT: %[[ONLY:.*]] = gemm.mma.sm90 %[[ZERO]], %[[RING]]#0[%{{.*}}], %[[RING]]#1 slot(%{{.*}})
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK-NEXT: scf.yield %[[ONLY]]
// CHECK-NEXT: } else {
// More: every k-block but the last loads the next one before its WGMMAs
// and stores it into the other slot after them.
// CHECK: gemm.direct.load %[[A]]
// CHECK-NEXT: gemm.direct.load %[[B]]
// CHECK: gemm.wgmma.fence
// CHECK-NEXT: %[[FIRST:.*]] = gemm.mma.sm90 %[[ZERO]],
// CHECK-NEXT: gemm.wgmma.commit
// CHECK: gemm.direct.store_smem
// CHECK-NEXT: gemm.direct.store_smem
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK-NEXT: gpu.barrier
// CHECK: %[[MIDDLE:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[IT:.*]] = %[[FIRST]]) -> (!gemm.accum<64 x 64 x f32>)
// CHECK: gemm.direct.load %[[A]]
// CHECK: gemm.mma.sm90 %[[IT]],
// CHECK: gemm.direct.store_smem
// CHECK: gemm.wgmma.wait pending(0)
// CHECK-NEXT: gpu.barrier
// CHECK: gemm.mma.sm90 %[[MIDDLE]],
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// The epilogue: the accumulator to C through the staging rows.
// CHECK: %[[ROW:.*]] = arith.addi %[[M0]], %{{.*}} : i32
// CHECK-NEXT: gemm.accum.store_direct %[[ACC]] -> %[[C]][%[[ROW]], %[[N0]]] strides(%[[LDC]], %[[ONE]]) bounds(%[[M]], %[[N]]) staged(%[[RING]]#2 : !gemm.smem<1 x 64 x 72 x bf16, swizzle = 0>) : <64 x 64 x f32>, !llvm.ptr<1> -> bf16
// CHECK-NEXT: gpu.return
gemm.matmul @d64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)

// -----

// 128x64, f16 in, f32 out, with an epilogue region: two warpgroups (256
// threads) load together; warpgroup g multiplies and stores rows 64 g of
// the tile. Its index is broadcast from lane 0 so that ptxas sees the
// WGMMA descriptors as warp-uniform. One CTA per SM; f32 C makes the
// alignment 2 bytes still (the inputs' element size).
// CHECK: \22block\22:[256,1,1],{{.*}}\22dynamic_smem_bytes\22:83968,\22tile\22:[128,64,64],\22types\22:{\22a\22:\22f16\22,\22b\22:\22f16\22,\22c\22:\22f32\22
// CHECK-SAME: \22leading_dim_alignment_bytes\22:2,
// CHECK-LABEL: gpu.func @d128x64
// CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %{{.*}} : i32
// CHECK: %[[UWG:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WG]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: %[[AROW:.*]] = arith.muli %[[UWG]], %{{.*}} : i32
// CHECK: gemm.direct.load %{{.*}} tile(128 x 64) threads(256) : !llvm.ptr<1> -> !gemm.fragment<32 x f16>
// CHECK-NEXT: gemm.direct.load %{{.*}} tile(64 x 64) threads(256) : !llvm.ptr<1> -> !gemm.fragment<16 x f16>
// CHECK: gemm.mma.sm90 %{{.*}}, %{{.*}}#0[%[[AROW]]], %{{.*}}#1 slot
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[AROW]] : i32
// CHECK-NEXT: gemm.accum.store_direct %{{.*}} -> %{{.*}}[%[[ROW]], %{{.*}}] {{.*}} : <64 x 64 x f32>, !llvm.ptr<1> -> f32 {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.*]] = arith.maximumf %[[V]], %[[Z]] : f32
// CHECK-NEXT: gemm.yield %[[R]] : f32
gemm.matmul @d128x64 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct>) {
^bb0(%acc: f32):
  %zero = arith.constant 0.0 : f32
  %relu = arith.maximumf %acc, %zero : f32
  gemm.yield %relu : f32
}

// -----

// Layouts are strides: an M-major A and an N-major B are read with (1, ld)
// strides (into the same K-major shared memory), a column-major C written
// with (1, ld); the manifest names the layouts. Tile N = 32 is not a
// multiple of the N-major B's 64-column TMA block: the direct kernel has no
// such block.
// CHECK: \22layouts\22:{\22a\22:\22col\22,\22b\22:\22row\22,\22c\22:\22col\22}
// CHECK-LABEL: gpu.func @d_layouts
// CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: !llvm.ptr<1>, %[[C:[a-z0-9]+]]: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[LDA:[a-z0-9]+]]: i64, %[[LDB:[a-z0-9]+]]: i64, %[[LDC:[a-z0-9]+]]: i64)
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: gemm.direct.load %[[A]][%{{.*}}, %{{.*}}] strides(%[[ONE]], %[[LDA]])
// CHECK-NEXT: gemm.direct.load %[[B]][%{{.*}}, %{{.*}}] strides(%[[ONE]], %[[LDB]])
// CHECK: gemm.accum.store_direct %{{.*}} -> %[[C]][%{{.*}}, %{{.*}}] strides(%[[ONE]], %[[LDC]]) bounds(%{{.*}}, %{{.*}}) staged(%{{.*}}) columns
gemm.matmul @d_layouts a(bf16, col) b(bf16, row) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], schedule = direct>)

// -----

// Split-K (128x64, three splits): a CTA per k-range of a tile (work units
// per tile), the two workspaces after the leading dimensions (a partial tile
// per split; the counters zeroed once), block b computing split b mod 3 of
// tile unit b / 3. An empty k-range skips the mainloop and counts in a zero
// partial. Each warpgroup stores its partial block (tile, split, warpgroup),
// counts it in on its own counter (4 a tile) after its named barrier, and
// the last to arrive adds the other two splits' blocks and writes its rows.
// CHECK: \22grid\22:{\22policy\22:\22tiles\22,\22work_units_per_tile\22:3}
// CHECK-SAME: {\22kind\22:\22leading_dim\22,\22tensor\22:\22c\22},{\22kind\22:\22workspace\22,\22bytes_per_tile\22:98304,\22zero_init\22:false},{\22kind\22:\22workspace\22,\22bytes_per_tile\22:16,\22zero_init\22:true}]
// CHECK-LABEL: gpu.func @d_k3(
// CHECK-SAME: %[[LDC:[a-z0-9]+]]: i64, %[[PARTIALS:[a-z0-9]+]]: !llvm.ptr<1>, %[[COUNTERS:[a-z0-9]+]]: !llvm.ptr<1>) kernel
// CHECK: %[[BLOCK:.*]] = arith.index_castui %block_id_x
// CHECK: %[[UNIT:.*]] = arith.divui %[[BLOCK]], %c3_i32{{.*}} : i32
// CHECK: %[[SPLIT:.*]] = arith.remui %[[BLOCK]], %c3_i32{{.*}} : i32
// CHECK: gemm.sched.static_tile %[[UNIT]]
// CHECK: %[[WG:.*]] = nvvm.shfl.sync idx
// CHECK: %[[BEGIN:.*]], %[[END:.*]] = gemm.sched.split_k_range %[[SPLIT]] of %{{.*}} splits(3)
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ne, %[[BEGIN]], %[[END]] : i32
// CHECK: %[[PARTIAL:.*]] = scf.if %[[NONEMPTY]] -> (!gemm.accum<64 x 64 x f32>) {
// CHECK: gemm.direct.load %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK: gemm.accum.zero
// CHECK: scf.for
// CHECK: %[[ZERO:.*]] = gemm.accum.zero : <64 x 64 x f32>
// CHECK-NEXT: scf.yield %[[ZERO]]
// CHECK: gemm.accum.store_global %[[PARTIAL]] -> %[[PARTIALS]][%{{.*}}] : <64 x 64 x f32>, !llvm.ptr<1>
// CHECK: %[[BARRIER:.*]] = arith.addi %[[WG]], %{{.*}} : i32
// CHECK: nvvm.barrier id = %[[BARRIER]] number_of_threads = %{{.*}}
// CHECK: gemm.sched.split_k_arrive %[[COUNTERS]][%{{.*}}] of %{{.*}} : !llvm.ptr<1>
// CHECK: %[[LAST:.*]] = gemm.barrier_any %{{.*}} barrier(%[[BARRIER]]) threads(128)
// CHECK: scf.if %[[LAST]] {
// CHECK: %[[SUM1:.*]] = gemm.accum.load_add_global %[[PARTIAL]], %[[PARTIALS]][%{{.*}}]
// CHECK: %[[SUM2:.*]] = gemm.accum.load_add_global %[[SUM1]], %[[PARTIALS]][%{{.*}}]
// CHECK-NOT: gemm.accum.load_add_global
// CHECK: gemm.accum.store_direct %[[SUM2]] -> %{{.*}} strides(%[[LDC]],
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gemm.matmul @d_k3 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct, scheduler = split_k, splits = 3>)
