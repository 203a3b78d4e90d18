// RUN: gemm-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the direct-access ops and type
// (GemmDirectOps.cpp), of schedule = direct in #gemm.config (GemmDialect.cpp)
// and of a direct gemm.matmul (GemmOps.cpp).

// expected-error @+2 {{schedule = direct runs one CTA per tile and shares no operand across CTAs; use cluster = [1, 1]}}
gemm.matmul @direct_cluster a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], cluster = [2, 1], schedule = direct>)

// -----

// expected-error @+2 {{schedule = direct launches one CTA per tile (or per k-range of one, with scheduler = split_k); the stream_k scheduler is for the TMA kernels}}
gemm.matmul @direct_stream_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct, scheduler = stream_k>)

// -----

// expected-error @+2 {{schedule = direct double-buffers its k-blocks in shared memory: stages must be 0 or 2, got 3}}
gemm.matmul @direct_stages a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], stages = 3, schedule = direct>)

// -----

// expected-error @+1 {{'gemm.matmul' op schedule = direct has no batched form (it takes plain pointers, one problem a launch): use schedule = cooperative or pingpong for a batch}}
gemm.matmul @direct_batched a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)

// -----

// expected-error @+2 {{sm_100a kernels use schedule warp_roles}}
gemm.matmul @direct_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 64, 64], schedule = direct>)

// -----

// expected-error @+1 {{a fragment holds at least one element, got 0}}
func.func @empty_fragment(%f: !gemm.fragment<0 x bf16>) {
  return
}

// -----

// expected-error @+1 {{fragments hold bf16 or f16 elements, got 'f32'}}
func.func @f32_fragment(%f: !gemm.fragment<4 x f32>) {
  return
}

// -----

func.func @load_threads(%p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.direct.load' op threads must be a multiple of 32 in [32, 1024], got 100}}
  %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(64 x 64) threads(100)
      : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
  return
}

// -----

func.func @load_columns(%p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.direct.load' op the tile's columns are read 32 at a time (one per lane): a tile of 64 x 48 needs a positive number of rows and a multiple of 32 columns}}
  %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(64 x 48) threads(128)
      : !llvm.ptr<1> -> !gemm.fragment<24 x bf16>
  return
}

// -----

func.func @load_rows(%p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.direct.load' op the tile's 12 rows must be a multiple of its 8 warps (each warp reads every 8-th row)}}
  %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(12 x 64) threads(256)
      : !llvm.ptr<1> -> !gemm.fragment<3 x bf16>
  return
}

// -----

func.func @load_fragment(%p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.direct.load' op a 64 x 64 tile over 128 threads gives each thread 32 elements, but the fragment is '!gemm.fragment<16 x bf16>'}}
  %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(64 x 64) threads(128)
      : !llvm.ptr<1> -> !gemm.fragment<16 x bf16>
  return
}

// -----

// Found by the fuzzer: rows x cols overflowed before the fragment check.
func.func @load_huge_tile(%p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.direct.load' op a tile of 32 x 4611686018427387904 has a side over 65536 elements: a CTA's direct tile is a few hundred rows and columns at most}}
  %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(32 x 4611686018427387904) threads(64)
      : !llvm.ptr<1> -> !gemm.fragment<17 x bf16>
  return
}

// -----

// expected-error @+1 {{a fragment is one thread's registers: at most 256 elements (128 registers), got 257; spread the tile over more threads}}
func.func @huge_fragment(%f: !gemm.fragment<257 x bf16>) {
  return
}

// -----

func.func @load_space(%p: !llvm.ptr<3>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.direct.load' op operand #0 must be global-memory pointer (!llvm.ptr<1>), but got '!llvm.ptr<3>'}}
  %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(64 x 64) threads(128)
      : !llvm.ptr<3> -> !gemm.fragment<32 x bf16>
  return
}

// -----

gpu.module @sm100 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%p: !llvm.ptr<1>, %i: i32, %s: i64) kernel {
    // expected-error @+1 {{'gemm.direct.load' op needs sm_90a, but this kernel targets sm_100a}}
    %f = gemm.direct.load %p[%i, %i] strides(%s, %s) bounds(%i, %i) tile(64 x 64) threads(128)
        : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
    gpu.return
  }
}

// -----

