// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s
// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s --check-prefix=STORES

// gemm.accum.store_smem writes one 64-row, 128-byte-wide block of an
// accumulator atom into a 128-byte-swizzled staging slot: thread (warp w,
// lane l) writes rows 16 w + l / 4 (+ 8) at byte 2 * elem * (l mod 4) of
// each 8-column group, the 16-byte chunk index xor-ed with l / 4; values
// are converted to the slot type (or by the epilogue region) in pairs.

!acc = !gemm.accum<64 x 256 x f32>
!stage16 = !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
!stage32 = !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>

gpu.module @kernels {
  // 16-bit outputs: one stmatrix.x4 per two 8-column groups. Lane l
  // addresses row l mod 8 of 8x8 block l / 8: rows 16 w + 8 ((l / 8) mod 2)
  // + l mod 8, chunk (l / 16) + group, xor-ed with row mod 8.
  // CHECK-LABEL: gpu.func @store_bf16
  // CHECK-SAME: (%[[ACC:[a-z0-9]+]]: !llvm.struct<(struct<(f32, {{.*}})>)>, %[[S:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32)
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-NEXT: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[T:.*]] = llvm.urem %[[TID]], %[[C128]] : i32
  // CHECK-NEXT: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[WARP:.*]] = llvm.udiv %[[T]], %[[C32]] : i32
  // CHECK-NEXT: %[[C32B:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[LANE:.*]] = llvm.urem %[[T]], %[[C32B]] : i32
  // CHECK-NEXT: %[[STAGE:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-NEXT: %[[SOFF:.*]] = llvm.mul %[[SLOT]], %[[STAGE]] : i32
  // CHECK-NEXT: %[[BASE:.*]] = llvm.getelementptr %[[S]][%[[SOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[ATOM:.*]] = llvm.extractvalue %[[ACC]][0]
  // CHECK-NEXT: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[BLOCK:.*]] = llvm.udiv %[[LANE]], %[[C8]] : i32
  // CHECK-NEXT: %[[C8B:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[RIB:.*]] = llvm.urem %[[LANE]], %[[C8B]] : i32
  // CHECK-NEXT: %[[C8C:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK-NEXT: %[[HALF:.*]] = llvm.urem %[[BLOCK]], %[[C2]] : i32
  // CHECK-NEXT: %[[H8:.*]] = llvm.mul %[[HALF]], %[[C8C]] : i32
  // CHECK-NEXT: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[W16:.*]] = llvm.mul %[[WARP]], %[[C16]] : i32
  // CHECK-NEXT: %[[R0:.*]] = llvm.add %[[W16]], %[[H8]] : i32
  // CHECK-NEXT: %[[ROW:.*]] = llvm.add %[[R0]], %[[RIB]] : i32
  // CHECK-NEXT: %[[C2B:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK-NEXT: %[[GL:.*]] = llvm.udiv %[[BLOCK]], %[[C2B]] : i32
  // Column 64 starts at value (64 / 8) * 4 = 32: blocks (group 0, rows +0)
  // = values 32, 33; (group 0, +8) = 34, 35; (group 1, +0) = 36, 37;
  // (group 1, +8) = 38, 39, each pair rounded and packed into one b32.
  // CHECK: llvm.extractvalue %[[ATOM]][32]
  // CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: llvm.fptrunc %{{.*}} : f32 to bf16
  // CHECK: llvm.extractvalue %[[ATOM]][33]
  // CHECK: %[[M0:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
  // CHECK: llvm.extractvalue %[[ATOM]][34]
  // CHECK: llvm.extractvalue %[[ATOM]][35]
  // CHECK: %[[M1:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
  // CHECK: llvm.extractvalue %[[ATOM]][36]
  // CHECK: llvm.extractvalue %[[ATOM]][37]
  // CHECK: %[[M2:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
  // CHECK: llvm.extractvalue %[[ATOM]][38]
  // CHECK: llvm.extractvalue %[[ATOM]][39]
  // CHECK: %[[M3:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
  // CHECK-NEXT: %[[G0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[CHUNK:.*]] = llvm.add %[[GL]], %[[G0]] : i32
  // CHECK-NEXT: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK-NEXT: %[[ROW7:.*]] = llvm.and %[[ROW]], %[[C7]] : i32
  // CHECK-NEXT: %[[XOR:.*]] = llvm.xor %[[CHUNK]], %[[ROW7]] : i32
  // CHECK-NEXT: %[[SWZ:.*]] = llvm.shl %[[XOR]], %[[C4]] : i32
  // CHECK-NEXT: %[[C128B:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[YB:.*]] = llvm.mul %[[ROW]], %[[C128B]] : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[YB]], %[[SWZ]] : i32
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: nvvm.stmatrix %[[ADDR]], %[[M0]], %[[M1]], %[[M2]], %[[M3]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // The last pair of groups (6, 7) starts at chunk 6 and ends with value 63.
  // CHECK: llvm.extractvalue %[[ATOM]][63]
  // CHECK: llvm.mlir.constant(6 : i32) : i32
  // CHECK: nvvm.stmatrix
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: gpu.return
  gpu.func @store_bf16(%acc: !acc, %s: !stage16, %slot: i32) {
    gemm.accum.store_smem %acc atom(0) col(64) -> %s[%slot] : !acc, !stage16
    gpu.return
  }

  // 8 column groups of a 128-byte block: 4 stmatrix.x4.
  // CHECK-LABEL: gpu.func @store_bf16_count
  // CHECK-COUNT-4: nvvm.stmatrix
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: gpu.return
  gpu.func @store_bf16_count(%acc: !acc, %s: !stage16, %slot: i32) {
    gemm.accum.store_smem %acc atom(0) col(0) -> %s[%slot] : !acc, !stage16
    gpu.return
  }

  // f32 needs no conversion: 8 bytes per lane, 32 columns = 4 groups.
  // CHECK-LABEL: gpu.func @store_f32
  // CHECK-SAME: (%[[ACC:[a-z0-9]+]]: !llvm.struct<(struct<(f32, {{.*}})>, struct<(f32, {{.*}})>)>, %[[S:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32)
  // CHECK: %[[STAGE:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // Atom 1, column 32 = value (32 / 8) * 4 = 16.
  // CHECK: %[[ATOM:.*]] = llvm.extractvalue %[[ACC]][1]
  // CHECK: %[[PAIRBYTES:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK: llvm.mul %{{.*}}, %[[PAIRBYTES]] : i32
  // CHECK: %[[U:.*]] = llvm.mlir.undef : vector<2xf32>
  // CHECK-NEXT: %[[V0:.*]] = llvm.extractvalue %[[ATOM]][16]
  // CHECK-NEXT: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[P0:.*]] = llvm.insertelement %[[V0]], %[[U]][%[[I0]] : i32] : vector<2xf32>
  // CHECK-NEXT: %[[V1:.*]] = llvm.extractvalue %[[ATOM]][17]
  // CHECK-NEXT: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[P1:.*]] = llvm.insertelement %[[V1]], %[[P0]][%[[I1]] : i32] : vector<2xf32>
  // CHECK: llvm.store %[[P1]], %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
  // Group 3 at byte 96: values 28..31.
  // CHECK: llvm.mlir.constant(96 : i32) : i32
  // CHECK: llvm.extractvalue %[[ATOM]][31]
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK-NOT: llvm.fptrunc
  // CHECK: gpu.return
  gpu.func @store_f32(%acc: !gemm.accum<128 x 64 x f32>, %s: !stage32, %slot: i32) {
    gemm.accum.store_smem %acc atom(1) col(32) -> %s[%slot]
        : !gemm.accum<128 x 64 x f32>, !stage32
    gpu.return
  }

  // CHECK-LABEL: gpu.func @store_f32_count
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: gpu.return
  gpu.func @store_f32_count(%acc: !gemm.accum<128 x 64 x f32>, %s: !stage32, %slot: i32) {
    gemm.accum.store_smem %acc atom(1) col(32) -> %s[%slot]
        : !gemm.accum<128 x 64 x f32>, !stage32
    gpu.return
  }

  // The epilogue region is inlined once per value instead of the rounding.
  // CHECK-LABEL: gpu.func @store_epilogue
  // CHECK-SAME: (%[[ACC:[a-z0-9]+]]: !llvm.struct<(struct<(f32, {{.*}})>)>, %[[S:[a-z0-9]+]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]+]]: i32, %[[ALPHA:[a-z0-9]+]]: f32)
  // CHECK: %[[ATOM:.*]] = llvm.extractvalue %[[ACC]][0]
  // CHECK: %[[V0:.*]] = llvm.extractvalue %[[ATOM]][0]
  // CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[V0]], %[[ALPHA]] : f32
  // CHECK-NEXT: %[[RELU:.*]] = arith.maximumf %[[SCALED]], %[[ZERO]] : f32
  // CHECK-NEXT: %[[OUT:.*]] = arith.truncf %[[RELU]] : f32 to bf16
  // CHECK-NEXT: llvm.insertelement %[[OUT]], %{{.*}} : vector<2xbf16>
  // CHECK-NEXT: %[[V1:.*]] = llvm.extractvalue %[[ATOM]][1]
  // CHECK: arith.mulf %[[V1]], %[[ALPHA]] : f32
  // 32 values per thread (8 groups x 2 rows x 2 columns): 32 copies of the
  // region; no default rounding.
  // CHECK-COUNT-31: arith.maximumf
  // CHECK-NOT: arith.maximumf
  // CHECK-NOT: llvm.fptrunc
  // CHECK-NOT: gemm.yield
  // CHECK: gpu.return
  gpu.func @store_epilogue(%acc: !acc, %s: !stage16, %slot: i32, %alpha: f32) {
    gemm.accum.store_smem %acc atom(0) col(0) -> %s[%slot] : !acc, !stage16 {
    ^bb0(%v: f32):
      %zero = arith.constant 0.0 : f32
      %scaled = arith.mulf %v, %alpha : f32
      %relu = arith.maximumf %scaled, %zero : f32
      %r = arith.truncf %relu : f32 to bf16
      gemm.yield %r : bf16
    }
    gpu.return
  }
  // SM100: one tcgen05.ld .32x32b.x64 of the warp's lane quarter (TMEM
  // address + stage * 256 + col, lane field 32 * (warp mod 4) << 16), the
  // wait, then per 16-byte chunk c: eight values rounded and packed in four
  // words, stored at row lane, chunk c ^ (lane mod 8).
  // CHECK-LABEL: gpu.func @store_tmem_bf16
  // CHECK-SAME: (%[[T:[a-z0-9]+]]: !llvm.ptr<6>, %[[S:[a-z0-9]+]]: !llvm.ptr<3>, %[[STAGE:[a-z0-9]+]]: i32, %[[SLOT:[a-z0-9]+]]: i32)
  // CHECK: %[[QUARTER:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
  // CHECK: %[[LANES:.*]] = llvm.shl %[[QUARTER]], %{{.*}} : i32
  // CHECK: %[[COL:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK-NEXT: %[[COLS:.*]] = llvm.mlir.constant(256 : i32) : i32
  // CHECK-NEXT: %[[BASECOL:.*]] = llvm.mul %[[STAGE]], %[[COLS]] : i32
  // CHECK-NEXT: %[[COLUMN:.*]] = llvm.add %[[BASECOL]], %[[COL]] : i32
  // CHECK: %[[ADDR:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
  // CHECK-NEXT: %[[ROW:.*]] = nvvm.tcgen05.ld %[[ADDR]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
  // CHECK-NEXT: nvvm.tcgen05.wait <load>
  // CHECK: %[[LANE:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
  // CHECK: %[[SLOTPTR:.*]] = llvm.getelementptr %[[S]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.extractelement %[[ROW]][%{{.*}} : i32] : vector<64xi32>
  // CHECK-NEXT: llvm.bitcast %{{.*}} : i32 to f32
  // CHECK-NEXT: llvm.fptrunc %{{.*}} : f32 to bf16
  // CHECK: %[[ROWMOD:.*]] = llvm.and %[[LANE]], %{{.*}} : i32
  // CHECK-NEXT: %[[SWZ:.*]] = llvm.xor %{{.*}}, %[[ROWMOD]] : i32
  // CHECK-NEXT: %[[CHUNK:.*]] = llvm.shl %[[SWZ]], %{{.*}} : i32
  // CHECK-NEXT: %[[ROWBYTES:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[ROWOFF:.*]] = llvm.mul %[[LANE]], %[[ROWBYTES]] : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[ROWOFF]], %[[CHUNK]] : i32
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[SLOTPTR]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: llvm.store %{{.*}}, %[[DST]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  gpu.func @store_tmem_bf16(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>,
                            %stage: i32, %slot: i32) {
    gemm.tmem.store_smem %t[%stage] col(64) -> %s[%slot]
        : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
    gpu.return
  }

  // 64 values: one load, 64 conversions, 8 chunk stores per thread.
  // CHECK-LABEL: gpu.func @store_tmem_bf16_count
  // CHECK-COUNT-1: nvvm.tcgen05.ld
  // CHECK-COUNT-64: llvm.fptrunc
  // CHECK-NOT: llvm.fptrunc
  // CHECK: gpu.return
  // STORES-LABEL: gpu.func @store_tmem_bf16_count
  // STORES-COUNT-8: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  // STORES-NOT: llvm.store
  // STORES: gpu.return
  gpu.func @store_tmem_bf16_count(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>,
                                  %stage: i32, %slot: i32) {
    gemm.tmem.store_smem %t[%stage] col(0) -> %s[%slot]
        : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
    gpu.return
  }

  // f32 through an epilogue region: 32 values (.x32), each through the
  // region and stored as is, four per chunk.
  // CHECK-LABEL: gpu.func @store_tmem_f32_epilogue
  // CHECK: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
  // CHECK-COUNT-32: arith.mulf
  // CHECK-NOT: arith.mulf
  // CHECK-NOT: llvm.fptrunc
  // CHECK-NOT: gemm.yield
  // CHECK: gpu.return
  // STORES-LABEL: gpu.func @store_tmem_f32_epilogue
  // STORES-COUNT-8: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  // STORES-NOT: llvm.store
  // STORES: gpu.return
  gpu.func @store_tmem_f32_epilogue(%t: !gemm.tmem<2 x 128 x 128 x f32>, %s: !gemm.smem<8 x 32 x 32 x f32, swizzle = 128>,
                                    %stage: i32, %slot: i32, %alpha: f32) {
    gemm.tmem.store_smem %t[%stage] col(96) -> %s[%slot]
        : !gemm.tmem<2 x 128 x 128 x f32>, !gemm.smem<8 x 32 x 32 x f32, swizzle = 128> {
    ^bb0(%v: f32):
      %r = arith.mulf %v, %alpha : f32
      gemm.yield %r : f32
    }
    gpu.return
  }

  // A column-major C (transposed): the slot is the sub-tile's transpose,
  // line n = column n of the atom's 64 rows. stmatrix.trans (layout col)
  // stores each 8x8 block transposed: lane l addresses line 8 (group +
  // (l / 16)) + l mod 8 at chunk 2 w + (l / 8) mod 2 (the block's 8 rows),
  // xor-ed with the line mod 8 = l mod 8.
  // CHECK-LABEL: gpu.func @store_bf16_transposed
  // CHECK: %[[WARP:.*]] = llvm.udiv %{{.*}}, %{{.*}} : i32
  // CHECK: %[[LANE:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
  // CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[BLOCK:.*]] = llvm.udiv %[[LANE]], %{{.*}} : i32
  // CHECK: %[[J:.*]] = llvm.urem %[[LANE]], %{{.*}} : i32
  // CHECK: %[[HALF:.*]] = llvm.urem %[[BLOCK]], %{{.*}} : i32
  // CHECK: %[[GL:.*]] = llvm.udiv %[[BLOCK]], %{{.*}} : i32
  // CHECK: %[[W2:.*]] = llvm.mul %[[WARP]], %{{.*}} : i32
  // CHECK-NEXT: %[[CHUNK:.*]] = llvm.add %[[W2]], %[[HALF]] : i32
  // CHECK: %[[G:.*]] = llvm.add %[[GL]], %{{.*}} : i32
  // CHECK: %[[G8:.*]] = llvm.mul %[[G]], %{{.*}} : i32
  // CHECK-NEXT: %[[LINE:.*]] = llvm.add %[[G8]], %[[J]] : i32
  // CHECK: %[[LINE7:.*]] = llvm.and %[[LINE]], %{{.*}} : i32
  // CHECK-NEXT: %[[SW:.*]] = llvm.xor %[[CHUNK]], %[[LINE7]] : i32
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: nvvm.stmatrix %[[ADDR]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // CHECK-COUNT-3: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<col>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: gpu.return
  gpu.func @store_bf16_transposed(%acc: !acc, %s: !stage16, %slot: i32) {
    gemm.accum.store_smem %acc atom(0) col(64) transposed -> %s[%slot] : !acc, !stage16
    gpu.return
  }

  // A narrower last sub-tile (columns(40): lines 0-39) of values 64 + ...:
  // two stmatrix.x4 of 16 lines, then one x2 of the last 8 (lanes 0-15 give
  // its two blocks' addresses), from values 4 (64 / 8 + g) + 2 half + i.
  // CHECK-LABEL: gpu.func @store_bf16_transposed_narrow
  // CHECK: llvm.extractvalue %{{.*}}[32]
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}layout = #nvvm.mma_layout<col>
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}layout = #nvvm.mma_layout<col>
  // CHECK: llvm.extractvalue %{{.*}}[48]
  // CHECK: llvm.extractvalue %{{.*}}[51]
  // CHECK-NOT: llvm.extractvalue %{{.*}}[52]
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}layout = #nvvm.mma_layout<col>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: gpu.return
  gpu.func @store_bf16_transposed_narrow(%acc: !gemm.accum<64 x 104 x f32>, %s: !stage16, %slot: i32) {
    gemm.accum.store_smem %acc atom(0) col(64) columns(40) transposed -> %s[%slot]
        : !gemm.accum<64 x 104 x f32>, !stage16
    gpu.return
  }

  // A row-major narrower last sub-tile (columns(24)) is packed: rows of 24
  // bf16 (48 bytes), chunk c of row y at 48 y + 16 c, no swizzle (no xor);
  // one stmatrix.x4 of groups 0-1 and an x2 of group 2, from values 4 (64 /
  // 8 + g) + 2 half + i.
  // CHECK-LABEL: gpu.func @store_bf16_packed_narrow
  // CHECK-NOT: llvm.xor
  // CHECK: llvm.extractvalue %{{.*}}[32]
  // CHECK: %[[PITCH:.*]] = llvm.mlir.constant(48 : i32) : i32
  // CHECK-NEXT: %[[ROWBYTES:.*]] = llvm.mul %{{.*}}, %[[PITCH]] : i32
  // CHECK: %[[SHIFT:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[CHUNKBYTES:.*]] = llvm.shl %{{.*}}, %[[SHIFT]] : i32
  // CHECK-NEXT: %[[OFFSET:.*]] = llvm.add %[[ROWBYTES]], %[[CHUNKBYTES]] : i32
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%[[OFFSET]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: nvvm.stmatrix %[[ADDR]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}layout = #nvvm.mma_layout<row>
  // CHECK: llvm.extractvalue %{{.*}}[43]
  // CHECK-NOT: llvm.extractvalue %{{.*}}[44]
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}layout = #nvvm.mma_layout<row>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.xor
  // CHECK: gpu.return
  gpu.func @store_bf16_packed_narrow(%acc: !gemm.accum<64 x 88 x f32>, %s: !stage16, %slot: i32) {
    gemm.accum.store_smem %acc atom(0) col(64) columns(24) -> %s[%slot]
        : !gemm.accum<64 x 88 x f32>, !stage16
    gpu.return
  }

  // f32, packed (columns(16) of a 32-column sub-tile): rows of 64 bytes, 8
  // bytes per lane, groups 0 and 1 only.
  // CHECK-LABEL: gpu.func @store_f32_packed_narrow
  // CHECK-NOT: llvm.xor
  // CHECK: llvm.mlir.constant(64 : i32) : i32
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: gpu.return
  gpu.func @store_f32_packed_narrow(%acc: !gemm.accum<128 x 80 x f32>, %s: !stage32, %slot: i32) {
    gemm.accum.store_smem %acc atom(1) col(64) columns(16) -> %s[%slot]
        : !gemm.accum<128 x 80 x f32>, !stage32
    gpu.return
  }

  // f32, transposed: two 32 x 32 boxes (4096 bytes each); a thread's row r
  // = 16 w + l / 4 + 8 half is box r / 32, byte 4 (r mod 32) of its line;
  // each value is stored alone (4 bytes), 2 halves x 4 groups x 2 values.
  // CHECK-LABEL: gpu.func @store_f32_transposed
  // CHECK: %[[ATOM:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: %[[BOX:.*]] = llvm.udiv %[[ROW:.*]], %[[C32]] : i32
  // CHECK: %[[C4096:.*]] = llvm.mlir.constant(4096 : i32) : i32
  // CHECK-NEXT: %[[BOXOFF:.*]] = llvm.mul %[[BOX]], %[[C4096]] : i32
  // CHECK: llvm.extractvalue %[[ATOM]][16]
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
  // CHECK-COUNT-15: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: gpu.return
  gpu.func @store_f32_transposed(%acc: !gemm.accum<128 x 64 x f32>, %s: !stage32, %slot: i32) {
    gemm.accum.store_smem %acc atom(1) col(32) transposed -> %s[%slot]
        : !gemm.accum<128 x 64 x f32>, !stage32
    gpu.return
  }
}
