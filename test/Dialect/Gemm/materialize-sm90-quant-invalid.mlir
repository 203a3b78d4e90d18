// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file -verify-diagnostics
//
// Promoting fp8 partial sums holds a second accumulator: the planner keeps
// both within the consumers' register budget.

// expected-error @+1 {{'gemm.matmul' op a consumer warpgroup would hold 256 accumulator registers per thread (the WGMMA partial sums and the f32 accumulator they are promoted into); at most 192 fit the 232-register budget: use a smaller tile (e.g. 128x192 cooperative) or accumulate = fast}}
gemm.matmul @promoted_too_wide a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op a consumer warpgroup would hold 256 accumulator registers per thread (the WGMMA partial sums and the f32 accumulator they are promoted into)}}
gemm.matmul @promoted_pingpong a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], schedule = pingpong>)

// -----

// 192 rows: three consumers' 96 registers hold a 64 x 192 f32 accumulator
// (96) and no 64-column slice of partial sums (32) beside it.
// expected-error @+1 {{'gemm.matmul' op a consumer warpgroup would hold 192 accumulator registers per thread (the WGMMA partial sums and the f32 accumulator they are promoted into); at most 96 fit the 152-register budget: use a smaller tile (192 rows take tile N <= 192, or 128 with promoted fp8)}}
gemm.matmul @promoted_tall_too_wide a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [192, 192, 128]>)
