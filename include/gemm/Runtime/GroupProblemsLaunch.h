//===- GroupProblemsLaunch.h - The prep kernel of general groups -*- C++
//-*-===//

#ifndef GEMM_RUNTIME_GROUPPROBLEMSLAUNCH_H
#define GEMM_RUNTIME_GROUPPROBLEMSLAUNCH_H

#include "gemm/Runtime/GroupProblems.h"

#include <cuda.h>

#include <cstdint>

namespace gemm::runtime {

/// Launches the prep kernel that writes the general group table
/// (gemm/Runtime/GroupProblems.h) at `table` (general::tableBytes(groups)
/// bytes, 128-byte aligned) from the `groups` GroupProblem records at
/// `problems` (device memory), for tile units of `unitRows` x `unitCols`
/// (tile x cluster shape), copying the A, B, C tensor-map `templates` into
/// every group's maps. Asynchronous, on `stream`: the kernel launched after
/// it on the same stream reads the table. sm_90a only (tensormap.replace).
void launchGeneralTable(CUdeviceptr problems, uint64_t groups,
                        const general::GroupLayouts &layouts, uint32_t unitRows,
                        uint32_t unitCols, const CUtensorMap templates[3],
                        CUdeviceptr table, CUstream stream);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_GROUPPROBLEMSLAUNCH_H
