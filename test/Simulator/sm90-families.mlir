// Every SM90 kernel family, run by the simulator on small-integer inputs and
// compared bit for bit with the exact reference, over edge shapes: one tile
// with M, N, K below one tile (M = 1 and 17 skip 16-row A boxes of 64-row
// tiles), edges in M, N and K with more tiles than CTAs (the persistent
// loop wraps), and many k-blocks (the ring wraps several times; stages = 2
// makes it wrap on every other k-block).
//
// RUN: gemm-sim %s --sms 2 --shape 1x1x1 --shape 17x40x8 --shape 200x300x200 --shape 128x64x640 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: gemm-sim: 56 run(s), 56 passed, 0 failed

// Cooperative: both consumer warpgroups on every tile.
gemm.matmul @coop_128x128_s2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
gemm.matmul @coop_256x64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 64, 64]>)
// Pingpong: consumers alternate tiles; 64-row tiles load A in 16-row boxes
// past row M.
gemm.matmul @pingpong_128x64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = pingpong>)
gemm.matmul @pingpong_64x128_s3 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, stages = 3>)
// Clusters with TMA multicast of the shared operand.
gemm.matmul @coop_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1], stages = 3>)
gemm.matmul @coop_c1x2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], cluster = [1, 2]>)
gemm.matmul @pingpong_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [2, 1], schedule = pingpong>)
// Split-K and stream-K: partial tiles in a workspace, the last arriver sums.
gemm.matmul @coop_splitk3 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], scheduler = split_k, splits = 3>)
gemm.matmul @pingpong_splitk2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
gemm.matmul @coop_streamk a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], scheduler = stream_k>)
gemm.matmul @pingpong_streamk_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [2, 1], schedule = pingpong, scheduler = stream_k>)
// Output types, f16 inputs and a user epilogue (2 * relu(acc) - 3).
gemm.matmul @f16_f16out a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64]>)
gemm.matmul @bf16_f32out_pingpong a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong>)
gemm.matmul @epilogue a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64]>) {
^bb0(%acc: f32):
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %relu = arith.maximumf %acc, %zero : f32
  %scaled = arith.mulf %relu, %two : f32
  %shifted = arith.subf %scaled, %three : f32
  %out = arith.truncf %shifted : f32 to bf16
  gemm.yield %out : bf16
}
