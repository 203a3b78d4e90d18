//===- KernelLimits.h - Limits of the kernels we build ----------*- C++ -*-===//
//
// Bounds that the compiler (verifiers, materializers), the bundle manifest's
// validation and the dispatcher's KernelConfig::buildable all apply, so
// each has one definition here.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_BUNDLE_KERNELLIMITS_H
#define GEMM_BUNDLE_KERNELLIMITS_H

#include <cstdint>

namespace gemm::bundle {

/// 227 KiB: the opt-in dynamic shared memory per block on SM90 and SM100.
inline constexpr uint32_t MaxDynamicSmemBytes = 232448;
/// Shared memory an SM90 kernel keeps free of its stage ring for the
/// pipelines' barriers and alignment.
inline constexpr uint32_t SmemBarrierReserveBytes = 1024;
/// The longest raster panel (`swizzle`, in tiles) a config or
/// gemm.sched.static_tile takes: the lowering's 32-bit arithmetic needs the
/// value in range, and a panel past the grid's tiles is one panel anyway.
inline constexpr int64_t MaxRasterSwizzle = 65536;

} // namespace gemm::bundle

#endif // GEMM_BUNDLE_KERNELLIMITS_H
