// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file | FileCheck %s

// The low-precision SM90 kernels (docs/LowPrecision.md): one tile row of
// 128 bytes whatever the type (BK = 128 for 8-bit, 32 for tf32), the
// WGMMA accumulator of the type pair, fp8 partial sums promoted into an f32
// accumulator, and the scale parameters with their manifest entries.

//===----------------------------------------------------------------------===//
// (a) fp8 per-tensor, promoted every k-block (the default). A stage is
// (128 + 128) x 128 bytes, as for bf16 128x128x64: 6 stages.
//===----------------------------------------------------------------------===//

// CHECK: \22types\22:{\22a\22:\22e4m3\22,\22b\22:\22e4m3\22,\22c\22:\22bf16\22,\22accumulator\22:\22f32\22,\22fp8_accumulation\22:{\22mode\22:\22promoted\22,\22promote_every_k\22:128}}
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22a\22,\22box\22:[128,128]
// CHECK-SAME: {\22kind\22:\22problem_size\22,\22dim\22:\22k\22},{\22kind\22:\22scale\22,\22tensor\22:\22a\22,\22granularity\22:\22tensor\22},{\22kind\22:\22scale\22,\22tensor\22:\22b\22,\22granularity\22:\22tensor\22}
// CHECK-LABEL: gpu.func @fp8_tensor(
// CHECK-SAME: !gemm.tma_desc<f8E4M3FN, box = [128, 128], swizzle = 128>, %{{.*}}: !gemm.tma_desc<f8E4M3FN, box = [128, 128], swizzle = 128>
// CHECK-SAME: %[[K:[a-z0-9]+]]: i32, %[[SA:[a-z0-9]+]]: !llvm.ptr<1>, %[[SB:[a-z0-9]+]]: !llvm.ptr<1>, %{{[a-z0-9]+}}: !gemm.tma_desc<f8E4M3FN, box = [128, 64], swizzle = 128>)
// CHECK: %[[PLAN:.*]]:4 = gemm.smem.plan : !gemm.smem<6 x 128 x 128 x f8E4M3FN, swizzle = 128>, !gemm.smem<6 x 128 x 128 x f8E4M3FN, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 6
// The producer announces 32 KiB per stage.
// CHECK: gemm.pipeline.producer_commit %[[PLAN]]#3[%{{.*}}] tx(32768)
// CHECK: } consumer {
// The per-tensor scales, once per consumer.
// CHECK: %[[S0:.*]] = gemm.scale.load %[[SA]][%{{.*}}] : !llvm.ptr<1>
// CHECK-NEXT: %[[S1:.*]] = gemm.scale.load %[[SB]][%{{.*}}] : !llvm.ptr<1>
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[S0]], %[[S1]] : f32
// Each k-block: fresh WGMMA sums (the zero accumulator), promoted once the
// next k-block's MMAs are issued and wait_group 1 says they are complete
// (two partial accumulators: three fit a 64 x 128 consumer). The first
// k-block, then two per trip in fixed roles (%P in flight across the
// back edge, %Q within the trip).
// CHECK: %[[ZERO:.*]] = gemm.accum.zero : <64 x 128 x f32>
// CHECK: %[[START:.*]] = gemm.accum.zero : <64 x 128 x f32>
// CHECK: %[[MAIN:.*]]:2 = scf.if %{{.*}} -> (!gemm.accum<64 x 128 x f32>, i32) {
// CHECK: gemm.pipeline.consumer_wait
// CHECK-NEXT: gemm.wgmma.fence
// CHECK: %[[P0:.*]] = gemm.mma.sm90 %[[ZERO]], %[[PLAN]]#0[%{{.*}}], %[[PLAN]]#1 slot(%{{.*}}) : <64 x 128 x f32>, <6 x 128 x 128 x f8E4M3FN, swizzle = 128>, <6 x 128 x 128 x f8E4M3FN, swizzle = 128>
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(1)
// CHECK: %[[PAIRS:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2_i32{{.*}} iter_args(%[[P:.*]] = %[[P0]], %[[ACC:.*]] = %[[START]], %{{.*}} = %{{.*}}) -> (!gemm.accum<64 x 128 x f32>, !gemm.accum<64 x 128 x f32>, i32)
// CHECK: gemm.pipeline.consumer_wait
// CHECK-NEXT: gemm.wgmma.fence
// CHECK: %[[Q:.*]] = gemm.mma.sm90 %[[ZERO]]
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(1)
// CHECK-NOT: gemm.scale.rows_smem
// CHECK: scf.if
// CHECK-NEXT: gemm.pipeline.consumer_release
// CHECK: %[[ACC1:.*]] = gemm.accum.promote %[[P]], %[[ACC]] : <64 x 128 x f32>
// CHECK: %[[P2:.*]] = gemm.mma.sm90 %[[ZERO]]
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(1)
// CHECK: %[[ACC2:.*]] = gemm.accum.promote %[[Q]], %[[ACC1]] : <64 x 128 x f32>
// CHECK: scf.yield %[[P2]], %[[ACC2]]
// An odd k-block left over; wait_group 0 only before the last promotion.
// CHECK: scf.if %{{.*}} -> (!gemm.accum<64 x 128 x f32>, i32) {
// CHECK: gemm.mma.sm90 %[[ZERO]]
// CHECK: gemm.wgmma.wait pending(1)
// CHECK: gemm.accum.promote %[[PAIRS]]#0, %[[PAIRS]]#1
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: gemm.accum.promote
// CHECK: } else {
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK: gemm.accum.promote %[[PAIRS]]#0, %[[PAIRS]]#1 : <64 x 128 x f32>
// An empty range (split-K, stream-K): no MMA, zero.
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[START]]
// The epilogue scales each sub-tile by the tensor scales.
// CHECK: %[[SCALED:.*]] = gemm.accum.scale %[[MAIN]]#0 values(0, 32) by(%[[S]]) : <64 x 128 x f32> -> <64 x 128 x f32>
// CHECK-NEXT: gemm.accum.store_smem %[[SCALED]] atom(0) col(0)
// CHECK: gemm.accum.scale %[[MAIN]]#0 values(32, 32) by(%[[S]])
gemm.matmul @fp8_tensor a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

