// A two-warpgroup direct kernel whose C staging buffer is cut to 64 rows
// (edited from 128): warps 4-7 would stage past it. The simulator refuses
// the kernel naming a warp past it (exit 3); the unedited kernel passes.
//
// RUN: gemm-opt --gemm-materialize-sm90 %s | sed -e 's/smem<1 x 128 x 72 x bf16/smem<1 x 64 x 72 x bf16/g' > %t.mlir
// RUN: sh -c 'gemm-sim %t.mlir --m 200 --n 100 --k 70; echo "exit $?"' | FileCheck %s
// RUN: gemm-sim %s --m 200 --n 100 --k 70 | FileCheck %s --check-prefix=GOOD
//
// CHECK: FAIL direct m=200 n=100 k=70
// CHECK-NEXT: protocol violation (hardware rule) at 'gemm.accum.store_direct' {{.*}}: warp {{[4-7]}} stages rows past the 64 of the direct store's staging buffer
// CHECK: exit 3
// GOOD: PASS direct m=200 n=100 k=70
gemm.matmul @direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 64], schedule = direct>)
