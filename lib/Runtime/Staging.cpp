//===- Staging.cpp - Aligned scratch copies of unaligned matrices ---------===//

#include "gemm/Runtime/Staging.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Reference.h"

#include <algorithm>

namespace gemm::runtime {

std::string StagingCopyPlan::describe() const {
  std::string packed = "packed rows of " +
                       std::to_string(intoScratch ? srcPitch : dstPitch) +
                       " bytes";
  std::string aligned = "scratch rows of " +
                        std::to_string(intoScratch ? dstPitch : srcPitch) +
                        " bytes";
  return "tensor " + std::string(bundle::toString(tensor)) + " (" +
         (intoScratch ? packed + " -> " + aligned : aligned + " -> " + packed) +
         ")";
}

std::vector<StagingCopyPlan> stagingCopies(const LaunchPlan &plan) {
  std::vector<StagingCopyPlan> copies;
  for (Tensor t : {Tensor::A, Tensor::B, Tensor::C}) {
    if (!plan.isStaged(t))
      continue;
    const MatrixPlan &user = plan.matrix(t);
    const MatrixPlan &kernel = plan.kernelMatrix(t);
    StagingCopyPlan copy;
    copy.tensor = t;
    copy.intoScratch = t != Tensor::C;
    copy.rows = user.batch * user.outer;
    copy.rowBytes = user.inner * bundle::elementBytes(user.dtype);
    copy.srcPitch = copy.intoScratch ? user.ldBytes() : kernel.ldBytes();
    copy.dstPitch = copy.intoScratch ? kernel.ldBytes() : user.ldBytes();
    copy.srcBytes = copy.intoScratch ? user.bytes() : kernel.bytes();
    copy.dstBytes = copy.intoScratch ? kernel.bytes() : user.bytes();
    copies.push_back(copy);
  }
  return copies;
}

staging::RowCopy rowCopyAt(const StagingCopyPlan &copy, CUdeviceptr src,
                           CUdeviceptr dst) {
  staging::RowCopy rc;
  rc.dst = dst;
  rc.dstPitch = copy.dstPitch;
  rc.src = src;
  rc.srcPitch = copy.srcPitch;
  rc.rows = copy.rows;
  rc.rowBytes = copy.rowBytes;
  rc.srcBegin = src;
  rc.srcEnd = src + copy.srcBytes;
  return rc;
}

RowCopyLaunch rowCopyLaunch(const staging::RowCopy &copy) {
  constexpr uint32_t Threads = 256;
  constexpr uint64_t ChunksPerThread = 4;
  constexpr uint64_t MaxGridY = 65535;
  RowCopyLaunch launch;
  launch.chunksPerRow = staging::chunksPerRow(copy);
  // A warp at least along a row (stores stay coalesced), more for long rows;
  // the rest of the block takes further rows.
  uint32_t x = 32;
  while (x < Threads && x < launch.chunksPerRow)
    x *= 2;
  launch.block = {x, Threads / x};
  // About ChunksPerThread words per thread along a row, spread evenly over
  // the blocks a row needs (1025 words: two blocks of 513 and 512, not a
  // block of 1024 and a block of 1).
  uint64_t gridX =
      (launch.chunksPerRow + x * ChunksPerThread - 1) / (x * ChunksPerThread);
  uint64_t gridY = (copy.rows + launch.block[1] - 1) / launch.block[1];
  launch.grid = {static_cast<uint32_t>(std::max<uint64_t>(gridX, 1)),
                 static_cast<uint32_t>(
                     std::clamp<uint64_t>(gridY, uint64_t(1), MaxGridY))};
  return launch;
}

Staging::Staging(const LaunchPlan &plan, CUstream stream)
    : copies(stagingCopies(plan)), outputScratch(plan.kernelMatrix(Tensor::C)) {
  for (Tensor t : {Tensor::A, Tensor::B, Tensor::C}) {
    if (!plan.isStaged(t))
      continue;
    const MatrixPlan &m = plan.kernelMatrix(t);
    size_t i = static_cast<size_t>(t);
    scratch[i] = DeviceBuffer(m.bytes(), "the aligned scratch copy of tensor " +
                                             std::string(bundle::toString(t)));
    poison(scratch[i].get(), m.dtype, m.spanElements(), stream);
  }
}

CUdeviceptr Staging::kernelAddress(Tensor t, CUdeviceptr user) const {
  const DeviceBuffer &buffer = scratch[static_cast<size_t>(t)];
  return buffer.get() ? buffer.get() : user;
}

void Staging::poisonOutput(CUstream stream) const {
  const DeviceBuffer &c = scratch[static_cast<size_t>(Tensor::C)];
  if (c.get())
    poison(c.get(), outputScratch.dtype, outputScratch.spanElements(), stream);
}

void Staging::copyIn(CUdeviceptr a, CUdeviceptr b, CUstream stream) const {
  std::vector<staging::RowCopy> in;
  std::string what;
  for (const StagingCopyPlan &copy : copies) {
    if (!copy.intoScratch)
      continue;
    CUdeviceptr user = copy.tensor == Tensor::A ? a : b;
    in.push_back(
        rowCopyAt(copy, user, scratch[static_cast<size_t>(copy.tensor)].get()));
    what += (what.empty() ? "the staging copies of " : " and ") +
            copy.describe();
  }
  if (!in.empty())
    copyRows(in, stream, what);
}

void Staging::copyOut(CUdeviceptr c, CUstream stream) const {
  for (const StagingCopyPlan &copy : copies)
    if (!copy.intoScratch)
      copyRows(
          {rowCopyAt(copy, scratch[static_cast<size_t>(copy.tensor)].get(), c)},
          stream, "the staging copy of " + copy.describe());
}

} // namespace gemm::runtime
