//===- GroupTableLaunch.h - The prep kernel of grouped launches -*- C++ -*-===//

#ifndef GEMM_RUNTIME_GROUPTABLELAUNCH_H
#define GEMM_RUNTIME_GROUPTABLELAUNCH_H

#include <cuda.h>

#include <cstdint>

namespace gemm::runtime {

/// Launches the prep kernel that writes the group table of a grouped kernel
/// (gemm/Runtime/GroupTable.h) at `table` (`tableBytes`: the plan's
/// LaunchPlan::groupTableBytes) from the G + 1 offsets at `offsets` (int64
/// when `offsets64`, else int32) over `rows` rows of A, for row units of
/// `unitRows` rows (tile M x cluster M), on `stream`. Asynchronous: the
/// grouped kernel launched after it on the same stream reads the table.
void launchGroupTable(CUdeviceptr offsets, bool offsets64, uint64_t groups,
                      uint64_t rows, uint32_t unitRows, CUdeviceptr table,
                      uint64_t tableBytes, CUstream stream);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_GROUPTABLELAUNCH_H
