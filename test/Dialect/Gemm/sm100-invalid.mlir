// RUN: gemm-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the SM100 ops and the TMEM type.

// expected-error @below {{TMEM accumulators are f32, got 'f16'}}
func.func @tmem_type_element(%t: !gemm.tmem<1 x 128 x 256 x f16>) { return }

// -----

// expected-error @below {{TMEM accumulator needs at least one stage, got 0}}
func.func @tmem_type_stages(%t: !gemm.tmem<0 x 128 x 256 x f32>) { return }

// -----

// expected-error @below {{TMEM accumulator rows (the MMA's M per CTA) must be 64 or 128, got 256}}
func.func @tmem_type_rows(%t: !gemm.tmem<1 x 256 x 256 x f32>) { return }

// -----

// expected-error @below {{TMEM accumulator columns (the MMA's N) must be a multiple of 8 in [8, 256], got 260}}
func.func @tmem_type_cols(%t: !gemm.tmem<1 x 128 x 260 x f32>) { return }

// -----

// expected-error @below {{3 stages of 256 columns exceed the 512 TMEM columns}}
func.func @tmem_type_budget(%t: !gemm.tmem<3 x 128 x 256 x f32>) { return }

// -----

// Found by gemm-fuzz: stages x columns overflowed (signed overflow, UBSan;
// wrapped to a negative count, the release build accepted the type).
// expected-error @below {{9223372036854775807 stages of 128 columns exceed the 512 TMEM columns}}
func.func @tmem_type_huge(%t: !gemm.tmem<9223372036854775807 x 128 x 128 x f32>) { return }

// -----

func.func @alloc_columns(%slot: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>) {
  // expected-error @below {{'gemm.tmem.alloc' op TMEM columns must be a power of two in [32, 512], got 96}}
  gemm.tmem.alloc %slot columns(96) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
  return
}

// -----

func.func @alloc_cta_group(%slot: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>) {
  // expected-error @below {{'gemm.tmem.alloc' op cta_group must be 1 or 2, got 4}}
  gemm.tmem.alloc %slot columns(64) cta_group(4) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
  return
}

// -----

func.func @alloc_slot(%slot: !gemm.smem<1 x 1 x 2 x f32, swizzle = 0>) {
  // expected-error @below {{'gemm.tmem.alloc' op the TMEM address slot must be an unswizzled i32 buffer (e.g. !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>), got '!gemm.smem<1 x 1 x 2 x f32, swizzle = 0>'}}
  gemm.tmem.alloc %slot columns(64) : !gemm.smem<1 x 1 x 2 x f32, swizzle = 0>
  return
}

// -----

gpu.module @kernels {
  gpu.func @alloc_on_sm90(%slot: !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>) kernel
      attributes {gemm.arch = "sm_90a"} {
    // expected-error @below {{'gemm.tmem.alloc' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.tmem.alloc %slot columns(64) : !gemm.smem<1 x 1 x 1 x i32, swizzle = 0>
    gpu.return
  }
}

// -----

// Without gemm.arch on the kernel, the gpu.module's NVVM targets decide.
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @relinquish_on_sm90() kernel {
    // expected-error @below {{'gemm.tmem.relinquish' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.tmem.relinquish
    gpu.return
  }
}

// -----

func.func @relinquish_cta_group() {
  // expected-error @below {{'gemm.tmem.relinquish' op cta_group must be 1 or 2, got 3}}
  gemm.tmem.relinquish cta_group(3)
  return
}

// -----

func.func @address_slot(%slot: !gemm.smem<1 x 8 x 64 x i16, swizzle = 128>) {
  // expected-error @below {{'gemm.tmem.address' op the TMEM address slot must be an unswizzled i32 buffer}}
  %t = gemm.tmem.address %slot : !gemm.smem<1 x 8 x 64 x i16, swizzle = 128> -> !gemm.tmem<1 x 128 x 256 x f32>
  return
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @fence_on_sm90() kernel {
    // expected-error @below {{'gemm.tmem.fence' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.tmem.fence after_thread_sync
    gpu.return
  }
}

// -----

func.func @dealloc_columns(%t: !gemm.tmem<1 x 128 x 256 x f32>) {
  // expected-error @below {{'gemm.tmem.dealloc' op TMEM columns must be a power of two in [32, 512], got 1024}}
  gemm.tmem.dealloc %t columns(1024) : !gemm.tmem<1 x 128 x 256 x f32>
  return
}

