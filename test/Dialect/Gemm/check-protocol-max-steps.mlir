// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-protocol="max-steps=2000 report=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: gemm-opt %s --gemm-to-nvvm="protocol-max-steps=2000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
//
// gemm-check-protocol's step bound (for callers with a time budget, e.g.
// gemm-fuzz): a kernel's check stops once it simulated max-steps ops in
// all, with a warning saying how far it got; that is not a failure. 2000
// steps end the first problem's first run.
//
// CHECK: gemm-check-protocol: coop: 3 problem(s), 1 run(s), {{[0-9.]+}} s, stopped at the step bound
// CHECK: warning: gemm-check-protocol stopped at its step bound (max-steps = 2000) after 0 of 3 problem(s): the protocol of kernel 'coop' is checked only that far
// CHECK-NOT: error
// PIPELINE: warning: gemm-check-protocol stopped at its step bound (max-steps = 2000)
// PIPELINE-NOT: error

gemm.matmul @coop a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 3>)
