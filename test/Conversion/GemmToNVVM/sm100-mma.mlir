// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// gemm.mma.sm100 becomes one nvvm.tcgen05.mma per 32 bytes of K with SM100
// shared-memory descriptors; gemm.mma.sm100.commit becomes nvvm.tcgen05.commit
// on the slot's barrier.

!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringB = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
!acc = !gemm.tmem<2 x 128 x 256 x f32>

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @mma_bf16
  // CHECK-SAME: (%[[A:[a-z0-9]+]]: !llvm.ptr<3>, %[[B:[a-z0-9]+]]: !llvm.ptr<3>, %[[TMEM:[a-z0-9]+]]: !llvm.ptr<6>, %[[SLOT:[a-z0-9]+]]: i32, %[[STAGE:[a-z0-9]+]]: i32, %[[FLAG:[a-z0-9]+]]: i1)
  gpu.func @mma_bf16(%a: !ringA, %b: !ringB, %acc: !acc, %slot: i32, %stage: i32, %flag: i1) {
    // Slot addresses: 16384-byte A stages, 32768-byte B stages.
    // CHECK: %[[ASTAGE:.*]] = llvm.mlir.constant(16384 : i32) : i32
    // CHECK: %[[AOFF:.*]] = llvm.mul %[[SLOT]], %[[ASTAGE]] : i32
    // CHECK: %[[ASLOT:.*]] = llvm.getelementptr %[[A]][%[[AOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK: %[[BSTAGE:.*]] = llvm.mlir.constant(32768 : i32) : i32
    // CHECK: %[[BOFF:.*]] = llvm.mul %[[SLOT]], %[[BSTAGE]] : i32
    // CHECK: %[[BSLOT:.*]] = llvm.getelementptr %[[B]][%[[BOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK: %[[AADDR:.*]] = llvm.ptrtoint %[[ASLOT]] : !llvm.ptr<3> to i32
    // CHECK: %[[BADDR:.*]] = llvm.ptrtoint %[[BSLOT]] : !llvm.ptr<3> to i32
    // D = base + stage * 256 columns.
    // CHECK: %[[TBASE:.*]] = llvm.ptrtoint %[[TMEM]] : !llvm.ptr<6> to i32
    // CHECK: %[[N:.*]] = llvm.mlir.constant(256 : i32) : i32
    // CHECK: %[[DCOL:.*]] = llvm.mul %[[STAGE]], %[[N]] : i32
    // CHECK: %[[DADDR:.*]] = llvm.add %[[TBASE]], %[[DCOL]] : i32
    // CHECK: %[[D:.*]] = llvm.inttoptr %[[DADDR]] : i32 to !llvm.ptr<6>
    // idesc = F32 D (1 << 4) | BF16 A (1 << 7) | BF16 B (1 << 10)
    //       | (256 >> 3) << 17 | (128 >> 4) << 24 = 0x08400490.
    // CHECK: %[[IDESC:.*]] = llvm.mlir.constant(138413200 : i32) : i32
    // LBO 1 (unused), SBO 1024 >> 4, base offset 0, relative LBO, swizzle 2.
    // CHECK: %[[LBO:.*]] = llvm.mlir.constant(1 : i32) : i32
    // CHECK: %[[SBO:.*]] = llvm.mlir.constant(64 : i32) : i32
    // CHECK: %[[BASEOFF:.*]] = llvm.mlir.constant(0 : i8) : i8
    // CHECK: %[[MODE:.*]] = llvm.mlir.constant(false) : i1
    // CHECK: %[[SW:.*]] = llvm.mlir.constant(2 : i8) : i8
    // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
    // CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1

    // K step 0: accumulate as asked.
    // CHECK: %[[K0:.*]] = llvm.mlir.constant(0 : i32) : i32
    // CHECK: %[[A0:.*]] = llvm.add %[[AADDR]], %[[K0]] : i32
    // CHECK: %[[A0E:.*]] = llvm.lshr %[[A0]], %[[FOUR]] : i32
    // CHECK: %[[ADESC0:.*]] = nvvm.tcgen05.mma_smem_desc(%[[A0E]], %[[LBO]], %[[SBO]], %[[BASEOFF]], %[[MODE]], %[[SW]]) : (i32, i32, i32, i8, i1, i8) -> i64
    // CHECK: %[[B0:.*]] = llvm.add %[[BADDR]], %{{.*}} : i32
    // CHECK: %[[B0E:.*]] = llvm.lshr %[[B0]], %[[FOUR]] : i32
    // CHECK: %[[BDESC0:.*]] = nvvm.tcgen05.mma_smem_desc(%[[B0E]], %[[LBO]], %[[SBO]], %[[BASEOFF]], %[[MODE]], %[[SW]])
    // CHECK: nvvm.tcgen05.mma %[[D]], %[[ADESC0]], %[[BDESC0]], %[[IDESC]], %[[FLAG]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)

    // K steps 1-3 advance both start addresses by 32 bytes and accumulate.
    // CHECK: %[[K1:.*]] = llvm.mlir.constant(32 : i32) : i32
    // CHECK: %[[A1:.*]] = llvm.add %[[AADDR]], %[[K1]] : i32
    // CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
    // CHECK: llvm.mlir.constant(64 : i32) : i32
    // CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]]
    // CHECK: %[[K3:.*]] = llvm.mlir.constant(96 : i32) : i32
    // CHECK: llvm.add %[[AADDR]], %[[K3]] : i32
    // CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]]
    // CHECK-NOT: nvvm.tcgen05.mma
    // CHECK: gpu.return
    gemm.mma.sm100 %a, %b slot(%slot) -> %acc[%stage] accumulate(%flag) : !ringA, !ringB, !acc
    gpu.return
  }

  // fp8 on a CTA pair: kind::f8f6f4, K = 32 per step (4 steps of 32 bytes),
  // M = 2 * 128, each CTA holding 128 of B's 256 rows.
  // idesc = F32 D (1 << 4) | E4M3 A, B (0) | (256 >> 3) << 17 | (256 >> 4) << 24
  //       = 0x10400010.
  // CHECK-LABEL: gpu.func @mma_fp8_pair
  gpu.func @mma_fp8_pair(%a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                         %b: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                         %acc: !acc, %slot: i32, %stage: i32, %flag: i1) {
    // CHECK: %[[IDESC:.*]] = llvm.mlir.constant(272629776 : i32) : i32
    // CHECK-COUNT-4: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]], %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>}
    // CHECK-NOT: nvvm.tcgen05.mma
    gemm.mma.sm100 %a, %b slot(%slot) -> %acc[%stage] accumulate(%flag) cta_group(2)
        : !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
          !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>, !acc
    gpu.return
  }

  // e5m2 with M = 64: A/B type field 1, M >> 4 = 4, N = 64.
  // idesc = (1 << 4) | (1 << 7) | (1 << 10) | (64 >> 3) << 17 | (64 >> 4) << 24
  //       = 0x04100490.
  // CHECK-LABEL: gpu.func @mma_e5m2_m64
  gpu.func @mma_e5m2_m64(%a: !gemm.smem<2 x 64 x 128 x f8E5M2, swizzle = 128>,
                         %b: !gemm.smem<2 x 64 x 128 x f8E5M2, swizzle = 128>,
                         %acc: !gemm.tmem<1 x 64 x 64 x f32>, %slot: i32, %stage: i32, %flag: i1) {
    // CHECK: llvm.mlir.constant(68158608 : i32) : i32
    // CHECK: kind = #nvvm.tcgen05_mma_kind<f8f6f4>
    gemm.mma.sm100 %a, %b slot(%slot) -> %acc[%stage] accumulate(%flag)
        : !gemm.smem<2 x 64 x 128 x f8E5M2, swizzle = 128>,
          !gemm.smem<2 x 64 x 128 x f8E5M2, swizzle = 128>, !gemm.tmem<1 x 64 x 64 x f32>
    gpu.return
  }

  // Empty barrier of slot n mod 4 = base + 8 * (n mod 4 + 4); full barrier =
  // base + 8 * (n mod 4).
  // CHECK-LABEL: gpu.func @commit
  // CHECK-SAME: (%[[P:[a-z0-9]+]]: !llvm.ptr<3>, %[[N:[a-z0-9]+]]: i32, %[[MASK:[a-z0-9]+]]: i16)
  gpu.func @commit(%p: !gemm.pipeline<stages = 4, producers = 1, consumers = 1>, %n: i32, %mask: i16) {
    // CHECK: %[[S1:.*]] = llvm.urem %[[N]], %{{.*}} : i32
    // CHECK: %[[E1:.*]] = llvm.add %[[S1]], %{{.*}} : i32
    // CHECK: %[[EMPTY:.*]] = llvm.getelementptr %[[P]][%[[E1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    // CHECK: nvvm.tcgen05.commit %[[EMPTY]] : !llvm.ptr<3>
    gemm.mma.sm100.commit %p[%n] empty : !gemm.pipeline<stages = 4, producers = 1, consumers = 1>
    // CHECK: %[[S2:.*]] = llvm.urem %[[N]], %{{.*}} : i32
    // CHECK-NOT: llvm.add
    // CHECK: %[[FULL:.*]] = llvm.getelementptr %[[P]][%[[S2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    // CHECK: nvvm.tcgen05.commit %[[FULL]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
    gemm.mma.sm100.commit %p[%n] full multicast(%mask) cta_group(2) : !gemm.pipeline<stages = 4, producers = 1, consumers = 1>
    gpu.return
  }
}
