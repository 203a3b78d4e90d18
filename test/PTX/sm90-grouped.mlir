// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir 2> %t/warnings.txt
// RUN: FileCheck %s --check-prefix=WARN --allow-empty < %t/warnings.txt
//
// Grouped (MoE) kernels through the whole pipeline for sm_90a: 0 spill
// bytes, no ptxas warning; A and C through rank-2 TMA (loads and stores),
// B through rank-3 loads (the group as entry); the group table read with
// one ld.global.b32 (the row units) and one vector load per tile (v4, or
// v2 where only the first row and the end are used); the
// crossing tiles' masked stores (st.global.b16) beside the TMA stores; the
// parameters after M, N, K: the group count (.u32), the table and C's
// address (.u64) and C's leading dimension (.u64).
//
// RUN: %ptxas -arch=sm_90a -v %t/g_coop_128x256.ptx -o %t/g_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=g_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/g_coop_128x256_c2x1.ptx -o %t/g_coop_128x256_c2x1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=g_coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/g_pp_64x256.ptx -o %t/g_pp_64x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=g_pp_64x256
// RUN: %ptxas -arch=sm_90a -v %t/g_bn_coop_128x128_f32.ptx -o %t/g_bn_coop_128x128_f32.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=g_bn_coop_128x128_f32
//
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// RUN: FileCheck %s --check-prefix=PTX -DNAME=g_coop_128x256 < %t/g_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=PTX -DNAME=g_pp_64x256 < %t/g_pp_64x256.ptx
// PTX: .visible .entry [[NAME]](
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_0[128],
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_1[128],
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_2[128],
// PTX-NEXT: .param .u32 [[NAME]]_param_3,
// PTX-NEXT: .param .u32 [[NAME]]_param_4,
// PTX-NEXT: .param .u32 [[NAME]]_param_5,
// PTX-NEXT: .param .u32 [[NAME]]_param_6,
// PTX-NEXT: .param .u64 .ptr .global .align 1 [[NAME]]_param_7,
// PTX-NEXT: .param .u64 .ptr .global .align 1 [[NAME]]_param_8,
// PTX-NEXT: .param .u64 [[NAME]]_param_9
// PTX-DAG: ld.global.b32
// PTX-DAG: ld.global.v{{[24]}}.b32
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-DAG: st.global.b16
// RUN: not grep -e "cp.async.bulk.tensor.3d.global.shared::cta" %t/g_coop_128x256.ptx
//
// The protocol checker runs these kernels (the simulator reads the group
// table the runtime's code builds): no "not simulated" warning, no other.
// WARN-NOT: warning

gemm.matmul @g_coop_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @g_coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @g_pp_64x256 a(f16, row) b(f16, col) c(f16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], schedule = pingpong>)
gemm.matmul @g_bn_coop_128x128_f32 a(bf16, row) b(bf16, row) c(f32, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
