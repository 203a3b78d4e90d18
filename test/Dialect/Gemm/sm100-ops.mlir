// RUN: gemm-opt %s | gemm-opt | FileCheck %s
// RUN: gemm-opt %s --mlir-print-op-generic | gemm-opt | FileCheck %s

// Round trip of every SM100 op (tensor memory, tcgen05 MMA, cluster launch
// control) in its pretty and generic forms.

!slot = !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
!acc = !gemm.tmem<2 x 128 x 256 x f32>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringB = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
!ring = !gemm.pipeline<stages = 4, producers = 1, consumers = 1>
!resp = !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>
!clc = !gemm.pipeline<stages = 2, producers = 1, consumers = 5>

// CHECK-LABEL: func.func @tmem
// CHECK-SAME: (%[[SLOT:.*]]: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>, %[[STAGE:.*]]: i32)
func.func @tmem(%slot: !slot, %stage: i32) -> vector<32xf32> {
  // CHECK: gemm.tmem.alloc %[[SLOT]] columns(512) : <1 x 1 x 1 x i32, swizzle = 0>
  gemm.tmem.alloc %slot columns(512) : !slot
  // CHECK-NEXT: gemm.tmem.alloc %[[SLOT]] columns(32) cta_group(2) : <1 x 1 x 1 x i32, swizzle = 0>
  gemm.tmem.alloc %slot columns(32) cta_group(2) : !slot
  // CHECK-NEXT: gemm.tmem.relinquish{{$}}
  gemm.tmem.relinquish
  // CHECK-NEXT: gemm.tmem.relinquish cta_group(2)
  gemm.tmem.relinquish cta_group(2)
  // CHECK-NEXT: gemm.tmem.fence before_thread_sync
  gemm.tmem.fence before_thread_sync
  // CHECK-NEXT: gemm.tmem.fence after_thread_sync
  gemm.tmem.fence after_thread_sync
  // CHECK-NEXT: %[[ACC:.*]] = gemm.tmem.address %[[SLOT]] : <1 x 1 x 1 x i32, swizzle = 0> -> <2 x 128 x 256 x f32>
  %acc = gemm.tmem.address %slot : !slot -> !acc
  // CHECK-NEXT: %[[V:.*]] = gemm.tmem.load %[[ACC]][%[[STAGE]]] col(64) : <2 x 128 x 256 x f32> -> vector<32xf32>
  %v = gemm.tmem.load %acc[%stage] col(64) : !acc -> vector<32xf32>
  // CHECK-NEXT: gemm.tmem.dealloc %[[ACC]] columns(512) : <2 x 128 x 256 x f32>
  gemm.tmem.dealloc %acc columns(512) : !acc
  // CHECK-NEXT: gemm.tmem.dealloc %[[ACC]] columns(512) cta_group(2) : <2 x 128 x 256 x f32>
  gemm.tmem.dealloc %acc columns(512) cta_group(2) : !acc
  // CHECK-NEXT: return %[[V]]
  return %v : vector<32xf32>
}

// CHECK-LABEL: func.func @mma
// CHECK-SAME: (%[[A:[a-z0-9]+]]: !gemm.smem<{{.*}}>, %[[B:[a-z0-9]+]]: !gemm.smem<{{.*}}>, %[[ACC:[a-z0-9]+]]: !gemm.tmem<{{.*}}>, %[[P:[a-z0-9]+]]: !gemm.pipeline<{{.*}}>, %[[S:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32, %[[F:[a-z0-9]+]]: i1, %[[M:[a-z0-9]+]]: i16)
func.func @mma(%a: !ringA, %b: !ringB, %acc: !acc, %p: !ring, %slot: i32,
               %n: i32, %flag: i1, %mask: i16) {
  // CHECK: gemm.mma.sm100 %[[A]], %[[B]] slot(%[[S]]) -> %[[ACC]][%[[N]]] accumulate(%[[F]]) : <4 x 128 x 64 x bf16, swizzle = 128>, <4 x 256 x 64 x bf16, swizzle = 128>, <2 x 128 x 256 x f32>
  gemm.mma.sm100 %a, %b slot(%slot) -> %acc[%n] accumulate(%flag) : !ringA, !ringB, !acc
  // CHECK-NEXT: gemm.mma.sm100.commit %[[P]][%[[N]]] empty : <stages = 4, producers = 1, consumers = 1>
  gemm.mma.sm100.commit %p[%n] empty : !ring
  // CHECK-NEXT: gemm.mma.sm100.commit %[[P]][%[[N]]] full multicast(%[[M]]) cta_group(2) : <stages = 4, producers = 1, consumers = 1>
  gemm.mma.sm100.commit %p[%n] full multicast(%mask) cta_group(2) : !ring
  return
}

