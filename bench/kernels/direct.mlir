// The direct kernels (schedule = direct: plain loads and stores at any
// alignment, one CTA per tile) that the H200 correctness sweep checks
// (bench/direct-h200.sh, test/GPU/sm90-direct.test): every tile of
// gemm_bench.configs.DIRECT_TILES, both input types, bf16, f16 and f32
// outputs, an epilogue region, and other layouts (read and written through
// their strides: an M-major A, an N-major B with a tile N of 32, a
// column-major C), and split-K (a tile's k-ranges on CTAs of their own, the
// partial tiles reduced by the last to arrive; ranges empty when K has fewer
// k-blocks than splits). Build them with:
//   gemm-opt bench/kernels/direct.mlir --gemm-to-ptx="output-dir=.bundles/direct"

gemm.matmul @direct_bf16_64x32 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], schedule = direct>)
gemm.matmul @direct_bf16_64x64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
gemm.matmul @direct_bf16_128x32 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 32, 64], schedule = direct>)
gemm.matmul @direct_bf16_128x64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct>)
gemm.matmul @direct_bf16_128x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct>)
gemm.matmul @direct_f16_64x64 a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
gemm.matmul @direct_f16_128x64_rn a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct, raster = along_n, swizzle = 4>)
gemm.matmul @direct_bf16_f32out_64x64 a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
gemm.matmul @direct_f16_f32out_128x128 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct>)
gemm.matmul @direct_bf16_64x32_acol_brow_ccol a(bf16, col) b(bf16, row) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], schedule = direct>)
gemm.matmul @direct_f16_128x64_acol_ccol a(f16, col) b(f16, col) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct>)
gemm.matmul @direct_bf16_64x64_k3 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct, scheduler = split_k, splits = 3>)
gemm.matmul @direct_f16_f32out_128x64_rn_k2 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct, raster = along_n, swizzle = 2, scheduler = split_k, splits = 2>)
gemm.matmul @direct_bf16_64x32_ccol_k8 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], schedule = direct, scheduler = split_k, splits = 8>)