//===----------------------------------------------------------------------===//
// (b) fp8 block-wise (A 1 x 128, B 128 x 128): the A scales of a k-block
// come with its stage, copied into a ring of their own by the producer
// warpgroup's second warp, whose 32 lanes arrive on the stage's full
// barrier (producers = 1 + 32); a stage is 512 bytes larger, so 5 fit
// instead of 6. A k-block's B scale is loaded when its MMAs are issued and
// carried to its promotion a k-block later; its A scales are read from the
// stage at the promotion, once its MMAs completed, just before the stage is
// released: every thread arrives on the empty barrier after its own reads
// (consumers = 2 warpgroups x 128 threads).
//===----------------------------------------------------------------------===//

// CHECK: {\22kind\22:\22scale\22,\22tensor\22:\22a\22,\22granularity\22:\22block\22},{\22kind\22:\22scale\22,\22tensor\22:\22b\22,\22granularity\22:\22block\22}
// CHECK-LABEL: gpu.func @fp8_block(
// CHECK-SAME: %[[M:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32, %[[K:[a-z0-9]+]]: i32, %[[SA:[a-z0-9]+]]: !llvm.ptr<1>, %[[SB:[a-z0-9]+]]: !llvm.ptr<1>,
// CHECK: %[[PLAN:.*]]:5 = gemm.smem.plan : !gemm.smem<5 x 128 x 128 x f8E4M3FN, swizzle = 128>, !gemm.smem<5 x 128 x 128 x f8E4M3FN, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.smem<5 x 1 x 128 x f32, swizzle = 0>, !gemm.pipeline<stages = 5, producers = 33, consumers = 256>
// CHECK: %[[KBLOCKS:.*]] = arith.ceildivui %[[K]]
// The TMA thread announces the boxes' bytes only; the scales arrive by count.
// CHECK: gemm.pipeline.producer_commit %[[PLAN]]#4[%{{.*}}] tx(32768)
// The second warp: for each stage of the same k-blocks, once the slot is
// empty, row r of the tile in k-block kb: element kb * M + min(origin M +
// r, M - 1).
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK-NEXT: %[[SECOND:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[SECOND]] {
// CHECK: %[[OM:.*]] = arith.muli %{{.*}}, %c128_i32{{.*}} : i32
// CHECK: scf.for %[[KBS:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[N1:.*]] = %{{.*}}) -> (i32)
// CHECK-NEXT: gemm.pipeline.producer_acquire %[[PLAN]]#4[%[[N1]]]
// CHECK: %[[SLOT1:.*]] = arith.remui %[[N1]], %c5_i32
// CHECK-NEXT: %[[SLICE:.*]] = arith.muli %[[KBS]], %[[M]] : i32
// CHECK-NEXT: gemm.scale.stage %[[SA]] + %[[SLICE]][%[[OM]]] below(%[[M]]) -> %[[PLAN]]#3[%[[SLOT1]]] barrier %[[PLAN]]#4[%[[N1]]] : !llvm.ptr<1>, <5 x 1 x 128 x f32, swizzle = 0>, <stages = 5, producers = 33, consumers = 256>
// CHECK: } consumer {
// CHECK-NOT: gemm.scale.rows %
// CHECK: %[[AROW:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// The first k-block's B scale, then its MMAs.
// CHECK: %[[SBLK0:.*]] = gemm.scale.load %[[SB]]
// CHECK-NEXT: gemm.pipeline.consumer_wait
// CHECK: %[[P0:.*]] = gemm.mma.sm90 %{{.*}}, %[[PLAN]]#0[%[[AROW]]], %[[PLAN]]#1
// CHECK: scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %c2_i32{{.*}} iter_args(%[[P:.*]] = %[[P0]], %[[ACC:.*]] = %{{.*}}, %[[IT:.*]] = %{{.*}}, %[[S:.*]] = %[[SBLK0]]) -> (!gemm.accum<64 x 128 x f32>, !gemm.accum<64 x 128 x f32>, i32, f32)
// B: block (n / 128, kb) of a [N / 128][K / 128] grid, the block column
// clamped to the last. Every k-block read is one of the range: no clamp to
// the last k-block.
// CHECK-NOT: arith.minui %[[KB]]
// CHECK: %[[COL:.*]] = arith.minui
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[COL]], %[[KBLOCKS]] : i32
// CHECK-NEXT: %[[IDX:.*]] = arith.addi %[[ROW]], %[[KB]] : i32
// CHECK-NEXT: %[[SBLK:.*]] = gemm.scale.load %[[SB]][%[[IDX]]] : !llvm.ptr<1>
// CHECK-NEXT: gemm.pipeline.consumer_wait
// CHECK: %[[Q:.*]] = gemm.mma.sm90
// CHECK: gemm.wgmma.wait pending(1)
// The previous k-block (stage %IT - 1), complete: its A scales from its
// slot, the stage released by every thread (no branch), its sums promoted.
// CHECK: %[[PREV:.*]] = arith.subi %[[IT]], %{{.*}} : i32
// CHECK: %[[PSLOT:.*]] = arith.remui %[[PREV]], %c5_i32{{.*}} : i32
// CHECK: %[[ROWS:.*]] = gemm.scale.rows_smem %[[PLAN]]#3[%[[PSLOT]], %[[AROW]]] : <5 x 1 x 128 x f32, swizzle = 0> -> vector<2xf32>
// CHECK-NEXT: gemm.pipeline.consumer_release %[[PLAN]]#4[%[[PREV]]]
// CHECK: %[[ACC1:.*]] = gemm.accum.promote %[[P]], %[[ACC]] rows(%[[ROWS]] : vector<2xf32>) by(%[[S]]) : <64 x 128 x f32>
// CHECK: %[[SBLK2:.*]] = gemm.scale.load %[[SB]]
// CHECK: %[[P2:.*]] = gemm.mma.sm90
// CHECK: gemm.wgmma.wait pending(1)
// CHECK: %[[ROWS2:.*]] = gemm.scale.rows_smem %[[PLAN]]#3
// CHECK: %[[ACC2:.*]] = gemm.accum.promote %[[Q]], %[[ACC1]] rows(%[[ROWS2]] : vector<2xf32>) by(%[[SBLK]]) : <64 x 128 x f32>
// CHECK: scf.yield %[[P2]], %[[ACC2]], %{{.*}}, %[[SBLK2]]
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: gemm.scale.rows_smem
// CHECK: gemm.accum.promote
// Nothing left to scale in the epilogue.
// CHECK-NOT: gemm.accum.scale
// CHECK: gemm.accum.store_smem
gemm.matmul @fp8_block a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// A 64-wide tile lies in one 128-column block of B: its block column is
// origin N / 128, the same for two neighbouring tiles.
// CHECK-LABEL: gpu.func @fp8_block_n64(
// CHECK: } consumer {
// CHECK: %[[DIV:.*]] = arith.divui %{{.*}}, %c128_i32{{.*}} : i32
// CHECK: gemm.scale.load
// CHECK: gemm.scale.rows_smem
// CHECK: gemm.accum.promote %{{.*}}, %{{.*}} rows(%{{.*}} : vector<2xf32>) by(%{{.*}}) : <64 x 64 x f32>
gemm.matmul @fp8_block_n64 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f32, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 128]>)

