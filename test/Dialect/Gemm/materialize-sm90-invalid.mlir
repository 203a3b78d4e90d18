// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file -verify-diagnostics

// Configurations that the gemm.matmul verifier accepts but for which
// gemm-materialize-sm90 cannot build a kernel.

// expected-error @+1 {{'gemm.matmul' op the cooperative schedule splits the tile's rows between two consumer warpgroups and needs tile M >= 128; use schedule = pingpong for 64-row tiles}}
gemm.matmul @coop_m64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64]>)

// -----

// 192 rows split between two consumers are 96 rows each.
// expected-error @+1 {{'gemm.matmul' op each consumer warpgroup needs a multiple of 64 rows, got 96}}
gemm.matmul @coop_m192 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile N of 96 is not a multiple of the 64-column (128-byte) epilogue sub-tile}}
gemm.matmul @epilogue_n_bf16 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 96, 64]>)

// -----

// f32 output: 32-column sub-tiles.
// expected-error @+1 {{'gemm.matmul' op tile N of 16 is not a multiple of the 32-column (128-byte) epilogue sub-tile}}
gemm.matmul @epilogue_n_f32 a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 16, 64]>)

// -----

// Pingpong gives each consumer the whole 128 x 256 tile: 2 atoms of 128
// registers.
// expected-error @+1 {{'gemm.matmul' op a consumer warpgroup would hold 256 accumulator registers per thread; at most 128 fit the 232-register budget: use a smaller tile or the cooperative schedule}}
gemm.matmul @pingpong_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], schedule = pingpong>)

// -----

// expected-error @+1 {{'gemm.matmul' op a consumer warpgroup would hold 256 accumulator registers per thread}}
gemm.matmul @coop_256x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 256, 64]>)

// -----

// The pass stops at the first matmul it cannot build: one diagnostic only.
// expected-error @+1 {{'gemm.matmul' op the cooperative schedule splits the tile's rows}}
gemm.matmul @second_bad a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64]>)
gemm.matmul @not_reached a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64]>)
