// Round trip of every SM90/common gemm op, in the pretty and the generic form.
// RUN: gemm-opt %s | gemm-opt | FileCheck %s
// RUN: gemm-opt %s --mlir-print-op-generic | gemm-opt | FileCheck %s

// CHECK-LABEL: gemm.matmul @defaults a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
// CHECK-SAME: config(<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @defaults a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// CHECK-LABEL: gemm.matmul @everything a(f16, row) b(f16, col) c(f32, row) acc(f32)
// CHECK-SAME: config(<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 2], stages = 5, schedule = pingpong, raster = along_n, swizzle = 4>)
// CHECK: ^bb0(%[[ACC:.*]]: f32):
// CHECK:   %[[TWICE:.*]] = arith.mulf %[[ACC]], %[[ACC]] : f32
// CHECK:   gemm.yield %[[TWICE]] : f32
gemm.matmul @everything a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], cluster = [1, 2],
                        stages = 5, schedule = pingpong, raster = along_n,
                        swizzle = 4>) {
^bb0(%acc: f32):
  %twice = arith.mulf %acc, %acc : f32
  gemm.yield %twice : f32
}

// CHECK-LABEL: func.func @kernel_ops
func.func @kernel_ops(%descA: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
                      %descB: !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>,
                      %descC: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
                      %n: i32, %x: i32, %y: i32, %mask: i16, %peers: i32, %issue: i1) {
  // CHECK: %[[A:.*]]:4 = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
  %a, %b, %c, %p = gemm.smem.plan : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
      !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
      !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
      !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
  // CHECK: gemm.pipeline.init %[[A]]#3
  gemm.pipeline.init %p : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
  // CHECK: gemm.warp_specialize consumers(2) regs(40, 232) producer {
  gemm.warp_specialize consumers(2) regs(40, 232) producer {
    // CHECK: gemm.pipeline.producer_acquire %[[A]]#3[%{{.*}}]
    gemm.pipeline.producer_acquire %p[%n] : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.pipeline.producer_commit %[[A]]#3[%{{.*}}] tx(49152)
    gemm.pipeline.producer_commit %p[%n] tx(49152) : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.tma.load %{{.*}}[%{{.*}}, %{{.*}}] -> %[[A]]#0[%{{.*}}, %{{.*}}] barrier %[[A]]#3[%{{.*}}] multicast(%{{.*}})
    gemm.tma.load %descA[%x, %y] -> %a[%n, %x] barrier %p[%n] multicast(%mask)
        : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
          !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.tma.load %{{.*}}[%{{.*}}, %{{.*}}] -> %[[A]]#1[%{{.*}}] barrier
    gemm.tma.load %descB[%x, %y] -> %b[%n] barrier %p[%n]
        : !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
          !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.tma.load %{{.*}} -> %[[A]]#0[%{{.*}}, %{{.*}}] barrier %[[A]]#3[%{{.*}}] when(%{{.*}}) :
    gemm.tma.load %descA[%x, %y] -> %a[%n, %x] barrier %p[%n] when(%issue)
        : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
          !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.tma.load %{{.*}} multicast(%{{.*}}) cta_group(2)
    gemm.tma.load %descA[%x, %y] -> %a[%n, %x] barrier %p[%n] multicast(%mask) cta_group(2)
        : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
          !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.tma.prefetch %{{.*}}[%{{.*}}, %{{.*}}]
    gemm.tma.prefetch %descB[%x, %y] : !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>
    // CHECK: gemm.tma.prefetch_descriptor
    gemm.tma.prefetch_descriptor %descA : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>
    gemm.yield
  } consumer {
  ^bb0(%consumer: i32):
    // CHECK: gemm.pipeline.consumer_wait
    gemm.pipeline.consumer_wait %p[%n] : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: %[[ZERO:.*]] = gemm.accum.zero : <64 x 256 x f32>
    %zero = gemm.accum.zero : !gemm.accum<64 x 256 x f32>
    // CHECK: gemm.wgmma.fence
    gemm.wgmma.fence
    // CHECK: %[[ACC:.*]] = gemm.mma.sm90 %[[ZERO]], %[[A]]#0[%{{.*}}], %[[A]]#1 slot(%{{.*}})
    %acc = gemm.mma.sm90 %zero, %a[%x], %b slot(%n)
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
    // CHECK: gemm.mma.sm90 %{{.*}}, %[[A]]#0[%{{.*}}], %[[A]]#1 cols(128) slot(%{{.*}}) : <64 x 128 x f32>
    %half = gemm.accum.zero : !gemm.accum<64 x 128 x f32>
    %slice = gemm.mma.sm90 %half, %a[%x], %b cols(128) slot(%n)
        : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
    // CHECK: gemm.wgmma.commit
    gemm.wgmma.commit
    // CHECK: gemm.wgmma.wait pending(1)
    gemm.wgmma.wait pending(1)
    // CHECK: gemm.pipeline.consumer_release %[[A]]#3[%{{.*}}] :
    gemm.pipeline.consumer_release %p[%n] : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.pipeline.consumer_release %[[A]]#3[%{{.*}}] peers(%{{.*}}) cluster_size(2)
    gemm.pipeline.consumer_release %p[%n] peers(%peers) cluster_size(2) : !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    // CHECK: gemm.accum.store_smem %[[ACC]] atom(0) col(64) -> %[[A]]#2[%{{.*}}]
    gemm.accum.store_smem %acc atom(0) col(64) -> %c[%consumer]
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
    // CHECK: gemm.accum.store_smem %[[ACC]] atom(0) col(192) columns(40) transposed -> %[[A]]#2[%{{.*}}]
    gemm.accum.store_smem %acc atom(0) col(192) columns(40) transposed -> %c[%consumer]
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
    // CHECK: gemm.accum.store_smem %[[ACC]] atom(0) col(0)
    // CHECK: math.tanh
    // CHECK: arith.truncf
    gemm.accum.store_smem %acc atom(0) col(0) -> %c[%consumer]
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128> {
    ^bb0(%v: f32):
      %t = math.tanh %v : f32
      %r = arith.truncf %t : f32 to bf16
      gemm.yield %r : bf16
    }
    // CHECK: gemm.tma.store %{{.*}}[%{{.*}}, %{{.*}}] from %[[A]]#2[%{{.*}}]
    gemm.tma.store %descC[%x, %y] from %c[%consumer]
        : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
          !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
    // CHECK: gemm.tma.store_commit
    gemm.tma.store_commit
    // CHECK: gemm.tma.store_wait pending(1) read
    gemm.tma.store_wait pending(1) read
    // CHECK: gemm.tma.store_wait pending(0)
    gemm.tma.store_wait pending(0)
    gemm.yield
  }
  // CHECK: gemm.sched.split_k_range %{{.*}} of %{{.*}} splits(4)
  %kb, %ke = gemm.sched.split_k_range %n of %x splits(4)
  // CHECK: gemm.sched.static_tile %{{.*}} of{{ ?}}(%{{.*}}, %{{.*}}) raster({{ ?}}along_n) swizzle(8)
  %tm, %tn = gemm.sched.static_tile %n of (%x, %y) raster(along_n) swizzle(8)
  return
}

