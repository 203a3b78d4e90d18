// fp8 per tensor (e4m3 x e4m3 -> bf16, promoted sums) on the transposed
// problem's narrow tiles (the bf16 library's M <= 64 candidates): a probe
// for issue 18's M <= 64 shapes, not dispatcher candidates.
// Compile: gemm-opt THIS_FILE --gemm-to-ptx="output-dir=.bundles/tnarrow-fp8"

gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_64x16x128_pingpong_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 128], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)
gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_64x32x128_pingpong_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 128], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8>)
gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_64x16x128_pingpong_c1x1_rm_s8_st0_k2 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 128], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_64x16x128_pingpong_c1x1_rm_s8_st0_k4 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 128], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 4>)
gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_64x32x128_pingpong_c1x1_rm_s8_st0_k2 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 128], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_64x32x128_pingpong_c1x1_rm_s8_st0_k4 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 128], cluster = [1, 1], stages = 0, schedule = pingpong, raster = along_m, swizzle = 8, scheduler = split_k, splits = 4>)
gemm.matmul @sm90_e4m3_cbf16_qtt_akbkcc_128x16x128_coop_c1x1_rm_s8_st0 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 16, 128], cluster = [1, 1], stages = 0, schedule = cooperative, raster = along_m, swizzle = 8>)