// -----

// A 192-wide tile may start in the middle of a 128-column block of B: one
// B scale per 64-column group, block column (origin N + 64 i) / 128, the
// three carried in the loop. Three accumulators of 96 registers would not
// fit: the serial promotion (wait_group 0) with the B scales still loaded a
// k-block ahead and the A scales read from the k-block's stage once its
// MMAs completed, before its release.
// CHECK-LABEL: gpu.func @fp8_block_n192(
// CHECK: } consumer {
// CHECK: %[[O0:.*]] = arith.addi %[[ON:[^,]*]], %c0_i32{{.*}} : i32
// CHECK-NEXT: arith.divui %[[O0]], %c128_i32{{.*}} : i32
// CHECK: gemm.scale.load
// CHECK: %[[O1:.*]] = arith.addi %[[ON]], %c64_i32{{.*}} : i32
// CHECK-NEXT: arith.divui %[[O1]], %c128_i32{{.*}} : i32
// CHECK: gemm.scale.load
// CHECK: %[[O2:.*]] = arith.addi %[[ON]], %c128_i32{{.*}} : i32
// CHECK-NEXT: arith.divui %[[O2]], %c128_i32{{.*}} : i32
// CHECK: gemm.scale.load
// CHECK: scf.for {{.*}} -> (!gemm.accum<64 x 192 x f32>, i32, f32, f32, f32)
// CHECK: gemm.pipeline.consumer_wait
// CHECK: gemm.mma.sm90
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: %[[ROWS:.*]] = gemm.scale.rows_smem
// CHECK-NEXT: gemm.pipeline.consumer_release
// CHECK: gemm.accum.promote %{{.*}}, %{{.*}} rows(%[[ROWS]] : vector<2xf32>) by(%{{.*}}, %{{.*}}, %{{.*}}) : <64 x 192 x f32>
// CHECK-NOT: gemm.wgmma.wait pending(1)
gemm.matmul @fp8_block_n192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)