// The CTA-pair form: each CTA holds 128 rows of A, 128 of B's 256, and its
// 128 rows of the 256 x 256 accumulator.
// CHECK-LABEL: func.func @mma_pair
// CHECK: gemm.mma.sm100 %{{.*}}, %{{.*}} slot(%{{.*}}) -> %{{.*}}[%{{.*}}] accumulate(%{{.*}}) cta_group(2) : <4 x 128 x 128 x f8E4M3FN, swizzle = 128>, <4 x 128 x 128 x f8E4M3FN, swizzle = 128>, <2 x 128 x 256 x f32>
func.func @mma_pair(%a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                    %b: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                    %acc: !acc, %slot: i32, %n: i32, %flag: i1) {
  gemm.mma.sm100 %a, %b slot(%slot) -> %acc[%n] accumulate(%flag) cta_group(2)
      : !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
        !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>, !acc
  return
}

// CHECK-LABEL: func.func @clc
// CHECK-SAME: (%[[R:[a-z0-9]+]]: !gemm.smem<{{.*}}>, %[[P:[a-z0-9]+]]: !gemm.pipeline<{{.*}}>, %[[S:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32)
func.func @clc(%resp: !resp, %p: !clc, %slot: i32, %n: i32) -> (i1, i32, i32, i32) {
  // CHECK: gemm.sched.clc_try_cancel %[[R]][%[[S]]] barrier %[[P]][%[[N]]] : <2 x 1 x 4 x i32, swizzle = 0>, <stages = 2, producers = 1, consumers = 5>
  gemm.sched.clc_try_cancel %resp[%slot] barrier %p[%n] : !resp, !clc
  // CHECK-NEXT: gemm.sched.clc_try_cancel %[[R]][%[[S]]] barrier %[[P]][%[[N]]] multicast : <2 x 1 x 4 x i32, swizzle = 0>, <stages = 2, producers = 1, consumers = 5>
  gemm.sched.clc_try_cancel %resp[%slot] barrier %p[%n] multicast : !resp, !clc
  // CHECK-NEXT: %[[VALID:[a-z0-9_]+]], %[[X:[a-z0-9_]+]], %[[Y:[a-z0-9_]+]], %[[Z:[a-z0-9_]+]] = gemm.sched.clc_query %[[R]][%[[S]]] : <2 x 1 x 4 x i32, swizzle = 0>
  %valid, %x, %y, %z = gemm.sched.clc_query %resp[%slot] : !resp
  // CHECK-NEXT: return %[[VALID]], %[[X]], %[[Y]], %[[Z]] : i1, i32, i32, i32
  return %valid, %x, %y, %z : i1, i32, i32, i32
}

// CHECK-LABEL: func.func @warp_roles
func.func @warp_roles(%t: !acc, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, %i: i32) {
  // CHECK: gemm.warp_roles epilogue_warps(4) load {
  // CHECK-NEXT: gemm.yield
  // CHECK-NEXT: } mma {
  // CHECK-NEXT: gemm.yield
  // CHECK-NEXT: } scheduler {
  // CHECK-NEXT: gemm.yield
  // CHECK-NEXT: } epilogue {
  // CHECK-NEXT: ^bb0(%[[W:.*]]: i32):
  // CHECK-NEXT: gemm.tmem.store_smem %{{.*}}[%[[W]]] col(64) -> %{{.*}}[%{{.*}}] : <2 x 128 x 256 x f32>, <8 x 32 x 64 x bf16, swizzle = 128>
  // CHECK-NEXT: gemm.tmem.store_smem %{{.*}}[%[[W]]] col(0) -> %{{.*}}[%{{.*}}] : <2 x 128 x 256 x f32>, <8 x 32 x 64 x bf16, swizzle = 128> {
  // CHECK-NEXT: ^bb0(%[[V:.*]]: f32):
  // CHECK-NEXT: %[[R:.*]] = arith.truncf %[[V]] : f32 to bf16
  // CHECK-NEXT: gemm.yield %[[R]] : bf16
  // CHECK-NEXT: }
  // CHECK-NEXT: gemm.yield
  // CHECK-NEXT: }
  gemm.warp_roles epilogue_warps(4) load {
    gemm.yield
  } mma {
    gemm.yield
  } scheduler {
    gemm.yield
  } epilogue {
  ^bb0(%w: i32):
    gemm.tmem.store_smem %t[%w] col(64) -> %s[%i] : !acc, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
    gemm.tmem.store_smem %t[%w] col(0) -> %s[%i] : !acc, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128> {
    ^bb0(%v: f32):
      %r = arith.truncf %v : f32 to bf16
      gemm.yield %r : bf16
    }
    gemm.yield
  }
  return
}

// CHECK-LABEL: func.func @pair_commit
func.func @pair_commit(%p: !gemm.pipeline<stages = 4, producers = 2, consumers = 1>, %n: i32) {
  // CHECK: gemm.pipeline.producer_commit %{{.*}}[%{{.*}}] tx(32768) cta_group(2) : <stages = 4, producers = 2, consumers = 1>
  gemm.pipeline.producer_commit %p[%n] tx(32768) cta_group(2) : !gemm.pipeline<stages = 4, producers = 2, consumers = 1>
  return
}

// The arch check accepts SM100 ops in kernels that target sm_100a.
// CHECK-LABEL: gpu.func @sm100_kernel
// CHECK: gemm.tmem.relinquish
gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
  gpu.func @sm100_kernel() kernel attributes {gemm.arch = "sm_100a"} {
    gemm.tmem.relinquish
    gpu.return
  }
}
