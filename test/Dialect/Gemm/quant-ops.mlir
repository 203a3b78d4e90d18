// RUN: gemm-opt %s | gemm-opt | FileCheck %s
// RUN: gemm-opt %s --mlir-print-op-generic | gemm-opt | FileCheck %s

// Round trip of the low-precision problems (element types, #gemm.quant)
// and the scale ops.

// CHECK-LABEL: gemm.matmul @fp8 a(f8E4M3FN, row) b(f8E5M2, col) c(f8E4M3FN, row) acc(f32)
// CHECK-SAME: quant(<a = block, b = block, c = tensor>)
// CHECK-SAME: config(<arch = sm_90a, tile = [128, 128, 128]>)
gemm.matmul @fp8 a(f8E4M3FN, row) b(f8E5M2, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<a = block, b = block, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// CHECK-LABEL: gemm.matmul @fast a(f8E5M2, row) b(f8E5M2, col) c(f32, row) acc(f32)
// CHECK-SAME: quant(<a = row, b = col, accumulate = fast>)
gemm.matmul @fast a(f8E5M2, row) b(f8E5M2, col) c(f32, row) acc(f32)
    quant(#gemm.quant<a = row, b = col, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// CHECK-LABEL: gemm.matmul @every a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
// CHECK-SAME: quant(<a = tensor, promote_every = 4>)
gemm.matmul @every a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, promote_every = 4>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// CHECK-LABEL: gemm.matmul @int8 a(si8, row) b(ui8, col) c(i32, row) acc(i32)
// CHECK-NOT: quant
// CHECK-SAME: config(
gemm.matmul @int8 a(si8, row) b(ui8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// CHECK-LABEL: gemm.matmul @tf32 a(f32, row) b(f32, col) c(f32, row) acc(f32)
gemm.matmul @tf32 a(f32, row) b(f32, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32]>)

// CHECK-LABEL: func.func @scale_ops
// CHECK: %[[S:.*]] = gemm.scale.load %{{.*}}[%{{.*}}] : !llvm.ptr<1>
// CHECK: %[[R:.*]] = gemm.scale.rows %{{.*}}[%{{.*}}] below(%{{.*}}) : !llvm.ptr<1> -> vector<2xf32>
// CHECK: gemm.scale.rows %{{.*}} + %{{.*}}[%{{.*}}] below(%{{.*}}) : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[C:.*]] = gemm.scale.cols %{{.*}}[%{{.*}}] below(%{{.*}}) : !llvm.ptr<1> -> vector<16xf32>
// CHECK: gemm.accum.scale %{{.*}} values(0, 32) rows(%[[R]] : vector<2xf32>) cols(%[[C]] : vector<16xf32>) by(%[[S]]) : <64 x 128 x i32> -> <64 x 128 x f32>
// CHECK: gemm.accum.scale %{{.*}} : <64 x 128 x i32> -> <64 x 128 x f32>
// CHECK: gemm.accum.promote %{{.*}}, %{{.*}} rows(%[[R]] : vector<2xf32>) by(%[[S]], %[[S]]) : <64 x 128 x f32>
// CHECK: gemm.accum.promote %{{.*}}, %{{.*}} : <64 x 128 x f32>
// CHECK: gemm.accum.promote %{{.*}}, %{{.*}} cols(64) rows(%[[R]] : vector<2xf32>) by(%[[S]]) : <64 x 64 x f32> into <64 x 128 x f32>
// CHECK: gemm.accum.store_smem %{{.*}} atom(0) col(0) -> %{{.*}}[%{{.*}}] scale(%[[S]]) amax(%{{.*}} : !llvm.ptr<1>) : <64 x 128 x f32>, <2 x 64 x 128 x f8E4M3FN, swizzle = 128>
func.func @scale_ops(%p: !llvm.ptr<1>, %i: i32, %acc: !gemm.accum<64 x 128 x i32>,
                     %f: !gemm.accum<64 x 128 x f32>, %half: !gemm.accum<64 x 64 x f32>,
                     %stage: !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>) {
  %s = gemm.scale.load %p[%i] : !llvm.ptr<1>
  %r = gemm.scale.rows %p[%i] below(%i) : !llvm.ptr<1> -> vector<2xf32>
  %r2 = gemm.scale.rows %p + %i[%i] below(%i) : !llvm.ptr<1> -> vector<4xf32>
  %c = gemm.scale.cols %p[%i] below(%i) : !llvm.ptr<1> -> vector<16xf32>
  %y = gemm.accum.scale %acc values(0, 32) rows(%r : vector<2xf32>) cols(%c : vector<16xf32>) by(%s)
      : !gemm.accum<64 x 128 x i32> -> !gemm.accum<64 x 128 x f32>
  %z = gemm.accum.scale %acc : !gemm.accum<64 x 128 x i32> -> !gemm.accum<64 x 128 x f32>
  %q = gemm.accum.promote %f, %y rows(%r : vector<2xf32>) by(%s, %s) : !gemm.accum<64 x 128 x f32>
  %w0 = gemm.accum.promote %q, %z : !gemm.accum<64 x 128 x f32>
  %w = gemm.accum.promote %half, %w0 cols(64) rows(%r : vector<2xf32>) by(%s)
      : !gemm.accum<64 x 64 x f32> into !gemm.accum<64 x 128 x f32>
  gemm.accum.store_smem %w atom(0) col(0) -> %stage[%i] scale(%s) amax(%p : !llvm.ptr<1>)
      : !gemm.accum<64 x 128 x f32>, !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// The block-wise A scales staged in shared memory: one warp copies a slot,
// the consumers read their rows from it.
// CHECK-LABEL: func.func @staged_scales
// CHECK: gemm.scale.stage %{{.*}} + %{{.*}}[%{{.*}}] below(%{{.*}}) -> %{{.*}}[%{{.*}}] barrier %{{.*}}[%{{.*}}] : !llvm.ptr<1>, <4 x 1 x 128 x f32, swizzle = 0>, <stages = 4, producers = 33, consumers = 2>
// CHECK: gemm.scale.rows_smem %{{.*}}[%{{.*}}, %{{.*}}] : <4 x 1 x 128 x f32, swizzle = 0> -> vector<2xf32>
func.func @staged_scales(%p: !llvm.ptr<1>, %i: i32,
                         %ring: !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>,
                         %pipe: !gemm.pipeline<stages = 4, producers = 33, consumers = 2>) {
  gemm.scale.stage %p + %i[%i] below(%i) -> %ring[%i] barrier %pipe[%i]
      : !llvm.ptr<1>, !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>,
        !gemm.pipeline<stages = 4, producers = 33, consumers = 2>
  %r = gemm.scale.rows_smem %ring[%i, %i] : !gemm.smem<4 x 1 x 128 x f32, swizzle = 0> -> vector<2xf32>
  return
}
