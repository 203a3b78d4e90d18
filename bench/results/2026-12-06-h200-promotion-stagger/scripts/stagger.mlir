// The promoted fp8 128x192 cooperative tiles (serial promotion: each
// consumer waits for its k-block's WGMMAs, then adds them into its f32
// accumulator), and 128x128, whose promotion overlaps the next k-block's
// WGMMAs; compiled once per trial variant of the compiler (README), each
// variant's names suffixed by scripts/build.sh.
gemm.matmul @st_t_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
gemm.matmul @st_block_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
gemm.matmul @st_t_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
