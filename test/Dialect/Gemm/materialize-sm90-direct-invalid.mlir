// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file -verify-diagnostics

// schedule = direct tiles that the gemm.matmul verifier accepts but for
// which gemm-materialize-sm90 cannot build a direct kernel.

// expected-error @+1 {{'gemm.matmul' op schedule = direct gives each warpgroup 64 rows of the tile (one WGMMA atom): tile M must be 64 or 128, got 192}}
gemm.matmul @direct_m192 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 64, 64], schedule = direct>)

// -----

// 64 x 128: 64 accumulator registers and 96 of fragments; ptxas spilled.
// expected-error @+1 {{'gemm.matmul' op schedule = direct keeps the accumulator (64 registers per thread) and one k-block of A and B (96) in registers: 160 over the 144 that leave room for addresses; use a smaller tile N}}
gemm.matmul @direct_64x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = direct>)
