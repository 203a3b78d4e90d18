// More than one WGMMA group in flight (gemm-to-ptx wgmma-lookahead = 2 or
// 3): the consumer releases the stage of k-block j - L after issuing k-block
// j, none in a range's first L k-blocks, and the range's last L stages (as
// many as it has) after `wgmma.wait_group 0`. Every family that runs the
// plain mainloop, on ranges shorter than L (K = 64: one k-block; split-K
// ranges of one k-block or none), longer ones, and a ring of L + 1 stages
// that wraps on every k-block; each run compared bit for bit with the exact
// reference and the protocol checked (a stage released twice or too early
// deadlocks or races).
//
// RUN: gemm-opt %s --gemm-materialize-sm90=wgmma-lookahead=3 -o %t.3.mlir
// RUN: gemm-sim %t.3.mlir --sms 2 --shape 17x40x64 --shape 200x300x128 --shape 130x70x1100 | FileCheck %s --check-prefix=THREE
// THREE-NOT: FAIL
// THREE: gemm-sim: 21 run(s), 21 passed, 0 failed
// RUN: gemm-sim %t.3.mlir --sms 4 --shape 200x192x600 --schedule random --runs 3 --schedule-seed 11 | FileCheck %s --check-prefix=RANDOM
// RANDOM-NOT: FAIL
// RANDOM: gemm-sim: 7 run(s), 7 passed, 0 failed
// RUN: gemm-opt %s --gemm-materialize-sm90=wgmma-lookahead=2 -o %t.2.mlir
// RUN: gemm-sim %t.2.mlir --sms 2 --shape 1x1x1 --shape 64x128x192 | FileCheck %s --check-prefix=TWO
// TWO: gemm-sim: 14 run(s), 14 passed, 0 failed

gemm.matmul @coop_128x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @pingpong_64x128_s4 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, stages = 4>)
gemm.matmul @pingpong_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [2, 1], schedule = pingpong>)
gemm.matmul @coop_splitk3 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], scheduler = split_k, splits = 3>)
gemm.matmul @pingpong_splitk2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @pingpong_streamk_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [2, 1], schedule = pingpong, scheduler = stream_k>)
gemm.matmul @transposed_64x16 a(bf16, row) b(bf16, col) c(bf16, col) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 16, 64], schedule = pingpong>)
