// REQUIRES: ptxas, nvdisasm
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// The overlapped fp8 promotion in SASS (docs/LowPrecision.md): the first
// k-block, two per loop trip and the odd one left over each wait for all
// but the newest WGMMA group (DEPBAR.LE gsb0, 0x1: the previous k-block's
// sums are complete, this one's still run); only the two ends of the tail
// wait for everything (0x0). No spills to local memory, and the
// promotions are whole FFMA (block scales) or FADD (per tensor) runs.
// RUN: %nvdisasm -c %t/block_128x128.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/block_pp_64x128.cubin | FileCheck %s --check-prefix=SASS
// RUN: %nvdisasm -c %t/tensor_128x128.cubin | FileCheck %s --check-prefix=SASS
// SASS-COUNT-4: WARPGROUP.DEPBAR.LE gsb0, 0x1
// SASS-NOT: STL
// RUN: %nvdisasm -c %t/block_128x128.cubin | grep -c "WARPGROUP.DEPBAR.LE gsb0, 0x0" | FileCheck %s --check-prefix=DRAIN
// DRAIN: {{^}}2{{$}}
// RUN: %nvdisasm -c %t/block_128x128.cubin | grep -c FFMA | FileCheck %s --check-prefix=FFMA
// 64 values per promotion, five promotions: two in the loop, two in the
// branch of an odd k-block left over, one in the other.
// FFMA: {{^}}320{{$}}
//
// The serial promotion of a 192-wide tile: one wait for everything per
// k-block, none for all but one.
// RUN: %nvdisasm -c %t/block_128x192.cubin | FileCheck %s --check-prefix=SERIAL
// SERIAL-NOT: WARPGROUP.DEPBAR.LE gsb0, 0x1
// SERIAL: WARPGROUP.DEPBAR.LE gsb0, 0x0
// SERIAL-NOT: STL

gemm.matmul @block_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @block_pp_64x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)
gemm.matmul @tensor_128x128 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @block_128x192 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 192, 128]>)
