gemm.matmul @sm90_bf16_akbkcc_64x96x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 96, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x96x64_pingpong_c2x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 96, 64], cluster = [2, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x96x64_pingpong_c4x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 96, 64], cluster = [4, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x64x64_pingpong_c4x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [4, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x32x64_pingpong_c4x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], cluster = [4, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x64x64_pingpong_c2x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [2, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x32x64_pingpong_c2x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], cluster = [2, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x32x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_akbkcc_64x64x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)
