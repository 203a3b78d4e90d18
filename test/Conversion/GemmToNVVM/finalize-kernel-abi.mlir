// RUN: gemm-opt %s -split-input-file -verify-diagnostics --gemm-finalize-kernel-abi | FileCheck %s

// The kernel arguments named by gemm.grid_constant_args (the TMA
// descriptors, lowered to pointers) become by-value, 64-byte aligned,
// __grid_constant__ CUtensorMap parameters; the attribute is dropped.

// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: (%{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[a-z0-9]+}}: i32,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr)
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK-NOT: gemm.grid_constant_args
llvm.func @kernel(%a: !llvm.ptr, %n: i32, %b: !llvm.ptr, %other: !llvm.ptr)
    attributes {gemm.grid_constant_args = array<i64: 0, 2>, nvvm.kernel} {
  llvm.return
}

// -----

// Functions without the attribute are left alone.
// CHECK-LABEL: llvm.func @plain
// CHECK-SAME: (%{{[a-z0-9]+}}: !llvm.ptr)
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK-NOT: llvm.byval
llvm.func @plain(%a: !llvm.ptr) attributes {nvvm.kernel} {
  llvm.return
}

// -----

// expected-error @+1 {{gemm.grid_constant_args on a function that is not a kernel: run convert-gpu-to-nvvm first}}
llvm.func @not_kernel(%a: !llvm.ptr) attributes {gemm.grid_constant_args = array<i64: 0>} {
  llvm.return
}

// -----

// expected-error @+1 {{gemm.grid_constant_args names argument 2, which is not a pointer argument}}
llvm.func @out_of_range(%a: !llvm.ptr, %b: !llvm.ptr)
    attributes {gemm.grid_constant_args = array<i64: 0, 2>, nvvm.kernel} {
  llvm.return
}

// -----

// expected-error @+1 {{gemm.grid_constant_args names argument -1, which is not a pointer argument}}
llvm.func @negative(%a: !llvm.ptr)
    attributes {gemm.grid_constant_args = array<i64: -1>, nvvm.kernel} {
  llvm.return
}

// -----

// expected-error @+1 {{gemm.grid_constant_args names argument 1, which is not a pointer argument}}
llvm.func @not_pointer(%a: !llvm.ptr, %n: i32)
    attributes {gemm.grid_constant_args = array<i64: 1>, nvvm.kernel} {
  llvm.return
}
