// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Split-K on SM90 (scheduler = split_k, splits = S): work unit u is k-range
// u mod S of tile unit u / S, so a tile's splits run side by side on
// neighbouring CTAs. Each consumer stores its partial tile to the partials
// workspace, its leader counts it in on the tile's counter, a barrier with
// an OR tells the warpgroup whether that arrival was the last, and only the
// last adds the other partials (per epilogue sub-tile) and stores C. The
// kernel takes the two workspaces after M, N, K; the manifest describes
// them (partials: S x BM x BN x 4 bytes per tile; counters: 16 bytes per
// tile, zeroed once: the last arriver resets its counter), and the grid
// policy S work units per tile, so the launch covers every split.

// CHECK: module attributes {gemm.bundles = {coop = "{{.*}}\22grid\22:{\22policy\22:\22persistent\22,\22work_units_per_tile\22:3}
// CHECK-SAME: {\22kind\22:\22problem_size\22,\22dim\22:\22k\22},{\22kind\22:\22workspace\22,\22bytes_per_tile\22:393216,\22zero_init\22:false},{\22kind\22:\22workspace\22,\22bytes_per_tile\22:16,\22zero_init\22:true}
// CHECK-LABEL: gpu.module @coop
// CHECK-NEXT: gpu.func @coop(%{{.*}}: i32, %{{.*}}: i32, %[[K:.*]]: i32, %[[PARTIALS:.*]]: !llvm.ptr<1>, %[[COUNTERS:.*]]: !llvm.ptr<1>, %{{.*}}: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>) kernel
// CHECK: %[[PLAN:.*]]:4 = gemm.smem.plan
// CHECK: %[[KBLOCKS:.*]] = arith.ceildivui %[[K]], %{{.*}} : i32
// CHECK: %[[WORK:.*]] = arith.muli %{{.*}}, %c3_i32{{.*}} : i32
// The CTA's work items: units clusterId + i * clusterCount below WORK.
// CHECK: %[[END:.*]] = arith.addi %[[WORK]], %{{.*}} : i32
// CHECK: %[[ITEMS:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// Producer: the k-blocks of the work unit's range only.
// CHECK: producer {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[ITEMS]] step
// CHECK: %[[U:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[SPLIT:.*]] = arith.remui %[[U]], %{{.*}} : i32
// CHECK-NEXT: %[[BEGIN:.*]], %[[END:.*]] = gemm.sched.split_k_range %[[SPLIT]] of %[[KBLOCKS]] splits(3)
// CHECK: %[[UNIT:.*]] = arith.divui %[[U]], %{{.*}} : i32
// CHECK-NEXT: gemm.sched.static_tile %[[UNIT]]
// CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK: gemm.pipeline.producer_commit
// CHECK: } consumer {
// CHECK: scf.for %[[CI:.*]] = %{{.*}} to %[[ITEMS]] step
// CHECK: %[[CBEGIN:.*]], %[[CEND:.*]] = gemm.sched.split_k_range
// CHECK: %[[ZERO:.*]] = gemm.accum.zero
// An empty range (fewer k-blocks than splits) issues no MMA, keeps the
// zeros and releases nothing.
// CHECK-NEXT: %[[NONEMPTY:.*]] = arith.cmpi ult, %[[CBEGIN]], %[[CEND]] : i32
// CHECK-NEXT: %[[FIRST:.*]]:2 = scf.if %[[NONEMPTY]]
// CHECK: gemm.mma.sm90 %[[ZERO]],
// CHECK: scf.yield %[[ZERO]],
// CHECK: %[[SECOND:.*]] = arith.addi %[[CBEGIN]], %c1_i32{{.*}} : i32
// CHECK: scf.for %{{.*}} = %[[SECOND]] to %[[CEND]] step
// CHECK: gemm.wgmma.wait pending(0)
// CHECK-NEXT: %[[RELEASE:.*]] = arith.andi %{{.*}}, %[[NONEMPTY]] : i1
// CHECK-NEXT: scf.if %[[RELEASE]] {
// CHECK: gemm.pipeline.consumer_release
// The fixup.
// CHECK: gemm.accum.store_global %{{.*}} -> %[[PARTIALS]][%{{.*}}] : <64 x 256 x f32>, !llvm.ptr<1>
// CHECK: nvvm.barrier id = %[[BAR:.*]] number_of_threads
// CHECK-NEXT: %[[MINE:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK: %[[LAST:.*]] = gemm.sched.split_k_arrive %[[COUNTERS]][%{{.*}}] of %c3_i32{{.*}} : !llvm.ptr<1>
// CHECK-NEXT: scf.yield %[[LAST]] : i1
// CHECK: %[[ANY:.*]] = gemm.barrier_any %[[MINE]] barrier(%[[BAR]]) threads(128)
// CHECK: %{{.*}} = scf.if %[[ANY]] -> (i32) {
// Each 64-column sub-tile adds its 32 values of the two other partials.
// CHECK: gemm.accum.load_add_global %{{.*}}, %[[PARTIALS]][%{{.*}}] values(0, 32)
// CHECK-NEXT: gemm.accum.load_add_global %{{.*}}, %[[PARTIALS]][%{{.*}}] values(0, 32)
// CHECK-NEXT: gemm.accum.store_smem %{{.*}} atom(0) col(0)
// CHECK: gemm.accum.load_add_global %{{.*}}, %[[PARTIALS]][%{{.*}}] values(96, 32)
// CHECK-NEXT: gemm.accum.load_add_global %{{.*}}, %[[PARTIALS]][%{{.*}}] values(96, 32)
// CHECK-NEXT: gemm.accum.store_smem %{{.*}} atom(0) col(192)
// CHECK: } else {
// CHECK-NEXT: scf.yield
// CHECK: gpu.return
gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = split_k, splits = 3>)

// -----

// Pingpong: a consumer holds whole tiles (one part per tile) and skips the
// other consumer's work item, whose range has its own length. With two
// splits the last arriver loads the one other partial two sub-tiles at a
// time (one L2 round trip for both).
// CHECK: bytes_per_tile\22:65536
// CHECK-LABEL: gpu.module @pingpong
// CHECK: } consumer {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: gemm.accum.store_global %{{.*}} : <64 x 128 x f32>, !llvm.ptr<1>
// CHECK: gemm.sched.split_k_arrive %{{.*}} of %c2_i32
// CHECK: gemm.accum.load_add_global %{{.*}} values(0, 64)
// CHECK-NEXT: gemm.accum.store_smem %{{.*}} atom(0) col(0)
// CHECK-NOT: gemm.accum.load_add_global
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64)
// The next iteration skips the other consumer's item (i + 1).
// CHECK: %[[OTHER:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: %[[OUNIT:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: %[[OSPLIT:.*]] = arith.remui %[[OUNIT]], %{{.*}} : i32
// CHECK-NEXT: %[[OB:.*]], %[[OE:.*]] = gemm.sched.split_k_range %[[OSPLIT]]
// CHECK: %[[TRIPS:.*]] = arith.subi %[[OE]], %[[OB]] : i32
// CHECK-NEXT: arith.addi %{{.*}}, %[[TRIPS]] : i32
// CHECK: gpu.return
gemm.matmul @pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
