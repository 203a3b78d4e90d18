// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s

// gemm-materialize-sm90 replaces each sm_90a gemm.matmul by a gpu.module
// holding its persistent warp-specialized TMA + WGMMA kernel, and records
// the kernel's launch contract (JSON) in the module's gemm.bundles.

//===----------------------------------------------------------------------===//
// (a) The default: cooperative 128x256x64 bf16, no cluster. Stages derived
// from the budget: (232448 - 4 x 8 KiB staging - 1 KiB) / 48 KiB per stage
// = 4; total 4 x 48 KiB + 32 KiB + 4 x 16 barrier bytes = 229440 bytes.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {coop = "{\22format\22:\22gemm-kernel-bundle\22,\22version\22:1,\22name\22:\22coop\22,\22kernel\22:\22coop\22,\22arch\22:\22sm_90a\22,\22ptx\22:\22coop.ptx\22,
// CHECK-SAME: \22block\22:[384,1,1],\22cluster\22:[1,1,1],\22grid\22:{\22policy\22:\22persistent\22},\22dynamic_smem_bytes\22:229440,\22tile\22:[128,256,64],
// CHECK-SAME: \22types\22:{\22a\22:\22bf16\22,\22b\22:\22bf16\22,\22c\22:\22bf16\22,\22accumulator\22:\22f32\22}
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22a\22,\22box\22:[64,128],\22swizzle\22:\22128B\22
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22b\22,\22box\22:[64,256],\22swizzle\22:\22128B\22
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[64,64],\22swizzle\22:\22128B\22
// CHECK-SAME: {\22kind\22:\22problem_size\22,\22dim\22:\22m\22},{\22kind\22:\22problem_size\22,\22dim\22:\22n\22},{\22kind\22:\22problem_size\22,\22dim\22:\22k\22}
// CHECK-SAME: gpu.container_module
// CHECK-NOT: gemm.matmul
// CHECK-LABEL: gpu.module @coop [#nvvm.target<O = 3, chip = "sm_90a">]
// CHECK-NEXT: gpu.func @coop(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>, %[[DB:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>, %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, %[[M:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32, %[[K:[a-z0-9]+]]: i32, %[[DAP:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>) kernel
// CHECK-SAME: attributes {gemm.arch = "sm_90a", gemm.grid_constant_args = array<i64: 0, 1, 2, 6>, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-NEXT: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 4, producers = 1, consumers = 2>{{$}}
// Thread 0 initialises the barriers and prefetches the descriptors; then
// a CTA barrier (no cluster).
// CHECK: scf.if
// CHECK-NEXT: gemm.pipeline.init %[[PLAN]]#3 : <stages = 4, producers = 1, consumers = 2>
// CHECK-NEXT: gemm.tma.prefetch_descriptor %[[DA]]
// CHECK-NEXT: gemm.tma.prefetch_descriptor %[[DB]]
// CHECK-NEXT: gemm.tma.prefetch_descriptor %[[DC]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[KBLOCKS:.*]] = arith.ceildivui %[[K]], %{{.*}} : i32
// CHECK-NOT: nvvm.cluster
// CHECK: gemm.warp_specialize consumers(2) regs(40, 232) producer {
// Producer: one k-block per iteration, A then B into the same slot.
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KBLOCKS]] step
// CHECK-NEXT: gemm.pipeline.producer_acquire %[[PLAN]]#3[%[[IT:.*]]] :
// CHECK-NEXT: gemm.pipeline.producer_commit %[[PLAN]]#3[%[[IT]]] tx(49152) :
// A tile whose last 64 rows lie past M loads A through the second
// descriptor in two 64-row boxes and skips the second: rows TMA zero-fills
// cost more than real ones (TileGeometry::aBoxesPerSlice).
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %{{.*}} : i32
// CHECK: %[[LAST:.*]] = arith.addi %[[ORIGIN:.*]], %c64_i32
// CHECK-NEXT: %[[WHOLE:.*]] = arith.cmpi ult, %[[LAST]], %[[M]] : i32
// CHECK: scf.if %[[WHOLE]] {
// CHECK-NEXT: gemm.tma.load %[[DA]][%[[KOFF:.*]], %[[ORIGIN]]] -> %[[PLAN]]#0[%[[SLOT]]] barrier %[[PLAN]]#3[%[[IT]]] : <bf16, box = [64, 128], swizzle = 128>
// CHECK-NEXT: } else {
// CHECK: gemm.tma.load %[[DAP]][%[[KOFF]], %[[ORIGIN]]] -> %[[PLAN]]#0[%[[SLOT]], %c0_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] : <bf16, box = [64, 64], swizzle = 128>
// CHECK: %[[ROW1:.*]] = arith.addi %[[ORIGIN]], %c64_i32
// CHECK-NEXT: %[[IN1:.*]] = arith.cmpi ult, %[[ROW1]], %[[M]] : i32
// CHECK-NEXT: gemm.tma.load %[[DAP]][%[[KOFF]], %[[ROW1]]] -> %[[PLAN]]#0[%[[SLOT]], %c64_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] when(%[[IN1]])
// CHECK-NEXT: }
// CHECK-NEXT: gemm.tma.load %[[DB]][%[[KOFF]], %{{.*}}] -> %[[PLAN]]#1[%[[SLOT]]] barrier %[[PLAN]]#3[%[[IT]]] : <bf16, box = [64, 256], swizzle = 128>
// CHECK: gemm.yield
// CHECK-NEXT: } consumer {
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32):
// Each consumer owns 64 of the 128 rows.
// CHECK: %[[AROW:.*]] = arith.muli %[[CONSUMER]], %{{.*}} : i32
// The first k-block is peeled: its MMAs take the zero accumulator itself
// (scale-d = 0 once lowered) and there is no earlier stage to release.
// CHECK: %[[ZERO:.*]] = gemm.accum.zero : <64 x 256 x f32>
// CHECK-NEXT: %[[NONEMPTY:.*]] = arith.cmpi ult, %[[BEGIN:.*]], %[[END:.*]] : i32
// CHECK-NEXT: %[[FIRST:.*]]:2 = scf.if %[[NONEMPTY]] -> (!gemm.accum<64 x 256 x f32>, i32) {
// CHECK-NEXT: gemm.pipeline.consumer_wait %[[PLAN]]#3[%{{.*}}] : <stages = 4, producers = 1, consumers = 2>
// CHECK-NEXT: gemm.wgmma.fence
// CHECK: gemm.mma.sm90 %[[ZERO]], %[[PLAN]]#0[%[[AROW]]], %[[PLAN]]#1 slot(%{{.*}}) : <64 x 256 x f32>, <4 x 128 x 64 x bf16, swizzle = 128>, <4 x 256 x 64 x bf16, swizzle = 128>
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(1)
// CHECK-NOT: consumer_release
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ZERO]], %{{.*}} : !gemm.accum<64 x 256 x f32>, i32
// CHECK: %[[SECOND:.*]] = arith.addi %[[BEGIN]], %c1_i32{{.*}} : i32
// CHECK: scf.for %{{.*}} = %[[SECOND]] to %[[END]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]#0, %{{.*}} = %[[FIRST]]#1)
// CHECK-NEXT: gemm.pipeline.consumer_wait %[[PLAN]]#3[%{{.*}}] : <stages = 4, producers = 1, consumers = 2>
// CHECK-NEXT: gemm.wgmma.fence
// CHECK: gemm.mma.sm90 %[[ACC]], %[[PLAN]]#0[%[[AROW]]], %[[PLAN]]#1 slot(%{{.*}}) : <64 x 256 x f32>
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(1)
// CHECK: gemm.pipeline.consumer_release %[[PLAN]]#3[%{{.*}}] : <stages = 4, producers = 1, consumers = 2>
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: gemm.pipeline.consumer_release %[[PLAN]]#3[%{{.*}}] : <stages = 4
// Epilogue: four 64-column sub-tiles of the one atom, each staged and
// stored by TMA.
// CHECK: gemm.tma.store_wait pending(1) read
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %[[PLAN]]#2[%{{.*}}] : <64 x 256 x f32>, <4 x 64 x 64 x bf16, swizzle = 128>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %[[PLAN]]#2[%{{.*}}] : <bf16, box = [64, 64], swizzle = 128>, <4 x 64 x 64 x bf16, swizzle = 128>
// CHECK-NEXT: gemm.tma.store_commit
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(128)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(192)
// CHECK-NOT: gemm.accum.store_smem
// CHECK: gemm.tma.store_wait pending(0)
// CHECK: gemm.yield
// CHECK-NEXT: }
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