// -----

func.func @dealloc_too_few(%t: !gemm.tmem<2 x 128 x 128 x f32>) {
  // expected-error @below {{'gemm.tmem.dealloc' op frees 128 columns, fewer than the 256 the accumulator spans: free what was allocated (columns(256))}}
  gemm.tmem.dealloc %t columns(128) : !gemm.tmem<2 x 128 x 128 x f32>
  return
}

// -----

func.func @load_rows(%t: !gemm.tmem<1 x 64 x 256 x f32>, %s: i32) {
  // expected-error @below {{'gemm.tmem.load' op loads the 128-lane accumulator layout (M = 128 per CTA), but the accumulator has 64 rows}}
  %v = gemm.tmem.load %t[%s] col(0) : !gemm.tmem<1 x 64 x 256 x f32> -> vector<32xf32>
  return
}

// -----

func.func @load_count(%t: !gemm.tmem<1 x 128 x 256 x f32>, %s: i32) {
  // expected-error @below {{'gemm.tmem.load' op loads a power of two in [1, 128] columns per thread (tcgen05.ld .32x32b.x1 to .x128), got 24}}
  %v = gemm.tmem.load %t[%s] col(0) : !gemm.tmem<1 x 128 x 256 x f32> -> vector<24xf32>
  return
}

// -----

func.func @load_columns(%t: !gemm.tmem<1 x 128 x 64 x f32>, %s: i32) {
  // expected-error @below {{'gemm.tmem.load' op columns [32, 96) are outside the accumulator's 64 columns}}
  %v = gemm.tmem.load %t[%s] col(32) : !gemm.tmem<1 x 128 x 64 x f32> -> vector<64xf32>
  return
}

// -----

gpu.module @kernels {
  gpu.func @mma_on_sm90(%a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                        %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
                        %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) kernel
      attributes {gemm.arch = "sm_90a"} {
    // expected-error @below {{'gemm.mma.sm100' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
    gpu.return
  }
}

// -----

func.func @mma_cta_group(%a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                         %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
                         %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op cta_group must be 1 or 2, got 0}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) cta_group(0) : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_types_differ(%a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                            %b: !gemm.smem<4 x 256 x 64 x f16, swizzle = 128>,
                            %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op A and B element types differ: 'bf16' vs 'f16'}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x f16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_type(%a: !gemm.smem<4 x 128 x 32 x f32, swizzle = 128>,
                    %b: !gemm.smem<4 x 256 x 32 x f32, swizzle = 128>,
                    %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op tcgen05 MMA here takes bf16, f16 (kind::f16) or f8E4M3FN, f8E5M2 (kind::f8f6f4) operands, got 'f32'}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 32 x f32, swizzle = 128>, !gemm.smem<4 x 256 x 32 x f32, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_swizzle(%a: !gemm.smem<4 x 128 x 32 x bf16, swizzle = 64>,
                       %b: !gemm.smem<4 x 256 x 32 x bf16, swizzle = 64>,
                       %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op tcgen05 MMA operands must be 128-byte swizzled K-major tiles}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 32 x bf16, swizzle = 64>, !gemm.smem<4 x 256 x 32 x bf16, swizzle = 64>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_stages(%a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                      %b: !gemm.smem<3 x 256 x 64 x bf16, swizzle = 128>,
                      %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op A and B rings must have the same number of stages}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<3 x 256 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_m(%a: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
                 %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>,
                 %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op illegal tcgen05.mma shape: M = 256 with cta_group 1; M must be 64 or 128 (A slot rows * cta_group)}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_m_pair(%a: !gemm.smem<4 x 32 x 64 x bf16, swizzle = 128>,
                      %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                      %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op illegal tcgen05.mma shape: M = 64 with cta_group 2; M must be 128 or 256 (A slot rows * cta_group)}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) cta_group(2) : !gemm.smem<4 x 32 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_n(%a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                 %b: !gemm.smem<4 x 200 x 64 x bf16, swizzle = 128>,
                 %t: !gemm.tmem<2 x 128 x 200 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op illegal tcgen05.mma shape: N = 200 with M = 128 and cta_group 1; N must be a multiple of 16 in [16, 256]}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 200 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 200 x f32>
  return
}

// -----

