// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines -split-input-file -o /dev/null

// Stream-K on SM90 (scheduler = stream_k): the plan splits the tile units
// into whole ones (the first dpUnits, handed out as in the static
// schedule: this CTA's are those of units below dpUnits) and shared ones, whose k-blocks the first `workers` CTAs share. A CTA's
// work items are its whole units, then the segments of its share; producer
// and consumers walk the same items. A segment of a unit that several
// workers compute goes through the split-K fixup with the number of
// workers as the arrival count; the last arriver adds the other workers'
// partials (slot 2w - 2 or 2w + 1 of worker w) two sub-tiles at a time.
// The manifest asks for up to 4 CTAs per tile and two partial tiles per
// CTA (2 x 128 x 256 x 4 bytes) besides the per-tile counters.

// CHECK: module attributes {gemm.bundles = {coop = "{{.*}}\22grid\22:{\22policy\22:\22persistent\22,\22work_units_per_tile\22:4}
// CHECK-SAME: {\22kind\22:\22workspace\22,\22bytes_per_cta\22:262144,\22zero_init\22:false},{\22kind\22:\22workspace\22,\22bytes_per_tile\22:16,\22zero_init\22:true}
// CHECK-LABEL: gpu.func @coop
// CHECK-SAME: %[[PARTIALS:[^:]*]]: !llvm.ptr<1>, %[[COUNTERS:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>) kernel
// CHECK: %[[CLUSTER:.*]] = arith.divui %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: %[[CLUSTERS:.*]] = arith.divui %{{.*}}, %c1_i32 : i32
// CHECK: %[[UNITS:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[KB:.*]] = arith.ceildivui
// CHECK-NEXT: %[[DP:.*]], %[[WORKERS:.*]] = gemm.sched.stream_k_plan units(%[[UNITS]]) ctas(%[[CLUSTERS]]) k_blocks(%[[KB]]) max_workers_per_unit(4)
// CHECK-NEXT: %[[SHARED:.*]] = arith.subi %[[UNITS]], %[[DP]] : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[CLUSTER]], %[[ONE]] : i32
// CHECK-NEXT: %[[DPSPAN:.*]] = arith.addi %[[DP]], %[[CLUSTERS]] : i32
// CHECK-NEXT: %[[DPLEFT:.*]] = arith.subi %[[DPSPAN]], %[[NEXT]] : i32
// CHECK-NEXT: %[[DPITEMS:.*]] = arith.divui %[[DPLEFT]], %[[CLUSTERS]] : i32
// CHECK-NEXT: %[[FIRST:.*]], %[[BEGIN:.*]], %[[SEGMENTS:.*]], %[[END:.*]] = gemm.sched.stream_k_share %[[CLUSTER]] of %[[WORKERS]] units(%[[SHARED]]) k_blocks(%[[KB]])
// CHECK-NEXT: %[[ITEMS:.*]] = arith.addi %[[DPITEMS]], %[[SEGMENTS]] : i32
// The producer: whole units first, then the share's segments, the first
// starting at BEGIN and the last ending at END.
// CHECK: producer {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[ITEMS]] step
// CHECK: %[[ISSHARED:.*]] = arith.cmpi uge, %[[I]], %[[DPITEMS]] : i32
// CHECK: %[[UNIT:.*]] = arith.select %[[ISSHARED]], %{{.*}}, %{{.*}} : i32
// CHECK: %[[KBEGIN:.*]] = arith.select %{{.*}}, %[[BEGIN]], %{{.*}} : i32
// CHECK-NEXT: %[[KEND:.*]] = arith.select %{{.*}}, %[[END]], %[[KB]] : i32
// CHECK-NEXT: gemm.sched.static_tile %[[UNIT]]
// CHECK: scf.for %{{.*}} = %[[KBEGIN]] to %[[KEND]] step
// CHECK: gemm.pipeline.producer_commit
// The consumers: the same items; the fixup only for a unit of several
// workers.
// CHECK: } consumer {
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ITEMS]] step
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: %[[LO:.*]], %[[HI:.*]] = gemm.sched.stream_k_workers %{{.*}} of %[[WORKERS]] units(%[[SHARED]]) k_blocks(%[[KB]])
// CHECK-NEXT: %[[SEVERAL:.*]] = arith.cmpi ne, %[[LO]], %[[HI]] : i32
// CHECK-NEXT: %[[FIXUP:.*]] = arith.andi %{{.*}}, %[[SEVERAL]] : i1
// CHECK-NEXT: %[[STORES:.*]] = scf.if %[[FIXUP]] -> (i1) {
// CHECK: %[[ARRIVALS:.*]] = arith.addi %{{.*}}, %c1_i32{{.*}} : i32
// Slot 2w - 2 when this worker is not the unit's first, else 2w + 1.
// CHECK: %[[LATER:.*]] = arith.cmpi ugt, %[[CLUSTER]], %[[LO]] : i32
// CHECK-NEXT: arith.select %[[LATER]], %{{.*}}, %{{.*}} : i32
// CHECK: gemm.accum.store_global %{{.*}} -> %[[PARTIALS]][%{{.*}}] : <64 x 256 x f32>, !llvm.ptr<1>
// CHECK: gemm.sched.split_k_arrive %[[COUNTERS]][%{{.*}}] of %[[ARRIVALS]] : !llvm.ptr<1>
// CHECK: gemm.barrier_any
// CHECK: } else {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: scf.yield %[[TRUE]] : i1
// The other workers' partials: none for a whole unit.
// CHECK: %[[STOP:.*]] = arith.select %[[FIXUP]], %{{.*}}, %[[LO]] : i32
// CHECK-NEXT: scf.if %[[STORES]] -> (i32) {
// CHECK: scf.for %[[W:.*]] = %[[LO]] to %[[STOP]] step %{{.*}} iter_args
// CHECK-NEXT: %[[OTHER:.*]] = arith.cmpi ne, %[[W]], %[[CLUSTER]] : i32
// CHECK-NEXT: scf.if %[[OTHER]] -> (!gemm.accum<64 x 256 x f32>) {
// CHECK: gemm.accum.load_add_global %{{.*}}, %[[PARTIALS]][%{{.*}}] values(0, 64)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64)
// CHECK: gemm.accum.load_add_global %{{.*}}, %[[PARTIALS]][%{{.*}}] values(64, 64)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(128)
// CHECK: gpu.return
gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = stream_k>)

// -----

// Pingpong: consumers take items in turns and skip the other consumer's
// item, whose segment has its own length; a partial is the whole tile.
// CHECK: bytes_per_cta\22:65536
// CHECK-LABEL: gpu.module @pingpong
// CHECK: } consumer {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c2_i32{{.*}} iter_args
// CHECK: gemm.accum.store_global %{{.*}} : <64 x 128 x f32>, !llvm.ptr<1>
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %c1_i32{{.*}} : i32
// CHECK: %[[OSHARED:.*]] = arith.cmpi uge, %[[NEXT]], %{{.*}} : i32
// CHECK: %[[OBEGIN:.*]] = arith.select %{{.*}}, %begin, %{{.*}} : i32
// CHECK-NEXT: %[[OEND:.*]] = arith.select %{{.*}}, %end, %{{.*}} : i32
// CHECK-NEXT: %[[TRIPS:.*]] = arith.subi %[[OEND]], %[[OBEGIN]] : i32
// CHECK-NEXT: arith.addi %{{.*}}, %[[TRIPS]] : i32
// CHECK: gpu.return
gemm.matmul @pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = stream_k>)
