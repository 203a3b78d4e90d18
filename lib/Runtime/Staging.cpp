//===- Staging.cpp - Aligned scratch copies of unaligned matrices ---------===//

#include "gemm/Runtime/Staging.h"

#include <algorithm>

namespace gemm::runtime {

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

} // namespace gemm::runtime
