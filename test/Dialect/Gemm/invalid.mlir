// RUN: gemm-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the SM90/common gemm attributes, types and ops
// (GemmDialect.cpp, GemmOps.cpp). The SM100 ops have sm100-invalid.mlir.
// Attributes and types are verified when they are parsed, so their errors
// point at the `<` of the parameters.

//===----------------------------------------------------------------------===//
// #gemm.config
//===----------------------------------------------------------------------===//

// expected-error @+2 {{tile must be three positive sizes [BM, BN, BK]}}
gemm.matmul @tile_rank a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256]>)

// -----

// expected-error @+2 {{tile must be three positive sizes [BM, BN, BK]}}
gemm.matmul @tile_zero a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 0, 64]>)

// -----

// expected-error @+2 {{cluster must be two positive sizes [along M, along N]}}
gemm.matmul @cluster_rank a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1, 1]>)

// -----

// expected-error @+2 {{cluster must be two positive sizes [along M, along N]}}
gemm.matmul @cluster_zero a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [0, 1]>)

// -----

// expected-error @+2 {{cluster of 16 CTAs exceeds the portable limit of 8}}
gemm.matmul @cluster_size a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [4, 4]>)

// -----

// Found by gemm-fuzz: the product of these sizes overflowed in the
// verifier (signed overflow, UBSan); each size is checked first.
// expected-error @+2 {{cluster [17, 9223372036854775807] exceeds the portable limit of 8 CTAs}}
gemm.matmul @cluster_huge a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [17, 9223372036854775807]>)

// -----

// expected-error @+2 {{stages must be 0 (derive from the shared-memory budget) or at least 2, got 1}}
gemm.matmul @one_stage a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], stages = 1>)

// -----

// expected-error @+2 {{stages must be 0 (derive from the shared-memory budget) or at least 2, got -3}}
gemm.matmul @negative_stages a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], stages = -3>)

// -----

// expected-error @+2 {{swizzle must be in [1, 65536] tiles, got 0}}
gemm.matmul @raster_swizzle a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], swizzle = 0>)

// -----

// Found by the fuzzer: the lowering's 32-bit swizzle x tiles was 0, a
// division by zero that the protocol check's simulation caught.
// expected-error @+2 {{swizzle must be in [1, 65536] tiles, got 4611686018427387904}}
gemm.matmul @raster_swizzle_huge a(bf16, row) b(bf16, col) c(f16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = pingpong, scheduler = split_k, splits = 2, swizzle = 4611686018427387904>)

// -----

// expected-error @+2 {{accum_stages must be in [1, 4], got 5}}
gemm.matmul @accum_stages a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, accum_stages = 5>)

// -----

// expected-error @+2 {{accum_stages must be in [1, 4], got 0}}
gemm.matmul @accum_stages_zero a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, accum_stages = 0>)

// -----

// expected-error @+2 {{cta_group must be 1 or 2, got 3}}
gemm.matmul @cta_group a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, cta_group = 3>)

// -----

// expected-error @+2 {{schedule warp_roles is the SM100 kernel structure; use cooperative or pingpong for sm_90a}}
gemm.matmul @sm90_warp_roles a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+2 {{the clc scheduler (cluster launch control) needs sm_100a; use static_persistent for sm_90a}}
gemm.matmul @sm90_clc a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = clc>)

// -----

// expected-error @+2 {{cta_group 2 (MMA across a CTA pair) needs sm_100a}}
gemm.matmul @sm90_cta_group a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], cta_group = 2>)

// -----

// expected-error @+2 {{sm_100a kernels use schedule warp_roles}}
gemm.matmul @sm100_cooperative a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64]>)

// -----

// expected-error @+2 {{k_group must be in [1, 8], got 9}}
gemm.matmul @k_group_range a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, k_group = 9>)

// -----

// expected-error @+2 {{k_group is implemented for sm_100a kernels; sm_90a kernels use k_group = 1}}
gemm.matmul @sm90_k_group a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], k_group = 2>)

// -----

// expected-error @+2 {{the split_k scheduler is not implemented for sm_100a; use static_persistent or clc}}
gemm.matmul @sm100_split_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, scheduler = split_k, splits = 2>)

// -----

// expected-error @+2 {{the stream_k scheduler is not implemented for sm_100a; use static_persistent or clc}}
gemm.matmul @sm100_stream_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, scheduler = stream_k>)

// -----

// expected-error @+2 {{cta_group 2 pairs the CTAs of a cluster along M, so the cluster's M size must be even, got 1; use cluster = [2, 2]}}
gemm.matmul @pair_odd_cluster a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], cluster = [1, 2], schedule = warp_roles, cta_group = 2>)

// -----

// expected-error @+1 {{'gemm.matmul' op sm_100a tiles have M = 128 rows per CTA (the 128-lane accumulator layout the epilogue reads), got 64}}
gemm.matmul @sm100_tile_m a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [64, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile N of 200 is not a legal tcgen05.mma N for M = 256 (a multiple of 16 in [16, 256])}}
gemm.matmul @sm100_tile_n a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 200, 64], cluster = [2, 1], schedule = warp_roles, cta_group = 2>)

// -----

// expected-error @+1 {{'gemm.matmul' op accum_stages = 3 accumulators of N = 256 need 768 TMEM columns, over the 512 a CTA has: use fewer accum_stages or a narrower tile}}
gemm.matmul @sm100_tmem_budget a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles, accum_stages = 3>)

// -----

//===----------------------------------------------------------------------===//
// !gemm.tma_desc
//===----------------------------------------------------------------------===//

// expected-error @+1 {{TMA element type must be an integer or float, got 'index'}}
func.func @tma_element(%d: !gemm.tma_desc<index, box = [64, 64], swizzle = 128>) { return }

// -----

// expected-error @+1 {{TMA box must have 2 dimensions (3 for a batch of matrices), got 4}}
func.func @tma_box_rank(%d: !gemm.tma_desc<bf16, box = [64, 64, 1, 1], swizzle = 128>) { return }

// -----

// expected-error @+1 {{a batched TMA box holds one matrix of the batch (third dimension 1), got 2}}
func.func @tma_box_batch(%d: !gemm.tma_desc<bf16, box = [64, 64, 2], swizzle = 128>) { return }

// -----

func.func @tma_batch_missing(%d: !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.prefetch' op a batched (rank-3) descriptor needs a batch coordinate: [inner, outer, batch]}}
  gemm.tma.prefetch %d[%i, %i] : !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>
  return
}

// -----

func.func @tma_batch_rank2(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
                           %b: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op a batch coordinate needs a batched (rank-3) descriptor, got box [64, 64]}}
  gemm.tma.store %d[%i, %i, %i] from %b[%i]
      : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @tma_load_batch_missing(%d: !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>,
                                  %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                                  %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op a batched (rank-3) descriptor needs a batch coordinate: [inner, outer, batch]}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