// CHECK-LABEL: func.func @split_k
// CHECK-SAME: (%[[ACC:.*]]: !gemm.accum<64 x 256 x f32>, %[[P:.*]]: !llvm.ptr<1>, %[[C:.*]]: !llvm.ptr<1>, %[[I:.*]]: i32, %[[ID:.*]]: i32)
func.func @split_k(%acc: !gemm.accum<64 x 256 x f32>, %p: !llvm.ptr<1>, %c: !llvm.ptr<1>,
                   %i: i32, %id: i32) -> !gemm.accum<64 x 256 x f32> {
  // CHECK: gemm.accum.store_global %[[ACC]] -> %[[P]][%[[I]]] : <64 x 256 x f32>, !llvm.ptr<1>
  gemm.accum.store_global %acc -> %p[%i] : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
  // CHECK-NEXT: %[[LAST:.*]] = gemm.sched.split_k_arrive %[[C]][%[[I]]] of %[[ID]] : !llvm.ptr<1>
  %last = gemm.sched.split_k_arrive %c[%i] of %id : !llvm.ptr<1>
  // CHECK-NEXT: %{{.*}} = gemm.barrier_any %[[LAST]] barrier(%[[ID]]) threads(128)
  %any = gemm.barrier_any %last barrier(%id) threads(128)
  // CHECK-NEXT: %[[S1:.*]] = gemm.accum.load_add_global %[[ACC]], %[[P]][%[[I]]] : <64 x 256 x f32>, !llvm.ptr<1>
  %s1 = gemm.accum.load_add_global %acc, %p[%i] : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
  // CHECK-NEXT: %[[S2:.*]] = gemm.accum.load_add_global %[[S1]], %[[P]][%[[I]]] values(32, 32) : <64 x 256 x f32>, !llvm.ptr<1>
  %s2 = gemm.accum.load_add_global %s1, %p[%i] values(32, 32) : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
  return %s2 : !gemm.accum<64 x 256 x f32>
}

