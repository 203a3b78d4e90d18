// The library's split-K kernels of the arrival trial (README), as
// build/kernels/library*.mlir defines them; scripts/build.sh compiles them
// with main's compiler and with the one before the acq_rel arrival.

gemm.matmul @sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0_k2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k4 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 4>)
gemm.matmul @sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0_k4 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 4>)
gemm.matmul @sm90_bf16_akbkcc_64x32x64_pingpong_c1x1_rm_s8_st0_k2 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0_k4 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 4>)
