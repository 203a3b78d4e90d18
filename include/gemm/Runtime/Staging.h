//===- Staging.h - Aligned scratch copies of unaligned matrices -*- C++ -*-===//
//
// TMA needs every global row stride to be a multiple of 16 bytes. A packed
// matrix whose rows are not (bf16 with an odd inner size, say) can be staged
// through a scratch copy with aligned rows; this is the copy between the two.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_STAGING_H
#define GEMM_RUNTIME_STAGING_H

#include "gemm/Runtime/StagingCopy.h"

#include <cuda.h>

#include <array>
#include <string>

namespace gemm::runtime {

/// Launch shape of the copy kernel for `copy`: blocks of x * y = 256
/// threads, x of them along a row's 16-byte words, y along rows; the kernel
/// strides over words by grid.x * block.x and over rows by grid.y * block.y.
struct RowCopyLaunch {
  std::array<uint32_t, 2> block = {32, 8};
  std::array<uint32_t, 2> grid = {1, 1};
  uint64_t chunksPerRow = 0;
};
RowCopyLaunch rowCopyLaunch(const staging::RowCopy &copy);

/// Launches the row copy kernel on `stream`; `what` names the copy in a
/// launch error. Nothing is launched for an empty copy.
void copyRows(const staging::RowCopy &copy, CUstream stream,
              const std::string &what);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_STAGING_H
