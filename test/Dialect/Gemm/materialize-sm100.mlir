// RUN: gemm-opt %s --gemm-materialize-sm100 -split-input-file | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm100 --gemm-check-pipelines -split-input-file -o /dev/null

// gemm-materialize-sm100 replaces each sm_100a gemm.matmul by a gpu.module
// holding its warp-role tcgen05 + TMEM kernel (docs/SM100.md), records the
// launch contract in gemm.bundles, and the result passes
// gemm-check-pipelines (expect_tx, init, one cta_group per kernel).

//===----------------------------------------------------------------------===//
// (a) The default: 128x256x64 bf16, one CTA per MMA, static persistent
// schedule. Stages: the deepest ring that fits next to 8 x 4 KiB of staging:
// 4 x 48 KiB. TMEM: two 256-column accumulators, all 512 columns.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {single = "{\22format\22:\22gemm-kernel-bundle\22,\22version\22:1,\22name\22:\22single\22,\22kernel\22:\22single\22,\22arch\22:\22sm_100a\22,\22ptx\22:\22single.ptx\22,
// CHECK-SAME: \22block\22:[224,1,1],\22cluster\22:[1,1,1],\22grid\22:{\22policy\22:\22persistent\22},\22dynamic_smem_bytes\22:229480,\22tile\22:[128,256,64],
// CHECK-SAME: \22tensor\22:\22a\22,\22box\22:[64,128]
// CHECK-SAME: \22tensor\22:\22b\22,\22box\22:[64,256]
// CHECK-SAME: \22tensor\22:\22c\22,\22box\22:[64,32]
// CHECK-LABEL: gpu.module @single [#nvvm.target<O = 3, chip = "sm_100a">]
// CHECK-NEXT: gpu.func @single(%[[DA:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>, %[[DB:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>, %[[DC:[a-z0-9]+]]: !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel
// CHECK-SAME: attributes {gemm.arch = "sm_100a", gemm.grid_constant_args = array<i64: 0, 1, 2>, nvvm.maxntid = array<i32: 224, 1, 1>}
// CHECK-NEXT: %[[P:.*]]:6 = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>, !gemm.pipeline<stages = 4, producers = 1, consumers = 1>, !gemm.pipeline<stages = 2, producers = 1, consumers = 4>{{$}}
// The MMA warp allocates and gives up the allocation permit.
// CHECK: scf.if
// CHECK-NEXT: gemm.tmem.alloc %[[P]]#3 columns(512) : <1 x 1 x 1 x i32, swizzle = 0>
// CHECK-NEXT: gemm.tmem.relinquish{{$}}
// CHECK: scf.if
// CHECK-NEXT: gemm.pipeline.init %[[P]]#4
// CHECK-NEXT: gemm.pipeline.init %[[P]]#5
// CHECK-NEXT: gemm.tma.prefetch_descriptor %[[DA]]
// CHECK: gemm.tmem.fence before_thread_sync
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gemm.tmem.fence after_thread_sync
// CHECK-NEXT: %[[TMEM:.*]] = gemm.tmem.address %[[P]]#3 : <1 x 1 x 1 x i32, swizzle = 0> -> <2 x 128 x 256 x f32>
// CHECK: gemm.warp_roles epilogue_warps(4) load {
// CHECK: scf.for
// CHECK: gemm.sched.static_tile
// CHECK: scf.for
// CHECK: gemm.pipeline.producer_acquire %[[P]]#4[%[[IT:.*]]] :
// CHECK-NEXT: gemm.pipeline.producer_commit %[[P]]#4[%[[IT]]] tx(49152) :
// CHECK: gemm.tma.load %[[DA]][%{{.*}}, %{{.*}}] -> %[[P]]#0[%[[SLOT:.*]]] barrier %[[P]]#4[%[[IT]]] :
// CHECK-NEXT: gemm.tma.load %[[DB]][%{{.*}}, %{{.*}}] -> %[[P]]#1[%[[SLOT]]] barrier %[[P]]#4[%[[IT]]] :
// The tail waits for the releases of the last four stages.
// CHECK: scf.for
// CHECK-NEXT: gemm.pipeline.producer_acquire %[[P]]#4[%{{.*}}]
// CHECK: } mma {
// CHECK: gemm.pipeline.producer_acquire %[[P]]#5[%[[T:.*]]] : <stages = 2, producers = 1, consumers = 4>
// CHECK-NEXT: gemm.tmem.fence after_thread_sync
// CHECK: gemm.pipeline.consumer_wait %[[P]]#4[%[[N:.*]]] :
// CHECK: gemm.mma.sm100 %[[P]]#0, %[[P]]#1 slot(%{{.*}}) -> %[[TMEM]][%{{.*}}] accumulate(%{{.*}}) : <4 x 128 x 64 x bf16, swizzle = 128>, <4 x 256 x 64 x bf16, swizzle = 128>, <2 x 128 x 256 x f32>
// CHECK-NEXT: gemm.mma.sm100.commit %[[P]]#4[%[[N]]] empty :
// CHECK: gemm.mma.sm100.commit %[[P]]#5[%[[T]]] full :
// CHECK: } scheduler {
// CHECK-NEXT: gemm.yield
// CHECK-NEXT: } epilogue {
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK: gemm.pipeline.consumer_wait %[[P]]#5[%[[E:.*]]] :
// CHECK-NEXT: gemm.tmem.fence after_thread_sync
// CHECK: gemm.tma.store_wait pending(1) read
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: gemm.tmem.store_smem %[[TMEM]][%{{.*}}] col(0) -> %[[P]]#2[%{{.*}}] : <2 x 128 x 256 x f32>, <8 x 32 x 64 x bf16, swizzle = 128>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.bar.warp.sync
// CHECK: gemm.tma.store %[[DC]][%{{.*}}, %{{.*}}] from %[[P]]#2[%{{.*}}] :
// CHECK-NEXT: gemm.tma.store_commit
// CHECK: gemm.tmem.store_smem %[[TMEM]][%{{.*}}] col(64)
// CHECK: gemm.tmem.store_smem %[[TMEM]][%{{.*}}] col(128)
// CHECK: gemm.tmem.store_smem %[[TMEM]][%{{.*}}] col(192)
// After the last load of the stage, the warp frees it for the MMA.
// CHECK: gemm.tmem.fence before_thread_sync
// CHECK: gemm.pipeline.consumer_release %[[P]]#5[%[[E]]] : <stages = 2, producers = 1, consumers = 4>
// CHECK-NOT: gemm.tmem.store_smem
// CHECK: gemm.tma.store_wait pending(0)
// CHECK: gemm.yield
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: gemm.tmem.fence after_thread_sync
// CHECK-NEXT: gemm.tmem.dealloc %[[TMEM]] columns(512) : <2 x 128 x 256 x f32>
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
gemm.matmul @single a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

