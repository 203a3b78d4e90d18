// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// The general group table's ops (gemm/Runtime/GroupProblems.h): a group's
// entry is one 16-byte vector load at table + 16 + 16 g; a group's tensor
// map is at table + align128(16 + 16 G) + 128 (3 g + operand), a generic
// address; acquiring it is fence.proxy.tensormap::generic.acquire.gpu on
// that address with size 128.

!descC = !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>

// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[T:.*]]: !llvm.ptr<1>, %[[G:.*]]: i32)
// CHECK: %[[WIDE:.*]] = llvm.zext %[[G]] : i32 to i64
// CHECK-NEXT: %[[SCALED:.*]] = llvm.mul %[[WIDE]], %{{.*}} : i64
// CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[SCALED]], %{{.*}} : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[T]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[AT]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-COUNT-4: llvm.extractelement %[[V]]
func.func @entry(%table: !llvm.ptr<1>, %g: i32) -> (i32, i32, i32, i32) {
  %first, %m, %n, %k = gemm.sched.group_problem %table[%g] : !llvm.ptr<1>
  return %first, %m, %n, %k : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @descriptor
// CHECK-SAME: (%[[T:.*]]: !llvm.ptr<1>, %[[G:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[GROUPS:.*]] = llvm.zext %[[N]] : i32 to i64
// CHECK-NEXT: %[[ENTRIES:.*]] = llvm.mul %[[GROUPS]], %{{.*}} : i64
// CHECK-DAG: %[[MASK:.*]] = llvm.mlir.constant(-128 : i64) : i64
// CHECK-DAG: %[[C143:.*]] = llvm.mlir.constant(143 : i64) : i64
// CHECK: %[[END:.*]] = llvm.add %[[ENTRIES]], %[[C143]] : i64
// CHECK-NEXT: %[[MAPS:.*]] = llvm.and %[[END]], %[[MASK]] : i64
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[THREE:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[GW:.*]] = llvm.zext %[[G]] : i32 to i64
// CHECK: %[[G3:.*]] = llvm.mul %[[GW]], %[[THREE]] : i64
// CHECK-NEXT: %[[INDEX:.*]] = llvm.add %[[G3]], %[[TWO]] : i64
// CHECK-NEXT: %[[C128:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mul %[[INDEX]], %[[C128]] : i64
// CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[MAPS]], %[[BYTES]] : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[T]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %[[D:.*]] = llvm.addrspacecast %[[AT]] : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: %[[SIZE:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: nvvm.fence.proxy.acquire <gpu> %[[D]], %[[SIZE]]
func.func @descriptor(%table: !llvm.ptr<1>, %g: i32, %n: i32) {
  %d = gemm.tma.group_descriptor %table[%g], %n, 2 : !llvm.ptr<1> -> !descC
  gemm.tma.acquire_descriptor %d : !descC
  return
}
