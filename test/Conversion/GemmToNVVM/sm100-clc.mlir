// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// Cluster launch control: try_cancel completes on the slot's full barrier;
// query decodes the 16-byte response.

!resp = !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>
!clc = !gemm.pipeline<stages = 2, producers = 1, consumers = 5>

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @try_cancel
  // CHECK-SAME: (%[[R:[a-z0-9]+]]: !llvm.ptr<3>, %[[P:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32)
  gpu.func @try_cancel(%resp: !resp, %p: !clc, %slot: i32, %n: i32) {
    // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
    // CHECK: %[[OFF:.*]] = llvm.mul %[[SLOT]], %[[C16]] : i32
    // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[R]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK: %[[STAGES:.*]] = llvm.mlir.constant(2 : i32) : i32
    // CHECK: %[[IDX:.*]] = llvm.urem %[[N]], %[[STAGES]] : i32
    // CHECK: %[[FULL:.*]] = llvm.getelementptr %[[P]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    // CHECK: nvvm.clusterlaunchcontrol.try.cancel %[[ADDR]], %[[FULL]]{{$}}
    gemm.sched.clc_try_cancel %resp[%slot] barrier %p[%n] : !resp, !clc
    // CHECK: nvvm.clusterlaunchcontrol.try.cancel multicast, %{{.*}}, %{{.*}}
    gemm.sched.clc_try_cancel %resp[%slot] barrier %p[%n] multicast : !resp, !clc
    gpu.return
  }

  // CHECK-LABEL: gpu.func @query
  // CHECK-SAME: (%[[R:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32)
  gpu.func @query(%resp: !resp, %slot: i32) -> i32 {
    // CHECK: %[[OFF:.*]] = llvm.mul %[[SLOT]], %{{.*}} : i32
    // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[R]][%[[OFF]]]
    // CHECK: %[[WORD:.*]] = llvm.load %[[ADDR]] {alignment = 16 : i64} : !llvm.ptr<3> -> i128
    // CHECK: %[[VALID:.*]] = nvvm.clusterlaunchcontrol.query.cancel query = is_canceled, %[[WORD]] : i1
    // CHECK: %[[X:.*]] = nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_x, %[[WORD]] : i32
    // CHECK: %[[Y:.*]] = nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_y, %[[WORD]] : i32
    // CHECK: %[[Z:.*]] = nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_z, %[[WORD]] : i32
    %valid, %x, %y, %z = gemm.sched.clc_query %resp[%slot] : !resp
    // CHECK: %[[S:.*]] = llvm.select %[[VALID]], %[[Y]], %[[Z]] : i1, i32
    %s = llvm.select %valid, %y, %z : i1, i32
    // CHECK: llvm.add %[[X]], %[[S]] : i32
    %r = llvm.add %x, %s : i32
    gpu.return %r : i32
  }
}
