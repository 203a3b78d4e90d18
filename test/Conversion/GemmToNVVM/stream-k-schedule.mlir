// RUN: gemm-opt %s --convert-gemm-to-nvvm \
// RUN:   | mlir-opt --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// The stream-K schedule ops, lowered and run on the host: the plan, the
// shares of some workers and the workers of some shared units, for the
// problems that motivate stream-K (H200: 132 SMs). Each line is one op's
// results.

func.func private @printI64(i64)
func.func private @printComma()
func.func private @printNewline()

// Prints "a, b" (values = 2) or "a, b, c, d" (values = 4).
func.func @print(%values: i32, %a: i32, %b: i32, %c: i32, %d: i32) {
  %x0 = arith.extui %a : i32 to i64
  %x1 = arith.extui %b : i32 to i64
  func.call @printI64(%x0) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printI64(%x1) : (i64) -> ()
  %two = arith.constant 2 : i32
  %more = arith.cmpi ugt, %values, %two : i32
  scf.if %more {
    %x2 = arith.extui %c : i32 to i64
    %x3 = arith.extui %d : i32 to i64
    func.call @printComma() : () -> ()
    func.call @printI64(%x2) : (i64) -> ()
    func.call @printComma() : () -> ()
    func.call @printI64(%x3) : (i64) -> ()
  }
  func.call @printNewline() : () -> ()
  return
}

