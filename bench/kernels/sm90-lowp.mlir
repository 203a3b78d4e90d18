// The low-precision SM90 kernels (fp8, int8, tf32) that bench/lowp-h200.sh
// checks and times on the H200: every type pair, scaling mode and output,
// promoted and fast fp8 accumulation, split-K and stream-K, a cluster.
// Build them with:
//   gemm-opt bench/kernels/sm90-lowp.mlir --gemm-to-ptx="output-dir=.bundles-lowp"
// docs/LowPrecision.md describes the kernels.

// fp8, per-tensor scales, promoted every k-block (the default).
gemm.matmul @lp_e4m3_t_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e4m3_t_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
gemm.matmul @lp_e4m3_t_128x128_c2x1 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [2, 1]>)
gemm.matmul @lp_e4m3_t_64x128_pp a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)
// Promoted every 4 k-blocks (512 of K), and fast accumulation: the
// long-K comparison.
gemm.matmul @lp_e4m3_t4_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, promote_every = 4>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e4m3_tfast_128x256 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_e4m3_tfast_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
// Mixed pairs and the other outputs.
gemm.matmul @lp_e4m3_e5m2_f16 a(f8E4M3FN, row) b(f8E5M2, col) c(f16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e5m2_e4m3_f32 a(f8E5M2, row) b(f8E4M3FN, col) c(f32, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e5m2_unscaled a(f8E5M2, row) b(f8E5M2, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
// Per row of A and per column of B.
gemm.matmul @lp_e4m3_rc_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e4m3_rc_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
gemm.matmul @lp_e4m3_rt_sk a(f8E4M3FN, row) b(f8E4M3FN, col) c(f32, row) acc(f32)
    quant(#gemm.quant<a = row, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], scheduler = stream_k>)
// Block-wise (DeepSeek-V3: A 1 x 128, B 128 x 128).
gemm.matmul @lp_e4m3_block_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e4m3_block_128x128_c2x1 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [2, 1]>)
gemm.matmul @lp_e4m3_block_64x128_k2 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong, scheduler = split_k, splits = 2>)
// fp8 outputs: output scale and amax.
gemm.matmul @lp_e4m3_out_e4m3 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e4m3_out_e5m2_rc a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E5M2, row) acc(f32)
    quant(#gemm.quant<a = row, b = col, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
// int8: s32 accumulators; s32 outputs, or bf16/f16/f32 dequantised.
gemm.matmul @lp_s8_s32_128x256 a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_s8_s32_128x256_c2x1 a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128], cluster = [2, 1]>)
gemm.matmul @lp_s8_s32_256x128 a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 128]>)
gemm.matmul @lp_u8_s8_s32 a(ui8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_s8_s32_k2 a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], scheduler = split_k, splits = 2>)
gemm.matmul @lp_s8_s32_sk a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128], scheduler = stream_k>)
gemm.matmul @lp_s8_u8_bf16_rc a(si8, row) b(ui8, col) c(bf16, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_u8_u8_f16_t a(ui8, row) b(ui8, col) c(f16, row) acc(i32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_s8_s8_f32_rc_pp a(si8, row) b(si8, col) c(f32, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 128], schedule = pingpong>)
// tf32: f32 in, f32 out.
gemm.matmul @lp_tf32_128x256 a(f32, row) b(f32, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32]>)
gemm.matmul @lp_tf32_128x256_c2x1 a(f32, row) b(f32, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32], cluster = [2, 1]>)
gemm.matmul @lp_tf32_128x128_pp_bf16 a(f32, row) b(f32, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 32], schedule = pingpong>)
// Layouts and batches (issue 17) with low precision: a column-major C of
// every output type but fp8 (transposed staging), batches with per-tensor
// scales (rank-3 descriptors; scales after the batch parameters and the
// split-K/stream-K workspaces).
gemm.matmul @lp_e4m3_t_batched_ccol a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32) batched
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @lp_e4m3_e5m2_out_batched_k2 a(f8E4M3FN, row) b(f8E5M2, col) c(f8E4M3FN, row) acc(f32) batched
    quant(#gemm.quant<a = tensor, b = tensor, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], scheduler = split_k, splits = 2>)
gemm.matmul @lp_s8_u8_s32_ccol a(si8, row) b(ui8, col) c(i32, col) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_s8_f32_rc_ccol a(si8, row) b(si8, col) c(f32, col) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @lp_tf32_batched_ccol_sk a(f32, row) b(f32, col) c(f32, col) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32], scheduler = stream_k>)
gemm.matmul @lp_e4m3_block_ccol_c2x1 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f16, col) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [2, 1]>)