// expected-error @+1 {{TMA box dimensions must be in [1, 256], got 512}}
func.func @tma_box_large(%d: !gemm.tma_desc<bf16, box = [64, 512], swizzle = 128>) { return }

// -----

// expected-error @+1 {{TMA box dimensions must be in [1, 256], got 0}}
func.func @tma_box_zero(%d: !gemm.tma_desc<bf16, box = [0, 64], swizzle = 128>) { return }

// -----

// expected-error @+1 {{swizzle must be 0, 32, 64 or 128 bytes, got 256}}
func.func @tma_swizzle(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 256>) { return }

// -----

// 12 bf16 elements are 24 bytes.
// expected-error @+1 {{TMA box inner dimension must span a multiple of 16 bytes, got 24}}
func.func @tma_inner_bytes(%d: !gemm.tma_desc<bf16, box = [12, 64], swizzle = 0>) { return }

// -----

// expected-error @+1 {{TMA box inner dimension of 256 bytes exceeds the 128-byte swizzle span}}
func.func @tma_inner_swizzle(%d: !gemm.tma_desc<bf16, box = [128, 64], swizzle = 128>) { return }

// -----

//===----------------------------------------------------------------------===//
// !gemm.smem
//===----------------------------------------------------------------------===//

// expected-error @+1 {{shared-memory buffer sizes must be positive}}
func.func @smem_stages(%b: !gemm.smem<0 x 128 x 64 x bf16, swizzle = 128>) { return }

// -----

// expected-error @+1 {{shared-memory buffer sizes must be positive}}
func.func @smem_cols(%b: !gemm.smem<2 x 128 x 0 x bf16, swizzle = 0>) { return }

// -----

// Found by gemm-fuzz: a size near 2^63 overflowed the row-byte count (cols x
// element bytes) in the verifier itself (signed overflow, UBSan).
// expected-error @+1 {{shared-memory buffer sizes must be at most 65536, got 4 x 128 x 9223372036854775807}}
func.func @smem_huge(%b: !gemm.smem<4 x 128 x 9223372036854775807 x bf16, swizzle = 128>) { return }

// -----

// expected-error @+1 {{shared-memory element type must be an integer or float, got 'index'}}
func.func @smem_element(%b: !gemm.smem<2 x 128 x 64 x index, swizzle = 0>) { return }

// -----

// expected-error @+1 {{swizzle must be 0, 32, 64 or 128 bytes, got 16}}
func.func @smem_swizzle(%b: !gemm.smem<2 x 128 x 8 x bf16, swizzle = 16>) { return }

// -----

// expected-error @+1 {{a 128-byte swizzled buffer needs rows of exactly 128 bytes, got 256}}
func.func @smem_row_bytes(%b: !gemm.smem<2 x 128 x 128 x bf16, swizzle = 128>) { return }

// -----

// expected-error @+1 {{a swizzled buffer needs a multiple of 8 rows, got 12}}
func.func @smem_rows(%b: !gemm.smem<2 x 12 x 64 x bf16, swizzle = 128>) { return }

// -----

// expected-error @+1 {{an MN-major buffer needs a swizzle (its blocks are swizzle spans of M or N elements)}}
func.func @smem_mn_swizzle(%b: !gemm.smem<2 x 128 x 64 x bf16, swizzle = 0, major = mn>) { return }

// -----

// expected-error @+1 {{an MN-major buffer needs rows that make whole 128-byte swizzle spans, got 96 x 'bf16'}}
func.func @smem_mn_rows(%b: !gemm.smem<2 x 96 x 64 x bf16, swizzle = 128, major = mn>) { return }

// -----

// expected-error @+1 {{an MN-major swizzled buffer needs a multiple of 8 columns (K lines of one swizzle atom), got 12}}
func.func @smem_mn_cols(%b: !gemm.smem<2 x 128 x 12 x bf16, swizzle = 128, major = mn>) { return }

// -----

//===----------------------------------------------------------------------===//
// !gemm.pipeline
//===----------------------------------------------------------------------===//

// expected-error @+1 {{pipeline needs at least one stage, got 0}}
func.func @pipeline_stages(%p: !gemm.pipeline<stages = 0, producers = 1, consumers = 2>) { return }

// -----

// Found by gemm-fuzz: a plan with such a pipeline overflowed its barriers'
// byte count (16 x stages) in the gemm.smem.plan verifier (signed overflow,
// UBSan).
// expected-error @+1 {{pipeline stages must be at most 1024, got 9223372036854775807}}
func.func @pipeline_stages_huge(%p: !gemm.pipeline<stages = 9223372036854775807, producers = 1, consumers = 2>) { return }

// -----

// expected-error @+1 {{pipeline arrival counts must be positive}}
func.func @pipeline_producers(%p: !gemm.pipeline<stages = 4, producers = 0, consumers = 2>) { return }

// -----

// expected-error @+1 {{pipeline arrival counts must be positive}}
func.func @pipeline_consumers(%p: !gemm.pipeline<stages = 4, producers = 1, consumers = -1>) { return }

// -----

//===----------------------------------------------------------------------===//
// !gemm.accum
//===----------------------------------------------------------------------===//

// expected-error @+1 {{accumulators are f32 (or signless i32 for 8-bit integer MMA), got 'f16'}}
func.func @accum_element(%a: !gemm.accum<64 x 256 x f16>) { return }

// -----

// expected-error @+1 {{accumulators are f32 (or signless i32 for 8-bit integer MMA), got 'si32'}}
func.func @accum_signed_element(%a: !gemm.accum<64 x 256 x si32>) { return }

// -----

// expected-error @+1 {{accumulator rows must be a multiple of 64 (one WGMMA atom), got 96}}
func.func @accum_rows(%a: !gemm.accum<96 x 256 x f32>) { return }

// -----

// expected-error @+1 {{accumulator rows must be a multiple of 64 (one WGMMA atom), got 0}}
func.func @accum_rows_zero(%a: !gemm.accum<0 x 256 x f32>) { return }

// -----

// expected-error @+1 {{accumulator columns must be a multiple of 8 in [8, 256] (a WGMMA N), got 264}}
func.func @accum_cols_large(%a: !gemm.accum<64 x 264 x f32>) { return }

// -----

// expected-error @+1 {{accumulator columns must be a multiple of 8 in [8, 256] (a WGMMA N), got 100}}
func.func @accum_cols_odd(%a: !gemm.accum<64 x 100 x f32>) { return }

// -----