//===----------------------------------------------------------------------===//
// (b) An MMA pair (cta_group 2) in a 2x1 cluster, scheduled by cluster launch
// control. Each CTA holds its 128 rows of A and half of B (128 rows); both
// CTAs' producers and loads complete on the leader's full barriers
// (producers = 2); the leader's MMA frees both CTAs' slots and publishes the
// accumulator to both epilogues; both epilogues free it on the leader
// (consumers = 2 x 4). The CLC response ring is released by the 7 readers
// of each of the 2 CTAs on rank 0, which asks for the whole cluster.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {pair = "{{.*}}\22block\22:[224,1,1],\22cluster\22:[2,1,1],\22cluster_tiles\22:[2,1],\22grid\22:{\22policy\22:\22tiles\22}
// CHECK-SAME: \22tensor\22:\22b\22,\22box\22:[64,128]
// CHECK-LABEL: gpu.module @pair
// CHECK: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-NEXT: %[[P:.*]]:8 = gemm.smem.plan : !gemm.smem<6 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<6 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>, !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>, !gemm.pipeline<stages = 6, producers = 2, consumers = 1>, !gemm.pipeline<stages = 2, producers = 1, consumers = 8>, !gemm.pipeline<stages = 2, producers = 1, consumers = 14>{{$}}
// CHECK: gemm.tmem.alloc %[[P]]#3 columns(512) cta_group(2)
// CHECK-NEXT: gemm.tmem.relinquish cta_group(2)
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gemm.tmem.fence before_thread_sync
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: gemm.warp_roles epilogue_warps(4) load {
// The CTA's own launch unit first, then the cancelled clusters' units.
// CHECK: scf.while
// CHECK: gemm.pipeline.producer_commit %[[P]]#5[%[[IT:.*]]] tx(32768) cta_group(2)
// CHECK: gemm.tma.load %{{.*}} -> %[[P]]#0[%{{.*}}] barrier %[[P]]#5[%[[IT]]] cta_group(2)
// CHECK: gemm.tma.load %{{.*}} -> %[[P]]#1[%{{.*}}] barrier %[[P]]#5[%[[IT]]] cta_group(2)
// CHECK: gemm.pipeline.consumer_wait %[[P]]#7[%{{.*}}]
// CHECK: gemm.sched.clc_query %[[P]]#4
// CHECK: gemm.pipeline.consumer_release %[[P]]#7[%{{.*}}] peers(%{{.*}}) cluster_size(2)
// CHECK: scf.condition
// CHECK: } mma {
// Only the pair's leader issues.
// CHECK: scf.while
// CHECK: scf.if
// CHECK: gemm.mma.sm100 %[[P]]#0, %[[P]]#1 slot(%{{.*}}) -> %{{.*}}[%{{.*}}] accumulate(%{{.*}}) cta_group(2)
// CHECK-NEXT: gemm.mma.sm100.commit %[[P]]#5[%{{.*}}] empty multicast(%{{.*}}) cta_group(2)
// CHECK: gemm.mma.sm100.commit %[[P]]#6[%{{.*}}] full multicast(%{{.*}}) cta_group(2)
// CHECK: } scheduler {
// CHECK: scf.while
// CHECK: scf.if
// CHECK-NEXT: gemm.pipeline.producer_acquire %[[P]]#7[%[[C:.*]]]
// CHECK: gemm.pipeline.producer_commit %[[P]]#7[%[[C]]] tx(16)
// CHECK-NEXT: scf.if
// CHECK-NEXT: gemm.sched.clc_try_cancel %[[P]]#4[%{{.*}}] barrier %[[P]]#7[%[[C]]] multicast
// CHECK: gemm.pipeline.consumer_wait %[[P]]#7[%[[C]]]
// CHECK: %[[VALID:.*]], %{{.*}}, %{{.*}}, %{{.*}} = gemm.sched.clc_query
// CHECK: gemm.pipeline.consumer_release %[[P]]#7[%[[C]]] peers(%{{.*}}) cluster_size(2)
// CHECK: scf.condition(%[[VALID]])
// CHECK: } epilogue {
// CHECK: gemm.pipeline.consumer_release %[[P]]#6[%{{.*}}] peers(%{{.*}}) cluster_size(2) : <stages = 2, producers = 1, consumers = 8>
// CHECK: gemm.tmem.dealloc %{{.*}} columns(512) cta_group(2)
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
gemm.matmul @pair a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], cluster = [2, 1], schedule = warp_roles, scheduler = clc, cta_group = 2>)

