// RUN: gemm-opt %s --gemm-materialize-sm90 --gemm-check-protocol="report=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: gemm-opt %s --gemm-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE --allow-empty
//
// Every kernel the materializers make is simulated: the direct kernel
// (plain loads and shared-memory stores) and the low-precision ones (scales,
// promotion, fp8 outputs with amax) are checked like the others, with no
// warning (they were left unchecked with "not simulated" before the
// simulator learnt their ops).
//
// CHECK-DAG: gemm-check-protocol: tma: 3 problem(s), {{[0-9]+}} run(s), {{[0-9.]+}} s{{$}}
// CHECK-DAG: gemm-check-protocol: direct: 3 problem(s), 6 run(s), {{[0-9.]+}} s{{$}}
// CHECK-DAG: gemm-check-protocol: lowp: 3 problem(s), 6 run(s), {{[0-9.]+}} s{{$}}
// CHECK-NOT: warning
// CHECK-NOT: error
// PIPELINE-NOT: warning
// PIPELINE-NOT: error
//
// gemm-sim runs and passes all three.
// RUN: gemm-sim %s --shape 64x64x64 | FileCheck %s --check-prefix=SIM
// SIM-DAG: PASS tma m=64 n=64 k=64
// SIM-DAG: PASS direct m=64 n=64 k=64
// SIM-DAG: PASS lowp m=64 n=64 k=64: {{.*}}, amax
//
// An op without semantics (here an LLVM constant planted before the first
// CTA barrier of the materialized module, in kernel 'tma') leaves its
// kernel unchecked: gemm-check-protocol warns, naming the op, and goes on,
// so that a new kind of kernel op never fails the pipelines before the
// simulator learns it (docs/Verification.md). gemm-sim, asked to run the
// kernel, fails on it (test/Simulator/errors.mlir).
//
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e '0,/^\( *\)gpu.barrier$/s//\1%unknown = llvm.mlir.constant(7 : i32) : i32\n\1gpu.barrier/' > %t.mlir
// RUN: gemm-opt %t.mlir --gemm-check-protocol -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLANTED
// PLANTED: warning: not simulated: llvm.mlir.constant; the protocol of kernel 'tma' is not checked (the simulator has no semantics for 'llvm.mlir.constant'
// PLANTED-NOT: error

gemm.matmul @tma a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64]>)

gemm.matmul @direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)

gemm.matmul @lowp a(f8E4M3FN, row) b(f8E5M2, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<a = row, b = col, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)
