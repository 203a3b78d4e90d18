// A pingpong split-K kernel whose ranges are empty (fewer k-blocks than
// splits): the consumer that got an empty range must synchronise its
// warpgroup before passing the turn on. Without that barrier the simulator
// reported (docs/Verification.md) that the other consumer's next release
// could complete the turn barrier's phase before a lagging warp of this
// consumer polled it; that warp would then wait a whole turn too long.
//
// RUN: gemm-sim %s --sms 4 --shape 200x300x64 --shape 64x64x32 | FileCheck %s
// CHECK: PASS pingpong_splitk2 m=200 n=300 k=64
// CHECK: PASS pingpong_splitk2 m=64 n=64 k=32
//
// The materialized kernel synchronises the warpgroup when the range is empty.
// RUN: gemm-opt --gemm-materialize-sm90 %s | FileCheck %s --check-prefix=IR
// IR: %[[EMPTY:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : i32
// IR-NEXT: scf.if %[[EMPTY]] {
// IR: %[[ID:.*]] = arith.addi %arg{{.*}}, %{{.*}} : i32
// IR-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %{{.*}}
// IR: gemm.pipeline.consumer_release %{{.*}}[%{{.*}}] : <stages = 2, producers = 1, consumers = 1>
gemm.matmul @pingpong_splitk2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
