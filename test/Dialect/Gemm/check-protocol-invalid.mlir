// RUN: gemm-opt %s -split-input-file -verify-diagnostics --gemm-materialize-sm90 --gemm-materialize-sm100 --gemm-test-plant-bug --gemm-check-protocol
//
// Each case is a real kernel with one planted protocol bug
// (test/lib/Dialect/Gemm/TestPlantBug.cpp, named by the module's
// gemm.test.plant_bug attribute), caught at compile time by
// gemm-check-protocol with the op, what broke and the counterexample trace.
// Every kernel op carries the location of its gemm.matmul.

// The operand ring's empty barriers expect one release fewer than the two
// consumer warpgroups make: the first release completes the phase and the
// producer refills the stage the other consumer's WGMMA still reads.
module attributes {gemm.test.plant_bug = "arrival-count"} {
  // expected-error @+3 {{protocol violation (race): the TMA load 'gemm.tma.load' of iteration 2 issued by CTA 0 producer (thread 0) overwrites shared memory of CTA 0 at byte 0 while 'gemm.mma.sm90' issued by CTA 0 consumer 0 (thread 128) may still read it (the stage is overwritten while a reader holds it)}}
  // expected-note @+2 {{the read not known to be complete ('gemm.mma.sm90')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @arrival_count a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// The first k-block waits on its full barrier with the parity of the next
// phase, which a fresh barrier reports as complete: the WGMMA would read the
// stage before the TMA bytes land.
module attributes {gemm.test.plant_bug = "initial-phase"} {
  // expected-error @+2 {{protocol violation (phase confusion): waits for phase 1 of the full barrier of stage 0 of pipeline 0 (stages = 2, producers = 1, consumers = 2) of CTA 0 (iteration 2) without having observed phase 0}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @initial_phase a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// The release of a tile's last stage is missing on odd iterations: the
// producer waits for it forever.
module attributes {gemm.test.plant_bug = "missing-release"} {
  // expected-error @+4 {{protocol violation (deadlock): deadlock: 257 thread(s) can never proceed, e.g. CTA 0 producer (thread 0)}}
  // expected-note @+3 {{1 thread(s) wait here, e.g. CTA 0 producer (thread 0) ('gemm.pipeline.producer_acquire')}}
  // expected-note @+2 {{256 thread(s) wait here, e.g. CTA 0 consumer 0 (thread 128) ('gemm.pipeline.consumer_wait')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @missing_release a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// The same bug in a grouped (MoE) kernel, whose schedule walks the row
// units of its group table: found on the check's first grouped problem
// (ragged groups, an empty one, more row units than the CTAs).
module attributes {gemm.test.plant_bug = "missing-release"} {
  // expected-error @+4 {{protocol violation (deadlock): deadlock: 257 thread(s) can never proceed, e.g. CTA 0 producer (thread 0) [kernel grouped_missing_release, m=250 n=128 k=256 groups=129,0,121, grid 1 CTAs of 384 threads, deterministic schedule]}}
  // expected-note @+3 {{1 thread(s) wait here, e.g. CTA 0 producer (thread 0) ('gemm.pipeline.producer_acquire')}}
  // expected-note @+2 {{256 thread(s) wait here, e.g. CTA 0 consumer 0 (thread 128) ('gemm.pipeline.consumer_wait')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @grouped_missing_release a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// A one-stage ring with a WGMMA lookahead of one group: the consumer holds
// the only stage (its WGMMA is in flight) while it waits for the next fill.
module attributes {gemm.test.plant_bug = "single-stage"} {
  // expected-error @+4 {{protocol violation (deadlock): deadlock: 257 thread(s) can never proceed}}
  // expected-note @+3 {{1 thread(s) wait here, e.g. CTA 0 producer (thread 0) ('gemm.pipeline.producer_acquire')}}
  // expected-note @+2 {{256 thread(s) wait here, e.g. CTA 0 consumer 0 (thread 128) ('gemm.pipeline.consumer_wait')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @single_stage a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// The consumers' releases leave out the last CTA of the cluster, whose
// multicast loads fill their slots: its producer waits forever.
module attributes {gemm.test.plant_bug = "multicast-peer"} {
  // expected-error @+5 {{protocol violation (deadlock): deadlock: 768 thread(s) can never proceed, e.g. CTA 0 producer (thread 0)}}
  // expected-note @+4 {{2 thread(s) wait here, e.g. CTA 0 producer (thread 0) ('gemm.pipeline.producer_acquire')}}
  // expected-note @+3 {{254 thread(s) wait here, e.g. CTA 0 thread 1 ('nvvm.cluster.wait')}}
  // expected-note @+2 {{512 thread(s) wait here, e.g. CTA 0 consumer 0 (thread 128) ('gemm.pipeline.consumer_wait')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @multicast_peer a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1], stages = 3>)
}

// -----

// SM100: the MMA warp reuses an accumulator stage without waiting for the
// epilogue warps to release it.
module attributes {gemm.test.plant_bug = "accumulator-reuse"} {
  // expected-error @+3 {{protocol violation (race): the tcgen05.mma 'gemm.mma.sm100' issued by CTA 0 mma warp (thread 32) overwrites tensor memory of CTA 0 at byte 0 while 'gemm.tmem.store_smem' by CTA 0 epilogue warp 1 (thread 128) may still read it (the stage is overwritten while a reader holds it)}}
  // expected-note @+2 {{the read not known to be complete ('gemm.tmem.store_smem')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @accumulator_reuse a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_100a, tile = [128, 128, 64], schedule = warp_roles>)
}

// -----

// SM100 cluster launch control: the load warp decodes a response without
// waiting on the barrier its bytes complete on.
module attributes {gemm.test.plant_bug = "clc-early-read"} {
  // expected-error @+3 {{protocol violation (race): reading the cluster launch control response 'gemm.sched.clc_query' by CTA 0 load warp (thread 0) reads shared memory of CTA 0 at byte 230400 without the write by 'gemm.sched.clc_try_cancel' of iteration 0 issued by CTA 0 scheduler warp (thread 64) being ordered before it}}
  // expected-note @+2 {{the write ('gemm.sched.clc_try_cancel')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @clc_early_read a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_100a, tile = [128, 128, 64], schedule = warp_roles, scheduler = clc>)
}

// -----

// Each stage is released twice by the same thread: the empty barrier's count
// is made up by repeated arrivals, not one per consumer.
module attributes {gemm.test.plant_bug = "double-release"} {
  // expected-error @+2 {{protocol violation (arrival mismatch): arrives twice in phase 0 of the empty barrier of stage 0 of pipeline 0 (stages = 2, producers = 1, consumers = 2) of CTA 0: the barrier's count is made up by repeated arrivals instead of one per role}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @double_release a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// The epilogue reads the accumulator without the wgmma.wait_group that
// retires the tile's last WGMMAs.
module attributes {gemm.test.plant_bug = "missing-wait"} {
  // expected-error @+3 {{protocol violation (hardware rule): reads an accumulator that the WGMMA writing it may still be computing: no wgmma.wait_group retired its group}}
  // expected-note @+2 {{the WGMMA ('gemm.mma.sm90')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @missing_wait a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], stages = 2>)
}

// -----

// A multicast mask naming a CTA past the cluster.
module attributes {gemm.test.plant_bug = "mask-outside"} {
  // expected-error @+2 {{protocol violation (mask outside the cluster): multicast mask 0x83 names CTAs outside the cluster of 2}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @mask_outside a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], cluster = [2, 1], stages = 3>)
}

// -----

// A direct kernel without the fence.proxy.async between its threads'
// st.shared of the operand tiles and the WGMMAs, which read them through
// the async proxy.
module attributes {gemm.test.plant_bug = "direct-no-fence"} {
  // expected-error @+2 {{protocol violation (hardware rule): the WGMMA (A) 'gemm.mma.sm90' issued by CTA 0 thread 31 reads through the async proxy shared memory of CTA 0 at byte 0 written by 'gemm.direct.store_smem' by CTA 0 thread 0 through the generic proxy, without that thread's fence.proxy.async.shared::cta being ordered before it}}
  // expected-note @+1 {{the generic-proxy write ('gemm.direct.store_smem')}}
  gemm.matmul @direct_no_fence a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct>)
}

// -----

// A direct kernel of two warpgroups without the CTA barrier after the
// operand tiles' stores: a warpgroup's WGMMA reads rows the other
// warpgroup stored, unordered.
module attributes {gemm.test.plant_bug = "direct-no-barrier"} {
  // expected-error @+2 {{protocol violation (race): the WGMMA (A) 'gemm.mma.sm90' issued by CTA 0 thread 31 reads shared memory of CTA 0 at byte 560 without the write by 'gemm.direct.store_smem' by CTA 0 thread 159 being ordered before it (read before the data is known to have arrived)}}
  // expected-note @+1 {{the write ('gemm.direct.store_smem')}}
  gemm.matmul @direct_no_barrier a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], schedule = direct>)
}

// -----

// Block-wise fp8: the warp that stages the A scales copies each k-block's
// into the next stage's slot, whose scales the consumers are about to
// read: they read the slot before the copy of its own k-block landed.
module attributes {gemm.test.plant_bug = "scale-slot"} {
  // expected-error-re @+3 {{protocol violation (race): reading a staged scale 'gemm.scale.rows_smem' by CTA 0 consumer {{[01]}} (thread {{[0-9]+}}) reads shared memory of CTA 0 at byte {{[0-9]+}} before the bytes of 'gemm.scale.stage' of iteration {{[0-9]+}} issued by CTA 0 producer (thread {{[0-9]+}}) arrived (read before its data landed)}}
  // expected-note @+2 {{the write still in flight ('gemm.scale.stage')}}
  // expected-note @+1 {{counterexample trace:}}
  gemm.matmul @scale_slot a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
      quant(#gemm.quant<a = block, b = block>)
      config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], stages = 2>)
}
