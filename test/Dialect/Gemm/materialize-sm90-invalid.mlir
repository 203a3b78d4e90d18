// RUN: gemm-opt %s --gemm-materialize-sm90 -split-input-file -verify-diagnostics

// Configurations that the gemm.matmul verifier accepts but for which
// gemm-materialize-sm90 cannot build a kernel.

// expected-error @+1 {{'gemm.matmul' op the cooperative schedule splits the tile's rows between two consumer warpgroups and needs tile M >= 128; use schedule = pingpong for 64-row tiles}}
gemm.matmul @coop_m64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64]>)

// -----

// A grouped kernel's C descriptors are its groups': no narrower last
// sub-tile.
// expected-error @+1 {{'gemm.matmul' op tile N of 96 is not a multiple of the 64-column (128-byte) epilogue sub-tile (grouped kernels store whole sub-tiles)}}
gemm.matmul @epilogue_n_grouped a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 96, 64]>)

// -----

// A narrower last sub-tile takes tensor, row and column scales, but no
// block scales...
// expected-error @+1 {{'gemm.matmul' op tile N of 32 is not a multiple of the 64-column (128-byte) epilogue sub-tile (a narrower last sub-tile takes no block scales and no fp8 output)}}
gemm.matmul @epilogue_n_blocks a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 32, 128]>)

// -----

// ... and no fp8 output (its amax and output scale take whole 128-column
// sub-tiles).
// expected-error @+1 {{'gemm.matmul' op tile N of 144 is not a multiple of the 128-column (128-byte) epilogue sub-tile (a narrower last sub-tile takes no block scales and no fp8 output)}}
gemm.matmul @epilogue_n_fp8_out a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 128]>)

// -----

// A 192-row tile's three consumers have 152 registers each: 64 rows of 208
// columns are 104 accumulator registers, past their 96.
// expected-error @+1 {{'gemm.matmul' op a consumer warpgroup would hold 104 accumulator registers per thread; at most 96 fit the 152-register budget: use a smaller tile (192 rows take tile N <= 192, or 128 with promoted fp8)}}
gemm.matmul @tall_192x208 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 208, 64]>)

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

// -----

// A stage count given in the config must fit the shared-memory budget with
// the epilogue's staging. Found by gemm-fuzz: the pass built the 7-stage
// plan (262256 bytes) and succeeded, leaving a gemm.smem.plan the verifier
// rejects.
// expected-error @+1 {{'gemm.matmul' op a ring of 7 stages of 32768 bytes does not fit the 232448-byte (227 KB) shared-memory budget with the epilogue's staging: use fewer stages (0 derives the deepest ring that fits) or a smaller tile}}
gemm.matmul @stages_over_budget a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], scheduler = split_k, splits = 2, stages = 7>)

// -----

// A huge count is refused before the plan's byte count (which it would
// overflow) is computed.
// expected-error @+1 {{'gemm.matmul' op a ring of 4611686018427387904 stages of 49152 bytes does not fit}}
gemm.matmul @stages_huge a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], stages = 4611686018427387904>)
