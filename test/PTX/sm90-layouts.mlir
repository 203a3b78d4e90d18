// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// The operand layouts (a(col): M-major A, b(row): N-major B, c(col):
// column-major C) through the
// whole pipeline to PTX and cubin for sm_90a: every kernel fits its
// registers (0 spill bytes), and ptxas neither serialized WGMMA nor added
// warpgroup.arrive/wait of its own (no C75xx info). The WGMMAs carry the
// transpose immediates of the MN-major operands (imm-trans-a, imm-trans-b
// after the scale immediates), and the MN-major kernels load their operands
// in 64-row blocks (one TMA per block per stage).
//
// RUN: %ptxas -arch=sm_90a -v %t/cc_coop_128x256.ptx -o %t/cc_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cc_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/rr_coop_128x256.ptx -o %t/rr_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=rr_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/cr_coop_128x256.ptx -o %t/cr_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/cr_coop_128x256_c2x1.ptx -o %t/cr_coop_128x256_c2x1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/cr_coop_256x128_c1x2.ptx -o %t/cr_coop_256x128_c1x2.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_coop_256x128_c1x2
// RUN: %ptxas -arch=sm_90a -v %t/rr_coop_128x192_c2x1.ptx -o %t/rr_coop_128x192_c2x1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=rr_coop_128x192_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/cr_pp_128x128.ptx -o %t/cr_pp_128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_pp_128x128
// RUN: %ptxas -arch=sm_90a -v %t/cc_pp_64x256_c1x2.ptx -o %t/cc_pp_64x256_c1x2.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cc_pp_64x256_c1x2
// RUN: %ptxas -arch=sm_90a -v %t/rr_pp_64x128.ptx -o %t/rr_pp_64x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=rr_pp_64x128
// RUN: %ptxas -arch=sm_90a -v %t/cr_f16_coop_128x256.ptx -o %t/cr_f16_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_f16_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/cr_f32out_coop_128x128.ptx -o %t/cr_f32out_coop_128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_f32out_coop_128x128
// RUN: %ptxas -arch=sm_90a -v %t/kk_ccol_coop_128x256.ptx -o %t/kk_ccol_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=kk_ccol_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/cr_ccol_coop_128x256_c2x1.ptx -o %t/cr_ccol_coop_128x256_c2x1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cr_ccol_coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/cc_ccol_f16_pp_128x128.ptx -o %t/cc_ccol_f16_pp_128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=cc_ccol_f16_pp_128x128
// RUN: %ptxas -arch=sm_90a -v %t/rr_ccol_f32out_coop_128x128.ptx -o %t/rr_ccol_f32out_coop_128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=rr_ccol_f32out_coop_128x128
// RUN: %ptxas -arch=sm_90a -v %t/kk_ccol_f32out_pp_64x256.ptx -o %t/kk_ccol_f32out_pp_64x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=kk_ccol_f32out_pp_64x256
//
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Used {{[0-9]+}} registers
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// RUN: FileCheck %s --check-prefix=TA < %t/cc_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=TB < %t/rr_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_coop_128x256_c2x1.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_coop_256x128_c1x2.ptx
// RUN: FileCheck %s --check-prefix=TB < %t/rr_coop_128x192_c2x1.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_pp_128x128.ptx
// RUN: FileCheck %s --check-prefix=TA < %t/cc_pp_64x256_c1x2.ptx
// RUN: FileCheck %s --check-prefix=TB < %t/rr_pp_64x128.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_f16_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_f32out_coop_128x128.ptx
// RUN: FileCheck %s --check-prefix=TNONE < %t/kk_ccol_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=TAB < %t/cr_ccol_coop_128x256_c2x1.ptx
// RUN: FileCheck %s --check-prefix=TA < %t/cc_ccol_f16_pp_128x128.ptx
// RUN: FileCheck %s --check-prefix=TB < %t/rr_ccol_f32out_coop_128x128.ptx
// RUN: FileCheck %s --check-prefix=TNONE < %t/kk_ccol_f32out_pp_64x256.ptx
// Every WGMMA: scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b.
// TA: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.{{bf16|f16}}.{{bf16|f16}} {{.*}}, p, 1, 1, 1, 0;
// TA-NOT: wgmma.mma_async{{.*}}, p, 1, 1, {{0, [01]|1, 1}};
// TB: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.{{bf16|f16}}.{{bf16|f16}} {{.*}}, p, 1, 1, 0, 1;
// TB-NOT: wgmma.mma_async{{.*}}, p, 1, 1, {{1, [01]|0, 0}};
// TAB: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.{{bf16|f16}}.{{bf16|f16}} {{.*}}, p, 1, 1, 1, 1;
// TAB-NOT: wgmma.mma_async{{.*}}, p, 1, 1, {{0, [01]|1, 0}};
// TNONE: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.{{bf16|f16}}.{{bf16|f16}} {{.*}}, p, 1, 1, 0, 0;
// TNONE-NOT: wgmma.mma_async{{.*}}, p, 1, 1, {{1, [01]|0, 1}};
//
// Loads per stage: 128x256 with both operands MN-major: 2 A blocks and 4
// B blocks; with a 2x1 cluster the B blocks are multicast K slices.
// RUN: FileCheck %s --check-prefix=LOADS6 < %t/cr_coop_128x256.ptx
// LOADS6-COUNT-6: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// LOADS6-NOT: cp.async.bulk.tensor.2d.shared::cluster.global
// RUN: FileCheck %s --check-prefix=MCAST4 < %t/cr_coop_128x256_c2x1.ptx
// MCAST4-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// MCAST4-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [
// A column-major C is staged transposed: 16-bit outputs with the
// transposing stmatrix (4 per 64 x 64 sub-tile), f32 with 4-byte stores
// into two 32 x 32 boxes, each its own TMA store.
// RUN: FileCheck %s --check-prefix=STTRANS < %t/kk_ccol_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=STTRANS < %t/cc_ccol_f16_pp_128x128.ptx
// STTRANS: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// STTRANS-NOT: stmatrix.sync.aligned.m8n8.x4.shared.b16
// RUN: not grep stmatrix %t/rr_ccol_f32out_coop_128x128.ptx
// RUN: FileCheck %s --check-prefix=ST32 < %t/rr_ccol_f32out_coop_128x128.ptx
// ST32-COUNT-16: st.shared.{{b32|f32}} [
// ST32-NOT: st.shared.v2
// RUN: grep -c "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %t/rr_ccol_f32out_coop_128x128.ptx | FileCheck %s --check-prefix=STORES32
// STORES32: 8
// An M-major A of a 64-row tile has no second descriptor of 16-row boxes
// and never skips a box.
// RUN: not grep -e complete_tx.relaxed -e _param_6 %t/cc_pp_64x256_c1x2.ptx
// RUN: grep -q complete_tx.relaxed %t/rr_pp_64x128.ptx

gemm.matmul @cc_coop_128x256 a(bf16, col) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @rr_coop_128x256 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @cr_coop_128x256 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @cr_coop_128x256_c2x1 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @cr_coop_256x128_c1x2 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 64], cluster = [1, 2]>)
gemm.matmul @rr_coop_128x192_c2x1 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 64], cluster = [2, 1]>)
gemm.matmul @cr_pp_128x128 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @cc_pp_64x256_c1x2 a(bf16, col) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)
gemm.matmul @rr_pp_64x128 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong>)
gemm.matmul @cr_f16_coop_128x256 a(f16, col) b(f16, row) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @cr_f32out_coop_128x128 a(bf16, col) b(bf16, row) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @kk_ccol_coop_128x256 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @cr_ccol_coop_128x256_c2x1 a(bf16, col) b(bf16, row) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @cc_ccol_f16_pp_128x128 a(f16, col) b(f16, col) c(f16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @rr_ccol_f32out_coop_128x128 a(bf16, row) b(bf16, row) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @kk_ccol_f32out_pp_64x256 a(bf16, row) b(bf16, col) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], schedule = pingpong>)
