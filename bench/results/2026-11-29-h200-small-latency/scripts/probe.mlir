// Narrow 64-row pingpong tiles without split-K for M <= 64 and a wide B
// (issue 16): enough CTAs to stream B from every SM without the split-K
// fixup. Built with gemm-opt --gemm-to-ptx="output-dir=.bundles/narrow64".
gemm.matmul @sm90_bf16_64x16x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_64x24x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 24, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_64x32x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 64], schedule = pingpong>)
gemm.matmul @sm90_bf16_64x48x64_pingpong_c1x1_rm_s8_st0 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 48, 64], schedule = pingpong>)
