// An fp8 output's amax takes every row of the tile, the rows past M
// included (the TMA store clips them from C, the amax does not see M). With
// 64-row tiles those rows must be the zeros that whole A boxes load: a
// skipped 16-row box leaves what the slot held before, and shared memory
// starts as garbage (the simulator fills it with all-ones bytes, NaN in
// every float type; the amax's integer max of the bits lets a NaN win, as
// redux.sync.max.u32 does). On the H200 the skipped boxes gave NaN amaxes
// (bench/results/2026-11-24-h200-python-full). 40 SMs: each CTA's first
// tile is its only one, so the edge tile's slots were never written.
//
// RUN: gemm-sim %s --sms 40 --shape 300x512x1024 --shape 256x512x1024 | FileCheck %s
// CHECK-COUNT-4: PASS {{.*}}, amax {{[0-9.]+}} (bits 0x{{[0-9a-f]+}})
// CHECK: gemm-sim: 4 run(s), 4 passed, 0 failed

gemm.matmul @fp8_out_64 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong>)

gemm.matmul @fp8_out_64_split a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E5M2, row) acc(f32)
    quant(#gemm.quant<c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 128], schedule = pingpong, scheduler = split_k, splits = 2>)
