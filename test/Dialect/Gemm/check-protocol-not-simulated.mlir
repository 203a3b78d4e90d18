// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-protocol="report=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: gemm-opt %s --gemm-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
//
// A kernel with an op the simulator has no semantics for is not checked:
// gemm-check-protocol warns, naming the op, and goes on (the other kernels
// are checked; the pipeline succeeds), so that new kernel ops never break
// the build before the simulator learns them (docs/Verification.md). The
// direct kernel's loads are such ops today.
//
// CHECK-DAG: gemm-check-protocol: tma: 3 problem(s), {{[0-9]+}} run(s), {{[0-9.]+}} s{{$}}
// CHECK-DAG: gemm-check-protocol: direct: 3 problem(s), 0 run(s), {{[0-9.]+}} s, not simulated{{$}}
// CHECK: check-protocol-not-simulated.mlir:[[@LINE+25]]:1: warning: not simulated: gemm.direct.load; the protocol of kernel 'direct' is not checked (the simulator has no semantics for 'gemm.direct.load'
// CHECK-NOT: error
// PIPELINE: warning: not simulated: gemm.direct.load; the protocol of kernel 'direct' is not checked
// PIPELINE-NOT: error
//
// gemm-sim, asked to run the direct kernel, fails on it (exit 3); the other
// kernel of the module still runs and passes.
// RUN: sh -c 'gemm-sim %s --shape 64x64x64; echo "exit $?"' | FileCheck %s --check-prefix=SIM
// SIM-DAG: PASS tma m=64 n=64 k=64
// SIM-DAG: FAIL direct m=64 n=64 k=64
// SIM-DAG: protocol violation (not simulated) at 'gemm.direct.load' ({{.*}}): the simulator has no semantics for 'gemm.direct.load'
// SIM: exit 3
//
// Any other op without semantics (here an LLVM constant planted before the
// first CTA barrier of the materialized module, in kernel 'tma') is named the same way by the pass; gemm-sim, asked to
// run the kernel, still fails on it (test/Simulator/errors.mlir).
//
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e '0,/^\( *\)gpu.barrier$/s//\1%unknown = llvm.mlir.constant(7 : i32) : i32\n\1gpu.barrier/' > %t.mlir
// RUN: gemm-opt %t.mlir --gemm-check-protocol -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLANTED
// PLANTED: warning: not simulated: llvm.mlir.constant; the protocol of kernel 'tma' is not checked
// PLANTED-NOT: error

gemm.matmul @tma a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64]>)

gemm.matmul @direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)
