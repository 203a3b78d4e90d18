//===- GroupTableLaunch.h - The prep kernel of grouped launches -*- C++ -*-===//

#ifndef GEMM_RUNTIME_GROUPTABLELAUNCH_H
#define GEMM_RUNTIME_GROUPTABLELAUNCH_H

#include <cuda.h>

#include <cstdint>

namespace gemm::runtime {

/// The caller's device array of group offsets: the G + 1 offsets (group g
/// is rows [offsets[g], offsets[g + 1])), or, with `ends`, the G cumulative
/// ends of torch._grouped_mm's `offs` (the first group starts at row 0).
/// int64 entries when `wide`, else int32.
struct DeviceOffsets {
  CUdeviceptr address = 0;
  bool wide = false;
  bool ends = false;
};

/// Launches the prep kernel that writes the group table of a grouped kernel
/// (gemm/Runtime/GroupTable.h) at `table` (`tableBytes`: the plan's
/// LaunchPlan::groupTableBytes) from the `groups` groups' `offsets` over
/// `rows` rows of A, for row units of `unitRows` rows (tile M x cluster M),
/// on `stream`. Asynchronous: the grouped kernel launched after it on the
/// same stream reads the table.
void launchGroupTable(const DeviceOffsets &offsets, uint64_t groups,
                      uint64_t rows, uint32_t unitRows, CUdeviceptr table,
                      uint64_t tableBytes, CUstream stream);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_GROUPTABLELAUNCH_H
