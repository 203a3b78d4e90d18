//===- StreamK.h - The units a stream-K schedule shares ---------*- C++ -*-===//
//
// The plan of a stream-K kernel (gemm.sched.stream_k_plan): the kernel
// computes it on the GPU (its lowering emits the same arithmetic), the
// simulator executes it and the dispatcher's model estimates the kernel's
// time from it, so the three agree by using this one definition (the
// lowering is checked against it in test/Conversion/GemmToNVVM).
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_BUNDLE_STREAMK_H
#define GEMM_BUNDLE_STREAMK_H

#include <algorithm>
#include <cstdint>

namespace gemm::bundle {

/// The most CTAs that share one tile unit's k-blocks: a unit is summed from
/// at most that many partial tiles.
inline constexpr uint32_t StreamKMaxWorkersPerUnit = 4;

struct StreamKPlan {
  /// Units computed whole, one per CTA at a time: whole waves when any
  /// unit is shared, else all of them.
  uint32_t dpUnits = 0;
  /// CTAs that compute a share of the other units: workersPerUnit each.
  uint32_t workers = 0;
  uint32_t workersPerUnit = 0;
};

/// Of `units` tile units on `ctas` CTAs (> 0) with `kBlocks` k-blocks each:
/// the last partial wave of r = units mod ctas units is shared when each of
/// its units can go to s = min(maxWorkersPerUnit, kBlocks, ctas / r) >= 2
/// workers, which then compute the same k-range [i kBlocks / s, (i + 1)
/// kBlocks / s) of different units at the same time, as the CTAs of a whole
/// wave compute the same k-block: concurrent CTAs read the same k-slab of A
/// and B, which L2 serves once. Ranges that straddle units instead put
/// concurrent CTAs at unrelated k-blocks, and on the H200 those schedules
/// ran below the whole-tile one (bench/results/2026-11-28-h200-stream-k).
/// A partial wave of more than half the CTAs is computed whole: no aligned
/// split shortens it.
inline StreamKPlan streamKPlan(uint32_t units, uint32_t ctas, uint32_t kBlocks,
                               uint32_t maxWorkersPerUnit) {
  const uint32_t rest = units % ctas;
  const uint32_t perUnit =
      rest == 0 ? 0 : std::min({maxWorkersPerUnit, kBlocks, ctas / rest});
  if (perUnit < 2)
    return {units, 0, 0};
  return {units - rest, rest * perUnit, perUnit};
}

} // namespace gemm::bundle

#endif // GEMM_BUNDLE_STREAMK_H
