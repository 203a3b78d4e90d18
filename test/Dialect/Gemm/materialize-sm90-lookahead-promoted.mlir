// RUN: gemm-opt %s --gemm-materialize-sm90="wgmma-lookahead=3" | FileCheck %s

// A promoted fp8 mainloop keeps at most one WGMMA group in flight whatever
// wgmma-lookahead says (its partial sums are read once their group is
// complete), so a ring of two stages is enough there; the plain mainloop
// would need four (materialize-sm90-options.mlir).
// CHECK: } consumer {
// CHECK-NOT: pending(3)
// CHECK: gemm.wgmma.wait pending(1)
// CHECK-NOT: pending(3)
// CHECK: gpu.return
gemm.matmul @fp8_rowwise_s2 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = row, b = col, promote_every = 4>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], stages = 2>)