// Prints the plan of `units` units on `ctas` CTAs with `kb` k-blocks each,
// the shares of workers w0 and w1 and the workers of shared units s0, s1.
func.func @schedule(%units: i32, %ctas: i32, %kb: i32, %w0: i32, %w1: i32,
                    %s0: i32, %s1: i32) {
  %two = arith.constant 2 : i32
  %four = arith.constant 4 : i32
  %dp, %workers = gemm.sched.stream_k_plan units(%units) ctas(%ctas) k_blocks(%kb) max_workers_per_unit(4)
  func.call @print(%two, %dp, %workers, %dp, %dp) : (i32, i32, i32, i32, i32) -> ()
  %shared = arith.subi %units, %dp : i32
  %f0, %b0, %n0, %e0 = gemm.sched.stream_k_share %w0 of %workers units(%shared) k_blocks(%kb)
  func.call @print(%four, %f0, %b0, %n0, %e0) : (i32, i32, i32, i32, i32) -> ()
  %f1, %b1, %n1, %e1 = gemm.sched.stream_k_share %w1 of %workers units(%shared) k_blocks(%kb)
  func.call @print(%four, %f1, %b1, %n1, %e1) : (i32, i32, i32, i32, i32) -> ()
  %lo0, %hi0 = gemm.sched.stream_k_workers %s0 of %workers units(%shared) k_blocks(%kb)
  func.call @print(%two, %lo0, %hi0, %lo0, %lo0) : (i32, i32, i32, i32, i32) -> ()
  %lo1, %hi1 = gemm.sched.stream_k_workers %s1 of %workers units(%shared) k_blocks(%kb)
  func.call @print(%two, %lo1, %hi1, %lo1, %lo1) : (i32, i32, i32, i32, i32) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %c29 = arith.constant 29 : i32
  %c51 = arith.constant 51 : i32
  %c63 = arith.constant 63 : i32
  %c64 = arith.constant 64 : i32
  %c66 = arith.constant 66 : i32
  %c103 = arith.constant 103 : i32
  %c119 = arith.constant 119 : i32
  %c127 = arith.constant 127 : i32
  %c128 = arith.constant 128 : i32
  %c129 = arith.constant 129 : i32
  %c130 = arith.constant 130 : i32
  %c132 = arith.constant 132 : i32
  %c259 = arith.constant 259 : i32
  %c264 = arith.constant 264 : i32
  %c426 = arith.constant 426 : i32
  %c448 = arith.constant 448 : i32
  %c512 = arith.constant 512 : i32
  %k2g = arith.constant 33554432 : i32

  // 512x28672x8192 in 128x256 tiles: 448 units = 3 waves + 52. 132 / 52
  // CTAs can take 2 per unit: 104 workers, each half a unit. Worker 1
  // computes k-blocks [64, 128) of unit 0, worker 103 the same of unit 51.
  // CHECK: 396, 104
  // CHECK-NEXT: 0, 64, 1, 128
  // CHECK-NEXT: 51, 64, 1, 128
  // CHECK-NEXT: 0, 1
  // CHECK-NEXT: 102, 103
  func.call @schedule(%c448, %c132, %c128, %c1, %c103, %c0, %c51) : (i32, i32, i32, i32, i32, i32, i32) -> ()

  // 426 units = 3 waves + 30 of 66 k-blocks: 4 workers a unit (the most),
  // 120 in all; the ranges of a unit differ by at most one k-block (worker
  // 5: [16, 33) of unit 1; worker 119: [49, 66) of unit 29).
  // CHECK-NEXT: 396, 120
  // CHECK-NEXT: 1, 16, 1, 33
  // CHECK-NEXT: 29, 49, 1, 66
  // CHECK-NEXT: 0, 3
  // CHECK-NEXT: 116, 119
  func.call @schedule(%c426, %c132, %c66, %c5, %c119, %c0, %c29) : (i32, i32, i32, i32, i32, i32, i32) -> ()

  // 4096 cubed in 128x256 tiles: 512 units = 3 waves + 116, more than half
  // a wave: no aligned split shortens it, so nothing is shared and no
  // worker has a segment.
  // CHECK-NEXT: 512, 0
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}, 0, {{[0-9]+}}
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}, 0, {{[0-9]+}}
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}{{$}}
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}{{$}}
  func.call @schedule(%c512, %c132, %c64, %c0, %c1, %c0, %c0) : (i32, i32, i32, i32, i32, i32, i32) -> ()

  // M = 16 in 64x128 tiles: 64 units, fewer than the CTAs: all are shared,
  // two workers each (132 / 64).
  // CHECK-NEXT: 0, 128
  // CHECK-NEXT: 0, 0, 1, 64
  // CHECK-NEXT: 63, 64, 1, 128
  // CHECK-NEXT: 0, 1
  // CHECK-NEXT: 126, 127
  func.call @schedule(%c64, %c132, %c128, %c0, %c127, %c0, %c63) : (i32, i32, i32, i32, i32, i32, i32) -> ()

  // Whole waves: nothing is shared and no worker has a segment.
  // CHECK-NEXT: 264, 0
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}, 0, {{[0-9]+}}
  func.call @schedule(%c264, %c132, %c64, %c0, %c1, %c0, %c0) : (i32, i32, i32, i32, i32, i32, i32) -> ()
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}, 0, {{[0-9]+}}
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}{{$}}
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}{{$}}

  // One unit of two k-blocks: only two workers, one k-block each; worker 2
  // has nothing.
  // CHECK-NEXT: 0, 2
  // CHECK-NEXT: 0, 1, 1, 2
  // CHECK-NEXT: {{[0-9]+}}, {{[0-9]+}}, 0, {{[0-9]+}}
  // CHECK-NEXT: 0, 1
  // CHECK-NEXT: 0, 1
  func.call @schedule(%c1, %c132, %c2, %c1, %c2, %c0, %c0) : (i32, i32, i32, i32, i32, i32, i32) -> ()

  // K = 2^31 (2^25 k-blocks), 130 units on 264 CTAs: 130 x 2^25 k-blocks
  // exceed 32 bits, which the 64-bit arithmetic handles.
  // CHECK-NEXT: 0, 260
  // CHECK-NEXT: 129, 16777216, 1, 33554432
  // CHECK-NEXT: 0, 0, 1, 16777216
  // CHECK-NEXT: 0, 1
  // CHECK-NEXT: 258, 259
  func.call @schedule(%c130, %c264, %k2g, %c259, %c0, %c0, %c129) : (i32, i32, i32, i32, i32, i32, i32) -> ()
  return
}
