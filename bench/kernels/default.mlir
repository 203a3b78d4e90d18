// The default GEMM of the README's main job: bf16 in and out, f32
// accumulation, C = A * B^T, sm_90a, 128x256x64 cooperative tile, stages
// derived from the shared-memory budget.
gemm.matmul @gemm_sm90_bf16 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
