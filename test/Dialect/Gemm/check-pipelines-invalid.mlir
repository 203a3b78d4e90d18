// RUN: gemm-opt %s --gemm-check-pipelines -split-input-file -verify-diagnostics

// Protocol errors found by gemm-check-pipelines.

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
!descA = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!descB = !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringB = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>

// The stage expects the A tile only: the barrier would complete before B
// arrived.
func.func @tx_mismatch(%dA: !descA, %dB: !descB, %x: i32, %y: i32, %n: i32) {
  %a, %b, %p = gemm.smem.plan : !ringA, !ringB, !pipe
  gemm.pipeline.init %p : !pipe
  // expected-error @+1 {{expect_tx of 16384 bytes does not match the 49152 bytes that the 2 TMA load(s) of this stage deliver; the full barrier would never complete (hang) or complete early (race)}}
  gemm.pipeline.producer_commit %p[%n] tx(16384) : !pipe
  // expected-note @+1 {{delivers 16384 bytes}}
  gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe
  // expected-note @+1 {{delivers 32768 bytes}}
  gemm.tma.load %dB[%x, %y] -> %b[%n] barrier %p[%n] : !descB, !ringB, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>
!descBslice = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!ringB = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>

// A multicast slice delivers the whole slot (its peers load the rest): the
// producer must expect 32 KiB, not the 16 KiB of its own box.
func.func @tx_multicast(%dB: !descBslice, %x: i32, %y: i32, %n: i32, %row: i32, %mask: i16) {
  %b, %p = gemm.smem.plan : !ringB, !pipe
  gemm.pipeline.init %p : !pipe
  // expected-error @+1 {{expect_tx of 16384 bytes does not match the 32768 bytes that the 1 TMA load(s) of this stage deliver}}
  gemm.pipeline.producer_commit %p[%n] tx(16384) : !pipe
  // expected-note @+1 {{delivers 32768 bytes}}
  gemm.tma.load %dB[%x, %y] -> %b[%n, %row] barrier %p[%n] multicast(%mask)
      : !descBslice, !ringB, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
!descA = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>

// Loads of another iteration do not count for this stage.
func.func @tx_other_iteration(%dA: !descA, %x: i32, %y: i32, %n: i32, %m: i32) {
  %a, %p = gemm.smem.plan : !ringA, !pipe
  gemm.pipeline.init %p : !pipe
  // expected-error @+1 {{expect_tx of 16384 bytes does not match the 0 bytes that the 0 TMA load(s) of this stage deliver}}
  gemm.pipeline.producer_commit %p[%n] tx(16384) : !pipe
  gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%m] : !descA, !ringA, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @init_twice() {
  %p = gemm.smem.plan : !pipe
  gemm.pipeline.init %p : !pipe
  // expected-error @+1 {{pipeline is initialised twice: its barriers would be reset under the threads that use them}}
  gemm.pipeline.init %p : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
!descA = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>

func.func @never_initialised(%dA: !descA, %x: i32, %y: i32, %n: i32) {
  %a, %p = gemm.smem.plan : !ringA, !pipe
  // expected-error @+1 {{pipeline is never initialised (gemm.pipeline.init)}}
  gemm.pipeline.producer_commit %p[%n] tx(16384) : !pipe
  gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe
  return
}