// -----

//===----------------------------------------------------------------------===//
// (c) A 2x2 cluster with two k-blocks per stage, f32 output through an
// epilogue region. A and B are each multicast in two 64-row slices; a
// stage's expect_tx covers both k-blocks of both operands; the MMA frees a
// slot in the 3 CTAs that write into it.
//===----------------------------------------------------------------------===//

// CHECK: module attributes {gemm.bundles = {grouped = "{{.*}}\22cluster\22:[4,1,1],\22cluster_tiles\22:[2,2],\22grid\22:{\22policy\22:\22persistent\22}
// CHECK-SAME: \22tensor\22:\22c\22,\22box\22:[32,32]
// CHECK-LABEL: gpu.module @grouped
// CHECK: %[[P:.*]]:6 = gemm.smem.plan : !gemm.smem<6 x 128 x 64 x f16, swizzle = 128>, !gemm.smem<6 x 128 x 64 x f16, swizzle = 128>, !gemm.smem<8 x 32 x 32 x f32, swizzle = 128>, !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>, !gemm.pipeline<stages = 3, producers = 1, consumers = 3>, !gemm.pipeline<stages = 2, producers = 1, consumers = 4>{{$}}
// CHECK: gemm.tmem.alloc %[[P]]#3 columns(256)
// CHECK: load {
// CHECK: gemm.pipeline.producer_commit %[[P]]#4[%[[IT:.*]]] tx(65536)
// CHECK: gemm.tma.load {{.*}} -> %[[P]]#0[%[[S0:.*]], %{{.*}}] barrier %[[P]]#4[%[[IT]]] multicast
// CHECK: gemm.tma.load {{.*}} -> %[[P]]#1[%[[S0]], %{{.*}}] barrier %[[P]]#4[%[[IT]]] multicast
// CHECK: gemm.tma.load {{.*}} -> %[[P]]#0[%[[S1:.*]], %{{.*}}] barrier %[[P]]#4[%[[IT]]] multicast
// CHECK: gemm.tma.load {{.*}} -> %[[P]]#1[%[[S1]], %{{.*}}] barrier %[[P]]#4[%[[IT]]] multicast
// CHECK: } mma {
// CHECK: gemm.mma.sm100 %[[P]]#0, %[[P]]#1 slot(%[[M0:.*]]) -> %{{.*}}[%{{.*}}] accumulate(%{{.*}})
// CHECK: %[[M1:.*]] = arith.addi %[[M0]], %{{.*}} : i32
// CHECK-NEXT: gemm.mma.sm100 %[[P]]#0, %[[P]]#1 slot(%[[M1]]) -> %{{.*}}[%{{.*}}] accumulate(%true)
// CHECK-NEXT: gemm.mma.sm100.commit %[[P]]#4[%{{.*}}] empty multicast(%{{.*}}) :
// CHECK: } epilogue {
// CHECK: gemm.tmem.store_smem %{{.*}} col(0) -> %[[P]]#2[%{{.*}}] : <2 x 128 x 128 x f32>, <8 x 32 x 32 x f32, swizzle = 128> {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[V]], %[[TWO]] : f32
// CHECK-NEXT: gemm.yield %[[R]] : f32
// CHECK: gemm.tmem.store_smem %{{.*}} col(96)
// CHECK-NOT: gemm.tmem.store_smem
// CHECK: gpu.return
gemm.matmul @grouped a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 128, 64], cluster = [2, 2], schedule = warp_roles, k_group = 2>) {
^bb0(%acc: f32):
  %two = arith.constant 2.0 : f32
  %r = arith.mulf %acc, %two : f32
  gemm.yield %r : f32
}

// -----

// sm_90a matmuls are left to gemm-materialize-sm90.
// CHECK: module {
// CHECK-NEXT: gemm.matmul @hopper
gemm.matmul @hopper a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