//===----------------------------------------------------------------------===//
// gemm.matmul
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'gemm.matmul' op element type 'i16' is not a WGMMA operand type (bf16, f16, f32 as tf32, f8E4M3FN, f8E5M2, si8, ui8)}}
gemm.matmul @a_type a(i16, row) b(i16, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op wgmma has no instruction for A of 'bf16' with B of 'f16' (16-bit and tf32 operands must match; e4m3 and e5m2 mix with each other, si8 and ui8 with each other)}}
gemm.matmul @b_type a(bf16, row) b(f16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op C element type must be bf16, f16 or f32, got 'i32'}}
gemm.matmul @c_type a(bf16, row) b(bf16, col) c(i32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op accumulator type must be 'f32' for 'f16' x 'f16' operands, got 'f16'}}
gemm.matmul @acc_type a(f16, row) b(f16, col) c(f16, row) acc(f16)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// WGMMA transposes only 16-bit operands: 8-bit A and B stay K-major.
// expected-error @+1 {{'gemm.matmul' op WGMMA reads 'f8E4M3FN' x 'f8E4M3FN' operands from shared memory only K-major (no transpose for 8-bit and tf32 types): use a(T, row) and b(T, col), i.e. transpose the MN-major operand in memory first}}
gemm.matmul @fp8_m_major a(f8E4M3FN, col) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// The kernel's symbol becomes its PTX .entry name and its bundle's file
// names: found by gemm-fuzz, a space in it crashed the NVPTX back end ("Symbol
// name with unsupported characters"), and a '/' would have written the
// bundle outside its output directory.
// expected-error @+1 {{'gemm.matmul' op symbol @"with space" must be an identifier ([A-Za-z_][A-Za-z0-9_]*): it names the PTX kernel and its bundle files}}
gemm.matmul @"with space" a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op symbol @"../escape" must be an identifier}}
gemm.matmul @"../escape" a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op symbol @"0digit" must be an identifier}}
gemm.matmul @"0digit" a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op a(row) b(row) c(row) is implemented for sm_90a; sm_100a kernels take a(row) b(col) c(row) (K-major A and B, row-major C)}}
gemm.matmul @sm100_layout a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op batched is implemented for sm_90a kernels}}
gemm.matmul @sm100_batched a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op an N-major B (b(row)) is loaded in blocks of 64 columns (one 128-byte swizzle span); tile N of 96 is not a multiple}}
gemm.matmul @n_major_tile a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 96, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile K of 32 must span 128 bytes of 'bf16' (one 128-byte swizzle row): use BK = 64}}
gemm.matmul @tile_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile K of 64 must span 128 bytes of 'f8E4M3FN' (one 128-byte swizzle row): use BK = 128}}
gemm.matmul @sm90_fp8_bk a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// Found by gemm-fuzz: tile K x element bytes overflowed in the verifier
// (signed overflow, UBSan).
// expected-error @+1 {{'gemm.matmul' op tile K of 4611686018427387904 must span 128 bytes of 'bf16' (one 128-byte swizzle row): use BK = 64}}
gemm.matmul @tile_k_huge a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 4611686018427387904]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile M of 96 is not a multiple of the 64-row WGMMA atom (64, 128, 192 or 256)}}
gemm.matmul @tile_m a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [96, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile M of 320 is not a multiple of the 64-row WGMMA atom (64, 128, 192 or 256)}}
gemm.matmul @tile_m_large a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [320, 128, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile N of 100 is not a legal WGMMA N (a multiple of 8 in [8, 256])}}
gemm.matmul @tile_n a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 100, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile N of 264 is not a legal WGMMA N (a multiple of 8 in [8, 256])}}
gemm.matmul @tile_n_large a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 264, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op pingpong gives each consumer warpgroup a whole tile; tile M must be 64 or 128, got 256}}
gemm.matmul @pingpong_m a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [256, 128, 64], schedule = pingpong>)

// -----

// expected-error @+2 {{scheduler = split_k needs splits >= 2 (the k-ranges each tile is cut into)}}
gemm.matmul @split_k_one a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = split_k>)

// -----

// expected-error @+2 {{splits = 2 needs scheduler = split_k}}
gemm.matmul @splits_stream_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = stream_k, splits = 2>)

// -----

// expected-error @+2 {{splits = 2 needs scheduler = split_k}}
gemm.matmul @splits_static a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], splits = 2>)

// -----

// expected-error @+2 {{splits must be in [1, 16], got 17}}
gemm.matmul @splits_range a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64], scheduler = split_k, splits = 17>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile N of 8 cannot be split into 2 multicast slices of whole 8-line swizzle atoms of B (cluster M = 2): use a cluster that divides 1}}
gemm.matmul @multicast_b a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 8, 64], cluster = [2, 1]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile M of 64 cannot be split into 3 multicast slices of whole 8-line swizzle atoms of A (cluster N = 3): use a cluster that divides 8}}
gemm.matmul @multicast_a a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 3], schedule = pingpong>)

// -----

// An M-major A is sliced along K (found by the fuzzer: the 21-line slices
// reached the TMA load's verifier after materialize-sm90).
// expected-error @+1 {{'gemm.matmul' op tile K of 64 cannot be split into 3 multicast slices of whole 8-line swizzle atoms of the M-major A (cluster N = 3): use a cluster that divides 8}}
gemm.matmul @multicast_a_m_major a(bf16, col) b(bf16, row) c(bf16, row) acc(f32) batched
    config(#gemm.config<arch = sm_90a, tile = [64, 256, 64], cluster = [1, 3], schedule = pingpong>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile K of 64 cannot be split into 3 multicast slices of whole 8-line swizzle atoms of the N-major B (cluster M = 3): use a cluster that divides 8}}
gemm.matmul @multicast_b_n_major a(bf16, row) b(bf16, row) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [192, 128, 64], cluster = [3, 1]>)

// -----

// expected-error @+1 {{'gemm.matmul' op epilogue region must have one block}}
gemm.matmul @epilogue_blocks a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: f32):
  %r = arith.truncf %acc : f32 to bf16
  cf.br ^bb1(%r : bf16)
^bb1(%v: bf16):
  gemm.yield %v : bf16
}

// -----

// expected-error @+1 {{'gemm.matmul' op epilogue region must take one 'f32' accumulator value}}
gemm.matmul @epilogue_arg_type a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: bf16):
  gemm.yield %acc : bf16
}

// -----

// expected-error @+1 {{'gemm.matmul' op epilogue region must take one 'f32' accumulator value}}
gemm.matmul @epilogue_arg_count a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: f32, %extra: f32):
  %r = arith.truncf %acc : f32 to bf16
  gemm.yield %r : bf16
}

// -----

// expected-error @+1 {{'gemm.matmul' op epilogue region must yield one 'bf16' value}}
gemm.matmul @epilogue_yield_type a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: f32):
  gemm.yield %acc : f32
}

// -----

// expected-error @+1 {{'gemm.matmul' op epilogue region must yield one 'bf16' value}}
gemm.matmul @epilogue_yield_count a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: f32):
  %r = arith.truncf %acc : f32 to bf16
  gemm.yield %r, %r : bf16, bf16
}

// -----

