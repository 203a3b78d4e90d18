#ifndef GEMM_CONVERSION_PASSES_TD
#define GEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGemmToNVVM : Pass<"convert-gemm-to-nvvm", "ModuleOp"> {
  let summary = "lower gemm kernel ops to NVVM and LLVM, one pattern per op";
  let description = [{
    Lowers the kernel-level gemm ops (shared-memory plan, pipelines, TMA,
    WGMMA, epilogue, schedulers, warp roles) inside `gpu.module`s to the
    NVVM and LLVM dialects, converting gemm types in signatures, `scf`
    loop-carried values and casts. TMA descriptor kernel arguments are
    recorded in `gemm.grid_constant_args` for `gemm-finalize-kernel-abi`.
    A `gemm.matmul` still present (not materialized into a kernel) is an
    error.

    With `debug-waits=MS` every mbarrier wait (pipeline acquire and wait, on
    SM90 and SM100) is bounded: a wait still incomplete after one try polls
    `%globaltimer`, and after MS milliseconds the first thread to give up
    writes its wait site, CTA, warp, stage, expected phase parity and
    iteration into the record whose address the runtime puts in the
    module's `gemm_debug_wait_record` global (host-mapped memory), and
    traps; the kernel's manifest gets `debug_waits_ms` and
    `debug_wait_sites` (what each site is: role, barrier, pipeline). So a
    protocol mistake stops the kernel with a name instead of hanging the GPU.
    0 (the default) keeps the unbounded waits.
  }];
  let options = [
    Option<"debugWaitsMs", "debug-waits", "int64_t", "0",
           "bound every mbarrier wait to this many milliseconds, then print "
           "where and trap (0: wait forever)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def GemmFinalizeKernelABI : Pass<"gemm-finalize-kernel-abi", "ModuleOp"> {
  let summary = "pass TMA descriptors by value as __grid_constant__ parameters";
  let description = [{
    Runs after `convert-gpu-to-nvvm`: marks the kernel arguments listed in
    `gemm.grid_constant_args` as `llvm.byval` 128-byte, 64-aligned
    `nvvm.grid_constant` parameters, so the host passes the CUtensorMap by
    value and the kernel takes its generic address with `cvta.param`.
    (`gpu.func` cannot carry these attributes itself: the NVVM verifier
    accepts `nvvm.grid_constant` only on `llvm.func` kernels, and the
    GPU-to-NVVM conversion drops `llvm.byval`.)
  }];
}

#endif // GEMM_CONVERSION_PASSES_TD
