// The simulator's data mode catches indexing mistakes: the epilogue of this
// kernel stages the second 64-column block from column 0 again (col(64)
// edited to col(0)), so half of C is wrong, and gemm-sim exits with 1.
//
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/atom(0) col(64)/atom(0) col(0)/' > %t.mlir
// RUN: sh -c 'gemm-sim %t.mlir --m 128 --n 128 --k 64 --sms 1; echo "exit $?"' | FileCheck %s
// And the unedited kernel passes.
// RUN: gemm-sim %s --m 128 --n 128 --k 64 --sms 1 | FileCheck %s --check-prefix=GOOD
//
// CHECK: FAIL wrong m=128 n=128 k=64: {{[0-9]+}} element(s) of C differ from the reference
// CHECK-NEXT: C[0][64] = {{.*}}, expected
// CHECK: gemm-sim: 1 run(s), 0 passed, 1 failed
// CHECK-NEXT: exit 1
// GOOD: PASS wrong m=128 n=128 k=64
gemm.matmul @wrong a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
