// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// Batched kernels through the whole pipeline for sm_90a: 0 spill bytes, no
// serialized WGMMA, every TMA of the kernel rank 3 (the batch entry as the
// third coordinate), the batch size and broadcast mask as the two .u32
// parameters after M, N, K.
//
// RUN: %ptxas -arch=sm_90a -v %t/b_coop_128x256_c2x1.ptx -o %t/b_coop_128x256_c2x1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=b_coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/b_mn_pp_64x256_c1x2.ptx -o %t/b_mn_pp_64x256_c1x2.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=b_mn_pp_64x256_c1x2
// RUN: %ptxas -arch=sm_90a -v %t/b_pp_64x128_k2.ptx -o %t/b_pp_64x128_k2.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=b_pp_64x128_k2
// RUN: %ptxas -arch=sm_90a -v %t/b_coop_128x256_sk.ptx -o %t/b_coop_128x256_sk.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=b_coop_128x256_sk
// RUN: %ptxas -arch=sm_90a -v %t/b_ccol_f32out_coop_128x128.ptx -o %t/b_ccol_f32out_coop_128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=b_ccol_f32out_coop_128x128
//
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// RUN: FileCheck %s --check-prefix=RANK3 -DNAME=b_coop_128x256_c2x1 < %t/b_coop_128x256_c2x1.ptx
// RUN: not grep -e "cp.async.bulk.tensor.2d" -e "cp.async.bulk.prefetch.tensor.2d" %t/b_coop_128x256_c2x1.ptx
// RUN: FileCheck %s --check-prefix=RANK3 -DNAME=b_mn_pp_64x256_c1x2 < %t/b_mn_pp_64x256_c1x2.ptx
// RUN: not grep -e "cp.async.bulk.tensor.2d" -e "cp.async.bulk.prefetch.tensor.2d" %t/b_mn_pp_64x256_c1x2.ptx
// RUN: FileCheck %s --check-prefix=RANK3 -DNAME=b_pp_64x128_k2 < %t/b_pp_64x128_k2.ptx
// RUN: not grep -e "cp.async.bulk.tensor.2d" -e "cp.async.bulk.prefetch.tensor.2d" %t/b_pp_64x128_k2.ptx
// RUN: FileCheck %s --check-prefix=RANK3 -DNAME=b_coop_128x256_sk < %t/b_coop_128x256_sk.ptx
// RUN: not grep -e "cp.async.bulk.tensor.2d" -e "cp.async.bulk.prefetch.tensor.2d" %t/b_coop_128x256_sk.ptx
// RUN: FileCheck %s --check-prefix=RANK3 -DNAME=b_ccol_f32out_coop_128x128 < %t/b_ccol_f32out_coop_128x128.ptx
// RUN: not grep -e "cp.async.bulk.tensor.2d" -e "cp.async.bulk.prefetch.tensor.2d" %t/b_ccol_f32out_coop_128x128.ptx
// RANK3: .visible .entry [[NAME]](
// RANK3-NEXT: .param .align 64 .b8 [[NAME]]_param_0[128],
// RANK3-NEXT: .param .align 64 .b8 [[NAME]]_param_1[128],
// RANK3-NEXT: .param .align 64 .b8 [[NAME]]_param_2[128],
// RANK3-NEXT: .param .u32 [[NAME]]_param_3,
// RANK3-NEXT: .param .u32 [[NAME]]_param_4,
// RANK3-NEXT: .param .u32 [[NAME]]_param_5,
// RANK3-NEXT: .param .u32 [[NAME]]_param_6,
// RANK3-NEXT: .param .u32 [[NAME]]_param_7
// RANK3-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// RANK3-DAG: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group

gemm.matmul @b_coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @b_mn_pp_64x256_c1x2 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)
gemm.matmul @b_pp_64x128_k2 a(f16, row) b(f16, col) c(f16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @b_coop_128x256_sk a(bf16, col) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = stream_k>)
gemm.matmul @b_ccol_f32out_coop_128x128 a(bf16, row) b(bf16, row) c(f32, col) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
