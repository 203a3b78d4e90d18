//===- GroupTableKernel.cu - The prep kernel of grouped launches ----------===//
//
// Writes the group table (gemm/Runtime/GroupTable.h) from the caller's
// device array of group offsets (G + 1 offsets, or torch's G ends), on the
// caller's stream, so that the grouped kernel launched after it reads the
// groups' row units without any host synchronisation. One CTA: the groups
// are taken blockDim at a time, each thread one group; a block-wide scan of
// their unit counts gives each group its first entry, and the thread writes
// its group's entries. The per-group arithmetic is grouped::groupRows /
// unitsOf / writeUnit, which the unit tests run on the CPU
// (grouped::buildGroupTable).
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupTable.h"
#include "gemm/Runtime/GroupTableLaunch.h"

#include <cub/block/block_scan.cuh>
#include <cuda_runtime_api.h>

namespace gemm::runtime {
namespace {

constexpr unsigned Threads = 1024;
using BlockScan = cub::BlockScan<uint64_t, Threads>;

__global__ void __launch_bounds__(Threads)
    groupTableKernel(const void *offsets, int offsets64, int endsOnly,
                     uint32_t groups, uint64_t rows, uint32_t unitRows,
                     uint32_t *table, uint64_t capacity) {
  __shared__ BlockScan::TempStorage scanStorage;
  __shared__ uint32_t error;
  unsigned t = threadIdx.x;
  // 1 + the first invalid group; ~0u: none.
  if (t == 0)
    error = ~0u;
  // Before any thread's atomicMin.
  __syncthreads();
  uint64_t units = 0;
  // Offset i of the G + 1; G ends hold offsets 1..G after an implicit 0.
  auto offsetAt = [&](uint64_t i) -> int64_t {
    if (endsOnly) {
      if (i == 0)
        return 0;
      --i;
    }
    return offsets64 ? static_cast<const int64_t *>(offsets)[i]
                     : int64_t(static_cast<const int32_t *>(offsets)[i]);
  };
  for (uint64_t chunk = 0; chunk < groups; chunk += Threads) {
    uint64_t g = chunk + t;
    grouped::GroupRows rowsOf;
    uint64_t count = 0;
    if (g < groups) {
      rowsOf = grouped::groupRows(offsetAt(g), offsetAt(g + 1), rows);
      if (!rowsOf.valid)
        atomicMin(&error, uint32_t(g + 1));
      count = grouped::unitsOf(rowsOf, unitRows);
    }
    uint64_t inclusive = 0, chunkUnits = 0;
    BlockScan(scanStorage).InclusiveSum(count, inclusive, chunkUnits);
    uint64_t first = units + inclusive - count;
    for (uint64_t u = 0; u < count; ++u)
      grouped::writeUnit(table, capacity, first, u, rowsOf, uint32_t(g),
                         unitRows);
    units += chunkUnits;
    // The next chunk's scan reuses the storage.
    __syncthreads();
  }
  if (t == 0) {
    bool valid = error == ~0u;
    table[0] = valid ? uint32_t(units) : 0u;
    table[1] = valid ? 0u : error;
    table[2] = 0;
    table[3] = 0;
  }
}

} // namespace

void launchGroupTable(const DeviceOffsets &offsets, uint64_t groups,
                      uint64_t rows, uint32_t unitRows, CUdeviceptr table,
                      uint64_t tableBytes, CUstream stream) {
  uint64_t capacity = grouped::tableEntries(tableBytes);
  groupTableKernel<<<1, Threads, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const void *>(offsets.address), offsets.wide ? 1 : 0,
      offsets.ends ? 1 : 0, uint32_t(groups), rows, unitRows,
      reinterpret_cast<uint32_t *>(table), capacity);
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw Error(ErrorKind::Cuda,
                std::string("launching the group table prep kernel: ") +
                    cudaGetErrorString(status));
}

} // namespace gemm::runtime
