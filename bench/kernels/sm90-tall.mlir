// 192-row cooperative tiles (docs/SM90.md, "192-row tiles"): three consumer
// warpgroups of 64 rows each (setmaxnreg 152, at most 96 accumulator
// registers: tile N up to 192), one row of tiles for M of 129-192 rows
// with fewer bytes per MMA than 64-row tiles. Plain, stream-K, split-K, a
// 2x1 cluster, a column-major C with a narrow last sub-tile, M-major A and
// N-major B, an f32 C, batched, and fp8 with fast accumulation. Checked by
// the simulator (test/Simulator/sm90-tall.test), ptxas
// (test/PTX/sm90-tall.mlir) and on the GPU (test/GPU/sm90-tall.test).
// Build them with:
//   gemm-opt bench/kernels/sm90-tall.mlir --gemm-to-ptx="output-dir=.bundles/tall"

gemm.matmul @sm90_bf16_192x128_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 64]>)
gemm.matmul @sm90_f16_192x96_coop_sk a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 96, 64], scheduler = stream_k>)
gemm.matmul @sm90_bf16_192x192_coop_k2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 192, 64], scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_192x176_coop_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 176, 64], cluster = [2, 1]>)
gemm.matmul @sm90_bf16_akbkcc_192x144_coop a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 144, 64]>)
gemm.matmul @sm90_bf16_ambncr_192x128_coop a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 64]>)
gemm.matmul @sm90_bf16_192x80_coop_f32out a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 80, 64]>)
gemm.matmul @sm90_bf16_batched_192x160_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [192, 160, 64]>)
gemm.matmul @sm90_e4m3_192x128_coop_tfast a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128]>)