// -----

//===----------------------------------------------------------------------===//
// (c) fp8 row-wise A and column-wise B, promoted every 4 k-blocks: each
// group keeps one WGMMA group in flight like the plain mainloop; the row
// scales are loaded per tile before the mainloop, the column scales per
// sub-tile.
//===----------------------------------------------------------------------===//

// CHECK: \22promote_every_k\22:512
// CHECK-LABEL: gpu.func @fp8_rowwise(
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32, %{{[a-z0-9]+}}: i32, %[[SA:[a-z0-9]+]]: !llvm.ptr<1>, %[[SB:[a-z0-9]+]]: !llvm.ptr<1>,
// CHECK: } consumer {
// CHECK: %[[ROWS:.*]] = gemm.scale.rows %[[SA]][%{{.*}}] below(%{{.*}}) : !llvm.ptr<1> -> vector<2xf32>
// CHECK: scf.for %[[KB:.*]] = %{{.*}} to %[[END:.*]] step %c4_i32
// CHECK: gemm.mma.sm90
// CHECK: gemm.wgmma.wait pending(1)
// CHECK: %[[LAST:.*]] = arith.minui %{{.*}}, %[[END]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[LAST]] step
// CHECK: gemm.mma.sm90
// CHECK: gemm.wgmma.wait pending(1)
// CHECK: gemm.pipeline.consumer_release
// CHECK: gemm.wgmma.wait pending(0)
// CHECK: gemm.pipeline.consumer_release
// CHECK: gemm.accum.promote %{{.*}}, %{{.*}} : <64 x 128 x f32>
// CHECK: %[[COLS:.*]] = gemm.scale.cols %[[SB]][%{{.*}}] below(%[[N]]) : !llvm.ptr<1> -> vector<16xf32>
// CHECK: gemm.tma.store_wait pending(1) read
// CHECK: %[[Y:.*]] = gemm.accum.scale %{{.*}} values(0, 32) rows(%[[ROWS]] : vector<2xf32>) cols(%[[COLS]] : vector<16xf32>) : <64 x 128 x f32> -> <64 x 128 x f32>
// CHECK-NEXT: gemm.accum.store_smem %[[Y]] atom(0) col(0)
gemm.matmul @fp8_rowwise a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col, promote_every = 4>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

