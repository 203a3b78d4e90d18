// Tiles whose N is not a multiple of the 128-byte epilogue sub-tile
// (docs/SM90.md, "Narrow tiles"). With a column-major C the last sub-tile's
// boxes have fewer lines: the tiles of the transposed problem C^T = B A^T
// that the dispatcher runs for a row-major C, with the problem's M along the
// tile's N. With a row-major C (akbkcr, ambkcr) the last sub-tile is staged
// packed and stored through a second, unswizzled C descriptor of its width:
// narrow tiles along the problem's own N. Checked by the simulator
// (test/Simulator/sm90-narrow.test), ptxas (test/PTX/sm90-narrow.mlir) and
// on the H200 (bench/narrow-h200.sh).
// Build them with:
//   gemm-opt bench/kernels/sm90-narrow.mlir --gemm-to-ptx="output-dir=.bundles/narrow"

gemm.matmul @sm90_bf16_akbkcc_128x72_coop a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 72, 64]>)
gemm.matmul @sm90_bf16_akbkcc_64x104_pingpong a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 104, 64], schedule = pingpong>)
gemm.matmul @sm90_f16_akbkcc_128x144_coop_k2 a(f16, row) b(f16, col) c(f16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 64], scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_akbkcc_128x208_coop_sk a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 208, 64], scheduler = stream_k>)
gemm.matmul @sm90_bf16_akbkcc_128x88_coop_f32out a(bf16, row) b(bf16, col) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 88, 64]>)
gemm.matmul @sm90_bf16_ambkcc_128x136_coop_c1x2 a(bf16, col) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 136, 64], cluster = [1, 2]>)
gemm.matmul @sm90_bf16_akbkcr_128x144_coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 64]>)
gemm.matmul @sm90_bf16_akbkcr_64x88_pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 88, 64], schedule = pingpong>)
gemm.matmul @sm90_f16_akbkcr_128x112_coop_k2 a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 112, 64], scheduler = split_k, splits = 2>)
gemm.matmul @sm90_bf16_akbkcr_128x200_coop_sk a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 200, 64], scheduler = stream_k>)
gemm.matmul @sm90_bf16_akbkcr_128x80_coop_f32out a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 80, 64]>)
gemm.matmul @sm90_bf16_ambkcr_128x136_coop_c1x2 a(bf16, col) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 136, 64], cluster = [1, 2]>)
// Scaled narrow tiles: tensor, row and column scales cover the last
// sub-tile's own columns (block scales and fp8 outputs take whole
// sub-tiles). fp8 per tensor and per row/column on tiles of the transposed
// problem 16 and 32 wide (the M <= 64 tiles of the bf16 library), fp8 per
// tensor with a packed row-major last sub-tile of 16, int8 dequantised by
// row and column scales with one of 16.
gemm.matmul @sm90_e4m3_qtt_akbkcc_64x16_pingpong a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 128], schedule = pingpong>)
gemm.matmul @sm90_e4m3_qrc_akbkcc_64x32_pingpong_k2 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [64, 32, 128], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @sm90_e4m3_qtt_akbkcr_128x144_coop a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 144, 128]>)
gemm.matmul @sm90_s8_qrc_akbkcr_128x80_coop a(si8, row) b(si8, col) c(bf16, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 80, 128]>)
// The other low-precision problems of the kernel library on the transposed
// problem's narrow tiles (bench/results/2026-12-06-h200-lowp-transposed):
// fp8 per tensor on 128x16, fp8 per row and column on 64x24, int8 to s32
// on 64x16 split in four, int8 dequantised by row and column on 128x16,
// and tf32 on 64x24.
gemm.matmul @sm90_e4m3_qtt_akbkcc_128x16_coop a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 16, 128]>)
gemm.matmul @sm90_e4m3_qrc_akbkcc_64x24_pingpong a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, col) acc(f32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [64, 24, 128], schedule = pingpong>)
gemm.matmul @sm90_s8_akbkcc_64x16_pingpong_k4 a(si8, row) b(si8, col) c(i32, col) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 128], schedule = pingpong, scheduler = split_k, splits = 4>)
gemm.matmul @sm90_s8_qrc_akbkcc_128x16_coop a(si8, row) b(si8, col) c(bf16, col) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 16, 128]>)
gemm.matmul @sm90_f32_akbkcc_64x24_pingpong a(f32, row) b(f32, col) c(f32, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 24, 32], schedule = pingpong>)
