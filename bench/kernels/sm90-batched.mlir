// Batched kernels on the H200 (bench/layouts-h200.sh, test/GPU/sm90-batched.test):
// a batch of problems per launch, rank-3 TMA descriptors, strided or
// broadcast operands, in several layouts and configurations (clusters,
// pingpong, f16, f32 output, column-major C, split-K, stream-K, a narrow
// row-major tile).
// Build them with:
//   gemm-opt bench/kernels/sm90-batched.mlir --gemm-to-ptx="output-dir=.bundles/batched"

gemm.matmul @sm90_bf16_akbkcr_batched_128x256_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @sm90_bf16_ambncr_batched_128x256_coop_c2x1 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @sm90_bf16_akbncr_batched_64x256_pingpong_c1x2 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)
gemm.matmul @sm90_f16_ambkcr_batched_128x128_pingpong a(f16, col) b(f16, col) c(f16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_akbkcc_batched_128x128_coop_f32out a(bf16, row) b(bf16, col) c(f32, col) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @sm90_bf16_ambncc_batched_128x256_coop a(bf16, col) b(bf16, row) c(bf16, col) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @sm90_bf16_akbkcr_batched_64x128_pingpong_k2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_akbkcr_batched_128x256_coop_c2x1_sk a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], scheduler = stream_k>)
gemm.matmul @sm90_bf16_akbkcr_batched_128x144_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 64]>)
