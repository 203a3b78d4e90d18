gemm.matmul @sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)
gemm.matmul @sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)
