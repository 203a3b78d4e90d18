// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// Tensor-memory ops become NVVM tcgen05 ops; !gemm.tmem becomes the NVVM
// tensor-memory pointer !llvm.ptr<6>.

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @alloc
  // CHECK-SAME: (%[[SLOT:.*]]: !llvm.ptr<3>)
  gpu.func @alloc(%slot: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>) {
    // CHECK: %[[COLS:.*]] = llvm.mlir.constant(512 : i32) : i32
    // CHECK: nvvm.tcgen05.alloc %[[SLOT]], %[[COLS]] : !llvm.ptr<3>, i32
    gemm.tmem.alloc %slot columns(512) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
    // CHECK: %[[COLS2:.*]] = llvm.mlir.constant(64 : i32) : i32
    // CHECK: nvvm.tcgen05.alloc %[[SLOT]], %[[COLS2]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
    gemm.tmem.alloc %slot columns(64) cta_group(2) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
    // CHECK: nvvm.tcgen05.relinquish_alloc_permit{{$}}
    gemm.tmem.relinquish
    // CHECK: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
    gemm.tmem.relinquish cta_group(2)
    // CHECK: nvvm.tcgen05.fence <before>
    gemm.tmem.fence before_thread_sync
    // CHECK: nvvm.tcgen05.fence <after>
    gemm.tmem.fence after_thread_sync
    gpu.return
  }

  // The address handoff: load the word tcgen05.alloc wrote, as a TMEM pointer.
  // CHECK-LABEL: gpu.func @address_dealloc
  // CHECK-SAME: (%[[SLOT:.*]]: !llvm.ptr<3>)
  gpu.func @address_dealloc(%slot: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>) {
    // CHECK: %[[WORD:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
    // CHECK: %[[TMEM:.*]] = llvm.inttoptr %[[WORD]] : i32 to !llvm.ptr<6>
    %acc = gemm.tmem.address %slot : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0> -> !gemm.tmem<2 x 128 x 128 x f32>
    // CHECK: %[[COLS:.*]] = llvm.mlir.constant(256 : i32) : i32
    // CHECK: nvvm.tcgen05.dealloc %[[TMEM]], %[[COLS]] : !llvm.ptr<6>, i32
    gemm.tmem.dealloc %acc columns(256) : !gemm.tmem<2 x 128 x 128 x f32>
    // CHECK: nvvm.tcgen05.dealloc %[[TMEM]], %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    gemm.tmem.dealloc %acc columns(256) cta_group(2) : !gemm.tmem<2 x 128 x 128 x f32>
    gpu.return
  }

  // Warp w reads lanes [32 (w mod 4), +32): lane field (w mod 4) << 21, and
  // columns stage * N + col.
  // CHECK-LABEL: gpu.func @load
  // CHECK-SAME: (%[[TMEM:.*]]: !llvm.ptr<6>, %[[STAGE:.*]]: i32)
  gpu.func @load(%acc: !gemm.tmem<2 x 128 x 256 x f32>, %stage: i32) -> vector<32xf32> {
    // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
    // CHECK: %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
    // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]], %[[C5]] : i32
    // CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
    // CHECK: %[[QUARTER:.*]] = llvm.and %[[WARP]], %[[C3]] : i32
    // CHECK: %[[C21:.*]] = llvm.mlir.constant(21 : i32) : i32
    // CHECK: %[[LANE:.*]] = llvm.shl %[[QUARTER]], %[[C21]] : i32
    // CHECK: %[[COL:.*]] = llvm.mlir.constant(64 : i32) : i32
    // CHECK: %[[N:.*]] = llvm.mlir.constant(256 : i32) : i32
    // CHECK: %[[SCOL:.*]] = llvm.mul %[[STAGE]], %[[N]] : i32
    // CHECK: %[[COLUMN:.*]] = llvm.add %[[SCOL]], %[[COL]] : i32
    // CHECK: %[[BASE:.*]] = llvm.ptrtoint %[[TMEM]] : !llvm.ptr<6> to i32
    // CHECK: %[[A1:.*]] = llvm.add %[[BASE]], %[[COLUMN]] : i32
    // CHECK: %[[A2:.*]] = llvm.add %[[A1]], %[[LANE]] : i32
    // CHECK: %[[ADDR:.*]] = llvm.inttoptr %[[A2]] : i32 to !llvm.ptr<6>
    // CHECK: %[[RAW:.*]] = nvvm.tcgen05.ld %[[ADDR]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
    // CHECK-NEXT: nvvm.tcgen05.wait <load>
    // CHECK-NEXT: %[[V:.*]] = llvm.bitcast %[[RAW]] : vector<32xi32> to vector<32xf32>
    %v = gemm.tmem.load %acc[%stage] col(64) : !gemm.tmem<2 x 128 x 256 x f32> -> vector<32xf32>
    // CHECK: gpu.return %[[V]] : vector<32xf32>
    gpu.return %v : vector<32xf32>
  }

  // tcgen05.ld.32x32b.x1 yields one b32, not a vector.
  // CHECK-LABEL: gpu.func @load_one
  gpu.func @load_one(%acc: !gemm.tmem<1 x 128 x 64 x f32>, %stage: i32) -> vector<1xf32> {
    // CHECK: %[[RAW:.*]] = nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : i32
    // CHECK-NEXT: nvvm.tcgen05.wait <load>
    // CHECK-NEXT: %[[F:.*]] = llvm.bitcast %[[RAW]] : i32 to f32
    // CHECK: %[[V:.*]] = llvm.insertelement %[[F]], %{{.*}}[%{{.*}} : i32] : vector<1xf32>
    %v = gemm.tmem.load %acc[%stage] col(63) : !gemm.tmem<1 x 128 x 64 x f32> -> vector<1xf32>
    // CHECK: gpu.return %[[V]]
    gpu.return %v : vector<1xf32>
  }
}
