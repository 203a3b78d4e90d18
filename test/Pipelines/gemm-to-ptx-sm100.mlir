// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t ptxas=none" | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_sm100.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/gemm_sm100.json

// gemm-to-ptx builds an sm_100a kernel from gemm.matmul like an sm_90a one:
// gemm-materialize-sm100, the checks, the lowering to NVVM and PTX, and a
// kernel bundle (here without a cubin: ptxas=none).

// CHECK: gpu.binary @gemm_sm100 [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a">, {{.*}}assembly =
// PTX: .target sm_100a
// PTX: .visible .entry gemm_sm100(
// PTX-DAG: tcgen05.alloc.cta_group::1
// PTX-DAG: tcgen05.mma.cta_group::1.kind::f16
// PTX-DAG: tcgen05.ld.sync.aligned.32x32b.x64.b32
// PTX-DAG: clusterlaunchcontrol.try_cancel
// JSON: "arch": "sm_100a",
// JSON-NOT: "cubin"
// JSON: "grid": {
// JSON-NEXT: "policy": "tiles"
gemm.matmul @gemm_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, scheduler = clc>)
