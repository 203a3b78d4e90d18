// REQUIRES: ptxas, nvdisasm
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// The split-K arrival (gemm.sched.split_k_arrive) is one acq_rel atomic.
// ptxas puts its release half before the atomic (one MEMBAR.ALL.GPU, which
// waits for the warpgroup's partial-tile stores) and makes its acquire half
// an L1 invalidation (CCTL.IVALL). The relaxed atomic between two
// fence.acq_rel.gpu that it replaced cost a second MEMBAR.ALL.GPU after the
// atomic, on the path of every split's fixup.
//
// RUN: %nvdisasm -c %t/split2_pp_64x128.cubin | FileCheck %s
// CHECK: MEMBAR.ALL.GPU
// CHECK-NOT: MEMBAR.ALL.GPU
// CHECK: ATOMG.E.ADD.STRONG.GPU
// CHECK-NEXT: CCTL.IVALL
// CHECK-NOT: MEMBAR.ALL.GPU
// CHECK: BAR.RED.OR
// CHECK-NOT: MEMBAR.ALL.GPU

gemm.matmul @split2_pp_64x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
