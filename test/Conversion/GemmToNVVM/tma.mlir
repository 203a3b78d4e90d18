// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// TMA ops become cp.async.bulk.tensor operations: loads into the cluster
// window of this CTA's slot completing on the slot's full barrier (optionally
// multicast), stores from the slot in the CTA window, bulk-group commit/wait
// and the two prefetches.

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
!descA = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!descB = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!descC = !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringB = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
!stage = !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>

gpu.module @kernels {
  // Descriptors are generic pointers; buffers and pipelines shared pointers.
  // CHECK-LABEL: gpu.func @load
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[A:.*]]: !llvm.ptr<3>, %[[P:.*]]: !llvm.ptr<3>, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[SLOT:.*]]: i32, %[[N:.*]]: i32)
  // Slot address: 128 rows x 128 bytes per stage.
  // CHECK: %[[STAGE:.*]] = llvm.mlir.constant(16384 : i32) : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mul %[[SLOT]], %[[STAGE]] : i32
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[A]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[DSTC:.*]] = llvm.addrspacecast %[[DST]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK-NEXT: %[[STAGES:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[BIDX:.*]] = llvm.urem %[[N]], %[[STAGES]] : i32
  // CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[P]][%[[BIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DSTC]], %[[D]], %[[FULL]], box[%[[X]], %[[Y]]] : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NOT: multicast_mask
  // CHECK: gpu.return
  gpu.func @load(%d: !descA, %a: !ringA, %p: !pipe, %x: i32, %y: i32, %slot: i32, %n: i32) {
    gemm.tma.load %d[%x, %y] -> %a[%slot] barrier %p[%n] : !descA, !ringA, !pipe
    gpu.return
  }

  // A multicast slice lands `row` rows into the slot.
  // CHECK-LABEL: gpu.func @load_multicast
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr<3>, %[[P:.*]]: !llvm.ptr<3>, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[SLOT:.*]]: i32, %[[ROW:.*]]: i32, %[[N:.*]]: i32, %[[MASK:.*]]: i16)
  // CHECK: %[[STAGE:.*]] = llvm.mlir.constant(32768 : i32) : i32
  // CHECK-NEXT: %[[SOFF:.*]] = llvm.mul %[[SLOT]], %[[STAGE]] : i32
  // CHECK-NEXT: %[[ROWBYTES:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[ROFF:.*]] = llvm.mul %[[ROW]], %[[ROWBYTES]] : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[SOFF]], %[[ROFF]] : i32
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[B]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[DSTC:.*]] = llvm.addrspacecast %[[DST]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK: %[[FULL:.*]] = llvm.getelementptr %[[P]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DSTC]], %[[D]], %[[FULL]], box[%[[X]], %[[Y]]] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
  gpu.func @load_multicast(%d: !descB, %b: !ringB, %p: !pipe, %x: i32, %y: i32,
                           %slot: i32, %row: i32, %n: i32, %mask: i16) {
    gemm.tma.load %d[%x, %y] -> %b[%slot, %row] barrier %p[%n] multicast(%mask)
        : !descB, !ringB, !pipe
    gpu.return
  }

  // An MN-major slot: row r starts block r / 64 (64 K lines of 128 bytes,
  // 8192 bytes), and a K-line slice starts k_offset lines (128 bytes each)
  // into the block.
  // CHECK-LABEL: gpu.func @load_mn_major
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr<3>, %[[P:.*]]: !llvm.ptr<3>, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[SLOT:.*]]: i32, %[[ROW:.*]]: i32, %[[LINE:.*]]: i32, %[[N:.*]]: i32, %[[MASK:.*]]: i16)
  // CHECK: %[[STAGE:.*]] = llvm.mlir.constant(32768 : i32) : i32
  // CHECK-NEXT: %[[SOFF:.*]] = llvm.mul %[[SLOT]], %[[STAGE]] : i32
  // CHECK-NEXT: %[[SPAN:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK-NEXT: %[[BLOCK:.*]] = llvm.udiv %[[ROW]], %[[SPAN]] : i32
  // CHECK-NEXT: %[[BLOCKBYTES:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-NEXT: %[[BOFF:.*]] = llvm.mul %[[BLOCK]], %[[BLOCKBYTES]] : i32
  // CHECK-NEXT: %[[OFF1:.*]] = llvm.add %[[SOFF]], %[[BOFF]] : i32
  // CHECK-NEXT: %[[LINEBYTES:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[LOFF:.*]] = llvm.mul %[[LINE]], %[[LINEBYTES]] : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[OFF1]], %[[LOFF]] : i32
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[B]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[DSTC:.*]] = llvm.addrspacecast %[[DST]] : !llvm.ptr<3> to !llvm.ptr<7>
  // CHECK: %[[FULL:.*]] = llvm.getelementptr %[[P]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DSTC]], %[[D]], %[[FULL]], box[%[[X]], %[[Y]]] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
  gpu.func @load_mn_major(%d: !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
                          %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>,
                          %p: !pipe, %x: i32, %y: i32, %slot: i32, %row: i32,
                          %line: i32, %n: i32, %mask: i16) {
    gemm.tma.load %d[%x, %y] -> %b[%slot, %row] k_offset(%line) barrier %p[%n] multicast(%mask)
        : !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>, !pipe
    gpu.return
  }

  // A batched (rank-3) descriptor: the batch entry is the third coordinate
  // (cp.async.bulk.tensor.3d).
  // CHECK-LABEL: gpu.func @load_batched
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[A:.*]]: !llvm.ptr<3>, %[[P:.*]]: !llvm.ptr<3>, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[Z:.*]]: i32, %[[SLOT:.*]]: i32, %[[N:.*]]: i32)
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[D]], %{{.*}}, box[%[[X]], %[[Y]], %[[Z]]] : !llvm.ptr<7>, !llvm.ptr
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[D]], %{{.*}}, box[%[[X]], %[[Y]], %[[Z]]]
  // CHECK: nvvm.cp.async.bulk.tensor.prefetch %[[D]], box[%[[X]], %[[Y]], %[[Z]]]
  gpu.func @load_batched(%d: !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>, %a: !ringA,
                         %p: !pipe, %x: i32, %y: i32, %z: i32, %slot: i32, %n: i32) {
    gemm.tma.load %d[%x, %y, %z] -> %a[%slot] barrier %p[%n]
        : !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>, !ringA, !pipe
    gemm.tma.store %d[%x, %y, %z] from %a[%slot]
        : !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>, !ringA
    gemm.tma.prefetch %d[%x, %y, %z] : !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>
    gpu.return
  }

  // when(%issue): the copy is predicated on %issue, and where it is false
  // the box's 8192 bytes complete on the same barrier without data.
  // CHECK-LABEL: gpu.func @load_when
  // CHECK-SAME: %[[ISSUE:[a-z0-9]+]]: i1)
  // CHECK: %[[FULL:.*]] = llvm.getelementptr %{{.*}} -> !llvm.ptr<3>, i64
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL]], box[%{{.*}}, %{{.*}}] predicate = %[[ISSUE]] : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NEXT: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
  // CHECK-NEXT: %[[SKIP:.*]] = llvm.xor %[[ISSUE]], %[[TRUE]] : i1
  // CHECK-NEXT: %[[BYTES:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-NEXT: nvvm.inline_ptx "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [$0], $1;" ro(%[[FULL]], %[[BYTES]] : !llvm.ptr<3>, i32), predicate = %[[SKIP]]
  gpu.func @load_when(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, %a: !ringA, %n: i32,
                      %p: !pipe, %x: i32, %y: i32, %slot: i32, %row: i32, %issue: i1) {
    gemm.tma.load %d[%x, %y] -> %a[%slot, %row] barrier %p[%n] when(%issue)
        : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, !ringA, !pipe
    gpu.return
  }

  // cta_group(2) becomes the instruction's .cta_group::2, and the load
  // completes on the full barrier of the pair's even CTA (mapa; NVVM types
  // the operand as a shared::cta pointer, hence the integer round trip).
  // CHECK-LABEL: gpu.func @load_cta_group
  // CHECK: %[[FULL:.*]] = llvm.getelementptr %{{.*}} -> !llvm.ptr<3>, i64
  // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: %[[LEADER:.*]] = llvm.and %[[RANK]], %{{.*}} : i32
  // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[FULL]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK-NEXT: %[[INT:.*]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i64
  // CHECK-NEXT: %[[BAR:.*]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box[%{{.*}}, %{{.*}}] multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>}
  gpu.func @load_cta_group(%d: !descB, %b: !ringB, %p: !pipe, %x: i32, %y: i32,
                           %slot: i32, %row: i32, %n: i32, %mask: i16) {
    gemm.tma.load %d[%x, %y] -> %b[%slot, %row] barrier %p[%n] multicast(%mask)
        cta_group(2) : !descB, !ringB, !pipe
    gpu.return
  }

  // CHECK-LABEL: gpu.func @store
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[C:.*]]: !llvm.ptr<3>, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[SLOT:.*]]: i32)
  // CHECK: %[[STAGE:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mul %[[SLOT]], %[[STAGE]] : i32
  // CHECK-NEXT: %[[SRC:.*]] = llvm.getelementptr %[[C]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[D]], %[[SRC]], box[%[[X]], %[[Y]]] : !llvm.ptr, <3>
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK-NEXT: nvvm.cp.async.bulk.wait_group 1 {read}
  // CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0{{$}}
  gpu.func @store(%d: !descC, %c: !stage, %x: i32, %y: i32, %slot: i32) {
    gemm.tma.store %d[%x, %y] from %c[%slot] : !descC, !stage
    gemm.tma.store_commit
    gemm.tma.store_wait pending(1) read
    gemm.tma.store_wait pending(0)
    gpu.return
  }

  // A box of half the slot's rows (the second 32 x 32 f32 box of a
  // column-major C sub-tile) starts `row` lines (128 bytes) into the slot.
  // CHECK-LABEL: gpu.func @store_rows
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[S:.*]]: !llvm.ptr<3>, %[[X:.*]]: i32, %[[Y:.*]]: i32, %[[SLOT:.*]]: i32, %[[ROW:.*]]: i32)
  // CHECK: %[[SOFF:.*]] = llvm.mul %[[SLOT]], %{{.*}} : i32
  // CHECK-NEXT: %[[LINE:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[ROFF:.*]] = llvm.mul %[[ROW]], %[[LINE]] : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[SOFF]], %[[ROFF]] : i32
  // CHECK-NEXT: %[[SRC:.*]] = llvm.getelementptr %[[S]][%[[OFF]]]
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[D]], %[[SRC]], box[%[[X]], %[[Y]]]
  gpu.func @store_rows(%d: !gemm.tma_desc<f32, box = [32, 32], swizzle = 128>,
                       %s: !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>, %x: i32,
                       %y: i32, %slot: i32, %row: i32) {
    gemm.tma.store %d[%x, %y] from %s[%slot, %row]
        : !gemm.tma_desc<f32, box = [32, 32], swizzle = 128>,
          !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @prefetch
  // CHECK-SAME: (%[[D:.*]]: !llvm.ptr, %[[X:.*]]: i32, %[[Y:.*]]: i32)
  // CHECK-NEXT: nvvm.prefetch tensormap, %[[D]] : !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.prefetch %[[D]], box[%[[X]], %[[Y]]] : !llvm.ptr
  gpu.func @prefetch(%d: !descA, %x: i32, %y: i32) {
    gemm.tma.prefetch_descriptor %d : !descA
    gemm.tma.prefetch %d[%x, %y] : !descA
    gpu.return
  }
}
