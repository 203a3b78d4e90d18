// RUN: gemm-opt %s --gemm-check-pipelines | FileCheck %s
// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-pipelines | FileCheck %s --check-prefix=KERNEL
// The pass changes nothing:
// RUN: gemm-opt %s --gemm-materialize-sm90 -o %t.kernels.mlir
// RUN: gemm-opt %t.kernels.mlir -o %t.before.mlir
// RUN: gemm-opt %t.kernels.mlir --gemm-check-pipelines -o %t.after.mlir
// RUN: diff %t.before.mlir %t.after.mlir

// Correct protocols pass unchanged: each stage's expect_tx equals the bytes
// its TMA loads deliver (a multicast slice counts for the whole slot, which
// the peers fill), and every pipeline is initialised exactly once.

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
!pipe4 = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>
!descA = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!descB = !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>
!descBslice = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!ringA = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!ringB = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>

// CHECK-LABEL: func.func @stage
// CHECK: gemm.pipeline.init %[[P:.*]] :
// CHECK: gemm.pipeline.producer_commit %[[P]][%[[N:.*]]] tx(49152)
// CHECK-NEXT: gemm.tma.load %{{.*}} -> %{{.*}} barrier %[[P]][%[[N]]]
// CHECK-NEXT: gemm.tma.load %{{.*}} -> %{{.*}} barrier %[[P]][%[[N]]]
func.func @stage(%dA: !descA, %dB: !descB, %x: i32, %y: i32, %n: i32) {
  %a, %b, %p = gemm.smem.plan : !ringA, !ringB, !pipe
  gemm.pipeline.init %p : !pipe
  gemm.pipeline.producer_acquire %p[%n] : !pipe
  gemm.pipeline.producer_commit %p[%n] tx(49152) : !pipe
  gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe
  gemm.tma.load %dB[%x, %y] -> %b[%n] barrier %p[%n] : !descB, !ringB, !pipe
  return
}

// A 128-row multicast slice of the 256-row B slot: this CTA receives the
// whole 32 KiB slot, so the stage expects 16 KiB + 32 KiB.
// MN-major: a 256-row N-major B slot is four 64-row blocks; in K-line
// slices of 32 each multicast box (4 KiB) counts for its whole block.
!descBn = !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>
!ringBn = !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>
// CHECK-LABEL: func.func @multicast_mn_major
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(49152)
func.func @multicast_mn_major(%dA: !descA, %dB: !descBn, %x: i32, %y: i32,
                              %n: i32, %line: i32, %mask: i16) {
  %a, %b, %p = gemm.smem.plan : !ringA, !ringBn, !pipe4
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c192 = arith.constant 192 : i32
  gemm.pipeline.init %p : !pipe4
  gemm.pipeline.producer_commit %p[%n] tx(49152) : !pipe4
  gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe4
  gemm.tma.load %dB[%x, %y] -> %b[%n, %c0] k_offset(%line) barrier %p[%n] multicast(%mask) : !descBn, !ringBn, !pipe4
  gemm.tma.load %dB[%x, %y] -> %b[%n, %c64] k_offset(%line) barrier %p[%n] multicast(%mask) : !descBn, !ringBn, !pipe4
  gemm.tma.load %dB[%x, %y] -> %b[%n, %c128] k_offset(%line) barrier %p[%n] multicast(%mask) : !descBn, !ringBn, !pipe4
  gemm.tma.load %dB[%x, %y] -> %b[%n, %c192] k_offset(%line) barrier %p[%n] multicast(%mask) : !descBn, !ringBn, !pipe4
  return
}

