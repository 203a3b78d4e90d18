// REQUIRES: ptxas
// RUN: gemm-opt %s --convert-gemm-to-nvvm --convert-scf-to-cf --nvvm-attach-target="chip=sm_100a O=3" --convert-gpu-to-nvvm --gemm-finalize-kernel-abi --convert-nvvm-to-llvm --reconcile-unrealized-casts --gpu-module-to-binary="format=isa" > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: python3 %S/extract-ptx.py %t.mlir > %t.ptx
// RUN: %ptxas -arch=sm_100a %t.ptx -o %t.cubin

// A small kernel using every SM100 op, lowered to PTX for sm_100a and
// assembled by ptxas. (It shows the instruction forms; it is not a working
// GEMM: no TMA loads fill the ring and no barrier is initialised.) The PTX
// sits escaped in the gpu.binary's string; the checks match instruction
// names and operand counts inside it.

!slot = !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
!ringA = !gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>
!ringB = !gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>
!acc = !gemm.tmem<2 x 128 x 128 x f32>
!ring = !gemm.pipeline<stages = 2, producers = 1, consumers = 1>
!accp = !gemm.pipeline<stages = 2, producers = 1, consumers = 4>
!resp = !gemm.smem<1 x 1 x 4 x i32, swizzle = 0>
!clc = !gemm.pipeline<stages = 1, producers = 1, consumers = 1>

// CHECK: gpu.binary @kernels
// CHECK-SAME: .target sm_100a

// The TMEM-address handoff: warp 0 allocates and relinquishes, fences
// around the CTA barrier, everyone reads the address.
// CHECK-SAME: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 \09[smem+65536]
// CHECK-SAME: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK-SAME: tcgen05.fence::before_thread_sync;
// CHECK-SAME: bar.sync
// CHECK-SAME: tcgen05.fence::after_thread_sync;

// One k-block of a 128x128x64 bf16 MMA: four K = 16 steps.
// CHECK-SAME: tcgen05.mma.cta_group::1.kind::f16
// CHECK-SAME: tcgen05.mma.cta_group::1.kind::f16
// CHECK-SAME: tcgen05.mma.cta_group::1.kind::f16
// CHECK-SAME: tcgen05.mma.cta_group::1.kind::f16
// The ring's empty barrier of slot 0 sits after its 2 full barriers
// (65568 + 16); the accumulator's full barrier of slot 0 at its base.
// CHECK-SAME: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 \09[smem+65584];
// CHECK-SAME: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 \09[smem+65600], %rs

// CLC.
// CHECK-SAME: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 \09[smem+65552], [smem+65632];
// CHECK-SAME: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CHECK-SAME: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128

// Epilogue load of 32 columns, then its wait; then the dealloc.
// CHECK-SAME: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{[{]%r[0-9]+}},
// CHECK-SAME: tcgen05.wait::ld.sync.aligned;
// CHECK-SAME: tcgen05.dealloc.cta_group::1.sync.aligned.b32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>

    gpu.func @sm100_ops(%out: !llvm.ptr<1>) kernel attributes {gemm.arch = "sm_100a"} {
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %a_ptr = llvm.getelementptr %base[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %b_ptr = llvm.getelementptr %base[32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %slot_ptr = llvm.getelementptr %base[65536] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %resp_ptr = llvm.getelementptr %base[65552] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %ring_ptr = llvm.getelementptr %base[65568] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %accp_ptr = llvm.getelementptr %base[65600] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %clc_ptr = llvm.getelementptr %base[65632] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %a = builtin.unrealized_conversion_cast %a_ptr : !llvm.ptr<3> to !ringA
      %b = builtin.unrealized_conversion_cast %b_ptr : !llvm.ptr<3> to !ringB
      %slot = builtin.unrealized_conversion_cast %slot_ptr : !llvm.ptr<3> to !slot
      %resp = builtin.unrealized_conversion_cast %resp_ptr : !llvm.ptr<3> to !resp
      %ring = builtin.unrealized_conversion_cast %ring_ptr : !llvm.ptr<3> to !ring
      %accp = builtin.unrealized_conversion_cast %accp_ptr : !llvm.ptr<3> to !accp
      %clc = builtin.unrealized_conversion_cast %clc_ptr : !llvm.ptr<3> to !clc

      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %false = arith.constant false
      %mask = arith.constant 3 : i16
      %tid = gpu.thread_id x
      %tid32 = arith.index_cast %tid : index to i32
      %warp = arith.divui %tid32, %c32 : i32
      %is_warp0 = arith.cmpi eq, %warp, %c0 : i32

      scf.if %is_warp0 {
        gemm.tmem.alloc %slot columns(256) : !slot
        gemm.tmem.relinquish
      }
      gemm.tmem.fence before_thread_sync
      gpu.barrier
      gemm.tmem.fence after_thread_sync
      %acc = gemm.tmem.address %slot : !slot -> !acc

      %leader = nvvm.elect.sync -> i1
      %issue = arith.andi %is_warp0, %leader : i1
      scf.if %issue {
        gemm.mma.sm100 %a, %b slot(%c0) -> %acc[%c0] accumulate(%false) : !ringA, !ringB, !acc
        gemm.mma.sm100.commit %ring[%c0] empty : !ring
        gemm.mma.sm100.commit %accp[%c0] full multicast(%mask) : !accp
        gemm.sched.clc_try_cancel %resp[%c0] barrier %clc[%c0] multicast : !resp, !clc
      }
      %valid, %x, %y, %z = gemm.sched.clc_query %resp[%c0] : !resp

      %v = gemm.tmem.load %acc[%c1] col(32) : !acc -> vector<32xf32>
      %row = llvm.getelementptr %out[%tid32] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<32xf32>
      llvm.store %v, %row : vector<32xf32>, !llvm.ptr<1>
      %xs = arith.select %valid, %x, %c0 : i32
      %id = llvm.getelementptr %out[%xs] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %y, %id : i32, !llvm.ptr<1>

      gpu.barrier
      scf.if %is_warp0 {
        gemm.tmem.dealloc %acc columns(256) : !acc
      }
      gpu.return
    }
  }
}
