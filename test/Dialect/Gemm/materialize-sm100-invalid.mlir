// RUN: gemm-opt %s --gemm-materialize-sm100 -split-input-file -verify-diagnostics

// Diagnostics of gemm-materialize-sm100: configurations the verifier accepts
// but the SM100 kernel cannot be built from.

// A 48-column tile is a legal MMA N but not a whole number of 128-byte
// (64 x bf16) epilogue sub-tiles.
// expected-error @+1 {{'gemm.matmul' op tile N of 48 is not a multiple of the 64-column (128-byte) epilogue sub-tile}}
gemm.matmul @narrow a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 48, 64], schedule = warp_roles>)

// -----

// Six 48 KiB stages, 32 KiB of staging, the TMEM address word and 8 x 16
// barrier bytes exceed 227 KB.
// expected-error @+1 {{'gemm.matmul' op a ring of 6 stages of 49152 bytes needs 327816 bytes of shared memory with the epilogue's staging, over the 232448-byte (227 KB) budget: use fewer stages, a smaller k_group or a narrower tile}}
gemm.matmul @too_deep a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], stages = 6, schedule = warp_roles>)

// -----

// Not even two stages of 8 k-blocks fit.
// expected-error @+1 {{'gemm.matmul' op a ring of 2 stages of 393216 bytes needs}}
gemm.matmul @grouped_too_wide a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, k_group = 8>)

// -----

// Found by gemm-fuzz: a huge stage count reached the plan's types (an
// assertion in SmemBufferType::get, whose sizes are at most 65536) and its
// byte count (an overflow); it is refused first.
// expected-error @+1 {{'gemm.matmul' op a ring of 4611686018427387904 stages of 49152 bytes does not fit the 232448-byte (227 KB) shared-memory budget: use fewer stages, a smaller k_group or a narrower tile}}
gemm.matmul @stages_huge a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], stages = 4611686018427387904, schedule = warp_roles>)
