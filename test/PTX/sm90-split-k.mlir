// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// Split-K kernels (cooperative with a cluster, pingpong) assemble for sm_90a
// without spills: the reduction adds the other splits' partials one epilogue
// sub-tile at a time, so no second accumulator is held in registers.
//
// RUN: %ptxas -arch=sm_90a -v %t/split3_coop_128x256_c2x1.ptx -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=split3_coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/split2_pp_64x128.ptx -o %t/b.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=split2_pp_64x128
// PTXAS-NOT: warning
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
//
// RUN: FileCheck %s --check-prefix=PTX -DNAME=split3_coop_128x256_c2x1 < %t/split3_coop_128x256_c2x1.ptx
// RUN: FileCheck %s --check-prefix=PTX -DNAME=split2_pp_64x128 < %t/split2_pp_64x128.ptx
// The two workspaces are 64-bit global addresses after M, N, K.
// PTX: .visible .entry [[NAME]](
// PTX: .param .u32 [[NAME]]_param_5,
// PTX-NEXT: .param .u64 .ptr .global .align 1 [[NAME]]_param_6,
// PTX-NEXT: .param .u64 .ptr .global .align 1 [[NAME]]_param_7
// Partials out, the acq_rel arrival, the vote, partials
// in, then the TMA-store epilogue.
// PTX: st.global.v4.b32
// PTX-NOT: fence.acq_rel.gpu;
// PTX: atom.acq_rel.gpu.global.add.u32
// PTX-NOT: fence.acq_rel.gpu;
// PTX: st.global.b32
// PTX: bar.red.or.pred [[OR:%p[0-9]+]],
// PTX-NEXT: vote.sync.any.pred {{%p[0-9]+}}, [[OR]], -1;
// PTX: ld.global.v4.b32
// PTX: stmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
//
// RUN: FileCheck %s --check-prefix=JSON < %t/split2_pp_64x128.json
// JSON: "grid": {
// JSON-NEXT: "policy": "persistent",
// JSON-NEXT: "work_units_per_tile": 2
// JSON: "kind": "workspace",
// JSON-NEXT: "bytes_per_tile": 65536,
// JSON-NEXT: "zero_init": false
// JSON: "kind": "workspace",
// JSON-NEXT: "bytes_per_tile": 16,
// JSON-NEXT: "zero_init": true

gemm.matmul @split3_coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1], scheduler = split_k, splits = 3>)
gemm.matmul @split2_pp_64x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 128, 64], schedule = pingpong, scheduler = split_k, splits = 2>)
