// RUN: gemm-opt %s -split-input-file -verify-diagnostics
//
// Every diagnostic of the low-precision GEMMs (docs/LowPrecision.md): the
// element types of gemm.matmul, #gemm.quant, and the scale ops.

//===----------------------------------------------------------------------===//
// #gemm.quant
//===----------------------------------------------------------------------===//

// expected-error @+2 {{a = col: A is scaled per tensor, per row or per 1 x 128 block; per-column scales belong to b}}
gemm.matmul @a_col a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{b = row: B is scaled per tensor, per column of C (b = col) or per 128 x 128 block; per-row scales belong to a}}
gemm.matmul @b_row a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<b = row>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{c = row: the output scale is one f32 per tensor (c = tensor)}}
gemm.matmul @c_row a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<c = row>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{block-wise scales go together: a = block (1 x 128) with b = block (128 x 128), got a = block, b = tensor}}
gemm.matmul @half_block a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{promote_every must be in [1, 16] k-blocks, got 0}}
gemm.matmul @promote_zero a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<promote_every = 0>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{promote_every applies to accumulate = promoted}}
gemm.matmul @fast_promote a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<accumulate = fast, promote_every = 4>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{block-wise scales are applied when the partial sums are promoted; accumulate = fast has no promotion}}
gemm.matmul @block_fast a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block, accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+2 {{block-wise scales change every 128-deep k-block, so the partial sums are promoted every k-block; got promote_every = 2}}
gemm.matmul @block_every a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = block, b = block, promote_every = 2>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

//===----------------------------------------------------------------------===//
// gemm.matmul element types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'gemm.matmul' op 8-bit integer operands must say their signedness: use si8 or ui8 instead of i8}}
gemm.matmul @signless a(i8, row) b(i8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op wgmma has no instruction for A of 'f8E4M3FN' with B of 'bf16'}}
gemm.matmul @fp8_bf16 a(f8E4M3FN, row) b(bf16, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op wgmma has no instruction for A of 'si8' with B of 'f8E4M3FN'}}
gemm.matmul @s8_fp8 a(si8, row) b(f8E4M3FN, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op WGMMA reads 'f8E4M3FN' x 'f8E4M3FN' operands from shared memory only K-major (no transpose for 8-bit and tf32 types): use a(T, row) and b(T, col), i.e. transpose the MN-major operand in memory first}}
gemm.matmul @fp8_mn_major a(f8E4M3FN, col) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op WGMMA reads 'si8' x 'si8' operands from shared memory only K-major}}
gemm.matmul @int8_mn_major a(si8, row) b(si8, row) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op WGMMA reads 'f32' x 'f32' operands from shared memory only K-major}}
gemm.matmul @tf32_mn_major a(f32, col) b(f32, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32]>)

// -----

// expected-error @+1 {{'gemm.matmul' op accumulator type must be 'i32' for 'si8' x 'ui8' operands, got 'f32'}}
gemm.matmul @int8_acc a(si8, row) b(ui8, col) c(i32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op C element type of an int8 GEMM must be i32 (the s32 accumulator, signless) or bf16, f16, f32 (dequantised), got 'f8E4M3FN'}}
gemm.matmul @int8_fp8_out a(si8, row) b(si8, col) c(f8E4M3FN, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// A signed or unsigned i32 is not the s32 accumulator's type: the lowering
// converted it as a float (found by gemm-fuzz on the GPU machine's cores).
// expected-error @+1 {{'gemm.matmul' op C element type of an int8 GEMM must be i32 (the s32 accumulator, signless) or bf16, f16, f32 (dequantised), got 'si32'}}
gemm.matmul @int8_si32_out a(si8, row) b(si8, col) c(si32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [64, 96, 128], schedule = pingpong>)

// -----

// expected-error @+1 {{'gemm.matmul' op C element type of an int8 GEMM must be i32 (the s32 accumulator, signless) or bf16, f16, f32 (dequantised), got 'ui32'}}
gemm.matmul @int8_ui32_out a(ui8, row) b(ui8, col) c(ui32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op C element type of an fp8 GEMM must be bf16, f16, f32, f8E4M3FN or f8E5M2, got 'i32'}}
gemm.matmul @fp8_i32_out a(f8E4M3FN, row) b(f8E4M3FN, col) c(i32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op C element type must be bf16, f16 or f32, got 'f8E4M3FN'}}
gemm.matmul @tf32_fp8_out a(f32, row) b(f32, col) c(f8E4M3FN, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 32]>)

