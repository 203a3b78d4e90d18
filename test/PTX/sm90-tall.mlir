// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %S/../../bench/kernels/sm90-tall.mlir --gemm-to-ptx="output-dir=%t" -o /dev/null
//
// 192-row tiles (three consumer warpgroups) through the whole pipeline:
// every kernel fits the consumers' 152 registers (0 spill bytes), ptxas
// adds no warpgroup waits of its own, and the consumers raise their budget
// to 152 while the producer lowers its own to 40.
//
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_192x128_coop.ptx -o %t/1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_192x128_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_f16_192x96_coop_sk.ptx -o %t/2.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_f16_192x96_coop_sk
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_192x192_coop_k2.ptx -o %t/3.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_192x192_coop_k2
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_192x176_coop_c2x1.ptx -o %t/4.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_192x176_coop_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_akbkcc_192x144_coop.ptx -o %t/5.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_akbkcc_192x144_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_ambncr_192x128_coop.ptx -o %t/6.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_ambncr_192x128_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_192x80_coop_f32out.ptx -o %t/7.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_192x80_coop_f32out
// RUN: %ptxas -arch=sm_90a -v %t/sm90_bf16_batched_192x160_coop.ptx -o %t/8.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_bf16_batched_192x160_coop
// RUN: %ptxas -arch=sm_90a -v %t/sm90_e4m3_192x128_coop_tfast.ptx -o %t/9.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=sm90_e4m3_192x128_coop_tfast
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
// RUN: FileCheck %s --check-prefix=REGS < %t/sm90_bf16_192x128_coop.ptx
// REGS: .maxntid 512, 1, 1
// REGS: setmaxnreg.inc.sync.aligned.u32 152;
// REGS: setmaxnreg.dec.sync.aligned.u32 40;
