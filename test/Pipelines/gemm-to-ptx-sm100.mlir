// gemm-to-ptx on an sm_100a problem fails with a diagnostic instead of
// writing nothing: there is no SM100 kernel materialization yet.
// RUN: not gemm-opt %s --gemm-to-ptx="output-dir=%t" 2>&1 | FileCheck %s
// RUN: not ls %t/gemm_sm100.json

// CHECK: error: 'gemm.matmul' op was not turned into a kernel: building sm_100a kernels from gemm.matmul (gemm-materialize-sm100) is not implemented yet
gemm.matmul @gemm_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)
