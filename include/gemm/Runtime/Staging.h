//===- Staging.h - Aligned scratch copies of unaligned matrices -*- C++ -*-===//
//
// TMA needs every global row stride to be a multiple of 16 bytes. A packed
// matrix whose rows are not (bf16 with an odd inner size, say) is staged
// (UnalignedPolicy::Stage): the runtime keeps a scratch copy of it with
// aligned rows, allocated once per problem, and around every launch, on the
// launch's stream, copies A and B from the caller's packed buffers into their
// scratch copies and C from its scratch copy back into the caller's buffer.
// The kernel's tensor maps describe the scratch copies with the logical
// sizes as dims, so TMA never reads their row padding (it zero-fills outside
// the dims) and the padding needs no particular value.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_STAGING_H
#define GEMM_RUNTIME_STAGING_H

#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/StagingCopy.h"

#include <cuda.h>

#include <array>
#include <string>
#include <vector>

namespace gemm::runtime {

/// One staging copy of a plan, in bytes (CPU only).
struct StagingCopyPlan {
  Tensor tensor = Tensor::A;
  /// Caller's buffer to scratch (A, B: before the launch) or back (C: after).
  bool intoScratch = true;
  /// batch * outer rows of inner elements.
  uint64_t rows = 0, rowBytes = 0;
  uint64_t srcPitch = 0, dstPitch = 0;
  /// The source and destination buffers' sizes.
  uint64_t srcBytes = 0, dstBytes = 0;
  /// Bytes read plus bytes written: what the copy costs in memory traffic.
  uint64_t trafficBytes() const { return 2 * rows * rowBytes; }
  /// "tensor a: packed rows of 8200 bytes -> scratch rows of 8320 bytes".
  std::string describe() const;
};

/// The copies staging does around each launch of `plan`: staged A and B into
/// scratch (in that order), then staged C out of it. Empty when nothing is
/// staged.
std::vector<StagingCopyPlan> stagingCopies(const LaunchPlan &plan);

/// The copy `copy` is at these addresses (loads bounded by the source
/// buffer).
staging::RowCopy rowCopyAt(const StagingCopyPlan &copy, CUdeviceptr src,
                           CUdeviceptr dst);

/// Launch shape of the copy kernel for `copy`: blocks of x * y = 256
/// threads, x of them along a row's 16-byte words, y along rows; the kernel
/// strides over words by grid.x * block.x and over rows by grid.y * block.y.
struct RowCopyLaunch {
  std::array<uint32_t, 2> block = {32, 8};
  std::array<uint32_t, 2> grid = {1, 1};
  uint64_t chunksPerRow = 0;
};
RowCopyLaunch rowCopyLaunch(const staging::RowCopy &copy);

/// Launches the row copy kernel on `stream` for one or two copies (one
/// launch for both); `what` names them in a launch error. Empty copies are
/// skipped; nothing is launched when all are.
void copyRows(const std::vector<staging::RowCopy> &copies, CUstream stream,
              const std::string &what);

/// The scratch copies of one problem's staged matrices and the copies around
/// each launch. Without staged matrices it holds nothing and does nothing.
class Staging {
public:
  Staging() = default;
  /// Allocates a scratch buffer per staged matrix and fills it with the NaN
  /// poison once (so that a kernel reading row padding would fail --check).
  Staging(const LaunchPlan &plan, CUstream stream);

  bool any() const { return !copies.empty(); }
  /// The address the kernel's tensor map for `t` uses: the scratch copy when
  /// `t` is staged, else `user` (the caller's buffer).
  CUdeviceptr kernelAddress(Tensor t, CUdeviceptr user) const;
  /// Fills the scratch copy of C with the NaN poison (a check does this
  /// before the launch, so unwritten elements reach the caller's C as NaN).
  void poisonOutput(CUstream stream) const;
  /// Copies staged A and B from the caller's buffers into scratch.
  void copyIn(CUdeviceptr a, CUdeviceptr b, CUstream stream) const;
  /// Copies staged C from scratch into the caller's buffer.
  void copyOut(CUdeviceptr c, CUstream stream) const;

private:
  std::vector<StagingCopyPlan> copies;
  /// Indexed by Tensor; empty where not staged.
  std::array<DeviceBuffer, 3> scratch;
  MatrixPlan outputScratch;
};

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_STAGING_H
