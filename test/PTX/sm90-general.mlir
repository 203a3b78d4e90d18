// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir 2> %t/warnings.txt
// RUN: FileCheck %s --check-prefix=WARN --allow-empty < %t/warnings.txt
//
// General grouped kernels (grouped(general)) through the whole pipeline for
// sm_90a: 0 spill bytes, no ptxas warning; the parameters are the three
// template descriptors, M, N, K, the group count (.u32) and the general
// group table (.u64); the kernel's TMA loads and stores are 2-D through the
// groups' tensor maps in the table (generic addresses, not parameters),
// each acquired with fence.proxy.tensormap::generic.acquire.gpu (size 128)
// before use; the table is read with vector loads (the binary search and
// the group's sizes) and one ld.global.b32 (the unit count); no
// prefetch.tensormap of the unused templates.
//
// RUN: %ptxas -arch=sm_90a -v %t/ge_coop_128x256.ptx -o %t/ge_coop_128x256.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=ge_coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/ge_coop_128x256_c2x1.ptx -o %t/ge_coop_128x256_c2x1.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=ge_coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/ge_pp_128x128.ptx -o %t/ge_pp_128x128.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=ge_pp_128x128
// RUN: %ptxas -arch=sm_90a -v %t/ge_mn_ccol_128x128_f32.ptx -o %t/ge_mn_ccol_128x128_f32.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=ge_mn_ccol_128x128_f32
//
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C75{{[0-9][0-9]}}
//
// RUN: FileCheck %s --check-prefix=PTX -DNAME=ge_coop_128x256 < %t/ge_coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=PTX -DNAME=ge_pp_128x128 < %t/ge_pp_128x128.ptx
// PTX: .visible .entry [[NAME]](
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_0[128],
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_1[128],
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_2[128],
// PTX-NEXT: .param .u32 [[NAME]]_param_3,
// PTX-NEXT: .param .u32 [[NAME]]_param_4,
// PTX-NEXT: .param .u32 [[NAME]]_param_5,
// PTX-NEXT: .param .u32 [[NAME]]_param_6,
// PTX-NEXT: .param .u64 .ptr .global .align 1 [[NAME]]_param_7
// PTX-NEXT: )
// PTX-DAG: ld.global.b32
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: fence.proxy.tensormap::generic.acquire.gpu [%rd{{[0-9]+}}], 128;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// RUN: not grep -e "prefetch.param.tensormap\|prefetch.tensormap" %t/ge_coop_128x256.ptx
// RUN: not grep -e "cp.async.bulk.tensor.3d" %t/ge_coop_128x256.ptx
// The acquires: A and B in the producer, C in each consumer's epilogue.
// RUN: grep -c "fence.proxy.tensormap::generic.acquire.gpu" %t/ge_coop_128x256.ptx | FileCheck %s --check-prefix=ACQUIRES
// ACQUIRES: 3
//
// The protocol checker runs these kernels (the simulator reads the general
// group table and the groups' tensor maps the runtime's code builds): no
// "not simulated" warning, no other.
// WARN-NOT: warning

gemm.matmul @ge_coop_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @ge_coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @ge_pp_128x128 a(f16, row) b(f16, col) c(f16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @ge_mn_ccol_128x128_f32 a(bf16, col) b(bf16, row) c(f32, col) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
