//===- StagingCopy.cu - The row copy kernel of staging --------------------===//
//
// Copies the rows of a staged matrix between the caller's packed buffer and
// its aligned scratch copy. The per-thread work is staging::copyChunk
// with its device memory accesses (gemm/Runtime/StagingCopy.h; the unit
// tests run copyChunk on the CPU); this file adds the kernel and its launch.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Staging.h"

#include <cuda_runtime_api.h>

#include <algorithm>

namespace gemm::runtime {
namespace {

using staging::DeviceMemory;
using staging::RowCopy;

/// Up to two copies in one launch (staging's A and B before the kernel: one
/// launch less in front of every staged GEMM); blockIdx.z picks the copy.
struct RowCopies {
  RowCopy copy[2];
  uint64_t chunksPerRow[2];
};

/// x: the 16-byte words of a row, y: rows, both striding by the grid
/// (rowCopyLaunch picks the shape; a launch of two copies has the larger
/// grid of the two, so the smaller copy's surplus blocks find no work).
__global__ void __launch_bounds__(256) copyRowsKernel(RowCopies copies) {
  DeviceMemory memory;
  const RowCopy &copy = copies.copy[blockIdx.z];
  uint64_t chunksPerRow = copies.chunksPerRow[blockIdx.z];
  uint64_t firstChunk = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  uint64_t chunkStride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t row = blockIdx.y * uint64_t(blockDim.y) + threadIdx.y;
       row < copy.rows; row += uint64_t(gridDim.y) * blockDim.y)
    for (uint64_t k = firstChunk; k < chunksPerRow; k += chunkStride)
      staging::copyChunk(copy, row, k, memory);
}

} // namespace

void copyRows(const std::vector<RowCopy> &copies, CUstream stream,
              const std::string &what) {
  RowCopies batch = {};
  uint32_t count = 0;
  std::array<uint32_t, 2> block = {0, 0}, grid = {1, 1};
  for (const RowCopy &copy : copies) {
    if (copy.rows == 0 || copy.rowBytes == 0)
      continue;
    if (count == 2)
      throw Error(ErrorKind::Usage,
                  "launching " + what + ": at most two copies per launch");
    RowCopyLaunch launch = rowCopyLaunch(copy);
    // Both copies share the block shape: the first copy's (the x extent is
    // a power of two the kernel strides by, so either copy runs with it).
    if (count == 0)
      block = launch.block;
    grid[0] = std::max(grid[0], launch.grid[0]);
    grid[1] = std::max(grid[1], launch.grid[1]);
    batch.copy[count] = copy;
    batch.chunksPerRow[count] = launch.chunksPerRow;
    ++count;
  }
  if (count == 0)
    return;
  copyRowsKernel<<<dim3(grid[0], grid[1], count), dim3(block[0], block[1]), 0,
                   stream>>>(batch);
  if (cudaError_t error = cudaGetLastError(); error != cudaSuccess)
    throw Error(ErrorKind::Cuda, "launching " + what + ": " +
                                     cudaGetErrorName(error) + " (" +
                                     cudaGetErrorString(error) + ")");
}

} // namespace gemm::runtime
