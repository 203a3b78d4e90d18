//===- Staging.cpp - Which matrices the runtime stages for TMA ------------===//

#include "gemm/Dispatch/Staging.h"
#include "gemm/Dispatch/KernelConfig.h"

namespace gemm::dispatch {

using bundle::Tensor;

bool realignPays(Tensor tensor, const StagingShape &shape, uint64_t ldBytes,
                 RealignPolicy policy) {
  if (tensor == Tensor::C || ldBytes % StagingRowAlignmentBytes == 0 ||
      policy == RealignPolicy::Never)
    return false;
  if (policy == RealignPolicy::Always)
    return true;
  if (ldBytes % L2SectorBytes == 0)
    return false;
  uint64_t reuse = tensor == Tensor::A ? shape.n : shape.m;
  return reuse >= RealignMinReuse && double(shape.m) * double(shape.n) *
                                             double(shape.k) *
                                             double(shape.batch) >=
                                         RealignMinMacs;
}

bool tmaStoresWholeChunks(bundle::DType dtype, uint64_t lineElements) {
  return lineElements * bundle::elementBytes(dtype) % TmaAlignmentBytes == 0;
}

bool stagedForTma(Tensor tensor, const StagingShape &shape, bundle::DType dtype,
                  uint64_t ld, uint64_t address, RealignPolicy realign,
                  const bundle::TensorLayouts &layouts) {
  uint64_t ldBytes = ld * bundle::elementBytes(dtype);
  if (tensor == Tensor::C &&
      !tmaStoresWholeChunks(dtype, layouts.c == bundle::Layout::Row ? shape.n
                                                                    : shape.m))
    return true;
  return ldBytes % TmaAlignmentBytes != 0 || address % TmaAlignmentBytes != 0 ||
         realignPays(tensor, shape, ldBytes, realign);
}

std::array<bool, 3> packedStaging(const StagingShape &shape,
                                  bundle::DType inType,
                                  std::optional<bundle::DType> outType,
                                  const bundle::TensorLayouts &layouts,
                                  RealignPolicy realign) {
  using bundle::Layout;
  // A row (col) stores rows of K (M), B col (row) rows of K (N), C row (col)
  // rows of N (M).
  const uint64_t lda = layouts.a == Layout::Row ? shape.k : shape.m;
  const uint64_t ldb = layouts.b == Layout::Col ? shape.k : shape.n;
  const uint64_t ldc = layouts.c == Layout::Row ? shape.n : shape.m;
  return {stagedForTma(Tensor::A, shape, inType, lda, 0, realign),
          stagedForTma(Tensor::B, shape, inType, ldb, 0, realign),
          stagedForTma(Tensor::C, shape,
                       outType.value_or(KernelConfig::defaultOutput(inType)),
                       ldc, 0, realign, layouts)};
}

} // namespace gemm::dispatch
