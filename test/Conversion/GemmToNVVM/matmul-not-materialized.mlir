// RUN: gemm-opt %s --convert-gemm-to-nvvm -split-input-file -verify-diagnostics

// A problem op reaching the lowering was never turned into a kernel.
// expected-error @+1 {{'gemm.matmul' op was not turned into a kernel: run gemm-materialize-sm90 before convert-gemm-to-nvvm}}
gemm.matmul @sm90 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op was not turned into a kernel: run gemm-materialize-sm100 before convert-gemm-to-nvvm}}
gemm.matmul @sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)