// CHECK-LABEL: func.func @multicast
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(49152)
// CHECK: multicast(%{{.*}})
func.func @multicast(%dA: !descA, %dB: !descBslice, %x: i32, %y: i32, %n: i32,
                     %row: i32, %mask: i16) {
  %a, %b, %p = gemm.smem.plan : !ringA, !ringB, !pipe4
  gemm.pipeline.init %p : !pipe4
  gemm.pipeline.producer_commit %p[%n] tx(49152) : !pipe4
  gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe4
  gemm.tma.load %dB[%x, %y] -> %b[%n, %row] barrier %p[%n] multicast(%mask)
      : !descBslice, !ringB, !pipe4
  return
}

// Every materialized kernel passes the checks.
// KERNEL-LABEL: gpu.func @coop
// KERNEL: gemm.pipeline.producer_commit %{{.*}} tx(49152)
// KERNEL-LABEL: gpu.func @cluster
// KERNEL: gemm.pipeline.producer_commit %{{.*}} tx(49152)
// KERNEL: multicast
// KERNEL-LABEL: gpu.func @pingpong
// KERNEL: gemm.pipeline.producer_commit %{{.*}} tx(32768)
// A 64-row tile chooses between one A box and four 16-row ones (the
// branches of an scf.if, counted once).
// KERNEL-LABEL: gpu.func @pingpong_64
// KERNEL: gemm.pipeline.producer_commit %{{.*}} tx(24576)
// KERNEL: } else {
// KERNEL-COUNT-3: when(
// MN-major operands: one box per 64-row block, in K-line slices when
// multicast; the sums are those of the K-major kernels.
// KERNEL-LABEL: gpu.func @mn_major_cluster
// KERNEL: gemm.pipeline.producer_commit %{{.*}} tx(49152)
// KERNEL-COUNT-6: gemm.tma.load
// KERNEL-LABEL: gpu.func @m_major_pingpong
// KERNEL: gemm.pipeline.producer_commit %{{.*}} tx(40960)
// KERNEL: gemm.tma.load {{.*}} k_offset({{.*}}) barrier {{.*}} multicast(
gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @cluster a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @pingpong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @pingpong_64 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong>)
gemm.matmul @mn_major_cluster a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @m_major_pingpong a(bf16, col) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 2], schedule = pingpong>)

// Alternative loads of a stage in the branches of an scf.if count once;
// a skipped load (`when`) still counts its box.
!descA32 = !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>
// CHECK-LABEL: func.func @alternatives
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(16384)
func.func @alternatives(%dA: !descA, %dA32: !descA32, %whole: i1, %issue: i1,
                        %x: i32, %y: i32, %n: i32, %row: i32) {
  %a, %p = gemm.smem.plan : !ringA, !pipe
  gemm.pipeline.init %p : !pipe
  gemm.pipeline.producer_commit %p[%n] tx(16384) : !pipe
  scf.if %whole {
    gemm.tma.load %dA[%x, %y] -> %a[%n] barrier %p[%n] : !descA, !ringA, !pipe
  } else {
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] : !descA32, !ringA, !pipe
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] when(%issue) : !descA32, !ringA, !pipe
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] when(%issue) : !descA32, !ringA, !pipe
    gemm.tma.load %dA32[%x, %y] -> %a[%n, %row] barrier %p[%n] when(%issue) : !descA32, !ringA, !pipe
  }
  return
}

// A cluster-launch-control response delivers 16 bytes, also when only one
// CTA of the cluster issues the (multicast) request inside an scf.if.
!clc = !gemm.pipeline<stages = 2, producers = 1, consumers = 7>
!resp = !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>
// CHECK-LABEL: func.func @clc_response
// CHECK: gemm.pipeline.producer_commit %{{.*}} tx(16)
func.func @clc_response(%issuer: i1, %n: i32, %slot: i32) {
  %r, %p = gemm.smem.plan : !resp, !clc
  gemm.pipeline.init %p : !clc
  gemm.pipeline.producer_commit %p[%n] tx(16) : !clc
  scf.if %issuer {
    gemm.sched.clc_try_cancel %r[%slot] barrier %p[%n] multicast : !resp, !clc
  }
  return
}