//===----------------------------------------------------------------------===//
// (d) fp8 fast accumulation, mixed e4m3 x e5m2, 128x256: one WGMMA
// accumulator, the plain mainloop.
//===----------------------------------------------------------------------===//

// CHECK: \22types\22:{\22a\22:\22e4m3\22,\22b\22:\22e5m2\22,\22c\22:\22f16\22,\22accumulator\22:\22f32\22,\22fp8_accumulation\22:{\22mode\22:\22fast\22,\22promote_every_k\22:0}}
// CHECK-LABEL: gpu.func @fp8_fast(
// CHECK: gemm.smem.plan : !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>, !gemm.smem<4 x 256 x 128 x f8E5M2, swizzle = 128>
// CHECK-NOT: gemm.accum.promote
// CHECK: gemm.mma.sm90 {{.*}} : <64 x 256 x f32>, <4 x 128 x 128 x f8E4M3FN, swizzle = 128>, <4 x 256 x 128 x f8E5M2, swizzle = 128>
// CHECK-NOT: gemm.accum.promote
// CHECK: gemm.accum.store_smem
gemm.matmul @fp8_fast a(f8E4M3FN, row) b(f8E5M2, col) c(f16, row) acc(f32)
    quant(#gemm.quant<accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

//===----------------------------------------------------------------------===//
// (e) fp8 output: 128-column staging sub-tiles of fp8, the output scale and
// the amax passed to each store.
//===----------------------------------------------------------------------===//

// CHECK: \22c\22:\22e5m2\22
// CHECK-SAME: {\22kind\22:\22tma_descriptor\22,\22tensor\22:\22c\22,\22box\22:[128,64]
// CHECK-SAME: {\22kind\22:\22scale\22,\22tensor\22:\22c\22,\22granularity\22:\22tensor\22},{\22kind\22:\22amax\22}]
// CHECK-LABEL: gpu.func @fp8_out(
// CHECK-SAME: %[[SC:[a-z0-9]+]]: !llvm.ptr<1>, %[[AMAX:[a-z0-9]+]]: !llvm.ptr<1>)
// CHECK: gemm.smem.plan : {{.*}}, !gemm.smem<4 x 64 x 128 x f8E5M2, swizzle = 128>
// CHECK: } consumer {
// CHECK: %[[OUT:.*]] = gemm.scale.load %[[SC]][%{{.*}}] : !llvm.ptr<1>
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %{{.*}} scale(%[[OUT]]) amax(%[[AMAX]] : !llvm.ptr<1>) : <64 x 128 x f32>, <4 x 64 x 128 x f8E5M2, swizzle = 128>
gemm.matmul @fp8_out a(f8E5M2, row) b(f8E4M3FN, col) c(f8E5M2, row) acc(f32)
    quant(#gemm.quant<c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// A 64-row tile skips the 16-row A boxes past M (their rows are clipped
// from C), but not with an fp8 output: its amax takes every row of the
// tile, so those rows must be the zeros whole boxes load
// (test/Simulator/fp8-amax-edge-rows.mlir).
// CHECK-LABEL: gpu.module @fp8_out_64
// CHECK-NOT: box = [128, 16]
// CHECK: gemm.accum.store_smem {{.*}} amax(
gemm.matmul @fp8_out_64 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)

// -----

// CHECK-LABEL: gpu.module @fp8_bf16_64
// CHECK: !gemm.tma_desc<f8E4M3FN, box = [128, 16], swizzle = 128>
gemm.matmul @fp8_bf16_64 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)

// -----

//===----------------------------------------------------------------------===//
// (f) int8: s32 accumulators; an i32 output stores them as they are (32
// columns per sub-tile); mixed s8 x u8 needs PTX ISA 8.4.
//===----------------------------------------------------------------------===//