// -----

// expected-error @+1 {{'gemm.matmul' op scales and accumulation (quant) apply to fp8 and int8 inputs, not 'bf16'}}
gemm.matmul @bf16_quant a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 64]>)

// -----

// expected-error @+1 {{'gemm.matmul' op accumulate and promote_every apply to fp8 inputs: int8 accumulates exactly in s32}}
gemm.matmul @int8_fast a(si8, row) b(si8, col) c(i32, row) acc(i32)
    quant(#gemm.quant<accumulate = fast>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op block-wise scales are implemented for fp8 inputs; int8 takes per-tensor, per-row (a) and per-column (b) dequantisation scales}}
gemm.matmul @int8_block a(si8, row) b(si8, col) c(bf16, row) acc(i32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op an i32 output holds the raw s32 accumulator; dequantisation scales need a bf16, f16 or f32 output}}
gemm.matmul @int8_i32_scaled a(si8, row) b(si8, col) c(i32, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op an fp8 output needs an output scale: add c = tensor to the quant attribute}}
gemm.matmul @fp8_out_unscaled a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op c = tensor: the output scale applies to fp8 outputs only, got C of 'bf16'}}
gemm.matmul @bf16_out_scaled a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op block-wise B scales cover 128 columns; tile N of 96 must divide 128 or be a multiple of 64 (e.g. 64, 128, 192, 256)}}
gemm.matmul @block_n96 a(f8E4M3FN, row) b(f8E4M3FN, col) c(f32, row) acc(f32)
    quant(#gemm.quant<a = block, b = block>)
    config(#gemm.config<arch = sm_90a, tile = [128, 96, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op tile N of 40 is not a legal WGMMA N (8, 16, 24 or a multiple of 16 up to 256, for 8-bit integers)}}
gemm.matmul @int8_n40 a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 40, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op scales (quant) are implemented for sm_90a kernels only}}
gemm.matmul @sm100_quant a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 128], schedule = warp_roles>)

// -----

// expected-error @+1 {{'gemm.matmul' op A element type must be bf16, f16, f8E4M3FN or f8E5M2, got 'si8'}}
gemm.matmul @sm100_int8 a(si8, row) b(si8, col) c(bf16, row) acc(f32)
    config(#gemm.config<arch = sm_100a, tile = [128, 256, 128], schedule = warp_roles>)

// -----

// An fp8 output's epilogue region yields the f32 value the kernel scales
// and rounds.
// expected-error @+1 {{'gemm.matmul' op epilogue region must yield one 'f32' value}}
gemm.matmul @fp8_out_region a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, row) acc(f32)
    quant(#gemm.quant<c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>) {
^bb0(%v: f32):
  %t = arith.truncf %v : f32 to f8E4M3FN
  gemm.yield %t : f8E4M3FN
}

// -----

// A dequantised int8 accumulator reaches the region as f32.
// expected-error @+1 {{'gemm.matmul' op epilogue region must take one 'f32' accumulator value}}
gemm.matmul @int8_region a(si8, row) b(si8, col) c(bf16, row) acc(i32)
    quant(#gemm.quant<a = row, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>) {
^bb0(%v: i32):
  %f = arith.sitofp %v : i32 to bf16
  gemm.yield %f : bf16
}

// -----

//===----------------------------------------------------------------------===//
// Scale ops
//===----------------------------------------------------------------------===//

func.func @rows_length(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemm.scale.rows' op a thread holds 2 rows of each of 1 to 4 64-row atoms, so the result has 2, 4, 6 or 8 elements, got 3}}
  %r = gemm.scale.rows %p[%i] below(%i) : !llvm.ptr<1> -> vector<3xf32>
  return
}

// -----

func.func @cols_length(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemm.scale.cols' op a thread holds 2 columns of each 8-column group of up to 256 columns, so the result has an even number of elements in [2, 64], got 66}}
  %r = gemm.scale.cols %p[%i] below(%i) : !llvm.ptr<1> -> vector<66xf32>
  return
}

// -----

func.func @scale_result(%acc: !gemm.accum<64 x 128 x i32>) {
  // expected-error @+1 {{'gemm.accum.scale' op the result is the accumulator's shape in f32, got '!gemm.accum<64 x 256 x f32>'}}
  %r = gemm.accum.scale %acc : !gemm.accum<64 x 128 x i32> -> !gemm.accum<64 x 256 x f32>
  return
}