// An epilogue block without a terminator.
// Found by gemm-fuzz: a gemm.wgmma.fence in an sm_100a kernel's epilogue was
// cloned into the kernel and lowered to an nvvm.wgmma.fence.aligned the
// NVVM verifier rejects for sm_100a (convert-gemm-to-nvvm succeeded with
// invalid IR). The epilogue may only compute.
// expected-error @+1 {{'gemm.matmul' op epilogue region ops must be free of memory effects (arithmetic on the accumulator value), got 'gemm.wgmma.fence'}}
gemm.matmul @epilogue_effects a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 128], schedule = warp_roles>) {
^bb0(%a: f32):
  gemm.wgmma.fence
  %o = arith.truncf %a : f32 to bf16
  gemm.yield %o : bf16
}

// -----

// The same rule for the regions materialize clones it into.
func.func @store_smem_epilogue_effects(%acc: !gemm.accum<64 x 256 x f32>,
                                       %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op epilogue region ops must be free of memory effects (arithmetic on the accumulator value), got 'gpu.barrier'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128> {
  ^bb0(%v: f32):
    gpu.barrier
    %r = arith.truncf %v : f32 to bf16
    gemm.yield %r : bf16
  }
  return
}

// -----

// expected-error @+1 {{'gemm.matmul' op epilogue region must end with gemm.yield}}
gemm.matmul @epilogue_no_terminator a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: f32):
  %r = arith.truncf %acc : f32 to bf16
}

// -----

// A terminator other than gemm.yield.
// expected-error @+1 {{'gemm.matmul' op epilogue region must yield one 'bf16' value}}
gemm.matmul @epilogue_not_yield a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>) {
^bb0(%acc: f32):
  llvm.unreachable
}

// -----

//===----------------------------------------------------------------------===//
// gemm.warp_specialize
//===----------------------------------------------------------------------===//

