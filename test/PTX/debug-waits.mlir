// Kernels built with debug-waits: the manifest records the bound and what
// each wait site is (so the runtime maps the wait record and names the wait
// of a trapped launch), the PTX polls %globaltimer, writes the record through
// the gemm_debug_wait_record global and traps, and it assembles without
// spills or a stack frame (no call). A protocol bug planted after materialization (the stage's
// expect_tx one 1 KB box too large, so the consumers' full barrier never
// completes) is refused by gemm-check-pipelines; `checks=false` compiles it
// anyway, for showing the trap on a GPU.
// REQUIRES: ptxas

// RUN: rm -rf %t && mkdir -p %t/debug %t/bad
// RUN: gemm-opt %s --gemm-to-ptx="output-dir=%t/debug debug-waits=500" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/debug/debug_waits_sm90.json
// RUN: FileCheck %s --check-prefix=PTX < %t/debug/debug_waits_sm90.ptx
// RUN: %ptxas -arch=sm_90a -v %t/debug/debug_waits_sm90.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS
// MANIFEST:      "debug_waits_ms": 500,
// MANIFEST-NEXT: "debug_wait_sites": [
// MANIFEST-NEXT:   "producer: the empty barrier of a 4-stage pipeline (1 producer(s), 2 consumer(s))",
// MANIFEST-NEXT:   "consumer: the full barrier of a 4-stage pipeline (1 producer(s), 2 consumer(s))",
// PTX: .visible .global .align 8 .u64 gemm_debug_wait_record;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: globaltimer
// PTX: ld.volatile.global.b64 {{.*}}[gemm_debug_wait_record]
// PTX: atom.acq_rel.sys.cas.b32
// PTX: fence.sc.sys;
// PTX: trap;
// PTX-NOT: vprintf
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// Named barriers with a thread count are bounded too: the epilogue's
// bar.sync (one per consumer warpgroup, id 1 + consumer) becomes the counter
// barrier on gemm_debug_named_barriers, whose arrival is a relaxed shared
// atomic add between fence.acq_rel.cta (LLVM 22 drops the ordering of an
// acq_rel atomicrmw); the split-K fixup's bar.red.or keeps its hardware
// barrier, after the bounded one. The only bar.sync left is barrier 0 at the
// kernel's entry (after the counters are zeroed) and start-up. Released
// kernels keep their named barriers.
// RUN: FileCheck %s --check-prefix=NAMED < %t/debug/debug_waits_sm90.ptx
// RUN: FileCheck %s --check-prefix=WARPSYNC < %t/debug/debug_waits_sm90.ptx
// WARPSYNC: bar.warp.sync -1;
// RUN: FileCheck %s --check-prefix=NAMED-SITES < %t/debug/debug_waits_sm90.json
// RUN: FileCheck %s --check-prefix=SPLIT-SITES < %t/debug/debug_waits_split_k.json
// RUN: FileCheck %s --check-prefix=SPLIT < %t/debug/debug_waits_split_k.ptx
// RUN: %ptxas -arch=sm_90a -v %t/debug/debug_waits_split_k.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mkdir -p %t/release && gemm-opt %s --gemm-to-ptx="output-dir=%t/release" -o /dev/null
// RUN: FileCheck %s --check-prefix=RELEASE < %t/release/debug_waits_split_k.ptx
// NAMED: .shared .align 8 .b8 gemm_debug_named_barriers[128];
// NAMED: bar.sync 0;
// NAMED: ld.relaxed.cta.shared.b32 [[GEN:%r[0-9]+]], [[[COUNT:%rd[0-9]+]]+64];
// NAMED-NEXT: fence.acq_rel.cta;
// NAMED-NEXT: atom.shared.add.u32 [[BEFORE:%r[0-9]+]], [[[COUNT]]], 1;
// NAMED-NEXT: fence.acq_rel.cta;
// NAMED-NEXT: setp.ne.b32 {{%p[0-9]+}}, [[BEFORE]], 127;
// NAMED: st.relaxed.cta.shared.b32 [[[COUNT]]], 0;
// NAMED: st.release.cta.shared.b32 [[[COUNT]]+64],
// NAMED: ld.acquire.cta.shared.b32 {{%r[0-9]+}}, [[[COUNT]]+64];
// NAMED: globaltimer
// NAMED: trap;
// NAMED-NOT: bar.sync %r
// NAMED-NOT: barrier.sync %r
// NAMED-SITES: "consumer: named barrier (bar.sync) of 128 threads",
// SPLIT-SITES: "consumer: named barrier (bar.red.or) of 128 threads"
// SPLIT-NOT: bar.sync %r
// SPLIT: bar.red.or.pred {{%p[0-9]+}}, %r{{[0-9]+}}, 128,
// SPLIT-NOT: bar.sync %r
// RELEASE-NOT: gemm_debug_named_barriers
// RELEASE: bar.sync %r{{[0-9]+}}, 128;
// RELEASE: bar.red.or.pred

// The SM100 kernel's sites name its warp roles.
// RUN: FileCheck %s --check-prefix=SM100 < %t/debug/debug_waits_sm100.json
// SM100: "debug_waits_ms": 500,
// SM100-NEXT: "debug_wait_sites": [
// SM100-NEXT:   "load: the empty barrier of a 4-stage pipeline
// SM100:        "mma: the full barrier of a 4-stage pipeline
// SM100:        "scheduler: the full barrier of a 2-stage pipeline
// SM100:        "epilogue: the full barrier of a 2-stage pipeline

// RUN: gemm-opt %s --gemm-materialize-sm90 | sed 's/tx(49152)/tx(50176)/' > %t/bad.mlir
// RUN: not gemm-opt %t/bad.mlir --gemm-to-ptx="output-dir=%t/bad" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAUGHT
// CAUGHT: error: {{.*}}expect_tx of 50176 bytes
// RUN: gemm-opt %t/bad.mlir --gemm-to-ptx="output-dir=%t/bad checks=false debug-waits=500" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/bad/debug_waits_sm90.json

gemm.matmul @debug_waits_sm90 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)
gemm.matmul @debug_waits_split_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], scheduler = split_k, splits = 2>)
gemm.matmul @debug_waits_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, scheduler = clc>)
