// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s

// The scale ops of low-precision kernels and the WGMMA of each type pair.
// Thread (warp w, lane l) of a warpgroup holds rows 16 w + l / 4 (+ 8) of
// each 64-row atom and columns 8 g + 2 (l mod 4) (+ 1) of each 8-column
// group g: value v is at half (v / 2) mod 2, group v / 4, column v mod 2.

gpu.module @kernels {
  // One scale: an invariant (ld.global.nc) load of element %i.
  // CHECK-LABEL: gpu.func @load
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[I:.*]]: i32)
  // CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr %[[P]][%[[I]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK-NEXT: llvm.load %[[ADDR]] invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  gpu.func @load(%p: !llvm.ptr<1>, %i: i32) {
    %s = gemm.scale.load %p[%i] : !llvm.ptr<1>
    %t = arith.addf %s, %s : f32
    gpu.return
  }

  // Row scales of a two-atom accumulator: rows 16 w + l / 4 + {0, 8, 64,
  // 72}, each clamped to end - 1.
  // CHECK-LABEL: gpu.func @rows
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[F:.*]]: i32, %[[E:.*]]: i32)
  // CHECK: %[[W16:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[R:.*]] = llvm.add %[[W16]], %{{.*}} : i32
  // CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[R0:.*]] = llvm.add %[[R]], %[[C0]] : i32
  // CHECK-NEXT: %[[I0:.*]] = llvm.add %[[F]], %[[R0]] : i32
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[LAST:.*]] = llvm.sub %[[E]], %[[ONE]] : i32
  // CHECK-NEXT: %[[J0:.*]] = llvm.intr.umin(%[[I0]], %[[LAST]]) : (i32, i32) -> i32
  // CHECK-NEXT: llvm.getelementptr %[[P]][%[[J0]]]
  // CHECK-NEXT: llvm.load {{.*}} invariant
  // CHECK: llvm.mlir.constant(8 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK: llvm.mlir.constant(64 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK: llvm.mlir.constant(72 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK-NOT: llvm.load
  // CHECK: gpu.return
  gpu.func @rows(%p: !llvm.ptr<1>, %f: i32, %e: i32) {
    %r = gemm.scale.rows %p[%f] below(%e) : !llvm.ptr<1> -> vector<4xf32>
    %x = vector.extract %r[0] : f32 from vector<4xf32>
    gpu.return
  }

  // Row scales of a slice at %b (a k-block's of block-wise A scales): the
  // clamped row, then the slice's offset added (base + min(f + r, e - 1)).
  // CHECK-LABEL: gpu.func @rows_in_slice
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[B:.*]]: i32, %[[F:.*]]: i32, %[[E:.*]]: i32)
  // CHECK: %[[I0:.*]] = llvm.add %[[F]], %{{.*}} : i32
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[LAST:.*]] = llvm.sub %[[E]], %[[ONE]] : i32
  // CHECK-NEXT: %[[J0:.*]] = llvm.intr.umin(%[[I0]], %[[LAST]]) : (i32, i32) -> i32
  // CHECK-NEXT: %[[K0:.*]] = llvm.add %[[B]], %[[J0]] : i32
  // CHECK-NEXT: llvm.getelementptr %[[P]][%[[K0]]]
  // CHECK-NEXT: llvm.load {{.*}} invariant
  // CHECK: llvm.intr.umin
  // CHECK-NEXT: llvm.add %[[B]]
  // CHECK-NEXT: llvm.getelementptr %[[P]]
  // CHECK-NEXT: llvm.load {{.*}} invariant
  // CHECK-NOT: llvm.load
  // CHECK: gpu.return
  gpu.func @rows_in_slice(%p: !llvm.ptr<1>, %b: i32, %f: i32, %e: i32) {
    %r = gemm.scale.rows %p + %b[%f] below(%e) : !llvm.ptr<1> -> vector<2xf32>
    %x = vector.extract %r[0] : f32 from vector<2xf32>
    gpu.return
  }

  // Column scales of 16 columns: 2 (l mod 4) + {0, 1, 8, 9}.
  // CHECK-LABEL: gpu.func @cols
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK-NEXT: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[L4:.*]] = llvm.urem %{{.*}}, %[[FOUR]] : i32
  // CHECK-NEXT: %[[C:.*]] = llvm.mul %[[L4]], %[[TWO]] : i32
  // CHECK: llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK: llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK: llvm.mlir.constant(8 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK: llvm.mlir.constant(9 : i32) : i32
  // CHECK: llvm.load {{.*}} invariant
  // CHECK-NOT: llvm.load
  // CHECK: gpu.return
  gpu.func @cols(%p: !llvm.ptr<1>, %f: i32, %e: i32) {
    %c = gemm.scale.cols %p[%f] below(%e) : !llvm.ptr<1> -> vector<4xf32>
    %x = vector.extract %c[0] : f32 from vector<4xf32>
    gpu.return
  }

  // Staged block-wise A scales, 128 per slot: lane l copies elements
  // 4 l .. 4 l + 3 of slot %s (512 bytes each), clamped as scale.rows
  // reads them, with 4-byte cp.async, then arrives on the stage's full
  // barrier (stage %n mod 4) once they landed.
  // CHECK-LABEL: gpu.func @stage
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[B:.*]]: i32, %[[F:.*]]: i32, %[[E:.*]]: i32, %[[RING:.*]]: !llvm.ptr<3>, %[[S:.*]]: i32, %[[PIPE:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
  // CHECK: %[[LANE:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
  // CHECK: %[[SLOTBYTES:.*]] = llvm.mlir.constant(512 : i32) : i32
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mul %[[S]], %[[SLOTBYTES]] : i32
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[RING]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NOT: llvm.icmp
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[G:.*]] = llvm.mul %{{.*}}, %[[FOUR]] : i32
  // CHECK: %[[EL:.*]] = llvm.add %[[G]], %{{.*}} : i32
  // CHECK-NEXT: %[[I:.*]] = llvm.add %[[F]], %[[EL]] : i32
  // CHECK: %[[LAST:.*]] = llvm.sub %[[E]], %{{.*}} : i32
  // CHECK-NEXT: %[[J:.*]] = llvm.intr.umin(%[[I]], %[[LAST]]) : (i32, i32) -> i32
  // CHECK-NEXT: %[[K:.*]] = llvm.add %[[B]], %[[J]] : i32
  // CHECK-NEXT: %[[SRC:.*]] = llvm.getelementptr %[[P]][%[[K]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[SLOT]][%[[EL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %[[SRC]], 4, cache = ca
  // CHECK-COUNT-3: nvvm.cp.async.shared.global
  // CHECK-NOT: nvvm.cp.async.shared.global
  // CHECK: %[[STAGES:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[STAGE:.*]] = llvm.urem %[[N]], %[[STAGES]] : i32
  // CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[PIPE]][%[[STAGE]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: nvvm.cp.async.mbarrier.arrive %[[FULL]] {noinc = true} : !llvm.ptr<3>
  // CHECK-NEXT: gpu.return
  gpu.func @stage(%p: !llvm.ptr<1>, %b: i32, %f: i32, %e: i32,
                  %ring: !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>, %s: i32,
                  %pipe: !gemm.pipeline<stages = 4, producers = 33, consumers = 2>,
                  %n: i32) {
    gemm.scale.stage %p + %b[%f] below(%e) -> %ring[%s] barrier %pipe[%n]
        : !llvm.ptr<1>, !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>,
          !gemm.pipeline<stages = 4, producers = 33, consumers = 2>
    gpu.return
  }

  // 64 scales per slot: 16 groups, so lanes 16-31 copy nothing (their
  // copies predicated off) and only arrive.
  // CHECK-LABEL: gpu.func @stage_half
  // CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[IN:.*]] = llvm.icmp "ult" %{{.*}}, %[[SIXTEEN]] : i32
  // CHECK-COUNT-4: nvvm.inline_ptx "cp.async.ca.shared.global [$0], [$1], 4;" ro({{.*}} : !llvm.ptr<3>, !llvm.ptr<1>), predicate = %[[IN]]
  // CHECK-NOT: cp.async.shared.global
  // CHECK: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
  gpu.func @stage_half(%p: !llvm.ptr<1>, %b: i32, %f: i32, %e: i32,
                       %ring: !gemm.smem<4 x 1 x 64 x f32, swizzle = 0>, %s: i32,
                       %pipe: !gemm.pipeline<stages = 4, producers = 33, consumers = 1>,
                       %n: i32) {
    gemm.scale.stage %p + %b[%f] below(%e) -> %ring[%s] barrier %pipe[%n]
        : !llvm.ptr<1>, !gemm.smem<4 x 1 x 64 x f32, swizzle = 0>,
          !gemm.pipeline<stages = 4, producers = 33, consumers = 1>
    gpu.return
  }

  // The thread's rows from a slot: element %f + 16 w + l / 4 (+ 8), read
  // with ld.shared.
  // CHECK-LABEL: gpu.func @rows_smem
  // CHECK-SAME: (%[[RING:.*]]: !llvm.ptr<3>, %[[S:.*]]: i32, %[[F:.*]]: i32)
  // CHECK: %[[OFF:.*]] = llvm.mul %[[S]], %{{.*}} : i32
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[RING]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[ROW:.*]] = llvm.add %[[F]], %{{.*}} : i32
  // CHECK: %[[R0:.*]] = llvm.add %[[ROW]], %{{.*}} : i32
  // CHECK-NEXT: %[[A0:.*]] = llvm.getelementptr %[[SLOT]][%[[R0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK-NEXT: llvm.load %[[A0]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[R1:.*]] = llvm.add %[[ROW]], %[[EIGHT]] : i32
  // CHECK-NEXT: %[[A1:.*]] = llvm.getelementptr %[[SLOT]][%[[R1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK-NEXT: llvm.load %[[A1]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
  // CHECK-NOT: llvm.load
  // CHECK: gpu.return
  gpu.func @rows_smem(%ring: !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>, %s: i32, %f: i32) {
    %r = gemm.scale.rows_smem %ring[%s, %f] : !gemm.smem<4 x 1 x 128 x f32, swizzle = 0> -> vector<2xf32>
    %x = vector.extract %r[0] : f32 from vector<2xf32>
    gpu.return
  }

  // An s32 accumulator to f32; values [4, 8) (group 1) times their row,
  // column and tensor scales; values 0-3 only converted.
  // CHECK-LABEL: gpu.func @scale
  // CHECK-SAME: (%[[ACC:[a-z0-9]+]]: !llvm.struct<(struct<(i32, i32, i32, i32, i32, i32, i32, i32)>)>, %[[R:[a-z0-9]+]]: vector<2xf32>, %[[C:[a-z0-9]+]]: vector<2xf32>, %[[S:[a-z0-9]+]]: f32)
  // CHECK: %[[V0:.*]] = llvm.extractvalue %[[ACC]][0, 0]
  // CHECK-NEXT: %[[F0:.*]] = llvm.sitofp %[[V0]] : i32 to f32
  // CHECK-NEXT: llvm.insertvalue %[[F0]], %{{.*}}[0, 0]
  // CHECK-COUNT-3: llvm.sitofp
  // Value 4: row half 0, column 0 of group 1 (element 0 of the columns).
  // CHECK: %[[V4:.*]] = llvm.extractvalue %[[ACC]][0, 4]
  // CHECK-NEXT: %[[F4:.*]] = llvm.sitofp %[[V4]] : i32 to f32
  // CHECK-NEXT: %[[K0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[RS:.*]] = llvm.extractelement %[[R]][%[[K0]] : i32] : vector<2xf32>
  // CHECK-NEXT: %[[K1:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[CS:.*]] = llvm.extractelement %[[C]][%[[K1]] : i32] : vector<2xf32>
  // CHECK-NEXT: %[[RC:.*]] = llvm.fmul %[[RS]], %[[CS]] : f32
  // CHECK-NEXT: %[[RCS:.*]] = llvm.fmul %[[RC]], %[[S]] : f32
  // CHECK-NEXT: %[[Y4:.*]] = llvm.fmul %[[F4]], %[[RCS]] : f32
  // CHECK-NEXT: llvm.insertvalue %[[Y4]], %{{.*}}[0, 4]
  // Value 7: row half 1, column 1: row element 1, column element 1.
  // CHECK: llvm.extractvalue %[[ACC]][0, 7]
  // CHECK: llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: llvm.extractelement %[[R]]
  // CHECK-NEXT: llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: llvm.extractelement %[[C]]
  // CHECK: gpu.return
  gpu.func @scale(%acc: !gemm.accum<64 x 16 x i32>, %r: vector<2xf32>, %c: vector<2xf32>, %s: f32) {
    %y = gemm.accum.scale %acc values(4, 4) rows(%r : vector<2xf32>) cols(%c : vector<2xf32>) by(%s)
        : !gemm.accum<64 x 16 x i32> -> !gemm.accum<64 x 16 x f32>
    gemm.wgmma.fence
    gpu.return
  }

  // Promotion: acc + partial * scale with fma.rn.f32, the scale of value v
  // its row's times its column block's (two blocks of 8 columns here). The
  // partial sums pass through an operand fence (an empty volatile asm)
  // before and the promoted values after, which pins the promotion between
  // the WGMMA wait before it and the next WGMMAs after it.
  // CHECK-LABEL: gpu.func @promote
  // CHECK-SAME: (%[[P:[a-z0-9]+]]: !llvm.struct<{{.*}}>, %[[A:[a-z0-9]+]]: !llvm.struct<{{.*}}>, %[[R:[a-z0-9]+]]: vector<2xf32>, %[[S0:[a-z0-9]+]]: f32, %[[S1:[a-z0-9]+]]: f32)
  // CHECK: %[[X0:.*]] = llvm.extractvalue %[[P]][0, 0]
  // CHECK: %[[PF:.*]] = llvm.inline_asm has_side_effects "", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7" %[[X0]],
  // CHECK-NEXT: %[[X:.*]] = llvm.extractvalue %[[PF]][0]
  // CHECK: %[[T:.*]] = llvm.extractvalue %[[A]][0, 0]
  // CHECK: %[[RS:.*]] = llvm.extractelement %[[R]]
  // CHECK-NEXT: %[[SC:.*]] = llvm.fmul %[[RS]], %[[S0]] : f32
  // CHECK-NEXT: %[[Y:.*]] = llvm.intr.fma(%[[X]], %[[SC]], %[[T]]) : (f32, f32, f32) -> f32
  // Values 4-7 (group 1, columns 8-15) take the second block's scale.
  // CHECK: llvm.extractvalue %[[A]][0, 4]
  // CHECK: llvm.fmul %{{.*}}, %[[S1]] : f32
  // CHECK: %[[YF:.*]] = llvm.inline_asm has_side_effects "", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7" %[[Y]],
  // CHECK-NEXT: %[[Y0:.*]] = llvm.extractvalue %[[YF]][0]
  // CHECK: llvm.insertvalue %[[Y0]], %[[A]][0, 0]
  // CHECK: gpu.return
  gpu.func @promote(%p: !gemm.accum<64 x 16 x f32>, %a: !gemm.accum<64 x 16 x f32>, %r: vector<2xf32>, %s0: f32, %s1: f32) {
    %y = gemm.accum.promote %p, %a rows(%r : vector<2xf32>) by(%s0, %s1) : !gemm.accum<64 x 16 x f32>
    gemm.wgmma.fence
    gpu.return
  }

  // A column slice (cols(8)): value v of the partial sums is value 4 + v
  // of the accumulator's (4 values a thread per 8 columns); the others stay.
  // CHECK-LABEL: gpu.func @promote_cols
  // CHECK-SAME: (%[[P:[a-z0-9]+]]: !llvm.struct<(struct<(f32, f32, f32, f32)>)>, %[[A:[a-z0-9]+]]: !llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)>
  // CHECK: llvm.extractvalue %[[P]][0, 0]
  // CHECK: %[[T:.*]] = llvm.extractvalue %[[A]][0, 4]
  // CHECK-NEXT: llvm.fadd %[[T]], %{{.*}} : f32
  // CHECK: llvm.extractvalue %[[A]][0, 7]
  // CHECK-NOT: llvm.extractvalue %[[A]][0, 3]
  // CHECK: llvm.inline_asm has_side_effects "", "=f,=f,=f,=f,0,1,2,3"
  // CHECK: llvm.insertvalue %{{.*}}, %[[A]][0, 4]
  // CHECK-COUNT-3: llvm.insertvalue %{{.*}}[0, {{[5-7]}}]
  // CHECK-NOT: llvm.insertvalue
  // CHECK: gpu.return
  gpu.func @promote_cols(%p: !gemm.accum<64 x 8 x f32>, %a: !gemm.accum<64 x 16 x f32>) {
    %y = gemm.accum.promote %p, %a cols(8) : !gemm.accum<64 x 8 x f32> into !gemm.accum<64 x 16 x f32>
    gemm.wgmma.fence
    gpu.return
  }

  // Unscaled promotion is an add, fenced as well.
  // CHECK-LABEL: gpu.func @promote_plain
  // CHECK: llvm.inline_asm has_side_effects
  // CHECK-COUNT-8: llvm.fadd
  // CHECK: llvm.inline_asm has_side_effects
  // CHECK-NOT: llvm.intr.fma
  gpu.func @promote_plain(%p: !gemm.accum<64 x 16 x f32>, %a: !gemm.accum<64 x 16 x f32>) {
    %y = gemm.accum.promote %p, %a : !gemm.accum<64 x 16 x f32>
    gemm.wgmma.fence
    gpu.return
  }

  // fp8 output: region-free values, their |.| bits into the amax, times
  // the output scale, two columns per cvt (the higher one first: it lands
  // in the upper byte), one 2-byte store each; then the warp's amax and
  // one atomic max from its first lane.
  // CHECK-LABEL: gpu.func @store_fp8
  // CHECK-SAME: %[[SCALE:[a-z0-9]+]]: f32, %[[AMAX:[a-z0-9]+]]: !llvm.ptr<1>)
  // CHECK: %[[MASK:.*]] = llvm.mlir.constant(2147483647 : i32) : i32
  // CHECK: %[[Y0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct
  // CHECK-NEXT: %[[B0:.*]] = llvm.bitcast %[[Y0]] : f32 to i32
  // CHECK-NEXT: %[[A0:.*]] = llvm.and %[[B0]], %[[MASK]] : i32
  // CHECK-NEXT: %[[M0:.*]] = llvm.intr.umax(%{{.*}}, %[[A0]]) : (i32, i32) -> i32
  // CHECK-NEXT: %[[Z0:.*]] = llvm.fmul %[[Y0]], %[[SCALE]] : f32
  // CHECK: %[[Z1:.*]] = llvm.fmul %{{.*}}, %[[SCALE]] : f32
  // CHECK-NEXT: %[[PACK:.*]] = nvvm.convert.f32x2.to.f8x2 %[[Z1]], %[[Z0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
  // CHECK: llvm.store %[[PACK]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<3>
  // CHECK-COUNT-31: nvvm.convert.f32x2.to.f8x2
  // CHECK: %[[WARP:.*]] = nvvm.redux.sync umax %{{.*}}, %{{.*}} : i32 -> i32
  // CHECK: scf.if
  // CHECK-NEXT: llvm.atomicrmw umax %[[AMAX]], %[[WARP]] monotonic : !llvm.ptr<1>, i32
  gpu.func @store_fp8(%acc: !gemm.accum<64 x 128 x f32>, %s: !gemm.smem<4 x 64 x 128 x f8E4M3FN, swizzle = 128>, %slot: i32, %scale: f32, %amax: !llvm.ptr<1>) {
    gemm.accum.store_smem %acc atom(0) col(0) -> %s[%slot] scale(%scale) amax(%amax : !llvm.ptr<1>)
        : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 64 x 128 x f8E4M3FN, swizzle = 128>
    gpu.return
  }

  // e5m2 outputs round to e5m2; without amax(...) no reduction.
  // CHECK-LABEL: gpu.func @store_e5m2
  // CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
  // CHECK-NOT: nvvm.redux.sync
  // CHECK: gpu.return
  gpu.func @store_e5m2(%acc: !gemm.accum<64 x 128 x f32>, %s: !gemm.smem<4 x 64 x 128 x f8E5M2, swizzle = 128>, %slot: i32, %scale: f32) {
    gemm.accum.store_smem %acc atom(0) col(0) -> %s[%slot] scale(%scale)
        : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 64 x 128 x f8E5M2, swizzle = 128>
    gpu.return
  }

  // s32 into i32 slots: stored as they are, two 4-byte values at a time.
  // CHECK-LABEL: gpu.func @store_i32
  // CHECK-NOT: llvm.fptrunc
  // CHECK-NOT: llvm.sitofp
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
  gpu.func @store_i32(%acc: !gemm.accum<64 x 256 x i32>, %s: !gemm.smem<4 x 64 x 32 x i32, swizzle = 128>, %slot: i32) {
    gemm.accum.store_smem %acc atom(0) col(32) -> %s[%slot]
        : !gemm.accum<64 x 256 x i32>, !gemm.smem<4 x 64 x 32 x i32, swizzle = 128>
    gpu.return
  }

  // The WGMMA of each family: k = 32 bytes of K per instruction.
  // CHECK-LABEL: gpu.func @mma_fp8
  // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
  // CHECK-COUNT-3: <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
  // CHECK-NOT: nvvm.wgmma.mma_async
  gpu.func @mma_fp8(%a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>, %b: !gemm.smem<4 x 128 x 128 x f8E5M2, swizzle = 128>, %slot: i32, %row: i32) {
    %z = gemm.accum.zero : !gemm.accum<64 x 128 x f32>
    %r = gemm.mma.sm90 %z, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>, !gemm.smem<4 x 128 x 128 x f8E5M2, swizzle = 128>
    gpu.return
  }

  // 8-bit integers: s32 accumulators that saturate.
  // CHECK-LABEL: gpu.func @mma_int8
  // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 32>, D[<s32>, <one>, <satfinite>], A[<u8>, <one>, <row>], B[<s8>, <one>, <col>]
  // CHECK-SAME: -> !llvm.struct<(i32,
  gpu.func @mma_int8(%acc: !gemm.accum<64 x 256 x i32>, %a: !gemm.smem<4 x 64 x 128 x ui8, swizzle = 128>, %b: !gemm.smem<4 x 256 x 128 x si8, swizzle = 128>, %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 256 x i32>, !gemm.smem<4 x 64 x 128 x ui8, swizzle = 128>, !gemm.smem<4 x 256 x 128 x si8, swizzle = 128>
    gpu.return
  }

  // tf32: k = 8 (32 bytes of f32).
  // CHECK-LABEL: gpu.func @mma_tf32
  // CHECK-COUNT-4: <m = 64, n = 64, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
  // CHECK-NOT: nvvm.wgmma.mma_async
  gpu.func @mma_tf32(%acc: !gemm.accum<64 x 64 x f32>, %a: !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>, %b: !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>, %slot: i32, %row: i32) {
    %r = gemm.mma.sm90 %acc, %a[%row], %b slot(%slot)
        : !gemm.accum<64 x 64 x f32>, !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>, !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>
    gpu.return
  }

  // The zero of an s32 accumulator.
  // CHECK-LABEL: gpu.func @zero_i32
  // CHECK: llvm.mlir.constant(0 : i32) : i32
  gpu.func @zero_i32() {
    %z = gemm.accum.zero : !gemm.accum<64 x 16 x i32>
    %s = gemm.accum.scale %z : !gemm.accum<64 x 16 x i32> -> !gemm.accum<64 x 16 x f32>
    gemm.wgmma.fence
    gpu.return
  }

  // Split-K partials of s32 accumulators add as integers.
  // CHECK-LABEL: gpu.func @load_add_i32
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
  // CHECK: llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK-NOT: llvm.fadd
  gpu.func @load_add_i32(%acc: !gemm.accum<64 x 16 x i32>, %p: !llvm.ptr<1>, %i: i32) {
    %r = gemm.accum.load_add_global %acc, %p[%i] values(0, 4) : !gemm.accum<64 x 16 x i32>, !llvm.ptr<1>
    gemm.wgmma.fence
    gpu.return
  }
}
