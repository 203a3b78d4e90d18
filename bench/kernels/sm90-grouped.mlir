// Grouped (MoE) kernels on the H200 (bench/grouped-h200.sh): G problems of
// different M, shared N and K, in one persistent launch; A [sum M_g, K],
// B [G, N, K] (b col) or [G, K, N] (b row), C [sum M_g, N]; the group
// offsets on the device. Several configurations: cooperative 128-row tiles
// (one CTA and 2x1 / 1x2 clusters), pingpong 64- and 128-row tiles, f16,
// an f32 output, an N-major B.
// Build them with:
//   gemm-opt bench/kernels/sm90-grouped.mlir --gemm-to-ptx="output-dir=.bundles/grouped"

gemm.matmul @sm90_bf16_grouped_128x256_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @sm90_bf16_grouped_128x256_coop_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @sm90_bf16_grouped_128x256_coop_c1x2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 2]>)
gemm.matmul @sm90_bf16_grouped_128x128_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @sm90_bf16_grouped_128x128_pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_grouped_64x256_pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_grouped_bn_128x256_coop a(bf16, row) b(bf16, row) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @sm90_f16_grouped_128x128_coop_f32out a(f16, row) b(f16, col) c(f32, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