//===----------------------------------------------------------------------===//
// (b) A 2x1 cluster: the two CTAs of a cluster column share the B tile, each
// loading one 128-row half and multicasting it; the empty barriers count the
// consumers of both CTAs (2 x 2), which release their slot in both.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {cluster = "{{.*}}\22cluster\22:[2,1,1],{{.*}}\22dynamic_smem_bytes\22:229440,
// CHECK-SAME: \22tensor\22:\22a\22,\22box\22:[64,128]
// CHECK-SAME: \22tensor\22:\22b\22,\22box\22:[64,128]
// CHECK-LABEL: gpu.module @cluster
// CHECK-NEXT: gpu.func @cluster(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>, %[[DB:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>,
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK-NEXT: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 4, producers = 1, consumers = 4>{{$}}
// CHECK: gemm.pipeline.init %[[PLAN]]#3
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// The B multicast mask: both CTAs of the column (3 << 2 * rankN).
// CHECK: %[[MASKB:.*]] = arith.shli %c3_i32{{[_0-9]*}}, %{{.*}} : i32
// CHECK: %[[PEERS:.*]] = arith.ori %{{.*}}, %[[MASKB]] : i32
// CHECK: %[[MCASTB:.*]] = arith.trunci %[[MASKB]] : i32 to i16
// CHECK: gemm.warp_specialize consumers(2) regs(40, 232) producer {
// CHECK: gemm.pipeline.producer_commit %[[PLAN]]#3[%[[IT:.*]]] tx(49152) :
// A: whole tile, no multicast.
// CHECK: gemm.tma.load %[[DA]][%{{.*}}, %{{.*}}] -> %[[PLAN]]#0[%[[SLOT:.*]]] barrier %[[PLAN]]#3[%[[IT]]] : <bf16
// B: this CTA's half, at row rankM * 128 of the slot, multicast.
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[OUTER:.*]] = arith.addi %{{.*}}, %[[ROW]] : i32
// CHECK-NEXT: gemm.tma.load %[[DB]][%{{.*}}, %[[OUTER]]] -> %[[PLAN]]#1[%[[SLOT]], %[[ROW]]] barrier %[[PLAN]]#3[%[[IT]]] multicast(%[[MCASTB]]) : <bf16, box = [64, 128], swizzle = 128>, <4 x 256 x 64 x bf16, swizzle = 128>
// CHECK: } consumer {
// CHECK: gemm.pipeline.consumer_release %[[PLAN]]#3[%{{.*}}] peers(%[[PEERS]]) cluster_size(2) : <stages = 4, producers = 1, consumers = 4>
// CHECK: gemm.pipeline.consumer_release %[[PLAN]]#3[%{{.*}}] peers(%[[PEERS]]) cluster_size(2)
// No CTA exits while its peers may still write into it.
// CHECK: gemm.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return
gemm.matmul @cluster a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)

