// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %S/../../bench/kernels/sm90-lowp.mlir --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// Every low-precision SM90 kernel of bench/kernels/sm90-lowp.mlir (every
// fp8, int8 and tf32 type pair, per-tensor, row/column and block-wise
// scales, fp8 outputs, promoted and fast accumulation, split-K, stream-K, a
// cluster) assembles for sm_90a with 0 spill bytes and no C75xx info
// (setmaxnreg ignored, WGMMA serialized, warpgroup.arrive inserted).
//
// RUN: for f in %t/*.ptx; do %ptxas -arch=sm_90a -v $f -o $f.o 2>&1; done | FileCheck %s --check-prefix=PTXAS
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS-NOT: serialized
// PTXAS-COUNT-36: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// The WGMMA of each type pair: 32 bytes of K per instruction.
// RUN: FileCheck %s --check-prefix=E4M3 < %t/lp_e4m3_t_128x128.ptx
// E4M3: .version 8.0
// E4M3-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// E4M3-NOT: wgmma.mma_async
// E4M3: wgmma.wait_group.sync.aligned 1;
// Promotion every k-block, overlapped (128x128: three accumulators fit):
// the first k-block, then two per trip of the loop, each issued before the
// previous k-block's sums are promoted (wait_group 1); wait_group 0 only
// after the last k-block (in both branches of the odd/even tail).
// RUN: FileCheck %s --check-prefix=OVERLAP < %t/lp_e4m3_block_128x128.ptx
// OVERLAP-COUNT-4: wgmma.wait_group.sync.aligned 1;
// OVERLAP-NOT: wgmma.wait_group.sync.aligned 1;
// RUN: grep -cE "wgmma.wait_group.sync.aligned[[:space:]]+0;" %t/lp_e4m3_block_128x128.ptx | FileCheck %s --check-prefix=DRAIN
// DRAIN: {{^}}2{{$}}
// Wider promoted tiles (128x192: three accumulators would not fit) keep
// the serial promotion: wait_group 0 before each k-block's promotion.
// RUN: FileCheck %s --check-prefix=SERIAL < %t/lp_e4m3_t_128x192.ptx
// SERIAL-NOT: wgmma.wait_group.sync.aligned 1;
// SERIAL: wgmma.wait_group.sync.aligned 0;
// The partial sums, complete, promoted with an add (no block scales).
// RUN: FileCheck %s --check-prefix=PROMOTE < %t/lp_e4m3_t_128x128.ptx
// PROMOTE-COUNT-64: add.rn.f32
// RUN: FileCheck %s --check-prefix=MIXED < %t/lp_e4m3_e5m2_f16.ptx
// MIXED: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2
// RUN: FileCheck %s --check-prefix=FAST < %t/lp_e4m3_tfast_128x256.ptx
// FAST: wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3
// FAST: wgmma.wait_group.sync.aligned 1;
// Block-wise: the k-block's scales through the non-coherent path, loaded
// when its WGMMAs are issued (before the next stage's barrier wait), then a
// fused multiply-add per accumulator value a k-block later.
// RUN: FileCheck %s --check-prefix=BLOCK < %t/lp_e4m3_block_128x128.ptx
// BLOCK: ld.global.nc
// BLOCK: mbarrier.try_wait.parity
// BLOCK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// BLOCK: wgmma.wait_group.sync.aligned 1;
// RUN: FileCheck %s --check-prefix=FMA < %t/lp_e4m3_block_128x128.ptx
// FMA-COUNT-64: fma.rn.f32
// fp8 outputs: two columns per cvt, the amax over the warp and one atomic.
// RUN: FileCheck %s --check-prefix=OUT < %t/lp_e4m3_out_e4m3.ptx
// OUT: cvt.rn.satfinite.e4m3x2.f32
// OUT: st.shared.b16
// OUT: redux.sync.max.u32
// OUT: atom.global.max.u32
// RUN: FileCheck %s --check-prefix=OUT5 < %t/lp_e4m3_out_e5m2_rc.ptx
// OUT5: cvt.rn.satfinite.e5m2x2.f32
// int8: s32 accumulators that saturate; mixed signedness needs PTX 8.4.
// RUN: FileCheck %s --check-prefix=S8 < %t/lp_s8_s32_128x256.ptx
// S8: .version 8.0
// S8: wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8.satfinite
// RUN: FileCheck %s --check-prefix=U8 < %t/lp_u8_s8_s32.ptx
// U8: .version 8.4
// U8: wgmma.mma_async.sync.aligned.m64n256k32.s32.u8.s8.satfinite
// Dequantised int8: s32 to f32, scaled.
// RUN: FileCheck %s --check-prefix=DEQ < %t/lp_s8_u8_bf16_rc.ptx
// DEQ: wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.u8.satfinite
// DEQ: cvt.rn.f32.s32
// DEQ: stmatrix.sync.aligned.m8n8.x4.shared.b16
// tf32: k = 8.
// RUN: FileCheck %s --check-prefix=TF32 < %t/lp_tf32_128x256.ptx
// TF32-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32
