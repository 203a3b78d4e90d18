// Timing-only trial: does the fifth stage the scale ring costs matter?
gemm.matmul @bf_t_128x128_st5 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], stages = 5>)
gemm.matmul @bf_t_128x128_st6 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], stages = 6>)
