// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %S/../../bench/kernels/sm90-narrow.mlir --gemm-to-ptx="output-dir=%t" -o /dev/null
//
// Narrow tiles (N not a multiple of the 64-column epilogue sub-tile, with a
// column-major C) through the whole pipeline: every kernel fits its
// registers (0 spill bytes) and ptxas adds no warpgroup waits of its own.
// An odd number of 8-column groups in the last sub-tile (72 = 64 + 8, 104 =
// 64 + 40) ends with the two-matrix transposing stmatrix.
//
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_128x72_coop.ptx -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_128x72_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_64x104_pingpong.ptx -o %t/b.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_64x104_pingpong
// RUN: %ptxas -arch=sm_90a -v %t/sm90_f16_akbkcc_128x144_coop_k2.ptx -o %t/c.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_f16_akbkcc_128x144_coop_k2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_128x208_coop_sk.ptx -o %t/d.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_128x208_coop_sk
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_128x88_coop_f32out.ptx -o %t/e.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_128x88_coop_f32out
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_ambkcc_128x136_coop_c1x2.ptx -o %t/f.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_ambkcc_128x136_coop_c1x2
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