// -----

//===----------------------------------------------------------------------===//
// (c) Pingpong 128x128: each consumer owns whole 128-row tiles, each stage has
// one reader, and a 2-stage order pipeline makes the consumers' mainloops
// take turns.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: gpu.module @pingpong
// CHECK: %[[PLAN:.*]]:5 = gemm.smem.plan : !gemm.smem<6 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<6 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 6, producers = 1, consumers = 1>, !gemm.pipeline<stages = 2, producers = 1, consumers = 1>{{$}}
// CHECK: gemm.pipeline.init %[[PLAN]]#3 : <stages = 6, producers = 1, consumers = 1>
// CHECK-NEXT: gemm.pipeline.init %[[PLAN]]#4 : <stages = 2, producers = 1, consumers = 1>
// CHECK: gemm.warp_specialize consumers(2) regs(40, 232) producer {
// CHECK: gemm.pipeline.producer_commit %[[PLAN]]#3[%{{.*}}] tx(32768)
// CHECK: } consumer {
// CHECK: gemm.pipeline.producer_acquire %[[PLAN]]#4[%{{.*}}] : <stages = 2, producers = 1, consumers = 1>
// CHECK: gemm.accum.zero : <128 x 128 x f32>
// The whole A slot: row 0.
// CHECK: gemm.mma.sm90 %{{.*}}, %[[PLAN]]#0[%c0_i32{{[_0-9]*}}], %[[PLAN]]#1 slot(%{{.*}}) : <128 x 128 x f32>
// CHECK: gemm.pipeline.consumer_release %[[PLAN]]#4[%{{.*}}] : <stages = 2, producers = 1, consumers = 1>
// Two atoms of two 64-column sub-tiles.
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64)
// CHECK: gemm.accum.store_smem %{{.*}} atom(1) col(0)
// CHECK: gemm.accum.store_smem %{{.*}} atom(1) col(64)
// CHECK-NOT: gemm.accum.store_smem
// CHECK: gpu.return
gemm.matmul @pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)

