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
  // expected-error @+1 {{expect_tx of 16384 bytes does not match the 49152 bytes that the 2 asynchronous write(s) of this stage (TMA loads, cluster launch control responses) deliver; the full barrier would never complete (hang) or complete early (race)}}
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
  // expected-error @+1 {{expect_tx of 16384 bytes does not match the 32768 bytes that the 1 asynchronous write(s) of this stage (TMA loads, cluster launch control responses) deliver}}
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
  // expected-error @+1 {{expect_tx of 16384 bytes does not match the 0 bytes that the 0 asynchronous write(s) of this stage (TMA loads, cluster launch control responses) deliver}}
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

// -----

!clc = !gemm.pipeline<stages = 2, producers = 1, consumers = 7>
!resp = !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>

// A response is 16 bytes: arming the barrier for 32 would never complete.
func.func @clc_tx(%n: i32, %slot: i32) {
  %r, %p = gemm.smem.plan : !resp, !clc
  gemm.pipeline.init %p : !clc
  // expected-error @+1 {{expect_tx of 32 bytes does not match the 16 bytes that the 1 asynchronous write(s) of this stage (TMA loads, cluster launch control responses) deliver}}
  gemm.pipeline.producer_commit %p[%n] tx(32) : !clc
  // expected-note @+1 {{delivers 16 bytes}}
  gemm.sched.clc_try_cancel %r[%slot] barrier %p[%n] : !resp, !clc
  return
}

// -----

!acc = !gemm.tmem<2 x 128 x 256 x f32>

// PTX ISA: all tcgen05 instructions of a kernel use the same .cta_group.
gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mixed_cta_groups(%slot: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>, %t: !acc) kernel {
    // expected-note @+1 {{cta_group 2 here}}
    gemm.tmem.alloc %slot columns(512) cta_group(2) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
    // expected-error @+1 {{uses cta_group 1, but the kernel's first tcgen05 operation uses 2; all tcgen05 operations of a kernel must use one cta_group}}
    gemm.tmem.dealloc %t columns(512) : !acc
    gpu.return
  }
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
!descA = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!descA32 = !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>

// The branches of an scf.if must deliver the same bytes to the stage: here
// the else branch loads only three of the four 32-row boxes.
func.func @tx_branches_differ(%dA: !descA, %dA32: !descA32, %whole: i1,
                              %x: i32, %y: i32, %n: i32, %row: i32) {
  %a, %p = gemm.smem.plan : !ringA, !pipe
  gemm.pipeline.init %p : !pipe
  gemm.pipeline.producer_commit %p[%n] tx(16384) : !pipe
  // expected-error @+1 {{the branches of this scf.if deliver 16384 and 12288 bytes to the same ring stage; its expect_tx cannot match both (hang or race)}}
  scf.if %whole {
    gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe
  } else {
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] : !descA32, !ringA, !pipe
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] : !descA32, !ringA, !pipe
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] : !descA32, !ringA, !pipe
  }
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>
!descBn = !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>
!ringBn = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>

// An N-major B is multicast in K-line slices: each CTA loads 32 of the 64
// K lines of both 64-column blocks, and each slice counts for both halves
// of its block (4 KiB x 2): the stage expects 16 KiB, not the 8 KiB of this
// CTA's own boxes.
func.func @tx_multicast_mn_major(%dB: !descBn, %x: i32, %y: i32, %n: i32,
                                 %line: i32, %mask: i16) {
  %b, %p = gemm.smem.plan : !ringBn, !pipe
  gemm.pipeline.init %p : !pipe
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  // expected-error @+1 {{expect_tx of 8192 bytes does not match the 16384 bytes that the 2 asynchronous write(s) of this stage (TMA loads, cluster launch control responses) deliver}}
  gemm.pipeline.producer_commit %p[%n] tx(8192) : !pipe
  // expected-note @+1 {{delivers 8192 bytes}}
  gemm.tma.load %dB[%x, %y] -> %b[%n, %c0] k_offset(%line) barrier %p[%n] multicast(%mask)
      : !descBn, !ringBn, !pipe
  // expected-note @+1 {{delivers 8192 bytes}}
  gemm.tma.load %dB[%x, %y] -> %b[%n, %c64] k_offset(%line) barrier %p[%n] multicast(%mask)
      : !descBn, !ringBn, !pipe
  return
}
