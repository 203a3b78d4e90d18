//===- StagingCopy.cu - The row copy kernel of staging --------------------===//
//
// Copies the rows of a staged matrix between the caller's packed buffer and
// its aligned scratch copy. The per-thread work is staging::copyChunk
// (gemm/Runtime/StagingCopy.h), which the unit tests run on the CPU; this
// file adds the device memory accesses, the kernel and its launch.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Staging.h"

#include <cuda_runtime_api.h>

namespace gemm::runtime {
namespace {

using staging::Chunk;
using staging::RowCopy;

/// Global memory by raw address. Source and destination never overlap, so
/// loads go through the read-only path; stores are global stores that skip
/// L1 (the copy does not read what it writes).
struct DeviceMemory {
  __device__ Chunk load16(uint64_t at) const {
    uint4 v = __ldg(reinterpret_cast<const uint4 *>(at));
    Chunk chunk;
    chunk.w[0] = v.x;
    chunk.w[1] = v.y;
    chunk.w[2] = v.z;
    chunk.w[3] = v.w;
    return chunk;
  }
  __device__ uint32_t load1(uint64_t at) const {
    return __ldg(reinterpret_cast<const unsigned char *>(at));
  }
  __device__ void store16(uint64_t at, const Chunk &chunk) const {
    __stcg(reinterpret_cast<uint4 *>(at),
           make_uint4(chunk.w[0], chunk.w[1], chunk.w[2], chunk.w[3]));
  }
  __device__ void store8(uint64_t at, uint64_t value) const {
    __stcg(reinterpret_cast<unsigned long long *>(at), value);
  }
  __device__ void store4(uint64_t at, uint32_t value) const {
    __stcg(reinterpret_cast<unsigned int *>(at), value);
  }
  __device__ void store2(uint64_t at, uint32_t value) const {
    __stcg(reinterpret_cast<unsigned short *>(at),
           static_cast<unsigned short>(value));
  }
  __device__ void store1(uint64_t at, uint32_t value) const {
    __stcg(reinterpret_cast<unsigned char *>(at),
           static_cast<unsigned char>(value));
  }
};

/// x: the 16-byte words of a row, y: rows, both striding by the grid
/// (rowCopyLaunch picks the shape).
__global__ void __launch_bounds__(256)
    copyRowsKernel(RowCopy copy, uint64_t chunksPerRow) {
  DeviceMemory memory;
  uint64_t firstChunk = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  uint64_t chunkStride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t row = blockIdx.y * uint64_t(blockDim.y) + threadIdx.y;
       row < copy.rows; row += uint64_t(gridDim.y) * blockDim.y)
    for (uint64_t k = firstChunk; k < chunksPerRow; k += chunkStride)
      staging::copyChunk(copy, row, k, memory);
}

} // namespace

void copyRows(const RowCopy &copy, CUstream stream, const std::string &what) {
  if (copy.rows == 0 || copy.rowBytes == 0)
    return;
  RowCopyLaunch launch = rowCopyLaunch(copy);
  copyRowsKernel<<<dim3(launch.grid[0], launch.grid[1]),
                   dim3(launch.block[0], launch.block[1]), 0, stream>>>(
      copy, launch.chunksPerRow);
  if (cudaError_t error = cudaGetLastError(); error != cudaSuccess)
    throw Error(ErrorKind::Cuda, "launching " + what + ": " +
                                     cudaGetErrorName(error) + " (" +
                                     cudaGetErrorString(error) + ")");
}

} // namespace gemm::runtime