func.func @ws_no_consumers() {
  // expected-error @+1 {{'gemm.warp_specialize' op needs 1 to 3 consumer warpgroups, got 0}}
  gemm.warp_specialize consumers(0) regs(40, 232) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

func.func @ws_many_consumers() {
  // expected-error @+1 {{'gemm.warp_specialize' op needs 1 to 3 consumer warpgroups, got 4}}
  gemm.warp_specialize consumers(4) regs(24, 24) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

func.func @ws_producer_regs() {
  // expected-error @+1 {{'gemm.warp_specialize' op setmaxnreg register counts must be multiples of 8 in [24, 256], got 16}}
  gemm.warp_specialize consumers(2) regs(16, 232) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

func.func @ws_consumer_regs_odd() {
  // expected-error @+1 {{'gemm.warp_specialize' op setmaxnreg register counts must be multiples of 8 in [24, 256], got 230}}
  gemm.warp_specialize consumers(2) regs(40, 230) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

func.func @ws_consumer_regs_large() {
  // expected-error @+1 {{'gemm.warp_specialize' op setmaxnreg register counts must be multiples of 8 in [24, 256], got 264}}
  gemm.warp_specialize consumers(1) regs(40, 264) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

func.func @ws_register_file() {
  // expected-error @+1 {{'gemm.warp_specialize' op register budget does not fit: 128 * (40 + 2 * 240) = 66560 registers exceeds the 65536-register file}}
  gemm.warp_specialize consumers(2) regs(40, 240) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

func.func @ws_consumer_no_index() {
  // expected-error @+1 {{'gemm.warp_specialize' op consumer region must take the consumer index (i32)}}
  gemm.warp_specialize consumers(2) regs(40, 232) producer {
    gemm.yield
  } consumer {
    gemm.yield
  }
  return
}

// -----

func.func @ws_consumer_index_type() {
  // expected-error @+1 {{'gemm.warp_specialize' op consumer region must take the consumer index (i32)}}
  gemm.warp_specialize consumers(2) regs(40, 232) producer {
    gemm.yield
  } consumer {
  ^bb0(%c: i64):
    gemm.yield
  }
  return
}

// -----

func.func @ws_producer_args() {
  // expected-error @+1 {{'gemm.warp_specialize' op producer region takes no arguments}}
  gemm.warp_specialize consumers(2) regs(40, 232) producer {
  ^bb0(%p: i32):
    gemm.yield
  } consumer {
  ^bb0(%c: i32):
    gemm.yield
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// gemm.smem.plan
//===----------------------------------------------------------------------===//

func.func @smem_budget() {
  // 8 x (16384 + 32768) bytes of rings, 64 of barriers.
  // expected-error @+1 {{'gemm.smem.plan' op shared-memory plan needs 393280 bytes, over the 232448-byte (227 KB) per-block budget: use fewer stages or a smaller tile}}
  %a, %b, %p = gemm.smem.plan : !gemm.smem<8 x 128 x 64 x bf16, swizzle = 128>,
      !gemm.smem<8 x 256 x 64 x bf16, swizzle = 128>,
      !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Pipeline ops
//===----------------------------------------------------------------------===//

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @commit_negative(%p: !pipe, %n: i32) {
  // expected-error @+1 {{'gemm.pipeline.producer_commit' op tx bytes must be in [1, 2^20 - 1], got -8}}
  gemm.pipeline.producer_commit %p[%n] tx(-8) : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @commit_zero(%p: !pipe, %n: i32) {
  // expected-error @+1 {{'gemm.pipeline.producer_commit' op tx bytes must be in [1, 2^20 - 1], got 0}}
  gemm.pipeline.producer_commit %p[%n] tx(0) : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @commit_large(%p: !pipe, %n: i32) {
  // expected-error @+1 {{'gemm.pipeline.producer_commit' op tx bytes must be in [1, 2^20 - 1], got 1048576}}
  gemm.pipeline.producer_commit %p[%n] tx(1048576) : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>

func.func @release_peers_alone(%p: !pipe, %n: i32, %mask: i32) {
  // expected-error @+1 {{'gemm.pipeline.consumer_release' op peers(...) and cluster_size(...) go together}}
  gemm.pipeline.consumer_release %p[%n] peers(%mask) : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>

func.func @release_cluster_size_alone(%p: !pipe, %n: i32) {
  // expected-error @+1 {{'gemm.pipeline.consumer_release' op peers(...) and cluster_size(...) go together}}
  gemm.pipeline.consumer_release %p[%n] cluster_size(2) : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>

func.func @release_cluster_size_large(%p: !pipe, %n: i32, %mask: i32) {
  // expected-error @+1 {{'gemm.pipeline.consumer_release' op cluster_size must be in [1, 16], got 17}}
  gemm.pipeline.consumer_release %p[%n] peers(%mask) cluster_size(17) : !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 4>

func.func @release_cluster_size_zero(%p: !pipe, %n: i32, %mask: i32) {
  // expected-error @+1 {{'gemm.pipeline.consumer_release' op cluster_size must be in [1, 16], got 0}}
  gemm.pipeline.consumer_release %p[%n] peers(%mask) cluster_size(0) : !pipe
  return
}

// -----

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_element(%d: !gemm.tma_desc<f16, box = [64, 128], swizzle = 128>,
                        %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                        %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op descriptor element type 'f16' differs from the buffer's 'bf16'}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i]
      : !gemm.tma_desc<f16, box = [64, 128], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_swizzle(%d: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 0>,
                        %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                        %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op descriptor swizzle 0 differs from the buffer's 128}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 128], swizzle = 0>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_inner(%d: !gemm.tma_desc<bf16, box = [32, 128], swizzle = 128>,
                      %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                      %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op box inner dimension 32 must equal the buffer's row length 64}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [32, 128], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_rows_large(%d: !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>,
                           %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                           %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op box of 256 rows does not tile the buffer's 128 rows}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 256], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_rows_tile(%d: !gemm.tma_desc<bf16, box = [64, 48], swizzle = 128>,
                          %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                          %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op box of 48 rows does not tile the buffer's 128 rows}}
  gemm.tma.load %d[%i, %i] -> %b[%i, %i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 48], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_when_multicast(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
                               %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                               %p: !pipe, %i: i32, %mask: i16, %issue: i1) {
  // expected-error @+1 {{'gemm.tma.load' op a load with `when` completes a skipped box's bytes on this CTA's barrier only; it cannot be multicast or use cta_group}}
  gemm.tma.load %d[%i, %i] -> %b[%i, %i] barrier %p[%i] multicast(%mask) when(%issue)
      : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_slice_row(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
                          %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                          %p: !pipe, %i: i32, %mask: i16) {
  // expected-error @+1 {{'gemm.tma.load' op a box smaller than the slot needs a row offset}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i] multicast(%mask)
      : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_mn_span(%d: !gemm.tma_desc<bf16, box = [32, 64], swizzle = 128>,
                        %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>,
                        %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op box inner dimension 32 must be one 128-byte swizzle span (64 elements) of the MN-major buffer}}
  gemm.tma.load %d[%i, %i] -> %b[%i, %i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [32, 64], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_mn_lines(%d: !gemm.tma_desc<bf16, box = [64, 24], swizzle = 128>,
                         %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>,
                         %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op box of 24 K lines does not tile the MN-major buffer's 64 K lines in whole 8-line swizzle atoms}}
  gemm.tma.load %d[%i, %i] -> %b[%i, %i] k_offset(%i) barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 24], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_mn_k_offset(%d: !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
                            %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>,
                            %p: !pipe, %i: i32, %mask: i16) {
  // expected-error @+1 {{'gemm.tma.load' op a box of fewer K lines than the slot needs a k_offset}}
  gemm.tma.load %d[%i, %i] -> %b[%i, %i] barrier %p[%i] multicast(%mask)
      : !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_mn_row(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
                       %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>,
                       %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op an MN-major slot of several blocks needs a row offset for each box}}
  gemm.tma.load %d[%i, %i] -> %b[%i] barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>, !pipe
  return
}

// -----

!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @load_k_offset_k_major(%d: !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>,
                                 %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                                 %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op k_offset applies to MN-major buffers; a K-major box covers all K of its rows}}
  gemm.tma.load %d[%i, %i] -> %b[%i] k_offset(%i) barrier %p[%i]
      : !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>, !pipe
  return
}

// -----

func.func @store_element(%d: !gemm.tma_desc<f16, box = [64, 64], swizzle = 128>,
                         %b: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op descriptor element type 'f16' differs from the buffer's 'bf16'}}
  gemm.tma.store %d[%i, %i] from %b[%i]
      : !gemm.tma_desc<f16, box = [64, 64], swizzle = 128>,
        !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_swizzle(%d: !gemm.tma_desc<bf16, box = [64, 64], swizzle = 0>,
                         %b: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op descriptor swizzle 0 differs from the buffer's 128}}
  gemm.tma.store %d[%i, %i] from %b[%i]
      : !gemm.tma_desc<bf16, box = [64, 64], swizzle = 0>,
        !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_inner(%d: !gemm.tma_desc<bf16, box = [32, 64], swizzle = 128>,
                       %b: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op box inner dimension 32 must equal the buffer's row length 64}}
  gemm.tma.store %d[%i, %i] from %b[%i]
      : !gemm.tma_desc<bf16, box = [32, 64], swizzle = 128>,
        !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_packed_rows(%d: !gemm.tma_desc<bf16, box = [16, 32], swizzle = 0>,
                             %b: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op a packed narrow box (swizzle 0, 16 of the slot's 64 columns) covers the slot's 64 rows, without a row offset}}
  gemm.tma.store %d[%i, %i] from %b[%i, %i]
      : !gemm.tma_desc<bf16, box = [16, 32], swizzle = 0>,
        !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_rows(%d: !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
                      %b: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op a box smaller than the slot needs a row offset}}
  gemm.tma.store %d[%i, %i] from %b[%i]
      : !gemm.tma_desc<bf16, box = [64, 32], swizzle = 128>,
        !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_rows_tile(%d: !gemm.tma_desc<f32, box = [32, 48], swizzle = 128>,
                           %b: !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.tma.store' op box of 48 rows does not tile the slot's 64 rows}}
  gemm.tma.store %d[%i, %i] from %b[%i, %i]
      : !gemm.tma_desc<f32, box = [32, 48], swizzle = 128>,
        !gemm.smem<4 x 64 x 32 x f32, swizzle = 128>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gemm.mma.sm90
//===----------------------------------------------------------------------===//

func.func @mma_element_mismatch(%acc: !gemm.accum<64 x 256 x f32>,
                                %a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                                %b: !gemm.smem<4 x 256 x 64 x f16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op wgmma has no instruction for A of 'bf16' with B of 'f16'}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x f16, swizzle = 128>
  return
}

// -----

func.func @mma_cols_past_b(%acc: !gemm.accum<64 x 128 x f32>,
                           %a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                           %b: !gemm.smem<4 x 192 x 128 x f8E4M3FN, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op cols(128) with N = 128 reads past the 192 rows of the B slot}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b cols(128) slot(%i)
      : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
        !gemm.smem<4 x 192 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// -----

func.func @mma_cols_unaligned(%acc: !gemm.accum<64 x 64 x f32>,
                              %a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                              %b: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op cols(4) must be a multiple of 8 (8 rows of a K-major B)}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b cols(4) slot(%i)
      : !gemm.accum<64 x 64 x f32>, !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
        !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// -----

func.func @mma_cols_mn_major(%acc: !gemm.accum<64 x 64 x f32>,
                             %a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                             %b: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op cols(32) must be a multiple of 64 (an MN-major B's block of columns)}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b cols(32) slot(%i)
      : !gemm.accum<64 x 64 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128, major = mn>
  return
}

// -----

func.func @mma_element_type(%acc: !gemm.accum<64 x 256 x f32>,
                            %a: !gemm.smem<4 x 128 x 64 x i16, swizzle = 128>,
                            %b: !gemm.smem<4 x 256 x 64 x i16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op element type 'i16' is not a WGMMA operand type}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x i16, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x i16, swizzle = 128>
  return
}

// -----

func.func @mma_int8_accumulator(%acc: !gemm.accum<64 x 256 x f32>,
                                %a: !gemm.smem<4 x 128 x 128 x si8, swizzle = 128>,
                                %b: !gemm.smem<4 x 256 x 128 x ui8, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op a WGMMA of 'si8' x 'ui8' accumulates into 'i32', not 'f32'}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 128 x si8, swizzle = 128>,
        !gemm.smem<4 x 256 x 128 x ui8, swizzle = 128>
  return
}

// -----

func.func @mma_int8_n(%acc: !gemm.accum<64 x 40 x i32>,
                      %a: !gemm.smem<4 x 128 x 128 x si8, swizzle = 128>,
                      %b: !gemm.smem<4 x 40 x 128 x si8, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op illegal WGMMA N of 40 (8, 16, 24 or a multiple of 16 up to 256, for 8-bit integers)}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 40 x i32>, !gemm.smem<4 x 128 x 128 x si8, swizzle = 128>,
        !gemm.smem<4 x 40 x 128 x si8, swizzle = 128>
  return
}

// -----

func.func @mma_fp8_with_bf16(%acc: !gemm.accum<64 x 256 x f32>,
                             %a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
                             %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op wgmma has no instruction for A of 'f8E4M3FN' with B of 'bf16'}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @mma_mn_major_fp8(%acc: !gemm.accum<64 x 256 x f32>,
                            %a: !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128, major = mn>,
                            %b: !gemm.smem<4 x 256 x 128 x f8E4M3FN, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op an MN-major A operand must be 16-bit (WGMMA transposes only .f16/.bf16 operands), got 'f8E4M3FN'}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 128 x f8E4M3FN, swizzle = 128, major = mn>,
        !gemm.smem<4 x 256 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// -----

func.func @mma_swizzle(%acc: !gemm.accum<64 x 256 x f32>,
                       %a: !gemm.smem<4 x 128 x 32 x bf16, swizzle = 64>,
                       %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op WGMMA operands must be 128-byte swizzled tiles}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 32 x bf16, swizzle = 64>,
        !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @mma_n(%acc: !gemm.accum<64 x 128 x f32>,
                 %a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                 %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op illegal WGMMA shape: B slot has 256 rows but the accumulator has N = 128}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 128 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @mma_a_rows(%acc: !gemm.accum<128 x 256 x f32>,
                      %a: !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
                      %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op A slot has 64 rows, fewer than the accumulator's 128}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<128 x 256 x f32>, !gemm.smem<4 x 64 x 64 x bf16, swizzle = 128>,
        !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @mma_stages(%acc: !gemm.accum<64 x 256 x f32>,
                      %a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                      %b: !gemm.smem<3 x 256 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op A and B rings must have the same number of stages}}
  %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
        !gemm.smem<3 x 256 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @mma_result_type(%acc: !gemm.accum<64 x 256 x f32>,
                           %a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                           %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.mma.sm90' op failed to verify that all of {accumulator, result} have same type}}
  %r = "gemm.mma.sm90"(%acc, %a, %i, %i, %b)
      : (!gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
         i32, i32, !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>) -> !gemm.accum<128 x 256 x f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gemm.accum.store_smem
//===----------------------------------------------------------------------===//

func.func @store_smem_negative_col(%acc: !gemm.accum<64 x 256 x f32>,
                                   %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op col -64 must be a multiple of 64 with its 64 columns inside the accumulator's 256 columns}}
  gemm.accum.store_smem %acc atom(0) col(-64) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_negative_atom(%acc: !gemm.accum<64 x 256 x f32>,
                                    %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op atom -1 is outside the accumulator's 1 atoms}}
  gemm.accum.store_smem %acc atom(-1) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_element(%acc: !gemm.accum<64 x 256 x f32>,
                              %s: !gemm.smem<2 x 64 x 128 x i8, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op staging element type must be bf16, f16 or f32 (or f8E4M3FN, f8E5M2, i32), got 'i8'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 128 x i8, swizzle = 128>
  return
}

// -----

func.func @store_smem_f32_into_i32(%acc: !gemm.accum<64 x 256 x f32>,
                                   %s: !gemm.smem<2 x 64 x 32 x i32, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op an i32 accumulator is stored into i32 slots only (convert and scale it with gemm.accum.scale for a float output), got 'f32' into 'i32'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 32 x i32, swizzle = 128>
  return
}

// -----

func.func @store_smem_i32_into_bf16(%acc: !gemm.accum<64 x 256 x i32>,
                                    %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op an i32 accumulator is stored into i32 slots only (convert and scale it with gemm.accum.scale for a float output), got 'i32' into 'bf16'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x i32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_fp8_no_scale(%acc: !gemm.accum<64 x 256 x f32>,
                                   %s: !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op an fp8 output needs its output scale: scale(%s)}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// -----

func.func @store_smem_scale_bf16(%acc: !gemm.accum<64 x 256 x f32>,
                                 %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32, %f: f32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op scale(...) and amax(...) apply to fp8 outputs, not 'bf16'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i] scale(%f)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_fp8_region(%acc: !gemm.accum<64 x 256 x f32>,
                                 %s: !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>, %i: i32, %f: f32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op epilogue region must yield one 'f32' value}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i] scale(%f)
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128> {
  ^bb0(%v: f32):
    %t = arith.truncf %v : f32 to f8E4M3FN
    gemm.yield %t : f8E4M3FN
  }
  return
}

// -----

func.func @store_smem_rows(%acc: !gemm.accum<64 x 256 x f32>,
                           %s: !gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op staging slots hold 64 rows of 128 bytes in the 128-byte swizzle, got '!gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 128 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_swizzle(%acc: !gemm.accum<64 x 256 x f32>,
                              %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 0>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op staging slots hold 64 rows of 128 bytes in the 128-byte swizzle, got '!gemm.smem<2 x 64 x 64 x bf16, swizzle = 0>'}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 0>
  return
}

// -----

func.func @store_smem_atom(%acc: !gemm.accum<128 x 256 x f32>,
                           %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op atom 2 is outside the accumulator's 2 atoms}}
  gemm.accum.store_smem %acc atom(2) col(0) -> %s[%i]
      : !gemm.accum<128 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_col_multiple(%acc: !gemm.accum<64 x 256 x f32>,
                                   %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op col 32 must be a multiple of 64 with its 64 columns inside the accumulator's 256 columns}}
  gemm.accum.store_smem %acc atom(0) col(32) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_col_outside(%acc: !gemm.accum<64 x 128 x f32>,
                                  %s: !gemm.smem<2 x 64 x 32 x f32, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op col 128 must be a multiple of 32 with its 32 columns inside the accumulator's 128 columns}}
  gemm.accum.store_smem %acc atom(0) col(128) -> %s[%i]
      : !gemm.accum<64 x 128 x f32>, !gemm.smem<2 x 64 x 32 x f32, swizzle = 128>
  return
}

// -----

func.func @store_smem_columns_row_major_fp8(%acc: !gemm.accum<64 x 144 x f32>,
                                           %s: !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>,
                                           %i: i32, %scale: f32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op columns(16) of a row-major sub-tile takes 16- and 32-bit slots, not 'f8E4M3FN'}}
  gemm.accum.store_smem %acc atom(0) col(128) columns(16) -> %s[%i] scale(%scale)
      : !gemm.accum<64 x 144 x f32>, !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// -----

func.func @store_smem_columns_step(%acc: !gemm.accum<64 x 128 x f32>,
                                   %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op columns(12) must be a multiple of 8 below 64 (a narrower last sub-tile)}}
  gemm.accum.store_smem %acc atom(0) col(64) columns(12) transposed -> %s[%i]
      : !gemm.accum<64 x 128 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
  return
}

// -----

func.func @store_smem_columns_outside(%acc: !gemm.accum<64 x 80 x f32>,
                                      %s: !gemm.smem<2 x 64 x 32 x f32, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op col 64 must be a multiple of 32 with its 24 columns inside the accumulator's 80 columns}}
  gemm.accum.store_smem %acc atom(0) col(64) columns(24) transposed -> %s[%i]
      : !gemm.accum<64 x 80 x f32>, !gemm.smem<2 x 64 x 32 x f32, swizzle = 128>
  return
}

// -----

func.func @store_smem_epilogue_blocks(%acc: !gemm.accum<64 x 256 x f32>,
                                      %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op epilogue region must have one block}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128> {
  ^bb0(%v: f32):
    %r = arith.truncf %v : f32 to bf16
    cf.br ^bb1(%r : bf16)
  ^bb1(%w: bf16):
    gemm.yield %w : bf16
  }
  return
}

// -----

func.func @store_smem_epilogue_arg(%acc: !gemm.accum<64 x 256 x f32>,
                                   %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op epilogue region must take one 'f32' accumulator value}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128> {
  ^bb0(%v: bf16):
    gemm.yield %v : bf16
  }
  return
}

// -----

func.func @store_smem_epilogue_yield(%acc: !gemm.accum<64 x 256 x f32>,
                                     %s: !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op epilogue region must yield one 'bf16' value}}
  gemm.accum.store_smem %acc atom(0) col(0) -> %s[%i]
      : !gemm.accum<64 x 256 x f32>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128> {
  ^bb0(%v: f32):
    gemm.yield %v : f32
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// gemm.sched.static_tile
//===----------------------------------------------------------------------===//

func.func @static_tile_swizzle(%t: i32, %m: i32, %n: i32) {
  // expected-error @+1 {{'gemm.sched.static_tile' op swizzle must be in [1, 65536] tiles, got 0}}
  %tm, %tn = gemm.sched.static_tile %t of (%m, %n) raster(along_m) swizzle(0)
  return
}

// -----

func.func @static_tile_negative_swizzle(%t: i32, %m: i32, %n: i32) {
  // expected-error @+1 {{'gemm.sched.static_tile' op swizzle must be in [1, 65536] tiles, got -1}}
  %tm, %tn = gemm.sched.static_tile %t of (%m, %n) raster(along_m) swizzle(-1)
  return
}

// -----

func.func @split_k_zero(%s: i32, %k: i32) {
  // expected-error @+1 {{'gemm.sched.split_k_range' op splits must be at least 1, got 0}}
  %b, %e = gemm.sched.split_k_range %s of %k splits(0)
  return
}

// -----

!desc = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!ring = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

func.func @tma_load_cta_group(%d: !desc, %r: !ring, %p: !pipe, %i: i32) {
  // expected-error @+1 {{'gemm.tma.load' op cta_group must be 1 or 2, got 3}}
  gemm.tma.load %d[%i, %i] -> %r[%i] barrier %p[%i] cta_group(3) : !desc, !ring, !pipe
  return
}

// -----

!desc = !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
!ring = !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>
!pipe = !gemm.pipeline<stages = 4, producers = 1, consumers = 2>

gpu.module @sm90 {
  gpu.func @tma_load_cta_group_sm90(%d: !desc, %r: !ring, %p: !pipe, %i: i32) kernel
      attributes {gemm.arch = "sm_90a"} {
    // expected-error @+1 {{'gemm.tma.load' op needs sm_100a, but this kernel targets sm_90a}}
    gemm.tma.load %d[%i, %i] -> %r[%i] barrier %p[%i] cta_group(2) : !desc, !ring, !pipe
    gpu.return
  }
}

// -----

// SM90 MMA in an sm_100a kernel.
gpu.module @sm100 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mma_sm90_on_sm100(%acc: !gemm.accum<64 x 256 x f32>,
                              %a: !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
                              %b: !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>, %i: i32) kernel {
    // expected-error @+1 {{'gemm.mma.sm90' op needs sm_90a, but this kernel targets sm_100a}}
    %r = gemm.mma.sm90 %acc, %a[%i], %b slot(%i)
        : !gemm.accum<64 x 256 x f32>, !gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>,
          !gemm.smem<4 x 256 x 64 x bf16, swizzle = 128>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Split-K partial tiles
//===----------------------------------------------------------------------===//

func.func @load_add_values(%acc: !gemm.accum<64 x 256 x f32>, %p: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.load_add_global' op values [2, 34) must be a non-empty range of whole 16-byte steps (multiples of 4) within the thread's 128 accumulator values}}
  %r = gemm.accum.load_add_global %acc, %p[%i] values(2, 32) : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
  return
}

// -----

// The custom syntax always writes both; the generic form can give one.
func.func @load_add_first_only(%acc: !gemm.accum<64 x 256 x f32>, %p: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.load_add_global' op values(first, count) needs both}}
  %r = "gemm.accum.load_add_global"(%acc, %p, %i) {first = 0 : i64} : (!gemm.accum<64 x 256 x f32>, !llvm.ptr<1>, i32) -> !gemm.accum<64 x 256 x f32>
  return
}

// -----

func.func @load_add_past_end(%acc: !gemm.accum<64 x 256 x f32>, %p: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.load_add_global' op values [96, 160) must be a non-empty range of whole 16-byte steps (multiples of 4) within the thread's 128 accumulator values}}
  %r = gemm.accum.load_add_global %acc, %p[%i] values(96, 64) : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
  return
}

// -----

// Found by gemm-fuzz: first + count overflowed in the verifier (signed
// overflow, UBSan; wrapped to a negative end, the release build accepted
// this range).
func.func @load_add_huge(%acc: !gemm.accum<64 x 256 x f32>, %p: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.load_add_global' op values [4, 9223372036854775808) must be a non-empty range of whole 16-byte steps (multiples of 4) within the thread's 128 accumulator values}}
  %r = gemm.accum.load_add_global %acc, %p[%i] values(4, 9223372036854775804) : !gemm.accum<64 x 256 x f32>, !llvm.ptr<1>
  return
}

// -----

func.func @store_global_space(%acc: !gemm.accum<64 x 256 x f32>, %p: !llvm.ptr<3>, %i: i32) {
  // expected-error @+1 {{'gemm.accum.store_global' op operand #1 must be global-memory pointer (!llvm.ptr<1>), but got '!llvm.ptr<3>'}}
  gemm.accum.store_global %acc -> %p[%i] : !gemm.accum<64 x 256 x f32>, !llvm.ptr<3>
  return
}

// -----

func.func @arrive_one(%c: !llvm.ptr<1>, %i: i32) {
  %one = arith.constant 1 : i32
  // expected-error @+1 {{'gemm.sched.split_k_arrive' op arrivals must be at least 2, got 1}}
  %last = gemm.sched.split_k_arrive %c[%i] of %one : !llvm.ptr<1>
  return
}

// -----

func.func @stream_k_no_workers(%u: i32, %c: i32, %k: i32) {
  // expected-error @+1 {{'gemm.sched.stream_k_plan' op max_workers_per_unit must be at least 1, got 0}}
  %dp, %w = gemm.sched.stream_k_plan units(%u) ctas(%c) k_blocks(%k) max_workers_per_unit(0)
  return
}

// -----

func.func @barrier_any_threads(%p: i1, %id: i32) {
  // expected-error @+1 {{'gemm.barrier_any' op threads must be a multiple of 32 in [32, 1024], got 100}}
  %any = gemm.barrier_any %p barrier(%id) threads(100)
  return
}

// -----

// Found by gemm-fuzz: pending(2^32 - 1) reached NVVM as wait_group -1, which
// the NVVM verifier refused after convert-gemm-to-nvvm had succeeded.
func.func @tma_store_wait_pending_out_of_range() {
  // expected-error @+1 {{'gemm.tma.store_wait' op pending(4294967295) is out of range: the number of store groups left in flight is 0 .. 2147483647}}
  gemm.tma.store_wait pending(4294967295)
  return
}

// -----

func.func @tma_store_wait_pending_negative() {
  // expected-error @+1 {{'gemm.tma.store_wait' op pending(-1) is out of range}}
  gemm.tma.store_wait pending(-1) read
  return
}

// -----

// Found by the fuzzer: the WGMMA group ops had no arch check, so a kernel
// for another chip reached the NVVM verifier after the conversion.
gpu.module @sm91 [#nvvm.target<chip = "sm_91a">] {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gemm.wgmma.fence' op needs sm_90a, but this kernel targets sm_91a}}
    gemm.wgmma.fence
    gpu.return
  }
}

// -----

gpu.module @sm100 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gemm.wgmma.commit' op needs sm_90a, but this kernel targets sm_100a}}
    gemm.wgmma.commit
    gpu.return
  }
}

// -----

gpu.module @sm100 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gemm.wgmma.wait' op needs sm_90a, but this kernel targets sm_100a}}
    gemm.wgmma.wait pending(0)
    gpu.return
  }
}

// -----

// expected-error @+1 {{'gemm.matmul' op grouped and batched exclude each other (a grouped kernel's B is already a batch of G matrices): use one}}
gemm.matmul @grouped_batched a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped is implemented for sm_90a kernels}}
gemm.matmul @grouped_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op schedule = direct has no grouped form (it takes plain pointers, one problem a launch): use schedule = cooperative or pingpong for a grouped problem}}
gemm.matmul @grouped_direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels walk the groups' tiles with the static persistent scheduler; scheduler = split_k is not implemented for them: use scheduler = static_persistent}}
gemm.matmul @grouped_split_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], scheduler = split_k, splits = 2>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels walk the groups' tiles with the static persistent scheduler; scheduler = stream_k is not implemented for them: use scheduler = static_persistent}}
gemm.matmul @grouped_stream_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], scheduler = stream_k>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels take bf16 or f16 operands (both the same), got 'f8E4M3FN' and 'f8E4M3FN'}}
gemm.matmul @grouped_fp8 a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels read A as [sum of M, K] rows (K-major): use a(bf16, row)}}
gemm.matmul @grouped_a_col a(bf16, col) b(bf16, col) c(bf16, row) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels write C as [sum of M, N] rows: use c(bf16, row)}}
gemm.matmul @grouped_c_col a(bf16, row) b(bf16, col) c(bf16, col) acc(f32) grouped
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// -----

