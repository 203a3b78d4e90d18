//===- GroupProblemsKernel.cu - The prep kernel of general groups ---------===//
//
// Writes the general group table (gemm/Runtime/GroupProblems.h) from the
// caller's device array of G group records, on the caller's stream, so that
// the general grouped kernel launched after it finds every group's tiles
// and tensor maps with no host synchronisation. One CTA: the groups are
// taken blockDim at a time, each thread one group; a block-wide scan of
// their tile-unit counts gives each group its first unit. The thread then
// writes its group's entry and, for a valid group with tiles, its three
// tensor maps: the host-encoded template (a __grid_constant__ parameter:
// box, swizzle, element type, L2 promotion) copied into the table, then its
// global address, dims and stride set with `tensormap.replace`.
//
// Memory model (PTX ISA, "tensormap.replace" and "fence.proxy.tensormap"):
// the copy and the tensormap.replace instructions write the tensor map
// through the generic proxy; the TMA unit reads it through the tensormap
// proxy. The writing thread ends with `fence.proxy.tensormap::generic.
// release.gpu`; the GEMM kernel, launched after this one on the same stream
// (so these writes happen before it starts), executes
// `fence.proxy.tensormap::generic.acquire.gpu [map], 128` in each thread that
// issues TMA copies with the map, before its first copy
// (gemm.tma.acquire_descriptor). The pair is what makes the new contents
// visible to the tensormap proxy, which may otherwise hold a stale copy of
// the map at that address (the previous launch's, in a loop over problems).
//
// The per-group arithmetic and rules are general::checkGroup / unitsOf /
// writeEntry / writesMaps / tensorMapFields, which the unit tests and the
// simulator (through buildGeneralTable) run on the CPU.
//
// tensormap.replace exists on sm_90a (and later arch-specific targets): this
// file is compiled for sm_90a alone (lib/Runtime/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupProblems.h"
#include "gemm/Runtime/GroupProblemsLaunch.h"

#include <cub/block/block_scan.cuh>
#include <cuda_runtime_api.h>

namespace gemm::runtime {
namespace {

using general::GroupError;
using general::GroupLayouts;
using general::GroupProblem;

constexpr unsigned Threads = 1024;
using BlockScan = cub::BlockScan<uint64_t, Threads>;

/// Copies the 128-byte template into `map` (global memory, 128-byte
/// aligned) and sets the group's address, dims and stride
/// (general::tensorMapFields, which the simulator uses too).
__device__ void writeTensorMap(void *map, const CUtensorMap &templ,
                               const general::TensorMapFields &fields) {
  const uint4 *from = reinterpret_cast<const uint4 *>(&templ);
  uint4 *to = static_cast<uint4 *>(map);
  for (int i = 0; i < 8; ++i)
    to[i] = from[i];
  uint64_t address = fields.address;
  uint32_t inner = fields.dims[0], outer = fields.dims[1];
  // Bytes between the outer dimension's lines (CUDA >= 12.5 takes bytes).
  uint64_t stride = fields.strideBytes;
  asm volatile(
      "tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(
          map),
      "l"(address)
      : "memory");
  asm volatile(
      "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, %1;" ::"l"(
          map),
      "r"(inner)
      : "memory");
  asm volatile(
      "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(
          map),
      "r"(outer)
      : "memory");
  asm volatile(
      "tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %1;" ::
          "l"(map),
      "l"(stride)
      : "memory");
}

__global__ void __launch_bounds__(Threads)
    generalTableKernel(const GroupProblem *problems, uint32_t groups,
                       GroupLayouts layouts, uint32_t unitRows,
                       uint32_t unitCols, uint32_t *table,
                       const __grid_constant__ CUtensorMap templateA,
                       const __grid_constant__ CUtensorMap templateB,
                       const __grid_constant__ CUtensorMap templateC) {
  __shared__ BlockScan::TempStorage scanStorage;
  // (group << 8 | reason) of the first invalid group; ~0: none.
  __shared__ unsigned long long firstError;
  unsigned t = threadIdx.x;
  if (t == 0)
    firstError = ~0ull;
  __syncthreads();
  uint64_t units = 0;
  char *maps =
      reinterpret_cast<char *>(table) + general::descriptorsOffset(groups);
  bool wroteMaps = false;
  for (uint64_t chunk = 0; chunk < groups; chunk += Threads) {
    uint64_t g = chunk + t;
    GroupProblem p;
    uint64_t count = 0;
    GroupError error = GroupError::None;
    if (g < groups) {
      p = problems[g];
      error = general::checkGroup(p, layouts);
      if (error == GroupError::None)
        count = general::unitsOf(p, unitRows, unitCols);
    }
    uint64_t inclusive = 0, chunkUnits = 0;
    BlockScan(scanStorage).InclusiveSum(count, inclusive, chunkUnits);
    uint64_t first = units + inclusive - count;
    // The kernel numbers units with 32-bit integers.
    if (error == GroupError::None && first + count >= (uint64_t(1) << 31))
      error = GroupError::TooManyUnits;
    if (error != GroupError::None)
      atomicMin(&firstError, (unsigned long long)(g << 8 | uint32_t(error)));
    if (g < groups) {
      general::writeEntry(table, g, first, p);
      if (general::writesMaps(error, count)) {
        const CUtensorMap *templates[3] = {&templateA, &templateB, &templateC};
        for (int which = 0; which < 3; ++which)
          writeTensorMap(maps + (general::MapsPerGroup * g + which) *
                                    general::TensorMapBytes,
                         *templates[which],
                         general::tensorMapFields(p, layouts, which));
        wroteMaps = true;
      }
    }
    units += chunkUnits;
    // The next chunk's scan reuses the storage.
    __syncthreads();
  }
  // Release this thread's tensor-map writes to the tensormap proxy; the
  // kernel's threads acquire each map before their TMA copies use it.
  if (wroteMaps)
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  if (t == 0) {
    bool valid = firstError == ~0ull;
    table[0] = valid ? uint32_t(units) : 0u;
    table[1] = valid ? 0u : uint32_t(firstError >> 8) + 1;
    table[2] = valid ? 0u : uint32_t(firstError & 0xff);
    table[3] = 0;
  }
}

} // namespace

void launchGeneralTable(CUdeviceptr problems, uint64_t groups,
                        const general::GroupLayouts &layouts, uint32_t unitRows,
                        uint32_t unitCols, const CUtensorMap templates[3],
                        CUdeviceptr table, CUstream stream) {
  generalTableKernel<<<1, Threads, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const GroupProblem *>(problems), uint32_t(groups),
      layouts, unitRows, unitCols, reinterpret_cast<uint32_t *>(table),
      templates[0], templates[1], templates[2]);
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw Error(ErrorKind::Cuda,
                std::string("launching the general group table prep kernel: ") +
                    cudaGetErrorString(status));
}

} // namespace gemm::runtime
