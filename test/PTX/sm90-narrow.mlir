// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %S/../../bench/kernels/sm90-narrow.mlir --gemm-to-ptx="output-dir=%t" -o /dev/null
//
// Narrow tiles (N not a multiple of the 64-column epilogue sub-tile, with a
// column-major or a row-major C) through the whole pipeline: every kernel
// fits its registers (0 spill bytes) and ptxas adds no warpgroup waits of
// its own. An odd number of 8-column groups in the last sub-tile (72 = 64 +
// 8, 104 = 64 + 40; row-major 88 = 64 + 24) ends with the two-matrix
// stmatrix (transposing for a column-major C).
//
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_128x72_coop.ptx -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_128x72_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_64x104_pingpong.ptx -o %t/b.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_64x104_pingpong
// RUN: %ptxas -arch=sm_90a -v %t/sm90_f16_akbkcc_128x144_coop_k2.ptx -o %t/c.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_f16_akbkcc_128x144_coop_k2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_128x208_coop_sk.ptx -o %t/d.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_128x208_coop_sk
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_128x88_coop_f32out.ptx -o %t/e.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_128x88_coop_f32out
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_ambkcc_128x136_coop_c1x2.ptx -o %t/f.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_ambkcc_128x136_coop_c1x2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcr_128x144_coop.ptx -o %t/g.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcr_128x144_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcr_64x88_pingpong.ptx -o %t/h.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcr_64x88_pingpong
// RUN: %ptxas -arch=sm_90a -v %t/sm90_f16_akbkcr_128x112_coop_k2.ptx -o %t/i.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_f16_akbkcr_128x112_coop_k2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcr_128x200_coop_sk.ptx -o %t/j.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcr_128x200_coop_sk
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcr_128x80_coop_f32out.ptx -o %t/k.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcr_128x80_coop_f32out
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_ambkcr_128x136_coop_c1x2.ptx -o %t/l.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_ambkcr_128x136_coop_c1x2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_e4m3_qtt_akbkcc_64x16_pingpong.ptx -o %t/m.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_e4m3_qtt_akbkcc_64x16_pingpong
// RUN: %ptxas -arch=sm_90a -v %t/sm90_e4m3_qrc_akbkcc_64x32_pingpong_k2.ptx -o %t/n.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_e4m3_qrc_akbkcc_64x32_pingpong_k2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_e4m3_qtt_akbkcr_128x144_coop.ptx -o %t/o.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_e4m3_qtt_akbkcr_128x144_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_s8_qrc_akbkcr_128x80_coop.ptx -o %t/p.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_s8_qrc_akbkcr_128x80_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_e4m3_qtt_akbkcc_128x16_coop.ptx -o %t/q.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_e4m3_qtt_akbkcc_128x16_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_e4m3_qrc_akbkcc_64x24_pingpong.ptx -o %t/r.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_e4m3_qrc_akbkcc_64x24_pingpong
// RUN: %ptxas -arch=sm_90a -v %t/sm90_s8_akbkcc_64x16_pingpong_k4.ptx -o %t/s.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_s8_akbkcc_64x16_pingpong_k4
// RUN: %ptxas -arch=sm_90a -v %t/sm90_s8_qrc_akbkcc_128x16_coop.ptx -o %t/t.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_s8_qrc_akbkcc_128x16_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_f32_akbkcc_64x24_pingpong.ptx -o %t/u.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_f32_akbkcc_64x24_pingpong
//
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Used {{[0-9]+}} registers
//
// RUN: FileCheck %s --check-prefix=X2 < %t/sm90_bf16_akbkcc_128x72_coop.ptx
// X2-COUNT-4: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// X2: stmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// X2-NOT: stmatrix
//
// A row-major C's packed last sub-tile of 24 columns: one stmatrix.x4 and
// one x2 after the whole sub-tile's four x4, none transposing.
// RUN: FileCheck %s --check-prefix=ROWX2 < %t/sm90_bf16_akbkcr_64x88_pingpong.ptx
// ROWX2-NOT: stmatrix{{.*}}.trans
// ROWX2-COUNT-5: stmatrix.sync.aligned.m8n8.x4.shared.b16
// ROWX2: stmatrix.sync.aligned.m8n8.x2.shared.b16
// ROWX2-NOT: stmatrix