func.func @mma_n_pair(%a: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
                      %b: !gemm.smem<4 x 8 x 64 x bf16, swizzle = 128>,
                      %t: !gemm.tmem<2 x 64 x 16 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op illegal tcgen05.mma shape: N = 16 with M = 128 and cta_group 2; N must be a multiple of 32 in [32, 256]}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) cta_group(2) : !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 8 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 64 x 16 x f32>
  return
}

// -----

func.func @mma_b_rows(%a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                      %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                      %t: !gemm.tmem<2 x 128 x 256 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op B slot has 128 rows but the accumulator's N = 256 needs N rows}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 256 x f32>
  return
}

// -----

func.func @mma_acc_rows(%a: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
                        %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                        %t: !gemm.tmem<2 x 128 x 128 x f32>, %s: i32, %f: i1) {
  // expected-error @below {{'gemm.mma.sm100' op accumulator has 128 rows but the A slot (M per CTA) has 64}}
  gemm.mma.sm100 %a, %b slot(%s) -> %t[%s] accumulate(%f) : !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !gemm.tmem<2 x 128 x 128 x f32>
  return
}

// -----

func.func @commit_cta_group(%p: !gemm.pipeline<stages = 4, producers = 1, consumers = 1>, %n: i32) {
  // expected-error @below {{'gemm.mma.sm100.commit' op cta_group must be 1 or 2, got 8}}
  gemm.mma.sm100.commit %p[%n] empty cta_group(8) : !gemm.pipeline<stages = 4, producers = 1, consumers = 1>
  return
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @commit_on_sm90(%p: !gemm.pipeline<stages = 4, producers = 1, consumers = 1>, %n: i32) kernel {
    // expected-error @below {{'gemm.mma.sm100.commit' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.mma.sm100.commit %p[%n] empty : !gemm.pipeline<stages = 4, producers = 1, consumers = 1>
    gpu.return
  }
}

// -----

func.func @try_cancel_response(%r: !gemm.smem<2 x 1 x 8 x i32, swizzle = 0>,
                               %p: !gemm.pipeline<stages = 2, producers = 1, consumers = 5>, %n: i32) {
  // expected-error @below {{'gemm.sched.clc_try_cancel' op CLC responses need unswizzled 16-byte stages (e.g. !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>), got '!gemm.smem<2 x 1 x 8 x i32, swizzle = 0>'}}
  gemm.sched.clc_try_cancel %r[%n] barrier %p[%n] : !gemm.smem<2 x 1 x 8 x i32, swizzle = 0>, !gemm.pipeline<stages = 2, producers = 1, consumers = 5>
  return
}

// -----

gpu.module @kernels {
  gpu.func @try_cancel_on_sm90(%r: !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>,
                               %p: !gemm.pipeline<stages = 2, producers = 1, consumers = 5>, %n: i32) kernel
      attributes {gemm.arch = "sm_90a"} {
    // expected-error @below {{'gemm.sched.clc_try_cancel' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.sched.clc_try_cancel %r[%n] barrier %p[%n] : !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>, !gemm.pipeline<stages = 2, producers = 1, consumers = 5>
    gpu.return
  }
}

// -----

func.func @query_response(%r: !gemm.smem<2 x 1 x 2 x i32, swizzle = 0>, %n: i32) {
  // expected-error @below {{'gemm.sched.clc_query' op CLC responses need unswizzled 16-byte stages}}
  %v, %x, %y, %z = gemm.sched.clc_query %r[%n] : !gemm.smem<2 x 1 x 2 x i32, swizzle = 0>
  return
}

// -----

// An unknown chip is rejected too: tcgen05 exists only on the SM100 family.
gpu.module @kernels [#nvvm.target<chip = "sm_120a">] {
  gpu.func @query_on_sm120(%r: !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>, %n: i32) kernel {
    // expected-error @below {{'gemm.sched.clc_query' op needs sm_100a, but this kernel targets sm_120a}}
    %v, %x, %y, %z = gemm.sched.clc_query %r[%n] : !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @roles_on_sm90() kernel attributes {gemm.arch = "sm_90a"} {
    // expected-error @below {{'gemm.warp_roles' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.warp_roles epilogue_warps(4) load {
      gemm.yield
    } mma {
      gemm.yield
    } scheduler {
      gemm.yield
    } epilogue {
    ^bb0(%w: i32):
      gemm.yield
    }
    gpu.return
  }
}