// -----

//===----------------------------------------------------------------------===//
// (d) f32 output: the 128-byte staging rows hold 32 floats.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {out_f32 = "{{.*}}\22types\22:{\22a\22:\22f16\22,\22b\22:\22f16\22,\22c\22:\22f32\22,
// CHECK-SAME: \22tensor\22:\22c\22,\22box\22:[32,64]
// CHECK-LABEL: gpu.module @out_f32
// CHECK-NEXT: gpu.func @out_f32(%{{.*}}: !gemm.tma_desc<f16, box = [64, 128], swizzle = 128>, %{{.*}}: !gemm.tma_desc<f16, box = [64, 128], swizzle = 128>, %[[DC:[a-z0-9]+]]: !gemm.tma_desc<f32, box = [32, 64], swizzle = 128>,
// CHECK-NEXT: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<6 x 128 x 64 x f16, swizzle = 128>, !gemm.smem<6 x 128 x 64 x f16, swizzle = 128>, !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>, !gemm.pipeline<stages = 6, producers = 1, consumers = 2>{{$}}
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %[[PLAN]]#2[%{{.*}}] : <64 x 128 x f32>, <4 x 64 x 32 x f32, swizzle = 128>
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %[[PLAN]]#2[%{{.*}}] : <f32, box = [32, 64], swizzle = 128>, <4 x 64 x 32 x f32, swizzle = 128>
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(32)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64)
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(96)
// CHECK-NOT: gemm.accum.store_smem
// CHECK: gpu.return
gemm.matmul @out_f32 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// -----

//===----------------------------------------------------------------------===//
// (e) An epilogue region is cloned into every accum.store_smem; (f) explicit
// stages are taken as given.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {relu = "{{.*}}\22dynamic_smem_bytes\22:131120,
// CHECK-NOT: gemm.matmul
// CHECK-LABEL: gpu.module @relu
// 3 x 16 KiB + 3 x 16 KiB + 32 KiB of staging, barriers at 131072.
// CHECK: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<3 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<3 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 3, producers = 1, consumers = 2>{{$}}
// CHECK: producer {
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: arith.remui %{{.*}}, %[[C3]] : i32
// CHECK: } consumer {
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %[[PLAN]]#2[%{{.*}}] : <64 x 128 x f32>, <4 x 64 x 64 x bf16, swizzle = 128> {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[RELU:.*]] = arith.maximumf %[[V]], %[[ZERO]] : f32
// CHECK-NEXT: %[[OUT:.*]] = arith.truncf %[[RELU]] : f32 to bf16
// CHECK-NEXT: gemm.yield %[[OUT]] : bf16
// CHECK-NEXT: }
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(64) -> %[[PLAN]]#2[%{{.*}}] : <64 x 128 x f32>, <4 x 64 x 64 x bf16, swizzle = 128> {
// CHECK-NEXT: ^bb0(%[[V2:.*]]: f32):
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.maximumf %[[V2]], %{{.*}} : f32
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: gemm.yield
// CHECK: gpu.return
gemm.matmul @relu a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 3>) {
^bb0(%acc: f32):
  %zero = arith.constant 0.0 : f32
  %relu = arith.maximumf %acc, %zero : f32
  %r = arith.truncf %relu : f32 to bf16
  gemm.yield %r : bf16
}

