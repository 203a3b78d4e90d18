// RUN: gemm-opt %s --convert-gemm-to-nvvm="debug-waits=250" | FileCheck %s
// RUN: gemm-opt %s --convert-gemm-to-nvvm | FileCheck %s --check-prefix=RELEASE

// With debug-waits=MS every pipeline wait tries mbarrier.try_wait once (one
// try suspends for at most 1 ms); if the phase is still incomplete it reads
// %globaltimer and polls. Past MS milliseconds the first thread to give up
// writes the kernel's wait record (through the address in the module global
// gemm_debug_wait_record, host memory the runtime maps) with its wait site,
// CTA, warp, stage, expected parity and iteration, fences, sets the record's
// complete flag, fences and traps; the others keep waiting (their trap could
// end the kernel before the record is complete). Without a mapped record
// every thread that gave up traps. No printf: a call in
// the kernel cost 5-7% on the H200 even never taken. Without the option the
// wait is the unbounded try_wait.parity loop.

!pipe = !gemm.pipeline<stages = 3, producers = 1, consumers = 2>

// RELEASE-LABEL: gpu.func @roles
// RELEASE-NOT: globaltimer
// RELEASE-NOT: llvm.intr.trap
// RELEASE: nvvm.mbarrier.try_wait.parity
// RELEASE-NOT: gemm_debug_wait_record