// -----

func.func @roles_epilogue_warps() {
  // expected-error @below {{'gemm.warp_roles' op needs 4 epilogue warps, one per TMEM lane quarter, got 2}}
  gemm.warp_roles epilogue_warps(2) load {
    gemm.yield
  } mma {
    gemm.yield
  } scheduler {
    gemm.yield
  } epilogue {
  ^bb0(%w: i32):
    gemm.yield
  }
  return
}

// -----

func.func @roles_load_argument() {
  // expected-error @below {{'gemm.warp_roles' op load, mma and scheduler regions take no arguments}}
  gemm.warp_roles epilogue_warps(4) load {
  ^bb0(%x: i32):
    gemm.yield
  } mma {
    gemm.yield
  } scheduler {
    gemm.yield
  } epilogue {
  ^bb0(%w: i32):
    gemm.yield
  }
  return
}

// -----

func.func @roles_epilogue_argument() {
  // expected-error @below {{'gemm.warp_roles' op epilogue region must take the epilogue warp index (i32)}}
  gemm.warp_roles epilogue_warps(4) load {
    gemm.yield
  } mma {
    gemm.yield
  } scheduler {
    gemm.yield
  } epilogue {
    gemm.yield
  }
  return
}

// -----

gpu.module @kernels {
  gpu.func @store_smem_on_sm90(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, %i: i32) kernel
      attributes {gemm.arch = "sm_90a"} {
    // expected-error @below {{'gemm.tmem.store_smem' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.tmem.store_smem %t[%i] col(0) -> %s[%i] : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
    gpu.return
  }
}

// -----

func.func @store_smem_rows(%t: !gemm.tmem<2 x 64 x 256 x f32>, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @below {{'gemm.tmem.store_smem' op reads the 128-lane accumulator layout (M = 128 per CTA), but the accumulator has 64 rows}}
  gemm.tmem.store_smem %t[%i] col(0) -> %s[%i] : !gemm.tmem<2 x 64 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_staging(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @below {{'gemm.tmem.store_smem' op staging slots hold 32 rows of 128 bytes in the 128-byte swizzle, got '!gemm.smem<8 x 64 x 64 x bf16, swizzle = 128>'}}
  gemm.tmem.store_smem %t[%i] col(0) -> %s[%i] : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_element(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 32 x 128 x i8, swizzle = 128>, %i: i32) {
  // expected-error @below {{'gemm.tmem.store_smem' op staging element type must be bf16, f16 or f32, got 'i8'}}
  gemm.tmem.store_smem %t[%i] col(0) -> %s[%i] : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 128 x i8, swizzle = 128>
  return
}

// -----

func.func @store_smem_col(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @below {{'gemm.tmem.store_smem' op col 32 must be a multiple of 64 inside the accumulator's 256 columns}}
  gemm.tmem.store_smem %t[%i] col(32) -> %s[%i] : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_epilogue(%t: !gemm.tmem<2 x 128 x 256 x f32>, %s: !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @below {{'gemm.tmem.store_smem' op epilogue region must yield one 'bf16' value}}
  gemm.tmem.store_smem %t[%i] col(0) -> %s[%i] : !gemm.tmem<2 x 128 x 256 x f32>, !gemm.smem<8 x 32 x 64 x bf16, swizzle = 128> {
  ^bb0(%v: f32):
    gemm.yield %v : f32
  }
  return
}

// -----

func.func @commit_cta_group(%p: !gemm.pipeline<stages = 4, producers = 2, consumers = 1>, %n: i32) {
  // expected-error @below {{'gemm.pipeline.producer_commit' op cta_group must be 1 or 2, got 3}}
  gemm.pipeline.producer_commit %p[%n] tx(1024) cta_group(3) : !gemm.pipeline<stages = 4, producers = 2, consumers = 1>
  return
}

// -----

gpu.module @kernels {
  gpu.func @commit_pair_on_sm90(%p: !gemm.pipeline<stages = 4, producers = 2, consumers = 1>, %n: i32) kernel
      attributes {gemm.arch = "sm_90a"} {
    // expected-error @below {{'gemm.pipeline.producer_commit' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.pipeline.producer_commit %p[%n] tx(1024) cta_group(2) : !gemm.pipeline<stages = 4, producers = 2, consumers = 1>
    gpu.return
  }
}
