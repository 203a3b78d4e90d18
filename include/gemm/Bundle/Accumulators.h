//===- Accumulators.h - A consumer's accumulator registers -----*- C++ -*-===//
//
// How many accumulator registers an SM90 consumer thread holds for a tile,
// and the most that fit its setmaxnreg budget. The materializer refuses a
// tile past the budget and the dispatcher's KernelConfig::buildable says so
// before compiling, so both use this one definition.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_BUNDLE_ACCUMULATORS_H
#define GEMM_BUNDLE_ACCUMULATORS_H

#include <cstdint>

namespace gemm::bundle {

/// Accumulator registers per consumer thread that leave room for addresses
/// and the epilogue in the consumers' register budget: one WGMMA
/// accumulator, or (fp8 promotion) the partial sums and the f32 accumulator
/// together, whose promotion needs few other live values. Three consumers
/// (192-row cooperative tiles) have 80 registers fewer each.
inline constexpr int64_t MaxAccRegisters = 128;
inline constexpr int64_t MaxPromotedAccRegisters = 192;
inline constexpr int64_t ThreeConsumerMaxAccRegisters = 96;

/// The direct kernel (schedule = direct, one 128-thread warpgroup per 64
/// rows of the tile): registers per thread of its accumulator and of one
/// k-block's fragments of A and B, and the most that leave room for
/// addresses and bounds. At 160 (64x128) ptxas spilled;
/// test/PTX/sm90-direct.mlir checks the largest tiles below the limit.
inline constexpr int64_t MaxDirectRegisters = 144;
constexpr int64_t directRegisters(int64_t tileM, int64_t tileN, int64_t tileK) {
  int64_t threads = 2 * tileM;
  return tileN / 2 + tileM * tileK / threads + tileN * tileK / threads;
}

struct AccumulatorPlan {
  /// f32 (or s32) registers per consumer thread: the accumulator, and with
  /// promoted fp8 the partial sums (of one column slice) besides it.
  int64_t registers = 0;
  /// The most that fit (MaxAccRegisters and the others above).
  int64_t maxRegisters = 0;
  /// Promoted fp8: the column slices a k-block's partial sums are computed
  /// and promoted in, one after the other (1: the whole tile at once).
  int64_t promoteSlices = 1;

  constexpr bool fits() const { return registers <= maxRegisters; }
};

/// Promoted fp8 192-row tiles (three consumers) whose partial sums and f32
/// accumulator do not fit together compute a k-block's partial sums in
/// slices of this many columns, one after the other: 192x128 takes 64 + 32
/// of its 96 registers and runs M of 129-192 rows in one tile (0.99x of
/// cuBLASLt at 191x128256x4096, where 128x192 ran at 0.75x). Two consumers
/// keep whole tiles: their sliced 128x256, 256x128 and 64x256 ran 5-25%
/// below 128x192 and wider slices made ptxas spill
/// (bench/results/2026-11-29-h200-fp8-slices).
inline constexpr int64_t PromoteSliceColumns = 64;

/// Block-wise fp8 (128 x 128 B blocks): the columns of a tile `tileN` wide
/// that share one B scale per k-block. A tile of up to 128 columns lies in
/// one block column; a wider one takes one scale per 128 columns, or per 64
/// when its width is not a multiple of 128 (192: its origin may be in the
/// middle of a block, but each 64-column group lies in one).
constexpr int64_t blockScaleColumns(int64_t tileN) {
  return tileN <= 128 ? tileN : tileN % 128 == 0 ? 128 : 64;
}

/// The plan of a consumer holding `accRows` rows of a tile `tileN` wide
/// (`consumers` consumer warpgroups). `promoted`: fp8 partial sums promoted
/// into an f32 accumulator every `promoteEvery` k-blocks. Three consumers
/// whose whole tile's partial sums do not fit beside the f32 accumulator
/// take slices of PromoteSliceColumns if those fit: each slice is a
/// k-block's MMAs of its columns, waited for before the next slice's, so
/// promoteEvery must be 1 (each slice lies in one block-scale group).
constexpr AccumulatorPlan accumulatorPlan(int64_t accRows, int64_t tileN,
                                          int64_t consumers, bool promoted,
                                          int64_t promoteEvery) {
  AccumulatorPlan plan;
  int64_t whole = accRows / 64 * tileN / 2;
  plan.maxRegisters = consumers == 3 ? ThreeConsumerMaxAccRegisters
                      : promoted     ? MaxPromotedAccRegisters
                                     : MaxAccRegisters;
  plan.registers = promoted ? 2 * whole : whole;
  if (!promoted || plan.fits() || consumers != 3 || promoteEvery != 1 ||
      tileN % PromoteSliceColumns != 0)
    return plan;
  int64_t slice = accRows / 64 * PromoteSliceColumns / 2;
  if (whole + slice <= plan.maxRegisters) {
    plan.registers = whole + slice;
    plan.promoteSlices = tileN / PromoteSliceColumns;
  }
  return plan;
}

} // namespace gemm::bundle

#endif // GEMM_BUNDLE_ACCUMULATORS_H
