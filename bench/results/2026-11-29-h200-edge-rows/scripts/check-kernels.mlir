gemm.matmul @sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qbb_128x128x128_coop_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0_k2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8, scheduler = split_k, splits = 2>)

gemm.matmul @sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0_sk a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8, scheduler = stream_k>)

gemm.matmul @sm90_bf16_akbkcc_128x144x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_ambncr_128x256x64_coop_c1x1_rm_s8_st0 a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)
