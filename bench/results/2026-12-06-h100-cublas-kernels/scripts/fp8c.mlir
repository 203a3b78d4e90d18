gemm.matmul @sm90_e4m3_cbf16_qtt_128x128x128_coop_c2x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [2, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x2_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [1, 2], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qtt_128x192x128_coop_c2x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128], cluster = [2, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qtt_64x128x128_pingpong_c2x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], cluster = [2, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qrc_128x128x128_coop_c2x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [2, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qrc_128x128x128_coop_c1x2_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [1, 2], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qrc_128x192x128_coop_c2x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128], cluster = [2, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qrc_64x128x128_pingpong_c2x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], cluster = [2, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)

gemm.matmul @sm90_e4m3_cbf16_qrc_128x128x128_coop_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)
