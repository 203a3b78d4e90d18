// N-major B (b(row)) in kernels with a cluster (bench/bn-cluster-h200.sh).
// The WGMMA descriptors once took the shared::cta address >> 4 unmasked; a
// CTA's shared::cta addresses carry its cluster rank from bit 24 up, which
// landed in the leading byte offset, the stride between the 64-column blocks
// of an MN-major B. Every kernel here has B blocks past the first and CTAs
// of rank >= 1 (ranks up to 3 in the 2x2 and 4x1 clusters), with B
// multicast in K slices (cluster M > 1) or unshared (cluster [1, N]); the
// e3 kernel (one 64-column block, no leading byte offset) and the 1x1
// kernels are the controls. e1-e8 are the experiments of the bug report.
// Build them with:
//   gemm-opt bench/kernels/bn-cluster.mlir --gemm-to-ptx="output-dir=.bundles/bncluster"

gemm.matmul @e1_akbn_128x256_c2x1 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @e2_akbn_128x128_c2x1 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1]>)
gemm.matmul @e3_akbn_128x64_c2x1 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], cluster = [2, 1]>)
gemm.matmul @e4_akbn_64x256_pp a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], schedule = pingpong>)
gemm.matmul @e5_akbn_128x256_c1x2 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 2]>)
gemm.matmul @e6_ambk_128x256_c1x2 a(bf16, col) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 2]>)
gemm.matmul @e7_akbn_128x128_pp a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @e8_akbn_128x256_c2x1_s2 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], stages = 2>)
gemm.matmul @f1_ambn_128x256_c2x2 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 2]>)
gemm.matmul @f2_akbn_128x256_c4x1 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [4, 1]>)
gemm.matmul @f3_akbn_f16_64x256_pp_c1x2 a(f16, row) b(f16, row) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)
gemm.matmul @f4_ambncc_256x128_c1x2_sk a(bf16, col) b(bf16, row) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 64], cluster = [1, 2], scheduler = stream_k>)
gemm.matmul @f5_akbn_batched_128x256_c2x1 a(bf16, row) b(bf16, row) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
