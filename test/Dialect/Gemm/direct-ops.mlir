// Round trip of the direct-access ops (GemmDirectOps.td) and the
// schedule = direct config, in the pretty and the generic form.
// RUN: gemm-opt %s | gemm-opt | FileCheck %s
// RUN: gemm-opt %s --mlir-print-op-generic | gemm-opt | FileCheck %s

// CHECK-LABEL: gemm.matmul @direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
// CHECK-SAME: config(<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
gemm.matmul @direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)

// CHECK-LABEL: gemm.matmul @direct_f32 a(f16, row) b(f16, col) c(f32, row) acc(f32)
// CHECK-SAME: config(<arch = sm_90a, tile = [128, 32, 64], stages = 2, schedule = direct, raster = along_n, swizzle = 4>)
gemm.matmul @direct_f32 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 32, 64], stages = 2,
                        schedule = direct, raster = along_n, swizzle = 4>)

// CHECK-LABEL: func.func @direct_ops
func.func @direct_ops(%a: !llvm.ptr<1>, %c: !llvm.ptr<1>, %row: i32, %col: i32,
                      %ld: i64, %rows: i32, %cols: i32, %slot: i32) {
  %one = arith.constant 1 : i64
  // CHECK: %[[RING:.*]]:3 = gemm.smem.plan
  %ringA, %ringB, %stage = gemm.smem.plan : !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>,
      !gemm.smem<2 x 32 x 64 x bf16, swizzle = 128>, !gemm.smem<1 x 64 x 40 x bf16, swizzle = 0>
  // CHECK: %[[FA:.*]] = gemm.direct.load %{{.*}}[%{{.*}}, %{{.*}}] strides(%{{.*}}, %{{.*}}) bounds(%{{.*}}, %{{.*}}) tile(64 x 64) threads(128) : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
  %fa = gemm.direct.load %a[%row, %col] strides(%ld, %one) bounds(%rows, %cols)
      tile(64 x 64) threads(128) : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
  // An M-major view: the same op through the other stride pair.
  // CHECK: gemm.direct.load %{{.*}} strides(%{{.*}}, %{{.*}}) bounds(%{{.*}}, %{{.*}}) tile(32 x 64) threads(256) : !llvm.ptr<1> -> !gemm.fragment<8 x bf16>
  %fb = gemm.direct.load %a[%row, %col] strides(%one, %ld) bounds(%rows, %cols)
      tile(32 x 64) threads(256) : !llvm.ptr<1> -> !gemm.fragment<8 x bf16>
  // CHECK: gemm.direct.store_smem %[[FA]] -> %[[RING]]#0[%{{.*}}] threads(128) : !gemm.fragment<32 x bf16>, <2 x 64 x 64 x bf16, swizzle = 128>
  gemm.direct.store_smem %fa -> %ringA[%slot] threads(128)
      : !gemm.fragment<32 x bf16>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  // CHECK: gemm.direct.store_smem %{{.*}} -> %[[RING]]#1[%{{.*}}] threads(256) : !gemm.fragment<8 x bf16>, <2 x 32 x 64 x bf16, swizzle = 128>
  gemm.direct.store_smem %fb -> %ringB[%slot] threads(256)
      : !gemm.fragment<8 x bf16>, !gemm.smem<2 x 32 x 64 x bf16, swizzle = 128>
  %acc = gemm.accum.zero : !gemm.accum<64 x 32 x f32>
  // CHECK: gemm.accum.store_direct %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] strides(%{{.*}}, %{{.*}}) bounds(%{{.*}}, %{{.*}}) : <64 x 32 x f32>, !llvm.ptr<1> -> bf16
  gemm.accum.store_direct %acc -> %c[%row, %col] strides(%ld, %one) bounds(%rows, %cols)
      : !gemm.accum<64 x 32 x f32>, !llvm.ptr<1> -> bf16
  // CHECK: gemm.accum.store_direct %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] strides(%{{.*}}, %{{.*}}) bounds(%{{.*}}, %{{.*}}) staged(%[[RING]]#2 : !gemm.smem<1 x 64 x 40 x bf16, swizzle = 0>) columns : <64 x 32 x f32>, !llvm.ptr<1> -> bf16
  gemm.accum.store_direct %acc -> %c[%row, %col] strides(%one, %ld) bounds(%rows, %cols)
      staged(%stage : !gemm.smem<1 x 64 x 40 x bf16, swizzle = 0>) columns
      : !gemm.accum<64 x 32 x f32>, !llvm.ptr<1> -> bf16
  // CHECK: gemm.accum.store_direct %{{.*}} : <64 x 32 x f32>, !llvm.ptr<1> -> f32 {
  // CHECK: ^bb0(%[[V:.*]]: f32):
  // CHECK:   %[[TWICE:.*]] = arith.addf %[[V]], %[[V]] : f32
  // CHECK:   gemm.yield %[[TWICE]] : f32
  gemm.accum.store_direct %acc -> %c[%row, %col] strides(%one, %ld) bounds(%rows, %cols)
      : !gemm.accum<64 x 32 x f32>, !llvm.ptr<1> -> f32 {
  ^bb0(%v: f32):
    %twice = arith.addf %v, %v : f32
    gemm.yield %twice : f32
  }
  return
}
