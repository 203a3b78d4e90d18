// RUN: gemm-opt %s --convert-gemm-to-nvvm="debug-waits=100" -split-input-file -verify-diagnostics

// The bounded named barriers of debug-waits keep their counters in static
// shared memory, which can take 1024 bytes of the budget (the dynamic buffer
// starts at the next 1024-byte boundary): a kernel whose plan leaves less is
// refused, naming the fix.
gpu.module @full {
  gpu.func @almost_full_smem(%id: i32) kernel {
    // 14 x 16384 + 2048 bytes of buffers, 64 of barriers: 231488 bytes.
    // expected-error @+1 {{'gemm.smem.plan' op needs 231488 bytes, and debug-waits keeps the counters of its bounded named barriers in static shared memory, which can take 1024 bytes more of the 232448-byte budget: compile this kernel with one stage fewer, or without debug-waits}}
    %a, %b, %p = gemm.smem.plan : !gemm.smem<14 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<1 x 16 x 64 x bf16, swizzle = 128>,
        !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
    %c128 = arith.constant 128 : i32
    nvvm.barrier id = %id number_of_threads = %c128
    gpu.return
  }
}

// -----

// The counters' symbol is reserved.
gpu.module @taken {
  // expected-error @+1 {{'llvm.mlir.global' op uses the symbol @gemm_debug_named_barriers, which debug-waits reserves for its named-barrier counters}}
  llvm.mlir.global internal @gemm_debug_named_barriers() {addr_space = 3 : i32} : i32
  gpu.func @barrier(%id: i32) kernel {
    %c128 = arith.constant 128 : i32
    nvvm.barrier id = %id number_of_threads = %c128
    gpu.return
  }
}

// -----

// So is the wait record's. Found by gemm-fuzz: a gemm.matmul named
// @gemm_debug_wait_record compiled with debug-waits became a gpu.func of
// that name, the record's global was not made, and the waits' addressof
// referred to the kernel (the pass succeeded with invalid IR).
!pipe = !gemm.pipeline<stages = 2, producers = 1, consumers = 1>
gpu.module @record_taken {
  // expected-error @+1 {{'gpu.func' op uses the symbol @gemm_debug_wait_record, which debug-waits reserves for its wait record's address}}
  gpu.func @gemm_debug_wait_record(%p: !pipe, %n: i32) kernel {
    gemm.pipeline.consumer_wait %p[%n] : !pipe
    gpu.return
  }
}
