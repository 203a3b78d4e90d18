// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t" -o %t/out.mlir
//
// Every SM100 kernel shape (cta_group 1 and 2, static and CLC schedulers,
// clusters with multicast, k-grouping, 8-bit inputs, f32 output) goes
// through the whole pipeline to PTX and a cubin for sm_100a; ptxas -v then
// shows that it fits its registers without spills. No SM100 GPU is
// available to this project: these kernels are compile-checked, not run.
//
// RUN: %ptxas -arch=sm_100a -v %t/static_128x256.ptx -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=static_128x256
// RUN: %ptxas -arch=sm_100a -v %t/clc_128x256.ptx -o %t/b.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=clc_128x256
// RUN: %ptxas -arch=sm_100a -v %t/pair_c2x1.ptx -o %t/c.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=pair_c2x1
// RUN: %ptxas -arch=sm_100a -v %t/pair_clc_c4x1.ptx -o %t/d.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=pair_clc_c4x1
// RUN: %ptxas -arch=sm_100a -v %t/c2x2_kgroup2.ptx -o %t/e.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=c2x2_kgroup2
// RUN: %ptxas -arch=sm_100a -v %t/e4m3_128x256.ptx -o %t/f.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=e4m3_128x256
// RUN: %ptxas -arch=sm_100a -v %t/e5m2_f32out_c1x2_clc.ptx -o %t/g.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=e5m2_f32out_c1x2_clc
// RUN: %ptxas -arch=sm_100a -v %t/f16_128x128.ptx -o %t/h.o 2>&1 | FileCheck %s --check-prefix=PTXAS -DNAME=f16_128x128
//
// PTXAS-NOT: warning
// PTXAS: Compiling entry function '[[NAME]]' for 'sm_100a'
// PTXAS-NEXT: Function properties for [[NAME]]
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: warning
//
// The instructions of each kernel.
// RUN: FileCheck %s --check-prefixes=PTX,ONE,UNICAST,BF16,X64 -DNAME=static_128x256 < %t/static_128x256.ptx
// RUN: FileCheck %s --check-prefixes=PTX,ONE,UNICAST,BF16,X64,CLC,CLC1 -DNAME=clc_128x256 < %t/clc_128x256.ptx
// RUN: FileCheck %s --check-prefixes=PTX,PAIR,BF16,X64,CLUSTER,REMOTE -DNAME=pair_c2x1 < %t/pair_c2x1.ptx
// RUN: FileCheck %s --check-prefixes=PTX,PAIR,PAIRMCAST,BF16,X64,CLUSTER,REMOTE,CLC,CLCN -DNAME=pair_clc_c4x1 < %t/pair_clc_c4x1.ptx
// RUN: FileCheck %s --check-prefixes=PTX,ONE,F16,X32,CLUSTER,MCAST -DNAME=c2x2_kgroup2 < %t/c2x2_kgroup2.ptx
// RUN: FileCheck %s --check-prefixes=PTX,ONE,UNICAST,F8,X64 -DNAME=e4m3_128x256 < %t/e4m3_128x256.ptx
// RUN: FileCheck %s --check-prefixes=PTX,ONE,UNICAST,F8,X32,CLUSTER,REMOTE,MCAST,CLC,CLCN -DNAME=e5m2_f32out_c1x2_clc < %t/e5m2_f32out_c1x2_clc.ptx
// RUN: FileCheck %s --check-prefixes=PTX,ONE,UNICAST,F16,X64 -DNAME=f16_128x128 < %t/f16_128x128.ptx
// Kernels without a cluster have no cluster instructions; static ones no CLC.
// RUN: not grep -e reqnctapercluster -e multicast -e mapa -e barrier.cluster %t/static_128x256.ptx %t/clc_128x256.ptx %t/e4m3_128x256.ptx %t/f16_128x128.ptx
// RUN: not grep clusterlaunchcontrol %t/static_128x256.ptx %t/pair_c2x1.ptx %t/c2x2_kgroup2.ptx %t/e4m3_128x256.ptx %t/f16_128x128.ptx
//
// PTX: .target sm_100a
// PTX: .visible .entry [[NAME]](
// PTX: .maxntid 224, 1, 1
// CLUSTER-NEXT: .explicitcluster
// PTX-DAG: tcgen05.alloc.cta_group::[[G:1|2]].sync.aligned.shared::cta.b32
// PTX-DAG: tcgen05.relinquish_alloc_permit.cta_group::[[G]].sync.aligned;
// PTX-DAG: tcgen05.fence::before_thread_sync;
// PTX-DAG: tcgen05.fence::after_thread_sync;
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// BF16-DAG: tcgen05.mma.cta_group::[[G]].kind::f16
// F16-DAG: tcgen05.mma.cta_group::[[G]].kind::f16
// F8-DAG: tcgen05.mma.cta_group::[[G]].kind::f8f6f4
// PTX-DAG: tcgen05.commit.cta_group::[[G]].mbarrier::arrive::one.shared::cluster
// X64-DAG: tcgen05.ld.sync.aligned.32x32b.x64.b32
// X32-DAG: tcgen05.ld.sync.aligned.32x32b.x32.b32
// PTX-DAG: tcgen05.wait::ld.sync.aligned;
// PTX-DAG: st.shared.v4.b32
// PTX-DAG: fence.proxy.async.shared::cta;
// PTX-DAG: bar.warp.sync
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-DAG: tcgen05.dealloc.cta_group::[[G]].sync.aligned.b32
// One CTA per MMA: the producer arms its own full barrier, where the loads
// complete (whole tiles where no cluster peer shares them).
// ONE-DAG: mbarrier.arrive.expect_tx.shared.b64
// UNICAST-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// MMA pairs: both CTAs arm and fill the leader's full barrier, the leader
// frees both CTAs' slots and publishes the accumulator to both.
// PAIR-DAG: mbarrier.arrive.expect_tx.shared::cluster.b64
// PAIR-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
// PAIR-DAG: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PAIRMCAST-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2
// MCAST-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// MCAST-DAG: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// CLUSTER-DAG: fence.mbarrier_init.release.cluster;
// CLUSTER-DAG: barrier.cluster.arrive.aligned;
// Arrivals on a peer CTA's barrier: an MMA pair's epilogues free the
// accumulator on the leader, CLC readers free a response on rank 0.
// REMOTE-DAG: mapa.shared::cluster.u64
// REMOTE-DAG: mbarrier.arrive.shared::cluster.b64
// Cluster launch control: one request per cluster (multicast to all CTAs
// when there are several), decoded by every role.
// CLC-DAG: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CLC-DAG: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// CLC1-DAG: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// CLCN-DAG: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// PTX: ret;
//
// The manifests say how to launch each kernel.
// RUN: FileCheck %s --check-prefixes=JSON,JSTATIC < %t/static_128x256.json
// RUN: FileCheck %s --check-prefixes=JSON,JCLCPAIR < %t/pair_clc_c4x1.json
// RUN: FileCheck %s --check-prefixes=JSON,JF8 < %t/e4m3_128x256.json
// JSON: "arch": "sm_100a",
// JSON: "block": [
// JSON-NEXT: 224,
// JSTATIC: "grid": {
// JSTATIC-NEXT: "policy": "persistent"
// JCLCPAIR: "cluster": [
// JCLCPAIR-NEXT: 4,
// JCLCPAIR: "cluster_tiles": [
// JCLCPAIR-NEXT: 4,
// JCLCPAIR-NEXT: 1
// JCLCPAIR: "grid": {
// JCLCPAIR-NEXT: "policy": "tiles"
// JF8: "types": {
// JF8-NEXT: "a": "e4m3",
// JF8-NEXT: "b": "e4m3",
// JF8-NEXT: "c": "bf16",

gemm.matmul @static_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)
gemm.matmul @clc_128x256 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, scheduler = clc>)
gemm.matmul @pair_c2x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], cluster = [2, 1], schedule = warp_roles, cta_group = 2>)
gemm.matmul @pair_clc_c4x1 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], cluster = [4, 1], schedule = warp_roles, scheduler = clc, cta_group = 2>)
gemm.matmul @c2x2_kgroup2 a(f16, row) b(f16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 128, 64], cluster = [2, 2], schedule = warp_roles, k_group = 2>)
gemm.matmul @e4m3_128x256 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 128], schedule = warp_roles>)
gemm.matmul @e5m2_f32out_c1x2_clc a(f8E5M2, row) b(f8E5M2, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 128, 128], cluster = [1, 2], schedule = warp_roles, scheduler = clc>)
gemm.matmul @f16_128x128 a(f16, row) b(f16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 128, 64], schedule = warp_roles, accum_stages = 4>)