// CHECK: \22types\22:{\22a\22:\22s8\22,\22b\22:\22s8\22,\22c\22:\22s32\22,\22accumulator\22:\22s32\22}
// CHECK-LABEL: gpu.module @int8 [#nvvm.target<O = 3, chip = "sm_90a">]
// CHECK: gemm.smem.plan : !gemm.smem<4 x 128 x 128 x si8, swizzle = 128>, !gemm.smem<4 x 256 x 128 x si8, swizzle = 128>, !gemm.smem<4 x 64 x 32 x i32, swizzle = 128>
// CHECK: gemm.accum.zero : <64 x 256 x i32>
// CHECK: gemm.mma.sm90 {{.*}} : <64 x 256 x i32>, <4 x 128 x 128 x si8, swizzle = 128>, <4 x 256 x 128 x si8, swizzle = 128>
// CHECK-NOT: gemm.accum.scale
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %{{.*}} : <64 x 256 x i32>, <4 x 64 x 32 x i32, swizzle = 128>
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(224)
gemm.matmul @int8 a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// Dequantised to bf16 by per-row and per-column scales.
// CHECK: \22types\22:{\22a\22:\22u8\22,\22b\22:\22s8\22,\22c\22:\22bf16\22,\22accumulator\22:\22s32\22}
// CHECK-SAME: {\22kind\22:\22scale\22,\22tensor\22:\22a\22,\22granularity\22:\22row\22},{\22kind\22:\22scale\22,\22tensor\22:\22b\22,\22granularity\22:\22col\22}
// CHECK-LABEL: gpu.module @int8_dequant [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx84">]
// CHECK: %[[ROWS:.*]] = gemm.scale.rows
// CHECK: %[[ACC:.*]]:2 = scf.for
// CHECK: %[[COLS:.*]] = gemm.scale.cols
// CHECK: %[[Y:.*]] = gemm.accum.scale %[[ACC]]#0 values(0, 32) rows(%[[ROWS]] : vector<2xf32>) cols(%[[COLS]] : vector<16xf32>) : <64 x 256 x i32> -> <64 x 256 x f32>
// CHECK-NEXT: gemm.accum.store_smem %[[Y]] atom(0) col(0) -> %{{.*}} : <64 x 256 x f32>, <4 x 64 x 64 x bf16, swizzle = 128>
gemm.matmul @int8_dequant a(ui8, row) b(si8, col) c(bf16, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// Without scales, an int8 product into bf16 is only converted.
// CHECK-LABEL: gpu.func @int8_convert(
// CHECK-NOT: gemm.scale
// CHECK: gemm.accum.scale %{{.*}} values(0, 32) : <64 x 256 x i32> -> <64 x 256 x f32>
gemm.matmul @int8_convert a(si8, row) b(si8, col) c(bf16, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

//===----------------------------------------------------------------------===//
// (g) tf32: f32 tiles of 32 columns (128 bytes), f32 out.
//===----------------------------------------------------------------------===//

// CHECK: \22types\22:{\22a\22:\22f32\22,\22b\22:\22f32\22,\22c\22:\22f32\22,\22accumulator\22:\22f32\22}
// CHECK-SAME: \22box\22:[32,128]
// CHECK-LABEL: gpu.func @tf32(
// CHECK: gemm.smem.plan : !gemm.smem<4 x 128 x 32 x f32, swizzle = 128>, !gemm.smem<4 x 256 x 32 x f32, swizzle = 128>, !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>
// CHECK: gemm.mma.sm90 {{.*}} : <64 x 256 x f32>, <4 x 128 x 32 x f32, swizzle = 128>, <4 x 256 x 32 x f32, swizzle = 128>
// CHECK-NOT: gemm.accum.scale
gemm.matmul @tf32 a(f32, row) b(f32, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32]>)

// -----

//===----------------------------------------------------------------------===//
// (h) Batches and a column-major C (issue 17's layouts and batches): a
// batched fp8 kernel with per-tensor scales takes them after the batch
// parameters (and after the split-K workspaces); its dequantised bf16 C
// column-major is staged transposed. An int8 kernel's s32 C column-major
// likewise (32-bit slots).
//===----------------------------------------------------------------------===//

// CHECK: \22layouts\22:{\22a\22:\22row\22,\22b\22:\22col\22,\22c\22:\22col\22}
// CHECK-SAME: {\22kind\22:\22problem_size\22,\22dim\22:\22batch\22},{\22kind\22:\22problem_size\22,\22dim\22:\22batch_broadcast\22},{\22kind\22:\22scale\22,\22tensor\22:\22a\22,\22granularity\22:\22tensor\22},{\22kind\22:\22scale\22,\22tensor\22:\22b\22,\22granularity\22:\22tensor\22}
// CHECK-LABEL: gpu.func @fp8_batched_ccol(
// CHECK-SAME: !gemm.tma_desc<f8E4M3FN, box = [128, 128, 1], swizzle = 128>
// CHECK-SAME: %[[K:[a-z0-9]+]]: i32, %[[BATCH:[a-z0-9]+]]: i32, %[[BCAST:[a-z0-9]+]]: i32, %[[SA:[a-z0-9]+]]: !llvm.ptr<1>, %[[SB:[a-z0-9]+]]: !llvm.ptr<1>,
// CHECK: gemm.scale.load %[[SA]]
// CHECK: gemm.accum.promote
// CHECK: %[[Y:.*]] = gemm.accum.scale
// CHECK-NEXT: gemm.accum.store_smem %[[Y]] atom(0) col(0) transposed -> %{{.*}} : <64 x 128 x f32>, <4 x 64 x 64 x bf16, swizzle = 128>
gemm.matmul @fp8_batched_ccol a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32) batched
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// CHECK-LABEL: gpu.func @fp8_batched_split(
// CHECK-SAME: %[[BATCH:[a-z0-9]+]]: i32, %[[BCAST:[a-z0-9]+]]: i32, %[[PART:[a-z0-9]+]]: !llvm.ptr<1>, %[[CNT:[a-z0-9]+]]: !llvm.ptr<1>, %[[SA:[a-z0-9]+]]: !llvm.ptr<1>, %[[SB:[a-z0-9]+]]: !llvm.ptr<1>,
// CHECK: gemm.scale.load %[[SA]]
gemm.matmul @fp8_batched_split a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32) batched
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], scheduler = split_k, splits = 2>)

