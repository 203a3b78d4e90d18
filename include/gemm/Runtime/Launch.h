//===- Launch.h - TMA descriptors and kernel launch -------------*- C++ -*-===//

#ifndef GEMM_RUNTIME_LAUNCH_H
#define GEMM_RUNTIME_LAUNCH_H

#include "gemm/Runtime/Bundle.h"
#include "gemm/Runtime/GroupTableLaunch.h"
#include "gemm/Runtime/Plan.h"

#include <cuda.h>

#include <array>
#include <vector>

namespace gemm::runtime {

/// How many CTAs of this kernel can be co-resident on the GPU: one per SM
/// (persistent kernels are written for that), or for clusters
/// cuOccupancyMaxActiveClusters * cluster size. Throws Error(Usage) when the
/// kernel cannot be resident at all (too much shared memory or registers).
uint32_t persistentCtaCapacity(const LoadedKernel &kernel,
                               const bundle::KernelManifest &manifest,
                               const DeviceInfo &gpu);

/// cuTensorMapEncodeTiled for `plan` at `base`, after checking the TMA rules
/// (base alignment included) so a violation names the tensor and the rule.
CUtensorMap encodeTensorMap(const TmaPlan &plan, CUdeviceptr base);

/// The descriptors of `plan`, in plan.tma order, for the given A, B, C.
std::vector<CUtensorMap> encodeTensorMaps(const LaunchPlan &plan, CUdeviceptr a,
                                          CUdeviceptr b, CUdeviceptr c);

/// cuLaunchKernelEx with the plan's grid, block, cluster and dynamic shared
/// memory; parameters in manifest order (descriptors by value, sizes as u32,
/// workspaces as the u64 addresses in plan.workspaces order, pointers as the
/// u64 addresses `matrices` gives for A, B, C: the kernel's view of each,
/// i.e. the staged copy where the plan stages it; leading dimensions as
/// u64; scale factors and the amax as the u64 addresses in plan.scales
/// order; a grouped kernel's group table as `groupTable`, which the prep
/// kernel must have written on `stream` before: launchGrouped). Throws
/// Error(Usage) when the kernel takes scales and fewer are given, or a
/// group table and none is given.
void launchKernel(const LoadedKernel &kernel, const LaunchPlan &plan,
                  const std::vector<CUtensorMap> &tensorMaps,
                  const std::vector<CUdeviceptr> &workspaces,
                  const std::array<CUdeviceptr, 3> &matrices, CUstream stream,
                  const std::vector<CUdeviceptr> &scales = {},
                  CUdeviceptr groupTable = 0);

/// A grouped kernel's launch: the prep kernel that writes the group table
/// at `groupTable` (plan.groupTableBytes) from the groups' `offsets` (on
/// the device), then the kernel, both on `stream`, with no host
/// synchronisation.
void launchGrouped(const LoadedKernel &kernel, const LaunchPlan &plan,
                   const std::vector<CUtensorMap> &tensorMaps,
                   const std::array<CUdeviceptr, 3> &matrices,
                   const DeviceOffsets &offsets, CUdeviceptr groupTable,
                   CUstream stream);

/// A general grouped kernel's launch (plan.general): the prep kernel that
/// writes the general group table at `groupTable` (plan.groupTableBytes,
/// 128-byte aligned) from the G GroupProblem records at `problems` (device
/// memory; gemm/Runtime/GroupProblems.h), copying `tensorMaps` (the
/// plan's templates, encodeTensorMaps) into every group's maps, then the
/// kernel, both on `stream`, with no host synchronisation. A record the
/// prep kernel refuses leaves the table's unit count 0 (the kernel writes
/// nothing) and its error word set: readGeneralTableError.
void launchGeneral(const LoadedKernel &kernel, const LaunchPlan &plan,
                   const std::vector<CUtensorMap> &tensorMaps,
                   CUdeviceptr problems, CUdeviceptr groupTable,
                   CUstream stream);

/// The general group table's error after the launch has completed: empty,
/// or "group 3 (of 8): a leading dimension ..." (a synchronous copy of the
/// header on `stream`).
std::string readGeneralTableError(const LaunchPlan &plan,
                                  CUdeviceptr groupTable, CUstream stream);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_LAUNCH_H
