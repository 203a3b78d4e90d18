// A grouped kernel whose masked store (the consumer whose rows cross its
// group's end) is bounded by the rows of A instead of the group's end row
// (bounds(%rowEnd, ...) edited to bounds(%arg3, ...), %arg3 being M): it
// writes rows of the next group, which that group's tile writes too. The
// simulator reports the two unordered writes of C as a race (exit 3), with
// one CTA (its two consumer warpgroups) and with several.
//
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/bounds(%rowEnd, /bounds(%arg3, /' > %t.mlir
// RUN: sh -c 'gemm-sim %t.mlir --groups 100,0,77 --n 128 --k 64 --sms 4; echo "exit $?"' | FileCheck %s
// RUN: sh -c 'gemm-sim %t.mlir --groups 100,0,77 --n 128 --k 64 --sms 1; echo "exit $?"' | FileCheck %s
// And the unedited kernel passes.
// RUN: gemm-sim %s --groups 100,0,77 --n 128 --k 64 --sms 4 | FileCheck %s --check-prefix=GOOD
//
// CHECK: FAIL grouped m=177 n=128 k=64 groups=100,0,77
// CHECK-NEXT: protocol violation (race) at 'gemm.tma.store' {{.*}} writes C at byte {{[0-9]+}} unordered with the write by 'gemm.accum.store_direct'
// CHECK: gemm-sim: 1 run(s), 0 passed, 1 failed
// CHECK-NEXT: exit 3
// GOOD: PASS grouped m=177 n=128 k=64 groups=100,0,77
gemm.matmul @grouped a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