func.func @store_type(%f: !gemm.fragment<32 x f16>, %i: i32) {
  %a = gemm.smem.plan : !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  // expected-error @+1 {{'gemm.direct.store_smem' op fragment element type 'f16' differs from the buffer's 'bf16'}}
  gemm.direct.store_smem %f -> %a[%i] threads(128)
      : !gemm.fragment<32 x f16>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_swizzle(%f: !gemm.fragment<32 x bf16>, %i: i32) {
  %a = gemm.smem.plan : !gemm.smem<2 x 64 x 64 x bf16, swizzle = 0>
  // expected-error @+1 {{'gemm.direct.store_smem' op writes the 128-byte-swizzled K-major layout that gemm.mma.sm90 reads; the buffer must have swizzle = 128, got '!gemm.smem<2 x 64 x 64 x bf16, swizzle = 0>'}}
  gemm.direct.store_smem %f -> %a[%i] threads(128)
      : !gemm.fragment<32 x bf16>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 0>
  return
}

// -----

func.func @store_fragment(%f: !gemm.fragment<32 x bf16>, %i: i32) {
  %a = gemm.smem.plan : !gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>
  // expected-error @+1 {{'gemm.direct.store_smem' op a 128 x 64 tile over 128 threads gives each thread 64 elements, but the fragment is '!gemm.fragment<32 x bf16>'}}
  gemm.direct.store_smem %f -> %a[%i] threads(128)
      : !gemm.fragment<32 x bf16>, !gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @accum_out_type(%acc: !gemm.accum<64 x 64 x f32>, %p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.accum.store_direct' op output element type must be bf16, f16 or f32, got 'i32'}}
  gemm.accum.store_direct %acc -> %p[%i, %i] strides(%s, %s) bounds(%i, %i)
      : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> i32
  return
}

// -----

func.func @accum_epilogue(%acc: !gemm.accum<64 x 64 x f32>, %p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.accum.store_direct' op epilogue region must yield one 'bf16' value}}
  gemm.accum.store_direct %acc -> %p[%i, %i] strides(%s, %s) bounds(%i, %i)
      : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> bf16 {
  ^bb0(%v: f32):
    gemm.yield %v : f32
  }
  return
}

// -----

func.func @accum_staged_type(%acc: !gemm.accum<64 x 64 x f32>, %p: !llvm.ptr<1>, %i: i32, %s: i64,
                             %stage: !gemm.smem<1 x 64 x 72 x f16, swizzle = 0>) {
  // expected-error @+1 {{'gemm.accum.store_direct' op the staging buffer holds the output ('bf16') row by row: one stage, no swizzle; got '!gemm.smem<1 x 64 x 72 x f16, swizzle = 0>'}}
  gemm.accum.store_direct %acc -> %p[%i, %i] strides(%s, %s) bounds(%i, %i)
      staged(%stage : !gemm.smem<1 x 64 x 72 x f16, swizzle = 0>)
      : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> bf16
  return
}

// -----

func.func @accum_staged_columns(%acc: !gemm.accum<64 x 64 x f32>, %p: !llvm.ptr<1>, %i: i32, %s: i64,
                                %stage: !gemm.smem<1 x 64 x 32 x bf16, swizzle = 0>) {
  // expected-error @+1 {{'gemm.accum.store_direct' op the staging buffer needs 16 rows per warp of the CTA and at least the accumulator's 64 columns; got '!gemm.smem<1 x 64 x 32 x bf16, swizzle = 0>'}}
  gemm.accum.store_direct %acc -> %p[%i, %i] strides(%s, %s) bounds(%i, %i)
      staged(%stage : !gemm.smem<1 x 64 x 32 x bf16, swizzle = 0>)
      : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> bf16
  return
}

// -----

func.func @accum_staged_atoms(%acc: !gemm.accum<128 x 64 x f32>, %p: !llvm.ptr<1>, %i: i32, %s: i64,
                              %stage: !gemm.smem<1 x 128 x 72 x bf16, swizzle = 0>) {
  // expected-error @+1 {{'gemm.accum.store_direct' op staged stores take one warpgroup's 64-row accumulator (each warp stages its 16 rows), got '!gemm.accum<128 x 64 x f32>'}}
  gemm.accum.store_direct %acc -> %p[%i, %i] strides(%s, %s) bounds(%i, %i)
      staged(%stage : !gemm.smem<1 x 128 x 72 x bf16, swizzle = 0>)
      : !gemm.accum<128 x 64 x f32>, !llvm.ptr<1> -> bf16
  return
}

// -----

func.func @accum_columns_unstaged(%acc: !gemm.accum<64 x 64 x f32>, %p: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'gemm.accum.store_direct' op `columns` says which way a staged store runs; this store is not staged}}
  gemm.accum.store_direct %acc -> %p[%i, %i] strides(%s, %s) bounds(%i, %i) columns
      : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> bf16
  return
}
