// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// gemm.mma.sm90 becomes BK / 16 k-steps of one nvvm.wgmma.mma_async per
// 64-row accumulator atom, with 128-byte-swizzle K-major shared-memory
// descriptors: (1 << 62) | ((1024 >> 4) << 32) | (1 << 16)
// = 4611686293305360384, plus the start address >> 4. The start address is
// the slot's offset in the CTA's shared memory, address & 0x3FFFF (PTX ISA
// matrix-descriptor-encode): in a cluster a shared::cta address carries the
// CTA's rank from bit 24 up, which must not reach the leading byte offset
// (bits 16-29). The k-steps advance both operands by 32 bytes (2 in the
// start field, folded into the constant); atom i of A starts 64 * i rows
// (of 128 bytes) into the slot.

!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringB256 = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
!ringB128 = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @mma_64x256
  // CHECK-SAME: (%[[ACC:[a-z0-9]+]]: !llvm.struct<(struct<(f32, {{.*}})>)>, %[[A:[a-z0-9]+]]: !llvm.ptr<3>, %[[B:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32)
  // A slot + row offset (128 bytes per row), B slot.
  // CHECK: %[[ASTAGE:.*]] = llvm.mlir.constant(16384 : i32) : i32
  // CHECK-NEXT: %[[AOFF:.*]] = llvm.mul %[[SLOT]], %[[ASTAGE]] : i32
  // CHECK-NEXT: %[[ROWBYTES:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[ROFF:.*]] = llvm.mul %[[ROW]], %[[ROWBYTES]] : i32
  // CHECK-NEXT: %[[ATOTAL:.*]] = llvm.add %[[AOFF]], %[[ROFF]] : i32
  // CHECK-NEXT: %[[ASLOT:.*]] = llvm.getelementptr %[[A]][%[[ATOTAL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[BSTAGE:.*]] = llvm.mlir.constant(32768 : i32) : i32
  // CHECK-NEXT: %[[BOFF:.*]] = llvm.mul %[[SLOT]], %[[BSTAGE]] : i32
  // CHECK-NEXT: %[[BSLOT:.*]] = llvm.getelementptr %[[B]][%[[BOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // The start fields: (slot address & 0x3FFFF) >> 4, A's then B's.
  // CHECK-NEXT: %[[AI:.*]] = llvm.ptrtoint %[[ASLOT]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(262143 : i32) : i32
  // CHECK-NEXT: %[[AM:.*]] = llvm.and %[[AI]], %[[MASK]] : i32
  // CHECK-NEXT: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[AS:.*]] = llvm.lshr %[[AM]], %[[FOUR]] : i32
  // CHECK-NEXT: %[[ASTART:.*]] = llvm.zext %[[AS]] : i32 to i64
  // CHECK-NEXT: %[[BI:.*]] = llvm.ptrtoint %[[BSLOT]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[MASKB:.*]] = llvm.mlir.constant(262143 : i32) : i32
  // CHECK-NEXT: %[[BM:.*]] = llvm.and %[[BI]], %[[MASKB]] : i32
  // CHECK-NEXT: %[[FOURB:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[BS:.*]] = llvm.lshr %[[BM]], %[[FOURB]] : i32
  // CHECK-NEXT: %[[BSTART:.*]] = llvm.zext %[[BS]] : i32 to i64
  // k-step 0: B descriptor, then A descriptor of atom 0.
  // CHECK-NEXT: %[[BITS:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
  // CHECK-NEXT: %[[BDESC0:.*]] = llvm.add %[[BSTART]], %[[BITS]] : i64
  // CHECK-NEXT: %[[ABITS:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
  // CHECK-NEXT: %[[ADESC0:.*]] = llvm.add %[[ASTART]], %[[ABITS]] : i64
  // CHECK-NEXT: %[[ATOM0:.*]] = llvm.extractvalue %[[ACC]][0]
  // CHECK-NEXT: %[[D0:.*]] = nvvm.wgmma.mma_async %[[ADESC0]], %[[BDESC0]], %[[ATOM0]], <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
  // CHECK-NEXT: %[[ACC1:.*]] = llvm.insertvalue %[[D0]], %[[ACC]][0]
  // k-steps 1-3 at 32, 64 and 96 bytes into the rows (start + 2, 4, 6),
  // chaining the accumulator.
  // CHECK-NEXT: llvm.mlir.constant(4611686293305360386 : i64) : i64
  // CHECK-NEXT: llvm.add %[[BSTART]], %{{.*}} : i64
  // CHECK-NEXT: llvm.mlir.constant(4611686293305360386 : i64) : i64
  // CHECK-NEXT: llvm.add %[[ASTART]], %{{.*}} : i64
  // CHECK-NEXT: llvm.extractvalue %[[ACC1]][0]
  // CHECK-NEXT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
  // CHECK: llvm.mlir.constant(4611686293305360388 : i64) : i64
  // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
  // CHECK: llvm.mlir.constant(4611686293305360390 : i64) : i64
  // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @mma_64x256(%acc: !gemm.accum<64 x 256 x f32>, %a: !ringA, %b: !ringB256,
                       %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 256 x f32>, !ringA, !ringB256
    gpu.return
  }

  // Two atoms: 4 k-steps x 2 atoms = 8 WGMMAs of N = 128; atom 1 reads A
  // 64 rows (8192 bytes) further.
  // CHECK-LABEL: gpu.func @mma_128x128
  // CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.ptr<3>, %[[B:[a-z0-9]+]]: !llvm.ptr<3>
  // CHECK: %[[ASLOT:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.ptrtoint %[[ASLOT]]
  // CHECK: %[[ASTART:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: llvm.add %[[ASTART]], %{{.*}} : i64
  // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
  // CHECK-NEXT: llvm.insertvalue %{{.*}}[0]
  // 8192 bytes: 512 in the start field.
  // CHECK-NEXT: llvm.mlir.constant(4611686293305360896 : i64) : i64
  // CHECK-NEXT: llvm.add %[[ASTART]], %{{.*}} : i64
  // CHECK: llvm.extractvalue %{{.*}}[1]
  // CHECK-NEXT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
  // CHECK-NEXT: llvm.insertvalue %{{.*}}[1]
  // CHECK: llvm.mlir.constant(4611686293305360386 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360898 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360388 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360900 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360390 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360902 : i64)
  // CHECK: gpu.return
  gpu.func @mma_128x128(%acc: !gemm.accum<128 x 128 x f32>, %a: !ringA, %b: !ringB128,
                        %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<128 x 128 x f32>, !ringA, !ringB128
    gpu.return
  }

  // A column slice (cols(128)) of a 256-row B: B's slot address is 128 rows
  // of 128 bytes (16384) further; the WGMMA is n = 128.
  // CHECK-LABEL: gpu.func @mma_cols
  // CHECK: %[[BSTAGE:.*]] = llvm.mlir.constant(32768 : i32) : i32
  // CHECK-NEXT: %[[BOFF:.*]] = llvm.mul %{{.*}}, %[[BSTAGE]] : i32
  // CHECK-NEXT: %[[ROWBYTES:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[ROFF:.*]] = llvm.mul %{{.*}}, %[[ROWBYTES]] : i32
  // CHECK-NEXT: %[[TOTAL:.*]] = llvm.add %[[BOFF]], %[[ROFF]] : i32
  // CHECK-NEXT: llvm.getelementptr %{{.*}}[%[[TOTAL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @mma_cols(%acc: !gemm.accum<64 x 128 x f32>, %a: !ringA, %b: !ringB256,
                     %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b cols(128) slot(%slot)
        : !gemm.accum<64 x 128 x f32>, !ringA, !ringB256
    gpu.return
  }

  // CHECK-LABEL: gpu.func @mma_128x128_count
  // CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @mma_128x128_count(%acc: !gemm.accum<128 x 128 x f32>, %a: !ringA, %b: !ringB128,
                              %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<128 x 128 x f32>, !ringA, !ringB128
    gpu.return
  }

  // CHECK-LABEL: gpu.func @mma_64x256_count
  // CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @mma_64x256_count(%acc: !gemm.accum<64 x 256 x f32>, %a: !ringA, %b: !ringB256,
                             %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 256 x f32>, !ringA, !ringB256
    gpu.return
  }

  // f16 operands.
  // CHECK-LABEL: gpu.func @mma_f16
  // CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @mma_f16(%acc: !gemm.accum<64 x 64 x f32>,
                    %a: !gemm.smem<2 x 64 x 64 x f16, swizzle = 128>,
                    %b: !gemm.smem<2 x 64 x 64 x f16, swizzle = 128>, %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 64 x f32>, !gemm.smem<2 x 64 x 64 x f16, swizzle = 128>,
          !gemm.smem<2 x 64 x 64 x f16, swizzle = 128>
    gpu.return
  }

  // An accumulator straight from accum.zero is not materialised: the first
  // k-step of each atom overwrites it (scale-d = 0) and reads undefined
  // registers, so ptxas sees no register writes between the fence and the
  // WGMMAs (which would make it insert warpgroup.arrive/wait).
  // (The zeros themselves are dead and left to DCE.)
  // CHECK-LABEL: gpu.func @mma_fresh
  // The A slot, the B slot, their descriptors' start fields, then the
  // MMA's own undefined accumulator.
  // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-COUNT-2: llvm.zext %{{.*}} : i32 to i64
  // CHECK-NEXT: %[[FRESH:.*]] = llvm.mlir.undef : !llvm.struct<(struct<(f32, {{.*}})>, struct<(f32, {{.*}})>)>
  // CHECK-NOT: llvm.insertvalue %{{.*}}, %[[FRESH]]
  // CHECK: llvm.extractvalue %[[FRESH]][0]
  // CHECK-NEXT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <zero>]
  // CHECK: llvm.extractvalue %{{.*}}[1]
  // CHECK-NEXT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <zero>]
  // CHECK-COUNT-6: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>]
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @mma_fresh(%a: !ringA, %b: !ringB128, %slot: i32, %row: i32) {
    %zero = gemm.accum.zero : !gemm.accum<128 x 128 x f32>
    %r = gemm.mma.sm90 %zero, %a[%row], %b slot(%slot)
        : !gemm.accum<128 x 128 x f32>, !ringA, !ringB128
    gpu.return
  }

  // accum.zero fills every register of every atom with 0.0.
  // CHECK-LABEL: gpu.func @zero
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[UNDEF:.*]] = llvm.mlir.undef : !llvm.struct<(struct<(f32, {{.*}})>, struct<(f32, {{.*}})>)>
  // CHECK-NEXT: %[[Z0:.*]] = llvm.insertvalue %[[ZERO]], %[[UNDEF]][0, 0]
  // CHECK-COUNT-7: llvm.insertvalue %[[ZERO]], %{{.*}}[0, {{[1-7]}}]
  // CHECK-COUNT-8: llvm.insertvalue %[[ZERO]], %{{.*}}[1, {{[0-7]}}]
  // CHECK-NOT: llvm.insertvalue
  // CHECK: gpu.return
  gpu.func @zero() {
    %z = gemm.accum.zero : !gemm.accum<128 x 16 x f32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @sync
  // CHECK-NEXT: nvvm.wgmma.fence.aligned
  // CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
  // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
  // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
  // CHECK-NEXT: gpu.return
  gpu.func @sync() {
    gemm.wgmma.fence
    gemm.wgmma.commit
    gemm.wgmma.wait pending(1)
    gemm.wgmma.wait pending(0)
    gpu.return
  }
  // Split-K partial tiles: thread t's values go in 16-byte steps to floats
  // block * rows * cols + 4 t (+ 512 per step), so a warp writes 512
  // contiguous bytes per step.
  // CHECK-LABEL: gpu.func @store_global
  // CHECK-SAME: (%[[ACC:.*]]: !llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)>, %[[P:.*]]: !llvm.ptr<1>, %[[I:.*]]: i32)
  // CHECK: %[[T:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
  // CHECK: %[[BLOCK:.*]] = llvm.mlir.constant(1024 : i64) : i64
  // CHECK-NEXT: %[[I64:.*]] = llvm.zext %[[I]] : i32 to i64
  // CHECK-NEXT: %[[BASE:.*]] = llvm.mul %[[I64]], %[[BLOCK]] : i64
  // CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  // CHECK: llvm.extractvalue %[[ACC]][0, 0]
  // CHECK: %[[S0:.*]] = llvm.getelementptr %[[FIRST]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  // CHECK-NEXT: llvm.store %{{.*}}, %[[S0]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK: llvm.extractvalue %[[ACC]][0, 7]
  // CHECK: %[[S1:.*]] = llvm.getelementptr %[[FIRST]][512] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  // CHECK-NEXT: llvm.store %{{.*}}, %[[S1]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK-NEXT: gpu.return
  gpu.func @store_global(%acc: !gemm.accum<64 x 16 x f32>, %p: !llvm.ptr<1>, %i: i32) {
    gemm.accum.store_global %acc -> %p[%i] : !gemm.accum<64 x 16 x f32>, !llvm.ptr<1>
    gpu.return
  }

  // values(8, 4): one 16-byte step, step 2, added to values 0-3 of atom 1.
  // CHECK-LABEL: gpu.func @load_add_global
  // CHECK-SAME: (%[[ACC:.*]]: !llvm.struct<{{.*}}>, %[[P:.*]]: !llvm.ptr<1>, %[[I:.*]]: i32)
  // CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  // CHECK-NEXT: %[[STEP:.*]] = llvm.getelementptr %[[FIRST]][1024] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  // CHECK-NEXT: %[[V:.*]] = llvm.load %[[STEP]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK: %[[E0:.*]] = llvm.extractelement %[[V]]
  // CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[ACC]][1, 0]
  // CHECK-NEXT: %[[SUM:.*]] = llvm.fadd %[[A0]], %[[E0]] : f32
  // CHECK-NEXT: llvm.insertvalue %[[SUM]], %[[ACC]][1, 0]
  // CHECK-COUNT-3: llvm.fadd
  // CHECK-NOT: llvm.load
  // CHECK-NOT: llvm.fadd
  // CHECK: gpu.return
  gpu.func @load_add_global(%acc: !gemm.accum<128 x 16 x f32>, %p: !llvm.ptr<1>, %i: i32) {
    %r = gemm.accum.load_add_global %acc, %p[%i] values(8, 4) : !gemm.accum<128 x 16 x f32>, !llvm.ptr<1>
    gemm.wgmma.fence
    gpu.return
  }
}