// -----

// CHECK-LABEL: gpu.func @int8_ccol(
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) transposed -> %{{.*}} : <64 x 256 x i32>, <4 x 64 x 32 x i32, swizzle = 128>
gemm.matmul @int8_ccol a(si8, row) b(si8, col) c(i32, col) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

//===----------------------------------------------------------------------===//
// (z) fp8 block-wise 192x128: three consumers have 96 accumulator
// registers, too few for a 64 x 128 partial beside the f32 accumulator, so
// each k-block's partial sums are computed and promoted in two slices of 64
// columns (bundle::accumulatorPlan): one stage wait, then per slice the
// MMAs of its B rows (cols), wait_group 0 and its promotion into those
// columns; the A scales are read after the first slice's MMAs, the stage is
// released after the last's, and each slice takes the tile's one B scale.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: gpu.func @fp8_block_slices(
// CHECK: } consumer {
// CHECK: scf.for
// CHECK: gemm.scale.load
// CHECK: %[[HALF:.*]] = gemm.accum.zero : <64 x 64 x f32>
// CHECK-NEXT: gemm.pipeline.consumer_wait
// CHECK: gemm.wgmma.fence
// CHECK-NEXT: %[[P0:.*]] = gemm.mma.sm90 %[[HALF]], %{{.*}}, %{{.*}} cols(0) slot(%{{.*}}) : <64 x 64 x f32>, <{{[0-9]+}} x 192 x 128 x f8E4M3FN, swizzle = 128>, <{{[0-9]+}} x 128 x 128 x f8E4M3FN, swizzle = 128>
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK: %[[ROWS:.*]] = gemm.scale.rows_smem
// CHECK-NOT: gemm.pipeline.consumer_release
// CHECK-NEXT: %[[ACC0:.*]] = gemm.accum.promote %[[P0]], %{{.*}} cols(0) rows(%[[ROWS]] : vector<2xf32>) by(%[[BS:.*]]) : <64 x 64 x f32> into <64 x 128 x f32>
// CHECK-NEXT: gemm.wgmma.fence
// CHECK-NEXT: %[[P1:.*]] = gemm.mma.sm90 %[[HALF]], %{{.*}}, %{{.*}} cols(64) slot(%{{.*}})
// CHECK-NEXT: gemm.wgmma.commit
// CHECK-NEXT: gemm.wgmma.wait pending(0)
// CHECK: gemm.pipeline.consumer_release
// CHECK-NEXT: gemm.accum.promote %[[P1]], %[[ACC0]] cols(64) rows(%[[ROWS]] : vector<2xf32>) by(%[[BS]]) : <64 x 64 x f32> into <64 x 128 x f32>
gemm.matmul @fp8_block_slices a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128]>)
