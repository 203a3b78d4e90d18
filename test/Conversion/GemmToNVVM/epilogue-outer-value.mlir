// An epilogue whose result folds to a constant: canonicalization hoists the
// constant out of the region, so the yielded value is defined above it.
// convert-gemm-to-nvvm dereferenced a missing clone (found by gemm-fuzz on
// the GPU machine's cores); it now stores the constant.
// RUN: gemm-opt %s --gemm-to-nvvm | FileCheck %s

// CHECK-LABEL: llvm.func @folded_epilogue
// CHECK-NOT: {{^ *(%[^ ]+ = )?gemm\.}}
// CHECK: llvm.mlir.constant(0.000000e+00 : bf16)
gemm.matmul @folded_epilogue a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], scheduler = split_k, splits = 2>) {
^bb0(%a: f32):
  %z = arith.constant 0.0 : f32
  %p = arith.cmpf olt, %a, %z : f32
  %m = scf.if %p -> (f32) {
    scf.yield %z : f32
  } else {
    scf.yield %z : f32
  }
  %o = arith.truncf %m : f32 to bf16
  gemm.yield %o : bf16
}
