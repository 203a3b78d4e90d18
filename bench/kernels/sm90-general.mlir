// General grouped kernels on the H200 (bench/general-h200.sh): G independent
// problems in one persistent launch, every group its own M, N, K, matrices
// and leading dimensions, from a device array of records; the tensor maps
// per group are written on the device by the prep kernel (tensormap.replace).
// Cooperative 128-row tiles (one CTA and a 2x1 cluster), pingpong, every
// storage order (M-major A, N-major B, column-major C), f16 with an f32
// output.
// Build them with:
//   gemm-opt bench/kernels/sm90-general.mlir --gemm-to-ptx="output-dir=.bundles/general"

gemm.matmul @sm90_bf16_general_128x256_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @sm90_bf16_general_128x256_coop_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @sm90_bf16_general_128x128_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @sm90_bf16_general_128x128_pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_general_mn_128x128_coop a(bf16, col) b(bf16, row) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @sm90_bf16_general_ccol_128x128_coop a(bf16, row) b(bf16, col) c(bf16, col) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @sm90_f16_general_128x128_coop_f32out a(f16, row) b(f16, row) c(f32, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
