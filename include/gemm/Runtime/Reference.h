//===- Reference.h - Reference GEMM, input and check kernels ----*- C++ -*-===//
//
// Simple, independent GPU kernels that validation rests on: seeded random
// normal inputs, NaN poisoning of outputs, a reference GEMM accumulating in
// f64, and a comparison that counts unwritten and non-finite elements.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_REFERENCE_H
#define GEMM_RUNTIME_REFERENCE_H

#include "gemm/Runtime/Plan.h"

#include <cuda.h>

#include <chrono>
#include <cstdint>

namespace gemm::runtime {

/// The NaN written before each run. For bf16, f16 and f32 it is a NaN payload
/// no arithmetic produces, so a still-poisoned element was never written and
/// is told apart from a computed NaN. fp8 has only the canonical NaN.
uint32_t poisonBits(DType dtype);

/// Fills every element (padding included) with poisonBits(dtype).
void poison(CUdeviceptr ptr, DType dtype, uint64_t elements, CUstream stream);

/// Standard normal values from a counter-based hash of (seed, tensor, batch,
/// row, column), rounded to the matrix's dtype: the same seed gives the same
/// values whatever the padding. Row padding is filled with poison, so a kernel
/// reading it produces NaN.
void fillRandomNormal(CUdeviceptr ptr, const MatrixPlan &matrix, uint64_t seed,
                      CUstream stream);

/// The small non-zero integers of gemm/Bundle/TestData.h (the kernel
/// simulator's inputs) for `seed`, rounded to the matrix's dtype (exactly:
/// every such integer is exact in every input type); row padding is filled
/// with poison. With these inputs every sum is exact, so C can be compared
/// bit for bit with the simulator's.
void fillSmallIntegers(CUdeviceptr ptr, const MatrixPlan &matrix, uint64_t seed,
                       CUstream stream);

/// Log-uniform f32 scale factors in [1/4, 4) from (seed, tensor,
/// granularity): scales of the wrong block, row or column change results by
/// factors, never by a rounding error.
void fillRandomScales(CUdeviceptr ptr, const ScalePlan &plan, uint64_t seed,
                      CUstream stream);

/// out (packed f32, batch x outer x inner) = the matrix `plan` at `in`
/// decoded to f32 and multiplied by its scale factors (`scale` at `scales`;
/// none when null): the dequantised operand the reference multiplies, in
/// the layout of `plan`. Inputs of any input dtype (fp8, 8-bit integers,
/// bf16, f16, f32).
void dequantize(CUdeviceptr in, const MatrixPlan &plan, const ScalePlan *scale,
                CUdeviceptr scales, CUdeviceptr out, CUstream stream);

/// out[b][m][n] = sum_k A[b][m][k] * B[b][n][k] for A and B in their
/// layouts (aPlan, bPlan), accumulated in f64 and stored as packed f32 in
/// the layout of `outPlan` (batch x M x N, or batch x N x M when C is
/// column-major). bf16, f16, f32 and fp8 inputs (dequantise others first).
void referenceGemm(CUdeviceptr a, const MatrixPlan &aPlan, CUdeviceptr b,
                   const MatrixPlan &bPlan, CUdeviceptr out,
                   const MatrixPlan &outPlan, CUstream stream);

struct CompareStats {
  uint64_t elements = 0;
  /// Still holding the poison pattern: never written.
  uint64_t unwritten = 0;
  /// NaN or infinity written by the kernel.
  uint64_t nonFinite = 0;
  /// Padding elements that no longer hold poison: writes past the row end.
  /// Not an error: padding only exists when rows are rounded up to the
  /// 16-byte TMA granule, and TMA stores write whole 16-byte chunks of a row
  /// (seen on the H200: the whole padding of each row of C gets written).
  uint64_t outOfBoundsWrites = 0;
  /// Non-finite reference values (the reference is broken).
  uint64_t referenceNonFinite = 0;
  /// Flat index (batch, row, column) of the first unwritten or non-finite
  /// element; UINT64_MAX when none.
  uint64_t firstBadIndex = UINT64_MAX;
  double errorSquared = 0, referenceSquared = 0;
  double maxAbsError = 0;
  /// The largest |reference| before referenceScale: the expected amax.
  double referenceMaxAbs = 0;

  /// ||out - ref||_F / ||ref||_F over the finite elements.
  double relativeError() const;
  uint64_t badElements() const {
    return unwritten + nonFinite + referenceNonFinite;
  }
};

/// Compares `out` (laid out as `outPlan`; bf16, f16, f32, fp8 or s32)
/// against the packed f32 reference times `referenceScale` (an fp8
/// output's output scale). Waits for the result, at most `timeout`.
CompareStats compareToReference(CUdeviceptr out, const MatrixPlan &outPlan,
                                CUdeviceptr reference, CUstream stream,
                                std::chrono::milliseconds timeout,
                                double referenceScale = 1.0);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_REFERENCE_H