// -----

// A 64-row tile (the tiles of M <= 64) whose last 16 rows hold a row below
// M loads A in one box; one whose last 16 rows lie past M loads it through
// a second descriptor (the last parameter, also by value) in four 16-row
// boxes: the first always, the others only where they start below M, so M = 16 reads one
// box and does not pay for 48 zero-filled rows. Both branches deliver the
// stage's bytes: a skipped box completes its bytes on the barrier.
// CHECK-LABEL: gpu.func @pp_64x128(
// CHECK-SAME: %[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>
// CHECK-SAME: %[[M:[a-z0-9]+]]: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %[[DAP:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 16], swizzle = 128>)
// CHECK-SAME: gemm.grid_constant_args = array<i64: 0, 1, 2, 6>
// CHECK: %[[PLAN:.*]]:5 = gemm.smem.plan
// CHECK: producer {
// CHECK: gemm.pipeline.producer_commit %[[PLAN]]#3[%[[IT:.*]]] tx(24576)
// CHECK: %[[END:.*]] = arith.addi %[[ORIGIN:.*]], %c48_i32
// CHECK-NEXT: %[[WHOLE:.*]] = arith.cmpi ult, %[[END]], %[[M]] : i32
// CHECK: scf.if %[[WHOLE]] {
// CHECK-NEXT: gemm.tma.load %[[DA]][%[[K:.*]], %[[ORIGIN]]] -> %[[PLAN]]#0[%[[SLOT:.*]]] barrier %[[PLAN]]#3[%[[IT]]] :
// CHECK-NEXT: } else {
// CHECK: gemm.tma.load %[[DAP]][%[[K]], %[[ORIGIN]]] -> %[[PLAN]]#0[%[[SLOT]], %c0_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] :
// CHECK: %[[ROW1:.*]] = arith.addi %[[ORIGIN]], %c16_i32
// CHECK-NEXT: %[[IN1:.*]] = arith.cmpi ult, %[[ROW1]], %[[M]] : i32
// CHECK-NEXT: gemm.tma.load %[[DAP]][%[[K]], %[[ROW1]]] -> %[[PLAN]]#0[%[[SLOT]], %c16_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] when(%[[IN1]])
// CHECK: gemm.tma.load %[[DAP]][%[[K]], %{{.*}}] -> %[[PLAN]]#0[%[[SLOT]], %c32_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] when(
// CHECK: gemm.tma.load %[[DAP]][%[[K]], %{{.*}}] -> %[[PLAN]]#0[%[[SLOT]], %c48_i32{{.*}}] barrier %[[PLAN]]#3[%[[IT]]] when(
// CHECK-NEXT: }
// CHECK-NEXT: gemm.tma.load %{{.*}} -> %[[PLAN]]#1[%[[SLOT]]] barrier %[[PLAN]]#3[%[[IT]]] :
// CHECK: } consumer {
gemm.matmul @pp_64x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong>)

// -----

// With A multicast over a 1x2 cluster the slice stays one box: a skipped
// box's bytes would have to complete in the other CTA's barrier.
// CHECK-LABEL: gpu.func @pp_64x128_c1x2(
// CHECK-SAME: !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>
// CHECK-SAME: %{{[a-z0-9]+}}: i32) kernel
// CHECK-NOT: when(
// CHECK: gpu.return
gemm.matmul @pp_64x128_c1x2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 2], schedule = pingpong>)

// -----

//===----------------------------------------------------------------------===//
// Existing gemm.bundles entries are kept; sm_100a matmuls are left to
// gemm-materialize-sm100.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {earlier = "{}", second = "{{.*}}"}, gpu.container_module}
// CHECK: gemm.matmul @blackwell
// CHECK-SAME: arch = sm_100a
// CHECK: gpu.module @second
module attributes {gemm.bundles = {earlier = "{}"}} {
  gemm.matmul @blackwell a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)
  gemm.matmul @second a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
}

// -----

// Nothing to build: no gemm.bundles, no container attribute.
// CHECK: module {
// CHECK-NEXT: gemm.matmul @only_sm100
gemm.matmul @only_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)