// -----
// MN-major operands (an M-major A, an N-major B): the blocks of 64 rows
// are BK = 64 lines of 128 bytes each (8192 bytes), so the descriptors
// carry LBO = 8192 (block to block) and SBO = 1024 (8 K lines to the next
// 8): (1 << 62) | ((1024 >> 4) << 32) | ((8192 >> 4) << 16)
// = 4611686293338849280. A k-step is 16 K lines: 2048 bytes. PTX's layout
// names flip to the transposed forms: A col (imm-trans-a = 1), B row
// (imm-trans-b = 1).

!ringAm = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>
!ringBn = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>
!ringAk = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringBk = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>

gpu.module @mn_major {
  // CHECK-LABEL: gpu.func @a_m_major
  // CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.ptr<3>, %[[B:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32)
  // Row r of the A slot starts block r / 64 (8192 bytes each).
  // CHECK: %[[AOFF:.*]] = llvm.mul %[[SLOT]], %{{.*}} : i32
  // CHECK-NEXT: %[[SPAN:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK-NEXT: %[[BLOCK:.*]] = llvm.udiv %[[ROW]], %[[SPAN]] : i32
  // CHECK-NEXT: %[[BLOCKBYTES:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-NEXT: %[[BOFF:.*]] = llvm.mul %[[BLOCK]], %[[BLOCKBYTES]] : i32
  // CHECK-NEXT: %[[ATOTAL:.*]] = llvm.add %[[AOFF]], %[[BOFF]] : i32
  // CHECK-NEXT: %[[ASLOT:.*]] = llvm.getelementptr %[[A]][%[[ATOTAL]]]
  // CHECK: %[[BSLOT:.*]] = llvm.getelementptr %[[B]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.ptrtoint %[[ASLOT]]
  // CHECK-NEXT: llvm.mlir.constant(262143 : i32)
  // CHECK: %[[ASTART:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: llvm.ptrtoint %[[BSLOT]]
  // CHECK-NEXT: llvm.mlir.constant(262143 : i32)
  // CHECK: %[[BSTART:.*]] = llvm.zext %{{.*}} : i32 to i64
  // K-major B: the K-major bits.
  // CHECK: llvm.mlir.constant(4611686293305360384 : i64) : i64
  // CHECK: %[[ABITS:.*]] = llvm.mlir.constant(4611686293338849280 : i64) : i64
  // CHECK-NEXT: %[[ADESC:.*]] = llvm.add %[[ASTART]], %[[ABITS]] : i64
  // CHECK: nvvm.wgmma.mma_async %[[ADESC]], %{{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
  // The next k-steps: 32 bytes further in B's rows (+2), 16 lines (2048
  // bytes, +128) further in A's blocks.
  // CHECK: llvm.mlir.constant(4611686293305360386 : i64)
  // CHECK: llvm.mlir.constant(4611686293338849408 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360388 : i64)
  // CHECK: llvm.mlir.constant(4611686293338849536 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360390 : i64)
  // CHECK: llvm.mlir.constant(4611686293338849664 : i64)
  // CHECK: nvvm.wgmma.mma_async
  // CHECK-NOT: nvvm.wgmma.mma_async
  // CHECK: gpu.return
  gpu.func @a_m_major(%acc: !gemm.accum<64 x 256 x f32>, %a: !ringAm, %b: !ringBk,
                      %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 256 x f32>, !ringAm, !ringBk
    gpu.return
  }

  // CHECK-LABEL: gpu.func @b_n_major
  // CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.ptr<3>, %[[B:[a-z0-9]+]]: !llvm.ptr<3>
  // CHECK: %[[ASLOT:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[BSLOT:.*]] = llvm.getelementptr %[[B]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // The B start field is masked too: an N-major B of N = 256 spans 4
  // blocks, whose stride is the leading byte offset that an unmasked
  // cluster rank (bit 24 of the address) would have added 16 << 16 to.
  // CHECK: %[[BI:.*]] = llvm.ptrtoint %[[BSLOT]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(262143 : i32) : i32
  // CHECK-NEXT: %[[BM:.*]] = llvm.and %[[BI]], %[[MASK]] : i32
  // CHECK-NEXT: llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[BS:.*]] = llvm.lshr %[[BM]], %{{.*}} : i32
  // CHECK-NEXT: %[[BSTART:.*]] = llvm.zext %[[BS]] : i32 to i64
  // CHECK-NEXT: %[[BBITS:.*]] = llvm.mlir.constant(4611686293338849280 : i64) : i64
  // CHECK-NEXT: %[[BDESC:.*]] = llvm.add %[[BSTART]], %[[BBITS]] : i64
  // CHECK: llvm.mlir.constant(4611686293305360384 : i64) : i64
  // CHECK: nvvm.wgmma.mma_async %{{.*}}, %[[BDESC]], %{{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
  // CHECK: llvm.mlir.constant(4611686293338849408 : i64)
  // CHECK: llvm.mlir.constant(4611686293305360386 : i64)
  // CHECK: gpu.return
  gpu.func @b_n_major(%acc: !gemm.accum<64 x 256 x f32>, %a: !ringAk, %b: !ringBn,
                      %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 256 x f32>, !ringAk, !ringBn
    gpu.return
  }

  // Two atoms of an M-major A: atom 1 is the next block (8192 bytes).
  // CHECK-LABEL: gpu.func @two_atoms_m_major
  // CHECK: %[[ASLOT:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.mlir.constant(4611686293338849280 : i64)
  // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
  // 8192, 2048 and 10240 bytes: 512, 128 and 640 in the start field.
  // CHECK: llvm.mlir.constant(4611686293338849792 : i64)
  // CHECK: llvm.mlir.constant(4611686293338849408 : i64)
  // CHECK: llvm.mlir.constant(4611686293338849920 : i64)
  // CHECK: gpu.return
  gpu.func @two_atoms_m_major(%acc: !gemm.accum<128 x 128 x f32>, %a: !ringAm,
                              %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>,
                              %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<128 x 128 x f32>, !ringAm, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>
    gpu.return
  }
}
