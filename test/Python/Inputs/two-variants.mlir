// Two kernels for compile.test; a comment line and a trailing comment are
// dropped when the file is split into one module per kernel.
gemm.matmul @sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_f16_64x64x64_pingpong_c1x2_rm_s8_st0 a(f16, row) b(f16, col) c(f16, row) acc(f32) // 1x2
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [1, 2], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)