// General grouped kernels (grouped(general)) keep the rules of grouped
// kernels but the storage orders (each group has its own descriptors).

// expected-error @+1 {{'gemm.matmul' op grouped is implemented for sm_90a kernels}}
gemm.matmul @general_sm100 a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 64], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels take bf16 or f16 operands (both the same), got 'f32' and 'f32'}}
gemm.matmul @general_tf32 a(f32, row) b(f32, col) c(f32, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 32]>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped kernels walk the groups' tiles with the static persistent scheduler; scheduler = split_k is not implemented for them: use scheduler = static_persistent}}
gemm.matmul @general_split_k a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64], scheduler = split_k, splits = 2>)

// -----

// expected-error @+1 {{'gemm.matmul' op schedule = direct has no grouped form (it takes plain pointers, one problem a launch): use schedule = cooperative or pingpong for a grouped problem}}
gemm.matmul @general_direct a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], schedule = direct>)

// -----

// expected-error @+1 {{'gemm.matmul' op grouped and batched exclude each other (a grouped kernel's B is already a batch of G matrices): use one}}
gemm.matmul @general_batched a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) batched grouped(general)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op `general` is a form of grouped kernels: write grouped(general)}}
gemm.matmul @general_alone a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>) attributes {general}

// -----

// expected-error @+2 {{expected 'general'}}
gemm.matmul @general_typo a(bf16, row) b(bf16, col) c(bf16, row) acc(f32) grouped(
    generl) config(#gemm.config<arch = sm_90a, tile = [128, 128, 64]>)

// -----

func.func @group_descriptor_operand(%table: !llvm.ptr<1>, %g: i32, %n: i32) {
  // expected-error @+1 {{'gemm.tma.group_descriptor' op attribute 'operand' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 2}}
  %d = gemm.tma.group_descriptor %table[%g], %n, 3 : !llvm.ptr<1> -> !gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>
  return
}

// -----

// Found by the fuzzer: gemm.arch = "sm_100a" on the kernel hid the module's
// target chip, whose NVVM verifier then rejected the converted op.
gpu.module @kernels [#nvvm.target<chip = "sm_384a">] {
  gpu.func @sm100_ops() kernel attributes {gemm.arch = "sm_100a"} {
    // expected-error @+1 {{'gemm.tmem.fence' op needs sm_100a, but this kernel targets sm_384a}}
    gemm.tmem.fence after_thread_sync
    gpu.return
  }
}
