// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// gemm.warp_specialize becomes one scf.if on the warpgroup index (tid / 128)
// with setmaxnreg at the top of each branch; gemm.warp_roles a chain of
// scf.if on the warp index (tid / 32); gemm.smem.plan becomes GEPs into one
// 1024-byte aligned dynamic shared-memory global of the gpu.module.

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

// The global is created once per gpu.module, first in its body.
// CHECK-LABEL: gpu.module @kernels
// CHECK-NEXT: llvm.mlir.global external @__gemm_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT: llvm.mlir.global
gpu.module @kernels {
  // Buffers at 1024-byte aligned offsets in result order: 4 x 16 KiB of A,
  // 4 x 32 KiB of B, 4 x 8 KiB of staging; then 8-byte aligned barriers
  // (16 bytes per stage).
  // CHECK-LABEL: gpu.func @plan
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @__gemm_dynamic_smem : !llvm.ptr<3>
  // CHECK-NEXT: %[[A:.*]] = llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %[[BASE]][65536] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[C:.*]] = llvm.getelementptr %[[BASE]][196608] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[BASE]][229376] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[Q:.*]] = llvm.getelementptr %[[BASE]][229440] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // The results replace the plan's values.
  // CHECK: nvvm.mbarrier.init %{{.*}}
  // CHECK-NOT: gemm.
  gpu.func @plan() kernel {
    %a, %b, %c, %p, %q = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
        !pipe, !gemm.pipeline<stages = 2, producers = 1, consumers = 1>
    gemm.pipeline.init %p : !pipe
    gpu.return
  }

  // A buffer after barriers goes to the next 1024-byte boundary; a second
  // plan reuses the module's global.
  // CHECK-LABEL: gpu.func @realign
  // CHECK: %[[BASE2:.*]] = llvm.mlir.addressof @__gemm_dynamic_smem : !llvm.ptr<3>
  // CHECK-NEXT: llvm.getelementptr %[[BASE2]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: llvm.getelementptr %[[BASE2]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: llvm.getelementptr %[[BASE2]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  gpu.func @realign() kernel {
    %p, %q, %a = gemm.smem.plan : !gemm.pipeline<stages = 1, producers = 1, consumers = 1>,
        !gemm.pipeline<stages = 2, producers = 1, consumers = 1>,
        !gemm.smem<1 x 64 x 64 x bf16, swizzle = 128>
    gemm.pipeline.init %q : !gemm.pipeline<stages = 2, producers = 1, consumers = 1>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @roles
  // CHECK-SAME: (%[[PIPE:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // The warpgroup index is tid / 128, broadcast from lane 0 so that ptxas
  // sees it warp-uniform.
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-DAG: %[[CLAMP:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK-DAG: %[[LANE0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-DAG: %[[WGSIZE:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK: %[[WGLOCAL:.*]] = llvm.udiv %[[TID]], %[[WGSIZE]] : i32
  // CHECK-NEXT: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK-NEXT: %[[WG:.*]] = nvvm.shfl.sync idx %[[ALL]], %[[WGLOCAL]], %[[LANE0]], %[[CLAMP]] : i32 -> i32
  // CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[ISPRODUCER:.*]] = llvm.icmp "eq" %[[WG]], %[[ZERO]] : i32
  // CHECK-NEXT: scf.if %[[ISPRODUCER]] {
  // Producer: give registers back first, then the producer region.
  // CHECK-NEXT: nvvm.setmaxregister decrease 40
  // CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %{{.*}}
  // CHECK-NOT: gemm.yield
  // CHECK: } else {
  // Consumers: take registers, index = warpgroup - 1.
  // CHECK-NEXT: nvvm.setmaxregister increase 232
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[CONSUMER:.*]] = llvm.sub %[[WG]], %[[ONE]] : i32
  // CHECK: llvm.urem %[[CONSUMER]], %{{.*}} : i32
  // CHECK: nvvm.mbarrier.try_wait.parity
  // CHECK-NOT: gemm.yield
  // CHECK: }
  // CHECK-NEXT: gpu.return
  gpu.func @roles(%p: !pipe, %n: i32) kernel {
    gemm.warp_specialize consumers(2) regs(40, 232) producer {
      gemm.pipeline.producer_acquire %p[%n] : !pipe
      gemm.yield
    } consumer {
    ^bb0(%consumer: i32):
      gemm.pipeline.consumer_wait %p[%consumer] : !pipe
      gemm.yield
    }
    gpu.return
  }

  // Other budgets go through unchanged.
  // CHECK-LABEL: gpu.func @one_consumer
  // CHECK: nvvm.setmaxregister decrease 24
  // CHECK: nvvm.setmaxregister increase 240
  gpu.func @one_consumer() kernel {
    gemm.warp_specialize consumers(1) regs(24, 240) producer {
      gemm.yield
    } consumer {
    ^bb0(%consumer: i32):
      gemm.yield
    }
    gpu.return
  }
  // SM100 roles: warp 0 loads, 1 issues MMAs, 2 schedules, 3.. are the
  // epilogue warps (index warp - 3); the warp index is broadcast from lane
  // 0 so that ptxas knows it is warp-uniform. No setmaxnreg.
  // CHECK-LABEL: gpu.func @warp_roles
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[W32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[DIV:.*]] = llvm.udiv %[[TID]], %[[W32]] : i32
  // CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[DIV]], %{{.*}}, %{{.*}} : i32 -> i32
  // CHECK: %[[IS0:.*]] = llvm.icmp "eq" %[[WARP]], %{{.*}} : i32
  // CHECK-NEXT: scf.if %[[IS0]] {
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: } else {
  // CHECK: %[[IS1:.*]] = llvm.icmp "eq" %[[WARP]], %{{.*}} : i32
  // CHECK-NEXT: scf.if %[[IS1]] {
  // CHECK-NEXT: nvvm.cluster.arrive
  // CHECK-NEXT: } else {
  // CHECK: %[[IS2:.*]] = llvm.icmp "eq" %[[WARP]], %{{.*}} : i32
  // CHECK-NEXT: scf.if %[[IS2]] {
  // CHECK-NEXT: nvvm.cluster.wait
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %[[EPI:.*]] = llvm.sub %[[WARP]], %[[THREE]] : i32
  // CHECK-NEXT: nvvm.bar.warp.sync %[[EPI]] : i32
  // CHECK-NOT: setmaxregister
  // CHECK-NOT: gemm.yield
  // CHECK: gpu.return
  gpu.func @warp_roles() kernel {
    gemm.warp_roles epilogue_warps(4) load {
      nvvm.barrier0
      gemm.yield
    } mma {
      nvvm.cluster.arrive
      gemm.yield
    } scheduler {
      nvvm.cluster.wait
      gemm.yield
    } epilogue {
    ^bb0(%w: i32):
      nvvm.bar.warp.sync %w : i32
      gemm.yield
    }
    gpu.return
  }
}
