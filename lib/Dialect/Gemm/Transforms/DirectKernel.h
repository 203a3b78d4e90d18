//===- DirectKernel.h - the SM90 direct kernel (schedule = direct) -*- C++ -*-//
//
// gemm-materialize-sm90 builds two kernel families: the persistent,
// warp-specialized TMA kernel (MaterializeSM90.cpp) and, for `schedule =
// direct`, a kernel that reads A and B and writes C with plain loads and
// stores at any alignment (MaterializeSM90Direct.cpp). docs/SM90.md ("The
// direct kernel") describes the latter.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_DIALECT_GEMM_TRANSFORMS_DIRECTKERNEL_H
#define GEMM_LIB_DIALECT_GEMM_TRANSFORMS_DIRECTKERNEL_H

#include "gemm/Bundle/Manifest.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"

namespace mlir::gemm {

/// Replaces nothing: builds the direct kernel of `matmul` (an sm_90a
/// gemm.matmul with schedule = direct) in a new gpu.module before it and
/// returns its launch contract, or fails with a diagnostic on the matmul.
FailureOr<::gemm::bundle::KernelManifest>
materializeDirectKernel(MatmulOp matmul);

} // namespace mlir::gemm

#endif // GEMM_LIB_DIALECT_GEMM_TRANSFORMS_DIRECTKERNEL_H
