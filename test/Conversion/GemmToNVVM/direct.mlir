// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s
// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s --check-prefix=COUNT

// The direct-access ops (GemmDirectOps.td) in the LLVM/NVVM dialects.
//
// gemm.direct.load: thread t = tid mod 128 (warp w, lane l) of a 64 x 64
// tile gets elements (w + 4 q, l + 32 p): the tile's first element in 64-bit
// arithmetic, 32-bit row offsets of rows clamped to the last one
// (smin(w + 4 q, rows - 1 - row)), 32-bit column offsets that are 0 for
// columns past the bound, and per element one add, one invariant 16-bit
// load (ld.global.nc) and a select of 0 for the K tail.
// gemm.direct.store_smem: element (i, j) at 128 i + 16 ((j / 8) ^ (i mod
// 8)) + 2 (j mod 8) of the slot, one 16-bit shared store each.

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @load_store
  // CHECK-SAME: (%[[P:[a-z0-9]+]]: !llvm.ptr<1>, %[[ROW:[a-z0-9]+]]: i32, %[[COL:[a-z0-9]+]]: i32, %[[LD:[a-z0-9]+]]: i64, %[[ROWS:[a-z0-9]+]]: i32, %[[COLS:[a-z0-9]+]]: i32, %[[SLOT:[a-z0-9]+]]: i32)
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[T:.*]] = llvm.urem %[[TID]], %{{.*}} : i32
  // CHECK: %[[WARP:.*]] = llvm.udiv %[[T]], %{{.*}} : i32
  // CHECK: %[[LANE:.*]] = llvm.urem %[[T]], %{{.*}} : i32
  // The tile's first element: row * ld + col * 1, 64-bit.
  // CHECK: %[[COL64:.*]] = llvm.zext %[[COL]] : i32 to i64
  // CHECK: %[[COLOFF:.*]] = llvm.mul %[[COL64]], %{{.*}} : i64
  // CHECK: %[[ROW64:.*]] = llvm.zext %[[ROW]] : i32 to i64
  // CHECK: %[[ROWOFF:.*]] = llvm.mul %[[ROW64]], %[[LD]] : i64
  // CHECK: %[[FIRST:.*]] = llvm.add %[[ROWOFF]], %[[COLOFF]] : i64
  // CHECK: %[[TILE:.*]] = llvm.getelementptr %[[P]][%[[FIRST]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
  // CHECK: %[[LD32:.*]] = llvm.trunc %[[LD]] : i64 to i32
  // CHECK: %[[LAST0:.*]] = llvm.sub %[[ROWS]], %{{.*}} : i32
  // CHECK: %[[LAST:.*]] = llvm.sub %[[LAST0]], %[[ROW]] : i32
  // Row q = 1 is w + 4, clamped to the last row.
  // CHECK: %[[R0:.*]] = llvm.add %[[WARP]], %{{.*}} : i32
  // CHECK: %[[C0:.*]] = llvm.intr.smin(%[[R0]], %[[LAST]]) : (i32, i32) -> i32
  // CHECK: %[[ROW0:.*]] = llvm.mul %[[C0]], %[[LD32]] : i32
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK: %[[R1:.*]] = llvm.add %[[WARP]], %[[FOUR]] : i32
  // CHECK: %[[C1:.*]] = llvm.intr.smin(%[[R1]], %[[LAST]]) : (i32, i32) -> i32
  // CHECK: %[[ROW1:.*]] = llvm.mul %[[C1]], %[[LD32]] : i32
  // Column pass 0: lane l, inside while col + l < cols.
  // CHECK: %[[FIRSTCOL:.*]] = llvm.add %[[COL]], %[[LANE]] : i32
  // CHECK: %[[ZERO16:.*]] = llvm.mlir.constant(0 : i16) : i16
  // CHECK: %[[IN0:.*]] = llvm.icmp "ult" %{{.*}}, %[[COLS]] : i32
  // CHECK: %[[CO0:.*]] = llvm.select %[[IN0]], %{{.*}}, %{{.*}} : i1, i32
  // CHECK: %[[IN1:.*]] = llvm.icmp "ult" %{{.*}}, %[[COLS]] : i32
  // CHECK: %[[CO1:.*]] = llvm.select %[[IN1]], %{{.*}}, %{{.*}} : i1, i32
  // Element 0 (q 0, p 0), element 1 (q 0, p 1), element 2 (q 1, p 0).
  // CHECK: %[[O0:.*]] = llvm.add %[[ROW0]], %[[CO0]] : i32
  // CHECK: %[[A0:.*]] = llvm.getelementptr %[[TILE]][%[[O0]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i16
  // CHECK: %[[V0:.*]] = llvm.load %[[A0]] invariant {alignment = 2 : i64} : !llvm.ptr<1> -> i16
  // CHECK: %[[Z0:.*]] = llvm.select %[[IN0]], %[[V0]], %[[ZERO16]] : i1, i16
  // CHECK: llvm.insertvalue %[[Z0]], %{{.*}}[0] : !llvm.array<32 x i16>
  // CHECK: %[[O1:.*]] = llvm.add %[[ROW0]], %[[CO1]] : i32
  // CHECK: llvm.load
  // CHECK: llvm.select %[[IN1]]
  // CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.array<32 x i16>
  // CHECK: %[[O2:.*]] = llvm.add %[[ROW1]], %[[CO0]] : i32
  // CHECK: llvm.insertvalue %{{.*}}[2] : !llvm.array<32 x i16>
  // The store: the slot, then element 0 at 128 w + 2 (l mod 8) +
  // 16 ((l / 8) ^ (w mod 8)).
  // CHECK: %[[SOFF:.*]] = llvm.mul %[[SLOT]], %{{.*}} : i32
  // CHECK: %[[S:.*]] = llvm.getelementptr %{{.*}}[%[[SOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[CHUNK:.*]] = llvm.lshr %[[SLANE:.*]], %{{.*}} : i32
  // CHECK: %[[LOW:.*]] = llvm.and %[[SLANE]], %{{.*}} : i32
  // CHECK: %[[LB:.*]] = llvm.mul %[[LOW]], %{{.*}} : i32
  // CHECK: %[[I0:.*]] = llvm.add %[[SWARP:.*]], %{{.*}} : i32
  // CHECK: %[[PHASE:.*]] = llvm.and %[[I0]], %{{.*}} : i32
  // CHECK: %[[RB:.*]] = llvm.mul %[[I0]], %{{.*}} : i32
  // CHECK: %[[RBL:.*]] = llvm.add %[[RB]], %[[LB]] : i32
  // CHECK: %[[CH:.*]] = llvm.add %[[CHUNK]], %{{.*}} : i32
  // CHECK: %[[X:.*]] = llvm.xor %[[CH]], %[[PHASE]] : i32
  // CHECK: %[[XB:.*]] = llvm.shl %[[X]], %{{.*}} : i32
  // CHECK: %[[OFF:.*]] = llvm.add %[[RBL]], %[[XB]] : i32
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[S]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[E0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<32 x i16>
  // CHECK: llvm.store %[[E0]], %[[ADDR]] {alignment = 2 : i64} : i16, !llvm.ptr<3>
  // COUNT-LABEL: gpu.func @load_store
  // COUNT-COUNT-32: llvm.load %{{.*}} invariant {alignment = 2 : i64} : !llvm.ptr<1> -> i16
  // COUNT-NOT: llvm.load
  // COUNT-COUNT-32: llvm.store %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<3>
  // COUNT-NOT: llvm.store
  // COUNT: gpu.return
  gpu.func @load_store(%p: !llvm.ptr<1>, %row: i32, %col: i32, %ld: i64, %rows: i32, %cols: i32, %slot: i32) {
    %one = arith.constant 1 : i64
    %a = gemm.smem.plan : !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    %f = gemm.direct.load %p[%row, %col] strides(%ld, %one) bounds(%rows, %cols)
        tile(64 x 64) threads(128) : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
    gemm.direct.store_smem %f -> %a[%slot] threads(128)
        : !gemm.fragment<32 x bf16>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    gpu.return
  }

  // gemm.accum.store_direct: value v of thread (w, l) at row row + 16 w +
  // l / 4 + 8 ((v / 2) mod 2), column col + 8 (v / 4) + 2 (l mod 4) + v mod
  // 2, stored under both bounds, rounded to the output type (or through the
  // epilogue region). N = 8: values 0 and 1 in row + 16 w + l / 4, values 2
  // and 3 eight rows below.
  // CHECK-LABEL: gpu.func @accum
  // CHECK-SAME: (%[[ACC:[a-z0-9]+]]: !llvm.struct<(struct<(f32, f32, f32, f32)>)>, %[[C:[a-z0-9]+]]: !llvm.ptr<1>, %[[AROW:[a-z0-9]+]]: i32, %[[ACOL:[a-z0-9]+]]: i32, %[[LDC:[a-z0-9]+]]: i64, %[[M:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32)
  // CHECK: %[[FR:.*]] = llvm.add %[[AROW]], %{{.*}} : i32
  // CHECK: %[[FC:.*]] = llvm.add %[[ACOL]], %{{.*}} : i32
  // CHECK: %[[FR64:.*]] = llvm.zext %[[FR]] : i32 to i64
  // CHECK: %[[RO:.*]] = llvm.mul %[[FR64]], %[[LDC]] : i64
  // CHECK: %[[CIN0:.*]] = llvm.icmp "ult" %{{.*}}, %[[N]] : i32
  // CHECK: %[[CIN1:.*]] = llvm.icmp "ult" %{{.*}}, %[[N]] : i32
  // CHECK: %[[RIN0:.*]] = llvm.icmp "ult" %{{.*}}, %[[M]] : i32
  // CHECK: %[[IN:.*]] = llvm.and %[[RIN0]], %[[CIN0]] : i1
  // CHECK: scf.if %[[IN]] {
  // CHECK-NEXT: %[[V:.*]] = llvm.extractvalue %[[ACC]][0, 0]
  // CHECK-NEXT: %[[B:.*]] = llvm.fptrunc %[[V]] : f32 to bf16
  // CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[RO]], %{{.*}} : i64
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr %[[C]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
  // CHECK-NEXT: llvm.store %[[B]], %[[ADDR]] {alignment = 2 : i64} : bf16, !llvm.ptr<1>
  // CHECK: llvm.extractvalue %[[ACC]][0, 1]
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK: %[[R8:.*]] = llvm.add %[[FR]], %[[EIGHT]] : i32
  // CHECK: %[[RIN8:.*]] = llvm.icmp "ult" %[[R8]], %[[M]] : i32
  // CHECK: llvm.and %[[RIN8]], %[[CIN0]] : i1
  // CHECK: llvm.extractvalue %[[ACC]][0, 2]
  // CHECK: llvm.extractvalue %[[ACC]][0, 3]
  // COUNT-LABEL: gpu.func @accum
  // COUNT-COUNT-4: llvm.store %{{.*}} : bf16, !llvm.ptr<1>
  // COUNT-NOT: llvm.store
  // COUNT: gpu.return
  gpu.func @accum(%acc: !gemm.accum<64 x 8 x f32>, %p: !llvm.ptr<1>, %row: i32, %col: i32, %ld: i64, %rows: i32, %cols: i32) {
    %one = arith.constant 1 : i64
    gemm.accum.store_direct %acc -> %p[%row, %col] strides(%ld, %one) bounds(%rows, %cols)
        : !gemm.accum<64 x 8 x f32>, !llvm.ptr<1> -> bf16
    gpu.return
  }

  // f32 outputs store the value itself; an epilogue region is inlined per
  // value, inside its bounds check.
  // CHECK-LABEL: gpu.func @accum_f32_epilogue
  // CHECK: scf.if
  // CHECK-NEXT: %[[V:.*]] = llvm.extractvalue %{{.*}}[0, 0]
  // CHECK-NEXT: %[[T:.*]] = arith.addf %[[V]], %[[V]] : f32
  // CHECK-NOT: fptrunc
  // CHECK: llvm.store %[[T]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
  // COUNT-LABEL: gpu.func @accum_f32_epilogue
  // COUNT-COUNT-4: arith.addf
  // COUNT-NOT: arith.addf
  gpu.func @accum_f32_epilogue(%acc: !gemm.accum<64 x 8 x f32>, %p: !llvm.ptr<1>, %row: i32, %col: i32, %ld: i64, %rows: i32, %cols: i32) {
    %one = arith.constant 1 : i64
    gemm.accum.store_direct %acc -> %p[%row, %col] strides(%ld, %one) bounds(%rows, %cols)
        : !gemm.accum<64 x 8 x f32>, !llvm.ptr<1> -> f32 {
    ^bb0(%v: f32):
      %twice = arith.addf %v, %v : f32
      gemm.yield %twice : f32
    }
    gpu.return
  }

  // staged: each warp (w' = tid / 32) rounds its 16 rows into rows 16 w' of
  // the buffer (value v of lane l at row l / 4 + 8 ((v / 2) mod 2), column
  // 2 (l mod 4) + v mod 2 + 8 (v / 4); rows of 16 bf16 = 32 bytes), waits
  // for its lanes, reads its 16 rows back with lane l at column l (lanes
  // past the tile's 8 columns read column 0), every read before the first
  // store, then stores them, each under both bounds and inside the tile:
  // 16 stores of consecutive elements.
  // CHECK-LABEL: gpu.func @accum_staged
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %{{.*}} : i32
  // CHECK: %[[LANE:.*]] = llvm.urem %[[TID]], %{{.*}} : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<3>
  // CHECK: nvvm.bar.warp.sync
  // C's rows: `row` (the warpgroup's first) + 16 (w' mod 4).
  // CHECK: %[[GW:.*]] = llvm.urem %[[WARP]], %{{.*}} : i32
  // CHECK: %[[GROWS:.*]] = llvm.mul %[[GW]], %{{.*}} : i32
  // CHECK: llvm.add %{{.*}}, %[[GROWS]] : i32
  // CHECK: %[[INTILE:.*]] = llvm.icmp "ult" %[[COL:.*]], %{{.*}} : i32
  // CHECK: llvm.select %[[INTILE]], %[[COL]], %{{.*}} : i1, i32
  // CHECK: %[[S:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> bf16
  // CHECK-NOT: llvm.store
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> bf16
  // CHECK: llvm.and %{{.*}}, %[[INTILE]] : i1
  // CHECK: scf.if
  // CHECK: llvm.store %[[S]], %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<1>
  // COUNT-LABEL: gpu.func @accum_staged
  // COUNT-COUNT-4: llvm.store %{{.*}} : bf16, !llvm.ptr<3>
  // COUNT: nvvm.bar.warp.sync
  // COUNT-COUNT-16: llvm.store %{{.*}} : bf16, !llvm.ptr<1>
  // COUNT-NOT: llvm.store
  // COUNT: gpu.return
  gpu.func @accum_staged(%acc: !gemm.accum<64 x 8 x f32>, %p: !llvm.ptr<1>, %row: i32, %col: i32, %ld: i64, %rows: i32, %cols: i32) {
    %one = arith.constant 1 : i64
    %stage = gemm.smem.plan : !gemm.smem<1 x 64 x 16 x bf16, swizzle = 0>
    gemm.accum.store_direct %acc -> %p[%row, %col] strides(%ld, %one) bounds(%rows, %cols)
        staged(%stage : !gemm.smem<1 x 64 x 16 x bf16, swizzle = 0>)
        : !gemm.accum<64 x 8 x f32>, !llvm.ptr<1> -> bf16
    gpu.return
  }

  // staged, columns (a column-major C): lanes walk the 16 rows of a column,
  // two columns per store, so 8 columns take 4 stores.
  // COUNT-LABEL: gpu.func @accum_staged_columns
  // COUNT-COUNT-4: llvm.store %{{.*}} : f32, !llvm.ptr<3>
  // COUNT: nvvm.bar.warp.sync
  // COUNT-COUNT-4: llvm.store %{{.*}} : f32, !llvm.ptr<1>
  // COUNT-NOT: llvm.store
  // COUNT: gpu.return
  gpu.func @accum_staged_columns(%acc: !gemm.accum<64 x 8 x f32>, %p: !llvm.ptr<1>, %row: i32, %col: i32, %ld: i64, %rows: i32, %cols: i32) {
    %one = arith.constant 1 : i64
    %stage = gemm.smem.plan : !gemm.smem<1 x 64 x 12 x f32, swizzle = 0>
    gemm.accum.store_direct %acc -> %p[%row, %col] strides(%one, %ld) bounds(%rows, %cols)
        staged(%stage : !gemm.smem<1 x 64 x 12 x f32, swizzle = 0>) columns
        : !gemm.accum<64 x 8 x f32>, !llvm.ptr<1> -> f32
    gpu.return
  }
}
