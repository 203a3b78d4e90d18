// Block-wise fp8 (issue 18: DeepSeek-V3 scales, A 1 x 128, B 128 x 128)
// beside our per-tensor fp8 kernels, for bench/blockfp8-h200.sh: the
// block-wise tiles the compiler builds, the per-tensor ones they are
// measured against (promoted every k-block as block-wise must be, and fast
// accumulation, the fastest per-tensor kernel), and the split-K and
// stream-K forms of the block-wise mainloop (checked, not timed).
// Build them with:
//   gemm-opt bench/kernels/sm90-blockfp8.mlir --gemm-to-ptx="output-dir=.bundles/blockfp8"

// Block-wise: 128x128 cooperative and 64x128 pingpong overlap the
// promotion with the next k-block's WGMMAs (docs/LowPrecision.md).
gemm.matmul @bf_block_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @bf_block_128x128_c2x1 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], cluster = [2, 1]>)
gemm.matmul @bf_block_64x128_pp a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)
// 192 columns: one B scale per 64-column group; serial promotion (three
// accumulators of 96 registers would not fit).
gemm.matmul @bf_block_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
gemm.matmul @bf_block_128x64 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 128]>)
// Split-K and stream-K (empty and partial k-ranges, the odd k-block tail).
gemm.matmul @bf_block_sk a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], scheduler = stream_k>)
gemm.matmul @bf_block_64x128_k3 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong, scheduler = split_k, splits = 3>)

// Per-tensor, promoted every k-block: overlapped (128x128, 64x128
// pingpong) and serial (128x192: three accumulators would not fit).
gemm.matmul @bf_t_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @bf_t_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
gemm.matmul @bf_t_64x128_pp a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)
// Per-tensor, fast accumulation: the fastest per-tensor kernels.
gemm.matmul @bf_tfast_128x256 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)
gemm.matmul @bf_tfast_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
