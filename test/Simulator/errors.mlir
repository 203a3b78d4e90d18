// gemm-sim's bad input: an op the simulator has no semantics for is named
// (exit 3), never skipped; a module without kernels and bad options are
// usage errors (exit 2).
//
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/^\( *\)gpu.barrier$/\1%unknown = llvm.mlir.constant(7 : i32) : i32\n\1gpu.barrier/' > %t.mlir
// RUN: sh -c 'gemm-sim %t.mlir --m 64 --n 64 --k 64; echo "exit $?"' | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: FAIL k m=64 n=64 k=64
// UNKNOWN-NEXT: protocol violation (not simulated) at 'llvm.mlir.constant' ({{.*}}): the simulator has no semantics for 'llvm.mlir.constant': add a handler (lib/Simulator/Ops*.cpp) before simulating or checking this kernel
// UNKNOWN: exit 3
//
// RUN: echo "module {}" > %t.empty.mlir
// RUN: not gemm-sim %t.empty.mlir --m 8 --n 8 --k 8 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: gemm-sim: no kernel to run
// RUN: not gemm-sim %s --m 8 --n 8 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: gemm-sim: give all of --m, --n and --k (each >= 1)
// RUN: not gemm-sim %s --shape 8x8 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: gemm-sim: --shape '8x8' is not MxNxK or MxNxKxB with sizes >= 1
// RUN: not gemm-sim %s --shape 8x8x8x0 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: gemm-sim: --shape '8x8x8x0' is not MxNxK or MxNxKxB with sizes >= 1
// RUN: not gemm-sim %s --shape 8x8x8 --broadcast c 2>&1 | FileCheck %s --check-prefix=BROADCAST
// BROADCAST: gemm-sim: --broadcast must be a, b or ab, got 'c'
// A batch for a kernel that is not batched: the launch cannot be planned.
// RUN: sh -c 'gemm-sim %s --shape 64x64x64x2; echo "exit $?"' | FileCheck %s --check-prefix=NOT-BATCHED
// NOT-BATCHED: FAIL k m=64 n=64 k=64 batch=2
// NOT-BATCHED-NEXT: protocol violation (not simulated) at {{.*}}: the launch cannot be planned: {{.*}}batch
// NOT-BATCHED: exit 3
// RUN: not gemm-sim %s --m 8 --n 8 --k 8 --schedule sometimes 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: gemm-sim: --schedule must be deterministic, random or exhaustive, got 'sometimes'
gemm.matmul @k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64]>)