// CHECK-LABEL: func.func @stream_k
// CHECK-SAME: (%[[U:.*]]: i32, %[[C:.*]]: i32, %[[K:.*]]: i32, %[[W:.*]]: i32)
func.func @stream_k(%units: i32, %ctas: i32, %kb: i32, %w: i32) -> (i32, i32, i32, i32) {
  // CHECK: %[[DP:.*]], %[[WORKERS:.*]] = gemm.sched.stream_k_plan units(%[[U]]) ctas(%[[C]]) k_blocks(%[[K]]) max_workers_per_unit(4)
  %dp, %workers = gemm.sched.stream_k_plan units(%units) ctas(%ctas) k_blocks(%kb) max_workers_per_unit(4)
  // CHECK-NEXT: %[[FIRST:.*]], %{{.*}}, %{{.*}}, %{{.*}} = gemm.sched.stream_k_share %[[W]] of %[[WORKERS]] units(%[[U]]) k_blocks(%[[K]])
  %first, %begin, %segments, %end = gemm.sched.stream_k_share %w of %workers units(%units) k_blocks(%kb)
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gemm.sched.stream_k_workers %[[FIRST]] of %[[WORKERS]] units(%[[U]]) k_blocks(%[[K]])
  %lo, %hi = gemm.sched.stream_k_workers %first of %workers units(%units) k_blocks(%kb)
  return %dp, %segments, %lo, %hi : i32, i32, i32, i32
}

// General grouped kernels: the matmul form and the table and descriptor ops.
// CHECK-LABEL: gemm.matmul @general a(bf16, col) b(bf16, row) c(bf16, col) acc(f32) grouped(general)
gemm.matmul @general a(bf16, col) b(bf16, row) c(bf16, col) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// CHECK-LABEL: gemm.matmul @grouped_offsets a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped config
gemm.matmul @grouped_offsets a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// CHECK-LABEL: func.func @general_table
// CHECK-SAME: (%[[T:.*]]: !llvm.ptr<1>, %[[G:.*]]: i32, %[[N:.*]]: i32)
func.func @general_table(%table: !llvm.ptr<1>, %g: i32, %n: i32) -> (i32, i32, i32, i32) {
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = gemm.sched.group_problem %[[T]][%[[G]]] : !llvm.ptr<1>
  %first, %m, %gn, %k = gemm.sched.group_problem %table[%g] : !llvm.ptr<1>
  // CHECK-NEXT: %[[D:.*]] = gemm.tma.group_descriptor %[[T]][%[[G]]], %[[N]], 2 : !llvm.ptr<1> -> <bf16, box = [64, 64], swizzle = 128>
  %d = gemm.tma.group_descriptor %table[%g], %n, 2 : !llvm.ptr<1> -> !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>
  // CHECK-NEXT: gemm.tma.acquire_descriptor %[[D]] : <bf16, box = [64, 64], swizzle = 128>
  gemm.tma.acquire_descriptor %d : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>
  return %first, %m, %gn, %k : i32, i32, i32, i32
}