gpu.module @kernels {
  // The counters of the bounded named barriers (@named_barriers below).
  // CHECK: llvm.mlir.global internal @gemm_debug_named_barriers() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<32 x i32>
  // CHECK: llvm.mlir.global external @gemm_debug_wait_record(0 : i64) {addr_space = 1 : i32, alignment = 8 : i64} : i64
  // CHECK-LABEL: gpu.func @roles
  // The producer's acquire (wait site 0): the empty barrier, parity, stage.
  // CHECK: %[[PARITY:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK: %[[STAGE:.*]] = llvm.urem %[[N:arg1]], %{{.*}} : i32
  // CHECK-NOT: globaltimer
  // CHECK: %[[FIRST:.*]] = nvvm.mbarrier.try_wait %[[BAR:.*]], %[[PARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32 -> i1
  // CHECK: %[[MISSED:.*]] = llvm.xor %[[FIRST]], %{{.*}} : i1
  // CHECK: scf.if %[[MISSED]] {
  // CHECK: %[[START:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
  // CHECK: scf.while : () -> () {
  // CHECK:   %[[DONE:.*]] = nvvm.mbarrier.try_wait %[[BAR]], %[[PARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32 -> i1
  // CHECK:   %[[WAITING:.*]] = llvm.xor %[[DONE]], %{{.*}} : i1
  // CHECK:   scf.condition(%[[WAITING]])
  // CHECK: } do {
  // CHECK:   %[[NOW:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
  // CHECK:   %[[ELAPSED:.*]] = llvm.sub %[[NOW]], %[[START]] : i64
  // CHECK:   %[[LIMIT:.*]] = llvm.mlir.constant(250000000 : i64) : i64
  // CHECK:   %[[EXPIRED:.*]] = llvm.icmp "uge" %[[ELAPSED]], %[[LIMIT]] : i64
  // CHECK:   scf.if %[[EXPIRED]] {
  // CHECK:     %[[SLOT:.*]] = llvm.mlir.addressof @gemm_debug_wait_record : !llvm.ptr<1>
  // CHECK:     %[[ADDRESS:.*]] = llvm.load volatile %[[SLOT]] {alignment = 8 : i64} : !llvm.ptr<1> -> i64
  // CHECK:     %[[MAPPED:.*]] = llvm.icmp "ne" %[[ADDRESS]]
  // CHECK:     scf.if %[[MAPPED]] {
  // CHECK:       %[[RECORD:.*]] = llvm.inttoptr %[[ADDRESS]] : i64 to !llvm.ptr
  // CHECK:       %[[CLAIM:.*]] = llvm.cmpxchg %[[RECORD]], %{{.*}}, %{{.*}} acq_rel monotonic : !llvm.ptr, i32
  // CHECK:       %[[OLD:.*]] = llvm.extractvalue %[[CLAIM]][0]
  // CHECK:       %[[WON:.*]] = llvm.icmp "eq" %[[OLD]]
  // CHECK:       scf.if %[[WON]] {
  // CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK:         %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK:         %[[X:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
  // CHECK:         %[[Y:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
  // CHECK:         %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
  // CHECK:         %[[WARP:.*]] = llvm.udiv %[[TID]]
  // CHECK:         %[[W1:.*]] = llvm.getelementptr %[[RECORD]][1]
  // CHECK:         llvm.store volatile %[[SITE]], %[[W1]]
  // CHECK:         llvm.store volatile %[[X]]
  // CHECK:         llvm.store volatile %[[Y]]
  // CHECK:         llvm.store volatile %[[Z]]
  // CHECK:         llvm.store volatile %[[WARP]]
  // CHECK:         llvm.store volatile %[[STAGE]]
  // CHECK:         llvm.store volatile %[[PARITY]]
  // CHECK:         %[[W8:.*]] = llvm.getelementptr %[[RECORD]][8]
  // CHECK:         llvm.store volatile %[[N]], %[[W8]]
  // CHECK:         llvm.fence seq_cst
  // CHECK:         %[[W9:.*]] = llvm.getelementptr %[[RECORD]][9]
  // CHECK:         llvm.store volatile %{{.*}}, %[[W9]]
  // CHECK-NEXT:    llvm.fence seq_cst
  // CHECK-NEXT:    llvm.intr.trap
  // CHECK:       }
  // CHECK:     } else {
  // CHECK-NEXT:  llvm.intr.trap
  // CHECK:     }
  // CHECK:   }
  // CHECK:   scf.yield
  // CHECK: }
  // The consumers' wait (site 1) records the same way.
  // CHECK: llvm.cmpxchg
  // CHECK: llvm.intr.trap
  gpu.func @roles(%p: !pipe, %n: i32) kernel {
    gemm.warp_specialize consumers(2) regs(40, 232) producer {
      gemm.pipeline.producer_acquire %p[%n] : !pipe
      gemm.yield
    } consumer {
    ^bb0(%consumer: i32):
      gemm.pipeline.consumer_wait %p[%consumer] : !pipe
      gemm.yield
    }
    gpu.return
  }

  // SM100 waits are bounded the same way (their sites, numbered per
  // kernel, are checked in the manifests of test/PTX/debug-waits.mlir).
  // CHECK-LABEL: gpu.func @sm100_roles
  // CHECK: llvm.cmpxchg
  // CHECK: llvm.intr.trap
  // CHECK: llvm.cmpxchg
  // CHECK: llvm.intr.trap
  gpu.func @sm100_roles(%p: !pipe, %n: i32) kernel {
    gemm.warp_roles epilogue_warps(4) load {
      gemm.yield
    } mma {
      gemm.pipeline.consumer_wait %p[%n] : !pipe
      gemm.yield
    } scheduler {
      gemm.yield
    } epilogue {
    ^bb0(%warp: i32):
      gemm.pipeline.consumer_wait %p[%warp] : !pipe
      gemm.yield
    }
    gpu.return
  }

  // Named barriers with a thread count (bar.sync id, n; gemm.barrier_any)
  // are bounded too (docs/Runtime.md): the kernel's entry zeroes the
  // counters in @gemm_debug_named_barriers (words 0-15: threads arrived at
  // barrier id, 16-31: its generation) and syncs once with the hardware
  // barrier 0; each barrier reads its generation, arrives with a relaxed add
  // between acq_rel fences, and the last arriver resets the count and
  // publishes the next generation (release) while the others poll it
  // (acquire) for at most MS milliseconds, then record (stage: barrier id,
  // parity: generation, iteration: threads arrived) and trap. gemm.barrier_any
  // keeps its bar.red.or after the bounded barrier, for the OR. Barriers
  // without a count (every non-exited thread of the CTA) stay as they are.
  // CHECK-LABEL: gpu.func @named_barriers
  // CHECK-SAME: (%[[ID:.*]]: i32, %[[P:.*]]: i1,
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[ZEROES:.*]] = llvm.icmp "ult" %[[TID]]
  // CHECK: scf.if %[[ZEROES]] {
  // CHECK:   %[[WORDS:.*]] = llvm.mlir.addressof @gemm_debug_named_barriers : !llvm.ptr<3>
  // CHECK:   %[[MINE:.*]] = llvm.getelementptr %[[WORDS]][%[[TID]]]
  // CHECK:   llvm.store %{{.*}}, %[[MINE]]
  // CHECK-NEXT: {{^ *[}]$}}
  // CHECK-NEXT: nvvm.barrier{{$}}
  // CHECK: %[[THREADS:.*]] = arith.constant 128 : i32
  // CHECK: %[[MASKED:.*]] = llvm.and %[[ID]], %{{.*}} : i32
  // CHECK: %[[COUNT:.*]] = llvm.getelementptr %{{.*}}[%[[MASKED]]]
  // CHECK: %[[GID:.*]] = llvm.add %[[MASKED]], %{{.*}} : i32
  // CHECK: %[[GEN:.*]] = llvm.getelementptr %{{.*}}[%[[GID]]]
  // CHECK: %[[ARRIVED_IN:.*]] = llvm.load %[[GEN]] atomic syncscope("block") monotonic
  // CHECK-NEXT: llvm.fence syncscope("block") acq_rel
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[BEFORE:.*]] = llvm.atomicrmw add %[[COUNT]], %[[ONE]] syncscope("block") monotonic
  // CHECK-NEXT: llvm.fence syncscope("block") acq_rel
  // CHECK: %[[LASTCOUNT:.*]] = llvm.sub %[[THREADS]], %{{.*}} : i32
  // CHECK: %[[LAST:.*]] = llvm.icmp "eq" %[[BEFORE]], %[[LASTCOUNT]]
  // CHECK: scf.if %[[LAST]] {
  // CHECK:   llvm.store %{{.*}}, %[[COUNT]] atomic syncscope("block") monotonic
  // CHECK:   %[[NEXT:.*]] = llvm.add %[[ARRIVED_IN]], %{{.*}} : i32
  // CHECK:   llvm.store %[[NEXT]], %[[GEN]] atomic syncscope("block") release
  // CHECK: } else {
  // CHECK:   llvm.load %[[GEN]] atomic syncscope("block") acquire
  // CHECK:   nvvm.read.ptx.sreg.globaltimer
  // CHECK:   scf.while
  // CHECK:     llvm.load %[[GEN]] atomic syncscope("block") acquire
  // CHECK:   } do {
  // CHECK:     %[[LIMIT:.*]] = llvm.mlir.constant(250000000 : i64) : i64
  // CHECK:     scf.if
  // CHECK:       %[[NOW_ARRIVED:.*]] = llvm.load %[[COUNT]] atomic syncscope("block") monotonic
  // CHECK:       llvm.cmpxchg
  // CHECK:         %[[SITE:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK:         llvm.store volatile %[[SITE]]
  // CHECK:         llvm.store volatile %[[MASKED]]
  // CHECK:         llvm.store volatile %[[ARRIVED_IN]]
  // CHECK:         llvm.store volatile %[[NOW_ARRIVED]]
  // CHECK:         llvm.intr.trap
  // Then the warp reconverges (bar.warp.sync with the full mask) before
  // the warp-collective instructions that follow a bar.sync.
  // CHECK: nvvm.bar.warp.sync %{{.*}} : i32
  // No bar.sync with the id is left: the bounded barrier replaced it.
  // CHECK-NOT: nvvm.barrier id
  // gemm.barrier_any (site 3): the bounded barrier, then bar.red.or.
  // CHECK: llvm.atomicrmw add
  // CHECK: llvm.mlir.constant(3 : i32) : i32
  // CHECK: llvm.intr.trap
  // CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.red.or.aligned.count"
  // CHECK: nvvm.vote.sync any
  // Barriers over the whole CTA are not bounded.
  // CHECK: gpu.barrier
  // CHECK-NEXT: nvvm.barrier id = %[[ID]]{{$}}
  // CHECK-NEXT: gpu.return
  // RELEASE-LABEL: gpu.func @named_barriers
  // RELEASE-NOT: gemm_debug_named_barriers
  // RELEASE: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
  // RELEASE-NEXT: llvm.mlir.constant(128 : i32)
  // RELEASE-NEXT: llvm.call_intrinsic "llvm.nvvm.barrier.cta.red.or.aligned.count"
  gpu.func @named_barriers(%id: i32, %p: i1, %pipe: !pipe, %n: i32) kernel {
    gemm.pipeline.consumer_wait %pipe[%n] : !pipe
    gemm.pipeline.producer_acquire %pipe[%n] : !pipe
    %c128 = arith.constant 128 : i32
    nvvm.barrier id = %id number_of_threads = %c128
    %any = gemm.barrier_any %p barrier(%id) threads(128)
    gpu.barrier
    nvvm.barrier id = %id
    gpu.return
  }
}