// -----

func.func @scale_range(%acc: !gemm.accum<64 x 128 x f32>) {
  // expected-error @+1 {{'gemm.accum.scale' op values [60, 68) must be a non-empty range of whole 8-column groups (multiples of 4) within the thread's 64 accumulator values}}
  %r = gemm.accum.scale %acc values(60, 8) : !gemm.accum<64 x 128 x f32> -> !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @scale_cols_atoms(%acc: !gemm.accum<128 x 128 x f32>, %c: vector<16xf32>) {
  // expected-error @+1 {{'gemm.accum.scale' op cols(...) scales the columns of one atom; values [48, 80) span atoms}}
  %r = gemm.accum.scale %acc values(48, 32) cols(%c : vector<16xf32>) : !gemm.accum<128 x 128 x f32> -> !gemm.accum<128 x 128 x f32>
  return
}

// -----

func.func @scale_cols_count(%acc: !gemm.accum<64 x 128 x f32>, %c: vector<8xf32>) {
  // expected-error @+1 {{'gemm.accum.scale' op cols(...) holds 8 scales, but values [0, 32) are 16 of the thread's columns}}
  %r = gemm.accum.scale %acc values(0, 32) cols(%c : vector<8xf32>) : !gemm.accum<64 x 128 x f32> -> !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @scale_rows_count(%acc: !gemm.accum<128 x 128 x f32>, %r: vector<2xf32>) {
  // expected-error @+1 {{'gemm.accum.scale' op rows(...) holds 2 scales, but a thread holds 4 rows of the accumulator (2 per 64-row atom)}}
  %y = gemm.accum.scale %acc rows(%r : vector<2xf32>) : !gemm.accum<128 x 128 x f32> -> !gemm.accum<128 x 128 x f32>
  return
}

// -----

func.func @promote_blocks(%p: !gemm.accum<64 x 128 x f32>, %a: !gemm.accum<64 x 128 x f32>, %s: f32) {
  // expected-error @+1 {{'gemm.accum.promote' op by(...) has 3 scalars, which do not cut the accumulator's 128 columns into equal blocks of whole 8-column groups}}
  %r = gemm.accum.promote %p, %a by(%s, %s, %s) : !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @promote_slice_without_cols(%p: !gemm.accum<64 x 64 x f32>, %a: !gemm.accum<64 x 128 x f32>) {
  // expected-error @+1 {{'gemm.accum.promote' op partial sums of type '!gemm.accum<64 x 64 x f32>' need cols(...) to go into '!gemm.accum<64 x 128 x f32>'}}
  %r = gemm.accum.promote %p, %a : !gemm.accum<64 x 64 x f32> into !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @promote_slice_past_end(%p: !gemm.accum<64 x 64 x f32>, %a: !gemm.accum<64 x 128 x f32>) {
  // expected-error @+1 {{'gemm.accum.promote' op cols(72) must be a multiple of 8 with the partial sums' 64 columns inside the accumulator's 128}}
  %r = gemm.accum.promote %p, %a cols(72) : !gemm.accum<64 x 64 x f32> into !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @promote_slice_rows(%p: !gemm.accum<128 x 64 x f32>, %a: !gemm.accum<64 x 128 x f32>) {
  // expected-error @+1 {{'gemm.accum.promote' op partial sums '!gemm.accum<128 x 64 x f32>' must have the rows and element type of '!gemm.accum<64 x 128 x f32>'}}
  %r = gemm.accum.promote %p, %a cols(0) : !gemm.accum<128 x 64 x f32> into !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @promote_slice_blocks(%p: !gemm.accum<64 x 64 x f32>, %a: !gemm.accum<64 x 128 x f32>, %s: f32) {
  // expected-error @+1 {{'gemm.accum.promote' op by(...) has 3 scalars, which do not cut the accumulator's 64 columns into equal blocks}}
  %r = gemm.accum.promote %p, %a cols(64) by(%s, %s, %s) : !gemm.accum<64 x 64 x f32> into !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @promote_int(%p: !gemm.accum<64 x 128 x i32>, %a: !gemm.accum<64 x 128 x i32>) {
  // expected-error @+1 {{'gemm.accum.promote' op promotes f32 partial sums, got '!gemm.accum<64 x 128 x i32>'}}
  %r = gemm.accum.promote %p, %a : !gemm.accum<64 x 128 x i32>
  return
}

// -----

// Layouts and batches with low precision (merge of issues 17 and 18): one
// scale tensor serves a whole batch, so a batch takes per-tensor scales.
// expected-error @+1 {{'gemm.matmul' op batched kernels take per-tensor scales (one for the whole batch); a = row is not implemented: use a = tensor, or one kernel call per batch entry}}
gemm.matmul @batched_rows a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32) batched
    quant(#gemm.quant<a = row, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// expected-error @+1 {{'gemm.matmul' op batched kernels take per-tensor scales (one for the whole batch); b = col is not implemented}}
gemm.matmul @batched_cols a(si8, row) b(si8, col) c(bf16, row) acc(i32) batched
    quant(#gemm.quant<a = tensor, b = col>)
    config(#gemm.config<arch = sm_90a, tile = [128, 256, 128]>)

// -----

// The epilogue transposes 16- and 32-bit sub-tiles only.
// expected-error @+1 {{'gemm.matmul' op a(row) b(col) c(col): a column-major 'f8E4M3FN' C is not implemented (the epilogue stages fp8 sub-tiles row-major only): use c(row) and transpose the result, or a bf16/f16/f32 C}}
gemm.matmul @fp8_c_col a(f8E4M3FN, row) b(f8E4M3FN, col) c(f8E4M3FN, col) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor, c = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128]>)

// -----

// An N-major tf32 B: WGMMA transposes only 16-bit operands.
// expected-error @+1 {{'gemm.matmul' op WGMMA reads 'f32' x 'f32' operands from shared memory only K-major}}
gemm.matmul @tf32_n_major a(f32, row) b(f32, row) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 128, 32]>)

// -----

func.func @store_fp8_transposed(%acc: !gemm.accum<64 x 128 x f32>,
                                %stage: !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>,
                                %slot: i32, %s: f32) {
  // expected-error @+1 {{'gemm.accum.store_smem' op transposed staging takes 16- and 32-bit slots (boxes of 128 / sizeof(elem) lines), not 'f8E4M3FN'}}
  gemm.accum.store_smem %acc atom(0) col(0) transposed -> %stage[%slot] scale(%s)
      : !gemm.accum<64 x 128 x f32>, !gemm.smem<2 x 64 x 128 x f8E4M3FN, swizzle = 128>
  return
}

// -----

// The direct kernel (schedule = direct) is built for 16-bit inputs only.
// expected-error @+1 {{'gemm.matmul' op schedule = direct takes bf16 or f16 inputs without scales, got 'f8E4M3FN' x 'f8E4M3FN' with quant: use schedule = cooperative or pingpong for fp8, int8 and tf32 (f32) inputs}}
gemm.matmul @fp8_direct a(f8E4M3FN, row) b(f8E4M3FN, col) c(bf16, row) acc(f32)
    quant(#gemm.quant<a = tensor, b = tensor>)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 128], schedule = direct>)

// -----

// expected-error @+1 {{'gemm.matmul' op schedule = direct takes bf16 or f16 inputs without scales, got 'si8' x 'si8': use schedule = cooperative or pingpong for fp8, int8 and tf32 (f32) inputs}}
gemm.matmul @s8_direct a(si8, row) b(si8, col) c(i32, row) acc(i32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 128], schedule = direct>)

// -----

// expected-error @+1 {{'gemm.matmul' op schedule = direct takes bf16 or f16 inputs without scales, got 'f32' x 'f32': use schedule = cooperative or pingpong for fp8, int8 and tf32 (f32) inputs}}
gemm.matmul @tf32_direct a(f32, row) b(f32, col) c(f32, row) acc(f32)
    config(#gemm.config<arch = sm_90a, tile = [128, 64, 32], schedule = direct>)

// -----

// Found by the fuzzer: the message computed first + count in int64_t.
func.func @scale_range_overflow(%acc: !gemm.accum<64 x 128 x f32>) {
  // expected-error @+1 {{'gemm.accum.scale' op values [9223372036854775807, 9223372036854775815) must be a non-empty range of whole 8-column groups (multiples of 4) within the thread's 64 accumulator values}}
  %r = gemm.accum.scale %acc values(9223372036854775807, 8) : !gemm.accum<64 x 128 x f32> -> !gemm.accum<64 x 128 x f32>
  return
}

// -----

func.func @stage_swizzled(%p: !llvm.ptr<1>, %i: i32,
                          %ring: !gemm.smem<4 x 8 x 32 x f32, swizzle = 128>,
                          %pipe: !gemm.pipeline<stages = 4, producers = 33, consumers = 2>) {
  // expected-error @+1 {{'gemm.scale.stage' op the scale ring holds one unswizzled row of f32 scales per slot (!gemm.smem<S x 1 x R x f32, swizzle = 0>), got '!gemm.smem<4 x 8 x 32 x f32, swizzle = 128>'}}
  gemm.scale.stage %p + %i[%i] below(%i) -> %ring[%i] barrier %pipe[%i]
      : !llvm.ptr<1>, !gemm.smem<4 x 8 x 32 x f32, swizzle = 128>,
        !gemm.pipeline<stages = 4, producers = 33, consumers = 2>
  return
}

// -----

func.func @stage_uneven(%p: !llvm.ptr<1>, %i: i32,
                        %ring: !gemm.smem<4 x 1 x 80 x f32, swizzle = 0>,
                        %pipe: !gemm.pipeline<stages = 4, producers = 33, consumers = 2>) {
  // expected-error @+1 {{'gemm.scale.stage' op the warp's lanes copy whole 16-byte groups of the slot, the same number each, so the slot's 80 scales must be a multiple of 32}}
  gemm.scale.stage %p + %i[%i] below(%i) -> %ring[%i] barrier %pipe[%i]
      : !llvm.ptr<1>, !gemm.smem<4 x 1 x 80 x f32, swizzle = 0>,
        !gemm.pipeline<stages = 4, producers = 33, consumers = 2>
  return
}

// -----

// The warp's 32 arrivals must be counted by the full barriers.
func.func @stage_uncounted(%p: !llvm.ptr<1>, %i: i32,
                           %ring: !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>,
                           %pipe: !gemm.pipeline<stages = 4, producers = 1, consumers = 2>) {
  // expected-error @+1 {{'gemm.scale.stage' op the staging warp makes 32 arrivals on each full barrier besides the TMA producer's, but the pipeline counts 1 producer arrivals: declare producers = 33 (one TMA thread and the warp)}}
  gemm.scale.stage %p + %i[%i] below(%i) -> %ring[%i] barrier %pipe[%i]
      : !llvm.ptr<1>, !gemm.smem<4 x 1 x 128 x f32, swizzle = 0>,
        !gemm.pipeline<stages = 4, producers = 1, consumers = 2>
  return
}

// -----

func.func @stage_ring_stages(%p: !llvm.ptr<1>, %i: i32,
                             %ring: !gemm.smem<2 x 1 x 128 x f32, swizzle = 0>,
                             %pipe: !gemm.pipeline<stages = 4, producers = 33, consumers = 2>) {
  // expected-error @+1 {{'gemm.scale.stage' op the scale ring has 2 slots but the pipeline has 4 stages: give it one slot per stage}}
  gemm.scale.stage %p + %i[%i] below(%i) -> %ring[%i] barrier %pipe[%i]
      : !llvm.ptr<1>, !gemm.smem<2 x 1 x 128 x f32, swizzle = 0>,
        !gemm.pipeline<stages = 4, producers = 33, consumers = 2>
  return
}

// -----

func.func @rows_smem_bf16(%i: i32, %ring: !gemm.smem<4 x 1 x 128 x bf16, swizzle = 0>) {
  // expected-error @+1 {{'gemm.scale.rows_smem' op the scale ring holds one unswizzled row of f32 scales per slot}}
  %r = gemm.scale.rows_smem %ring[%i, %i] : !gemm.smem<4 x 1 x 128 x bf16, swizzle = 0> -> vector<2xf32>
  return
}

// -----

func.func @rows_smem_short(%i: i32, %ring: !gemm.smem<4 x 1 x 64 x f32, swizzle = 0>) {
  // expected-error @+1 {{'gemm.scale.rows_smem' op the thread's rows span 128 rows, more than the slot's 64 scales}}
  %r = gemm.scale.rows_smem %ring[%i, %i] : !gemm.smem<4 x 1 x 64 x f32, swizzle = 0> -> vector<4xf32>
  return
}
