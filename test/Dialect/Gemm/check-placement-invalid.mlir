// RUN: gemm-opt %s --gemm-check-placement -split-input-file -verify-diagnostics
// RUN: gemm-opt %s --gemm-to-nvvm -split-input-file -verify-diagnostics
// RUN: gemm-opt %s --gemm-to-ptx -split-input-file -verify-diagnostics

// The gemm pipelines compile the gpu.modules at the top level of the module
// (convert-gpu-to-nvvm runs nested on them, gpu-module-to-binary serializes
// them); gemm-check-placement, their first pass, refuses kernels anywhere
// else instead of leaving them uncompiled.

// Found by gemm-fuzz: a stray kernel op before a `module` makes the file two
// top-level ops, which the parser wraps in an implicit module, so the kernel
// module was nested one level down. gemm-to-ptx succeeded and left its
// gpu.module uncompiled (no gpu.binary); the fence, in no function, became an
// nvvm.tcgen05.fence at the top level.
// expected-error @+1 {{'gemm.tmem.fence' op is outside every function: kernel ops belong in a gpu.func of a gpu.module; move it there}}
gemm.tmem.fence after_thread_sync
// expected-note @+1 {{this module is not the top level (a file of more than one top-level operation is parsed into an implicit module that holds them)}}
module attributes {gpu.container_module} {
  // expected-error @+1 {{gpu.module @kernels is nested in 'builtin.module': the gemm pipelines compile only the gpu.modules at the top level of the module (convert-gpu-to-nvvm and gpu-module-to-binary look no deeper); move it there}}
  gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @sm100_ops() kernel attributes {gemm.arch = "sm_100a"} {
      gemm.tmem.fence after_thread_sync
      gpu.return
    }
  }
}

// -----

// A gemm.matmul's kernel is built in its place: in a nested module it would
// be a nested gpu.module.
gemm.matmul @top a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
// expected-note @+1 {{this module is not the top level}}
module {
  // expected-error @+1 {{gemm.matmul @nested is nested in 'builtin.module': a gemm.matmul belongs at the top level of the module, where its kernel's gpu.module is built and compiled; move it there}}
  gemm.matmul @nested a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
}

// -----

gpu.module @device [#nvvm.target<chip = "sm_100a">] {
  // expected-error @+1 {{gemm.matmul @in_gpu_module is nested in 'gpu.module'}}
  gemm.matmul @in_gpu_module a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)
}

// -----

// Kernel ops in a host function are lowered (scheduler arithmetic serves
// the host too); only code of no function is refused.
func.func @host(%t: i32, %tm: i32, %tn: i32) -> (i32, i32) {
  %m, %n = gemm.sched.static_tile %t of (%tm, %tn) raster(along_m) swizzle(8)
  return %m, %n : i32, i32
}

// -----

// A gpu.module in a gpu.module.
gpu.module @outer [#nvvm.target<chip = "sm_90a">] {
  // expected-error @+1 {{gpu.module @inner is nested in 'gpu.module'}}
  gpu.module @inner [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k() kernel {
      gemm.wgmma.fence
      gpu.return
    }
  }
}

// -----

// Where the pipelines compile them: no diagnostic (gemm-to-ptx lowers it).
module attributes {gpu.container_module} {
  gpu.module @top [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k() kernel {
      gemm.wgmma.fence
      gpu.return
    }
  }
}
