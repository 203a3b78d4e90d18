gemm.matmul @sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_256x128x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_192x128x64_coop_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 64], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_bf16_128x128x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)
