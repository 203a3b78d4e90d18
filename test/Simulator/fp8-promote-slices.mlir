// Promoted fp8 192x128 tiles compute each k-block's partial sums in two
// 64-column slices (bundle::accumulatorPlan: three consumers' 96 registers
// hold the f32 accumulator and one slice): every slice reads its own rows
// of B's stage (gemm.mma.sm90 cols) and is promoted into its own columns
// (gemm.accum.promote cols), with the slice's B block scale. Compared bit
// for bit with the exact reference on small-integer inputs: edge tiles
// (M = 200: a second tile of 8 rows, N = 300: a partial last tile), a K
// tail, and five k-blocks that wrap the ring; per-tensor, row-wise,
// block-wise (one B scale per 128 columns: both slices share it; N = 300
// crosses block columns), an fp8 C with its amax, split-K and stream-K.
//
// RUN: gemm-sim %s --sms 3 --shape 200x300x520 --shape 1x8x8 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: gemm-sim: 12 run(s), 12 passed, 0 failed

gemm.matmul @slices_tensor a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128]>)
gemm.matmul @slices_row a(f8E4M3FN, row) b(f8E5M2, col) c(f16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128]>)
gemm.matmul @slices_block a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128]>)
gemm.matmul @slices_fp8_out a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128]>)
gemm.matmul @slices_split_k a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128], scheduler = split_k, splits = 3>)
gemm.matmul @slices_stream_k a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 128], scheduler = stream_k>)
