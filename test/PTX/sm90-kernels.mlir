// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// Every SM90 kernel shape goes through the whole pipeline to PTX and cubin;
// ptxas -v then shows that it fits its registers (no spills) and that
// ptxas did not have to serialize WGMMA or add warpgroup.arrive/wait of
// its own (C7508, C7517, C7519, C7520: no C75xx info at all). Two-atom
// accumulators (256x128 cooperative, 128x128 pingpong) used to get
// C7517/C7519 from zero registers written after the fence.
//
// RUN: %ptxas -arch=sm_90a -v %t/coop_128x256.ptx -o %t/coop_128x256.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=coop_128x256
// RUN: %ptxas -arch=sm_90a -v %t/coop_128x256_c2x1.ptx -o %t/coop_128x256_c2x1.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=coop_128x256_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/coop_128x256_c1x2.ptx -o %t/coop_128x256_c1x2.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=coop_128x256_c1x2
// RUN: %ptxas -arch=sm_90a -v %t/coop_128x128.ptx -o %t/coop_128x128.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=coop_128x128
// RUN: %ptxas -arch=sm_90a -v %t/coop_256x128.ptx -o %t/coop_256x128.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=coop_256x128
// RUN: %ptxas -arch=sm_90a -v %t/pp_128x128.ptx -o %t/pp_128x128.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=pp_128x128
// RUN: %ptxas -arch=sm_90a -v %t/pp_128x128_c2x1.ptx -o %t/pp_128x128_c2x1.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=pp_128x128_c2x1
// RUN: %ptxas -arch=sm_90a -v %t/pp_64x256.ptx -o %t/pp_64x256.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=pp_64x256
// RUN: %ptxas -arch=sm_90a -v %t/f16_128x256.ptx -o %t/f16_128x256.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=f16_128x256
// RUN: %ptxas -arch=sm_90a -v %t/f32out_128x256.ptx -o %t/f32out_128x256.o 2>&1 | FileCheck %s --check-prefixes=PTXAS,NOSERIAL -DNAME=f32out_128x256
//
// PTXAS-NOT: warning
// PTXAS-NOT: C7508
// NOSERIAL-NOT: serialized
// NOSERIAL-NOT: C75{{[0-9][0-9]}}
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_90a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
// PTXAS-NOT: C7508
// NOSERIAL-NOT: serialized
// NOSERIAL-NOT: C75{{[0-9][0-9]}}
// PTXAS: Used {{[0-9]+}} registers
// PTXAS-NOT: warning
// PTXAS-NOT: C7508
// NOSERIAL-NOT: C75{{[0-9][0-9]}}
//
// The PTX of each kernel.
// RUN: FileCheck %s --check-prefixes=PTX,N256,BF16,TWOA -DNAME=coop_128x256 < %t/coop_128x256.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N256,BF16,CLUSTER,MCASTB,TWOA -DNAME=coop_128x256_c2x1 < %t/coop_128x256_c2x1.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N256,BF16,CLUSTER,MCASTA -DNAME=coop_128x256_c1x2 < %t/coop_128x256_c1x2.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N128,BF16,TWOA -DNAME=coop_128x128 < %t/coop_128x128.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N128,BF16,TWOA -DNAME=pp_128x128 < %t/pp_128x128.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N128,BF16,CLUSTER,MCASTB,TWOA -DNAME=pp_128x128_c2x1 < %t/pp_128x128_c2x1.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N256,BF16,TWOA -DNAME=pp_64x256 < %t/pp_64x256.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N256,F16,TWOA -DNAME=f16_128x256 < %t/f16_128x256.ptx
// RUN: FileCheck %s --check-prefixes=PTX,N256,BF16,TWOA -DNAME=f32out_128x256 < %t/f32out_128x256.ptx
// Kernels without a cluster have no cluster instructions at all.
// 16-bit outputs leave the accumulators through stmatrix; f32 through
// 8-byte shared stores.
// RUN: FileCheck %s --check-prefix=STMATRIX < %t/coop_128x256.ptx
// RUN: FileCheck %s --check-prefix=STMATRIX < %t/pp_128x128_c2x1.ptx
// RUN: FileCheck %s --check-prefix=STMATRIX < %t/f16_128x256.ptx
// STMATRIX: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// RUN: not grep stmatrix %t/f32out_128x256.ptx
// RUN: grep -q "st.shared.v2.b32\|st.shared.v2.f32" %t/f32out_128x256.ptx
// A 64-row tile that reaches past row M loads A through its second
// descriptor in 16-row boxes: the first always, the three others only where
// they start below M, else their 2048 bytes are completed on the full
// barrier without data.
// RUN: FileCheck %s --check-prefix=ABOXES < %t/pp_64x256.ptx
// ABOXES: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ABOXES-COUNT-3: @%p{{[0-9]+}} mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], 2048;
// ABOXES-NOT: mbarrier.complete_tx
// Taller tiles use 64-row boxes: a 128-row tile skips its second (8192
// bytes of bf16) where it lies past M. A multicast A keeps one box.
// RUN: FileCheck %s --check-prefix=ABOXES128 < %t/coop_128x256.ptx
// ABOXES128: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ABOXES128-COUNT-1: @%p{{[0-9]+}} mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], 8192;
// ABOXES128-NOT: mbarrier.complete_tx
// RUN: not grep -e complete_tx.relaxed %t/coop_128x256_c1x2.ptx
// RUN: not grep -e reqnctapercluster -e multicast -e mapa -e barrier.cluster %t/coop_128x256.ptx %t/coop_128x128.ptx %t/pp_128x128.ptx %t/pp_64x256.ptx %t/f16_128x256.ptx %t/f32out_128x256.ptx
//
// PTX: .target sm_90a
// The CUtensorMaps are 64-byte aligned by-value parameters.
// PTX: .visible .entry [[NAME]](
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_0[128],
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_1[128],
// PTX-NEXT: .param .align 64 .b8 [[NAME]]_param_2[128],
// PTX-NEXT: .param .u32 [[NAME]]_param_3,
// PTX-NEXT: .param .u32 [[NAME]]_param_4,
// PTX-NEXT: .param .u32 [[NAME]]_param_5
// The second A descriptor (16- or 64-row boxes, for tiles whose last rows
// lie past M) comes last; a kernel that multicasts A has none.
// TWOA-NEXT: .param .align 64 .b8 [[NAME]]_param_6[128]
// PTX-NEXT: )
// PTX-NEXT: .maxntid 384, 1, 1
// PTX-NEXT: .minnctapersm 1
// CLUSTER-NEXT: .explicitcluster
// CLUSTER-NEXT: .reqnctapercluster 2, 1, 1
// PTX-NEXT: {
// The generic addresses of the A and B descriptors.
// PTX-DAG: mov.b64 %rd[[PA:[0-9]+]], [[NAME]]_param_0;
// PTX-DAG: mov.b64 %rd[[PB:[0-9]+]], [[NAME]]_param_1;
// PTX-DAG: cvta.param.u64 %rd[[GA:[0-9]+]], %rd[[PA]];
// PTX-DAG: cvta.param.u64 %rd[[GB:[0-9]+]], %rd[[PB]];
// The instructions of every kernel, in any order.
// PTX-DAG: mbarrier.init.shared.b64
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: mbarrier.arrive.expect_tx.shared.b64
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// PTX-DAG: wgmma.fence.sync.aligned;
// N256-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.[[IN:bf16|f16]].[[IN]]
// N128-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.[[IN:bf16|f16]].[[IN]]
// BF16-DAG: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16
// F16-DAG: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.f16.f16
// PTX-DAG: wgmma.commit_group.sync.aligned;
// PTX-DAG: wgmma.wait_group.sync.aligned 1;
// PTX-DAG: fence.proxy.async.shared::cta;
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-DAG: cp.async.bulk.commit_group;
// PTX-DAG: cp.async.bulk.wait_group.read 1;
// PTX-DAG: cp.async.bulk.wait_group 0;
// Cluster kernels: the shared operand is multicast, A along a cluster row
// (1x2), B along a cluster column (2x1); the other is loaded whole.
// MCASTA-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd[[GA]], {
// MCASTA-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd[[GB]], {
// MCASTB-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd[[GA]], {
// MCASTB-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd[[GB]], {
// CLUSTER-DAG: fence.mbarrier_init.release.cluster;
// CLUSTER-DAG: barrier.cluster.arrive.aligned;
// CLUSTER-DAG: barrier.cluster.wait.aligned;
// CLUSTER-DAG: mapa.shared::cluster.u64
// CLUSTER-DAG: mbarrier.arrive.shared::cluster.b64
// PTX: ret;
//
// The manifests: the common part, then what is particular to each kernel.
// RUN: FileCheck %s --check-prefixes=JSON,JCOOP_128X256 -DNAME=coop_128x256 < %t/coop_128x256.json
// RUN: FileCheck %s --check-prefixes=JSON,JCOOP_128X256_C2X1 -DNAME=coop_128x256_c2x1 < %t/coop_128x256_c2x1.json
// RUN: FileCheck %s --check-prefixes=JSON,JCOOP_128X256_C1X2 -DNAME=coop_128x256_c1x2 < %t/coop_128x256_c1x2.json
// RUN: FileCheck %s --check-prefixes=JSON,JCOOP_128X128 -DNAME=coop_128x128 < %t/coop_128x128.json
// RUN: FileCheck %s --check-prefixes=JSON,JPP_128X128 -DNAME=pp_128x128 < %t/pp_128x128.json
// RUN: FileCheck %s --check-prefixes=JSON,JPP_128X128_C2X1 -DNAME=pp_128x128_c2x1 < %t/pp_128x128_c2x1.json
// RUN: FileCheck %s --check-prefixes=JSON,JPP_64X256 -DNAME=pp_64x256 < %t/pp_64x256.json
// RUN: FileCheck %s --check-prefixes=JSON,JF16_128X256 -DNAME=f16_128x256 < %t/f16_128x256.json
// RUN: FileCheck %s --check-prefixes=JSON,JF32OUT_128X256 -DNAME=f32out_128x256 < %t/f32out_128x256.json
//
// JSON: "format": "gemm-kernel-bundle",
// JSON: "name": "[[NAME]]",
// JSON: "kernel": "[[NAME]]",
// JSON: "arch": "sm_90a",
// JSON: "ptx": "[[NAME]].ptx",
// JSON: "cubin": "[[NAME]].cubin",
// JSON: "block": [
// JSON-NEXT: 384,
// JSON-NEXT: 1,
// JSON-NEXT: 1
// JCOOP_128X256: "cluster": [
// JCOOP_128X256-NEXT: 1,
// JCOOP_128X256-NEXT: 1,
// JCOOP_128X256-NEXT: 1
// JCOOP_128X256: "dynamic_smem_bytes": 229440,
// JCOOP_128X256-NEXT: "tile": [
// JCOOP_128X256-NEXT: 128,
// JCOOP_128X256-NEXT: 256,
// JCOOP_128X256-NEXT: 64
// JCOOP_128X256: "types": {
// JCOOP_128X256-NEXT: "a": "bf16",
// JCOOP_128X256-NEXT: "b": "bf16",
// JCOOP_128X256-NEXT: "c": "bf16",
// JCOOP_128X256: "tensor": "a",
// JCOOP_128X256-NEXT: "box": [
// JCOOP_128X256-NEXT: 64,
// JCOOP_128X256-NEXT: 128
// JCOOP_128X256-NEXT: ],
// JCOOP_128X256-NEXT: "swizzle": "128B",
// JCOOP_128X256: "tensor": "b",
// JCOOP_128X256-NEXT: "box": [
// JCOOP_128X256-NEXT: 64,
// JCOOP_128X256-NEXT: 256
// JCOOP_128X256-NEXT: ],
// JCOOP_128X256-NEXT: "swizzle": "128B",
// JCOOP_128X256: "tensor": "c",
// JCOOP_128X256-NEXT: "box": [
// JCOOP_128X256-NEXT: 64,
// JCOOP_128X256-NEXT: 64
// JCOOP_128X256-NEXT: ],
// JCOOP_128X256-NEXT: "swizzle": "128B",
//
// JCOOP_128X256_C2X1: "cluster": [
// JCOOP_128X256_C2X1-NEXT: 2,
// JCOOP_128X256_C2X1-NEXT: 1,
// JCOOP_128X256_C2X1-NEXT: 1
// JCOOP_128X256_C2X1: "dynamic_smem_bytes": 229440,
// JCOOP_128X256_C2X1-NEXT: "tile": [
// JCOOP_128X256_C2X1-NEXT: 128,
// JCOOP_128X256_C2X1-NEXT: 256,
// JCOOP_128X256_C2X1-NEXT: 64
// JCOOP_128X256_C2X1: "types": {
// JCOOP_128X256_C2X1-NEXT: "a": "bf16",
// JCOOP_128X256_C2X1-NEXT: "b": "bf16",
// JCOOP_128X256_C2X1-NEXT: "c": "bf16",
// JCOOP_128X256_C2X1: "tensor": "a",
// JCOOP_128X256_C2X1-NEXT: "box": [
// JCOOP_128X256_C2X1-NEXT: 64,
// JCOOP_128X256_C2X1-NEXT: 128
// JCOOP_128X256_C2X1-NEXT: ],
// JCOOP_128X256_C2X1-NEXT: "swizzle": "128B",
// JCOOP_128X256_C2X1: "tensor": "b",
// JCOOP_128X256_C2X1-NEXT: "box": [
// JCOOP_128X256_C2X1-NEXT: 64,
// JCOOP_128X256_C2X1-NEXT: 128
// JCOOP_128X256_C2X1-NEXT: ],
// JCOOP_128X256_C2X1-NEXT: "swizzle": "128B",
// JCOOP_128X256_C2X1: "tensor": "c",
// JCOOP_128X256_C2X1-NEXT: "box": [
// JCOOP_128X256_C2X1-NEXT: 64,
// JCOOP_128X256_C2X1-NEXT: 64
// JCOOP_128X256_C2X1-NEXT: ],
// JCOOP_128X256_C2X1-NEXT: "swizzle": "128B",
//
// JCOOP_128X256_C1X2: "cluster": [
// JCOOP_128X256_C1X2-NEXT: 2,
// JCOOP_128X256_C1X2-NEXT: 1,
// JCOOP_128X256_C1X2-NEXT: 1
// JCOOP_128X256_C1X2: "dynamic_smem_bytes": 229440,
// JCOOP_128X256_C1X2-NEXT: "tile": [
// JCOOP_128X256_C1X2-NEXT: 128,
// JCOOP_128X256_C1X2-NEXT: 256,
// JCOOP_128X256_C1X2-NEXT: 64
// JCOOP_128X256_C1X2: "types": {
// JCOOP_128X256_C1X2-NEXT: "a": "bf16",
// JCOOP_128X256_C1X2-NEXT: "b": "bf16",
// JCOOP_128X256_C1X2-NEXT: "c": "bf16",
// JCOOP_128X256_C1X2: "tensor": "a",
// JCOOP_128X256_C1X2-NEXT: "box": [
// JCOOP_128X256_C1X2-NEXT: 64,
// JCOOP_128X256_C1X2-NEXT: 64
// JCOOP_128X256_C1X2-NEXT: ],
// JCOOP_128X256_C1X2-NEXT: "swizzle": "128B",
// JCOOP_128X256_C1X2: "tensor": "b",
// JCOOP_128X256_C1X2-NEXT: "box": [
// JCOOP_128X256_C1X2-NEXT: 64,
// JCOOP_128X256_C1X2-NEXT: 256
// JCOOP_128X256_C1X2-NEXT: ],
// JCOOP_128X256_C1X2-NEXT: "swizzle": "128B",
// JCOOP_128X256_C1X2: "tensor": "c",
// JCOOP_128X256_C1X2-NEXT: "box": [
// JCOOP_128X256_C1X2-NEXT: 64,
// JCOOP_128X256_C1X2-NEXT: 64
// JCOOP_128X256_C1X2-NEXT: ],
// JCOOP_128X256_C1X2-NEXT: "swizzle": "128B",
//
// JCOOP_128X128: "cluster": [
// JCOOP_128X128-NEXT: 1,
// JCOOP_128X128-NEXT: 1,
// JCOOP_128X128-NEXT: 1
// JCOOP_128X128: "dynamic_smem_bytes": 229472,
// JCOOP_128X128-NEXT: "tile": [
// JCOOP_128X128-NEXT: 128,
// JCOOP_128X128-NEXT: 128,
// JCOOP_128X128-NEXT: 64
// JCOOP_128X128: "types": {
// JCOOP_128X128-NEXT: "a": "bf16",
// JCOOP_128X128-NEXT: "b": "bf16",
// JCOOP_128X128-NEXT: "c": "bf16",
// JCOOP_128X128: "tensor": "a",
// JCOOP_128X128-NEXT: "box": [
// JCOOP_128X128-NEXT: 64,
// JCOOP_128X128-NEXT: 128
// JCOOP_128X128-NEXT: ],
// JCOOP_128X128-NEXT: "swizzle": "128B",
// JCOOP_128X128: "tensor": "b",
// JCOOP_128X128-NEXT: "box": [
// JCOOP_128X128-NEXT: 64,
// JCOOP_128X128-NEXT: 128
// JCOOP_128X128-NEXT: ],
// JCOOP_128X128-NEXT: "swizzle": "128B",
// JCOOP_128X128: "tensor": "c",
// JCOOP_128X128-NEXT: "box": [
// JCOOP_128X128-NEXT: 64,
// JCOOP_128X128-NEXT: 64
// JCOOP_128X128-NEXT: ],
// JCOOP_128X128-NEXT: "swizzle": "128B",
//
// JPP_128X128: "cluster": [
// JPP_128X128-NEXT: 1,
// JPP_128X128-NEXT: 1,
// JPP_128X128-NEXT: 1
// JPP_128X128: "dynamic_smem_bytes": 229504,
// JPP_128X128-NEXT: "tile": [
// JPP_128X128-NEXT: 128,
// JPP_128X128-NEXT: 128,
// JPP_128X128-NEXT: 64
// JPP_128X128: "types": {
// JPP_128X128-NEXT: "a": "bf16",
// JPP_128X128-NEXT: "b": "bf16",
// JPP_128X128-NEXT: "c": "bf16",
// JPP_128X128: "tensor": "a",
// JPP_128X128-NEXT: "box": [
// JPP_128X128-NEXT: 64,
// JPP_128X128-NEXT: 128
// JPP_128X128-NEXT: ],
// JPP_128X128-NEXT: "swizzle": "128B",
// JPP_128X128: "tensor": "b",
// JPP_128X128-NEXT: "box": [
// JPP_128X128-NEXT: 64,
// JPP_128X128-NEXT: 128
// JPP_128X128-NEXT: ],
// JPP_128X128-NEXT: "swizzle": "128B",
// JPP_128X128: "tensor": "c",
// JPP_128X128-NEXT: "box": [
// JPP_128X128-NEXT: 64,
// JPP_128X128-NEXT: 64
// JPP_128X128-NEXT: ],
// JPP_128X128-NEXT: "swizzle": "128B",
//
// JPP_128X128_C2X1: "cluster": [
// JPP_128X128_C2X1-NEXT: 2,
// JPP_128X128_C2X1-NEXT: 1,
// JPP_128X128_C2X1-NEXT: 1
// JPP_128X128_C2X1: "dynamic_smem_bytes": 229504,
// JPP_128X128_C2X1-NEXT: "tile": [
// JPP_128X128_C2X1-NEXT: 128,
// JPP_128X128_C2X1-NEXT: 128,
// JPP_128X128_C2X1-NEXT: 64
// JPP_128X128_C2X1: "types": {
// JPP_128X128_C2X1-NEXT: "a": "bf16",
// JPP_128X128_C2X1-NEXT: "b": "bf16",
// JPP_128X128_C2X1-NEXT: "c": "bf16",
// JPP_128X128_C2X1: "tensor": "a",
// JPP_128X128_C2X1-NEXT: "box": [
// JPP_128X128_C2X1-NEXT: 64,
// JPP_128X128_C2X1-NEXT: 128
// JPP_128X128_C2X1-NEXT: ],
// JPP_128X128_C2X1-NEXT: "swizzle": "128B",
// JPP_128X128_C2X1: "tensor": "b",
// JPP_128X128_C2X1-NEXT: "box": [
// JPP_128X128_C2X1-NEXT: 64,
// JPP_128X128_C2X1-NEXT: 64
// JPP_128X128_C2X1-NEXT: ],
// JPP_128X128_C2X1-NEXT: "swizzle": "128B",
// JPP_128X128_C2X1: "tensor": "c",
// JPP_128X128_C2X1-NEXT: "box": [
// JPP_128X128_C2X1-NEXT: 64,
// JPP_128X128_C2X1-NEXT: 64
// JPP_128X128_C2X1-NEXT: ],
// JPP_128X128_C2X1-NEXT: "swizzle": "128B",
//
// JPP_64X256: "cluster": [
// JPP_64X256-NEXT: 1,
// JPP_64X256-NEXT: 1,
// JPP_64X256-NEXT: 1
// JPP_64X256: "dynamic_smem_bytes": 196704,
// JPP_64X256-NEXT: "tile": [
// JPP_64X256-NEXT: 64,
// JPP_64X256-NEXT: 256,
// JPP_64X256-NEXT: 64
// JPP_64X256: "types": {
// JPP_64X256-NEXT: "a": "bf16",
// JPP_64X256-NEXT: "b": "bf16",
// JPP_64X256-NEXT: "c": "bf16",
// JPP_64X256: "tensor": "a",
// JPP_64X256-NEXT: "box": [
// JPP_64X256-NEXT: 64,
// JPP_64X256-NEXT: 64
// JPP_64X256-NEXT: ],
// JPP_64X256-NEXT: "swizzle": "128B",
// JPP_64X256: "tensor": "b",
// JPP_64X256-NEXT: "box": [
// JPP_64X256-NEXT: 64,
// JPP_64X256-NEXT: 256
// JPP_64X256-NEXT: ],
// JPP_64X256-NEXT: "swizzle": "128B",
// JPP_64X256: "tensor": "c",
// JPP_64X256-NEXT: "box": [
// JPP_64X256-NEXT: 64,
// JPP_64X256-NEXT: 64
// JPP_64X256-NEXT: ],
// JPP_64X256-NEXT: "swizzle": "128B",
//
// JF16_128X256: "cluster": [
// JF16_128X256-NEXT: 1,
// JF16_128X256-NEXT: 1,
// JF16_128X256-NEXT: 1
// JF16_128X256: "dynamic_smem_bytes": 229440,
// JF16_128X256-NEXT: "tile": [
// JF16_128X256-NEXT: 128,
// JF16_128X256-NEXT: 256,
// JF16_128X256-NEXT: 64
// JF16_128X256: "types": {
// JF16_128X256-NEXT: "a": "f16",
// JF16_128X256-NEXT: "b": "f16",
// JF16_128X256-NEXT: "c": "f16",
// JF16_128X256: "tensor": "a",
// JF16_128X256-NEXT: "box": [
// JF16_128X256-NEXT: 64,
// JF16_128X256-NEXT: 128
// JF16_128X256-NEXT: ],
// JF16_128X256-NEXT: "swizzle": "128B",
// JF16_128X256: "tensor": "b",
// JF16_128X256-NEXT: "box": [
// JF16_128X256-NEXT: 64,
// JF16_128X256-NEXT: 256
// JF16_128X256-NEXT: ],
// JF16_128X256-NEXT: "swizzle": "128B",
// JF16_128X256: "tensor": "c",
// JF16_128X256-NEXT: "box": [
// JF16_128X256-NEXT: 64,
// JF16_128X256-NEXT: 64
// JF16_128X256-NEXT: ],
// JF16_128X256-NEXT: "swizzle": "128B",
//
// JF32OUT_128X256: "cluster": [
// JF32OUT_128X256-NEXT: 1,
// JF32OUT_128X256-NEXT: 1,
// JF32OUT_128X256-NEXT: 1
// JF32OUT_128X256: "dynamic_smem_bytes": 229440,
// JF32OUT_128X256-NEXT: "tile": [
// JF32OUT_128X256-NEXT: 128,
// JF32OUT_128X256-NEXT: 256,
// JF32OUT_128X256-NEXT: 64
// JF32OUT_128X256: "types": {
// JF32OUT_128X256-NEXT: "a": "bf16",
// JF32OUT_128X256-NEXT: "b": "bf16",
// JF32OUT_128X256-NEXT: "c": "f32",
// JF32OUT_128X256: "tensor": "a",
// JF32OUT_128X256-NEXT: "box": [
// JF32OUT_128X256-NEXT: 64,
// JF32OUT_128X256-NEXT: 128
// JF32OUT_128X256-NEXT: ],
// JF32OUT_128X256-NEXT: "swizzle": "128B",
// JF32OUT_128X256: "tensor": "b",
// JF32OUT_128X256-NEXT: "box": [
// JF32OUT_128X256-NEXT: 64,
// JF32OUT_128X256-NEXT: 256
// JF32OUT_128X256-NEXT: ],
// JF32OUT_128X256-NEXT: "swizzle": "128B",
// JF32OUT_128X256: "tensor": "c",
// JF32OUT_128X256-NEXT: "box": [
// JF32OUT_128X256-NEXT: 32,
// JF32OUT_128X256-NEXT: 64
// JF32OUT_128X256-NEXT: ],
// JF32OUT_128X256-NEXT: "swizzle": "128B",
//
// After the descriptors, the problem sizes M, N, K in order.
// JSON: "kind": "problem_size",
// JSON-NEXT: "dim": "m"
// JSON: "kind": "problem_size",
// JSON-NEXT: "dim": "n"
// JSON: "kind": "problem_size",
// JSON-NEXT: "dim": "k"
// After them, the 64-row tile's A again, in the 16-row boxes of tiles
// that reach past M.
// JPP_64X256-NEXT: },
// JPP_64X256-NEXT: {
// JPP_64X256-NEXT: "kind": "tma_descriptor",
// JPP_64X256-NEXT: "tensor": "a",
// JPP_64X256-NEXT: "box": [
// JPP_64X256-NEXT: 64,
// JPP_64X256-NEXT: 16
// JPP_64X256-NEXT: ],

gemm.matmul @coop_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @coop_128x256_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1]>)
gemm.matmul @coop_128x256_c1x2 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [1, 2]>)
gemm.matmul @coop_128x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)
gemm.matmul @coop_256x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 64]>)
gemm.matmul @pp_128x128 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = pingpong>)
gemm.matmul @pp_128x128_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1], schedule = pingpong>)
gemm.matmul @pp_64x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], schedule = pingpong>)
gemm.matmul @f16_128x256 a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @f32out_128x256 a(bf16, row) b(bf16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
