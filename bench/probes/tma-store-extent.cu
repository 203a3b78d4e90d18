// Which global elements does a TMA tile store (cp.async.bulk.tensor, shared
// to global) write when the tensor's lines are not a multiple of 16 bytes,
// and what does a load read there? The simulator's TMA model
// (lib/Simulator/OpsTma.cpp) and the rules for C (general::storesWholeChunks,
// dispatch::tmaStoresWholeChunks) rest on the answer.
//
// Each case stores a box of ones into a bf16 tensor of dims {dim0, dim1}
// with lines `ld` elements apart, every element poisoned (0x7fa5) first,
// through a host-encoded tensor map or one patched on the device with
// tensormap.replace (as the general grouped prep kernel does), and counts
// the elements written inside the tensor, in the lines' padding (columns
// dim0..ld-1) and in the lines past dim1. The load case fills the padding
// with ones and counts the box elements past dim0 that arrive nonzero.
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -o tma-store-extent \
//     bench/probes/tma-store-extent.cu -lcuda && ./tma-store-extent
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr uint16_t Poison = 0x7fa5, One = 0x3f80;

struct Case {
  const char *name;
  uint32_t dim0, dim1, ld, box0, box1;
  CUtensorMapSwizzle swizzle;
  int x, y;
  bool patched;
};

__global__ void patchMap(void *map, uint64_t address, uint32_t dim0,
                         uint32_t dim1, uint64_t strideBytes) {
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(map),
               "l"(address) : "memory");
  asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, %1;" ::"l"(map),
               "r"(dim0) : "memory");
  asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(map),
               "r"(dim1) : "memory");
  asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %1;" ::"l"(map),
               "l"(strideBytes) : "memory");
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
}

__device__ void storeOnes(const void *map, int x, int y, int elements) {
  extern __shared__ __align__(1024) uint16_t tile[];
  for (int i = threadIdx.x; i < elements; i += blockDim.x)
    tile[i] = One;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t from = uint32_t(__cvta_generic_to_shared(tile));
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"(map), "r"(x), "r"(y), "r"(from) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

__global__ void storeHostMap(const __grid_constant__ CUtensorMap map, int x,
                             int y, int elements) {
  storeOnes(&map, x, y, elements);
}

__global__ void storePatchedMap(const void *map, int x, int y, int elements) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(map) : "memory");
  storeOnes(map, x, y, elements);
}

// Loads a box at (0, 0) and copies it out to `out`.
__global__ void loadBox(const __grid_constant__ CUtensorMap map, int bytes,
                        uint16_t *out) {
  extern __shared__ __align__(1024) uint16_t tile[];
  __shared__ __align__(8) uint64_t barrier;
  uint32_t bar = uint32_t(__cvta_generic_to_shared(&barrier));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
    uint32_t to = uint32_t(__cvta_generic_to_shared(tile));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(to), "l"(&map), "r"(0), "r"(0), "r"(bar) : "memory");
    uint32_t done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;"
                   " selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(bar) : "memory");
  }
  __syncthreads();
  for (int i = threadIdx.x; i < bytes / 2; i += blockDim.x)
    out[i] = tile[i];
}

CUtensorMap encode(void *address, uint32_t dim0, uint32_t dim1,
                   uint64_t strideBytes, uint32_t box0, uint32_t box1,
                   CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  cuuint64_t dims[2] = {dim0, dim1}, strides[1] = {strideBytes};
  cuuint32_t box[2] = {box0, box1}, elementStrides[2] = {1, 1};
  CUresult result = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, address, dims, strides, box,
      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    std::printf("cuTensorMapEncodeTiled failed: %d\n", int(result));
  return map;
}

} // namespace

int main() {
  cuInit(0);
  const Case cases[] = {
      {"3x5 ld8 box64x64 swizzle128 host", 3, 5, 8, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, false},
      {"3x5 ld8 box64x64 swizzle128 patched", 3, 5, 8, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, true},
      {"3x5 ld8 box8x8 no-swizzle host", 3, 5, 8, 8, 8, CU_TENSOR_MAP_SWIZZLE_NONE, 0, 0, false},
      {"130x33 ld136 box64x64 swizzle128 host x=128", 130, 33, 136, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 128, 0, false},
      {"130x33 ld136 box64x64 swizzle128 patched x=128", 130, 33, 136, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 128, 0, true},
      {"1x8 ld8 box64x64 swizzle128 patched", 1, 8, 8, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, true},
      {"65x4 ld72 box64x64 swizzle128 host x=64", 65, 4, 72, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 64, 0, false},
      {"11x3 ld24 box16x8 no-swizzle host", 11, 3, 24, 16, 8, CU_TENSOR_MAP_SWIZZLE_NONE, 0, 0, false},
      {"136x4 ld136 box64x64 swizzle128 host x=128", 136, 4, 136, 64, 64, CU_TENSOR_MAP_SWIZZLE_128B, 128, 0, false},
  };
  void *mapBuffer = nullptr;
  cudaMalloc(&mapBuffer, 128);
  void *templateTarget = nullptr;
  cudaMalloc(&templateTarget, 1 << 16);
  cudaFuncSetAttribute(storeHostMap, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  cudaFuncSetAttribute(storePatchedMap, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  int failures = 0;
  for (const Case &c : cases) {
    size_t elements = size_t(c.ld) * (c.dim1 + 2);
    uint16_t *tensor = nullptr;
    cudaMalloc(&tensor, elements * 2);
    std::vector<uint16_t> host(elements, Poison);
    cudaMemcpy(tensor, host.data(), elements * 2, cudaMemcpyHostToDevice);
    int boxElements = int(c.box0 * c.box1);
    size_t smem = size_t(boxElements) * 2 + 1024;
    if (!c.patched) {
      CUtensorMap map = encode(tensor, c.dim0, c.dim1, uint64_t(c.ld) * 2, c.box0, c.box1, c.swizzle);
      storeHostMap<<<1, 128, smem>>>(map, c.x, c.y, boxElements);
    } else {
      // The general prep kernel's way: a template of the box's extent,
      // patched on the device, acquired by the storing kernel.
      CUtensorMap map = encode(templateTarget, c.box0, c.box1, (c.box0 * 2 + 15) / 16 * 16,
                               c.box0, c.box1, c.swizzle);
      cudaMemcpy(mapBuffer, &map, sizeof(map), cudaMemcpyHostToDevice);
      patchMap<<<1, 1>>>(mapBuffer, uint64_t(tensor), c.dim0, c.dim1, uint64_t(c.ld) * 2);
      storePatchedMap<<<1, 128, smem>>>(mapBuffer, c.x, c.y, boxElements);
    }
    cudaError_t status = cudaDeviceSynchronize();
    cudaMemcpy(host.data(), tensor, elements * 2, cudaMemcpyDeviceToHost);
    size_t inside = 0, padding = 0, pastRows = 0;
    uint32_t lastColumn = 0;
    for (uint32_t row = 0; row < c.dim1 + 2; ++row)
      for (uint32_t column = 0; column < c.ld; ++column) {
        if (host[size_t(row) * c.ld + column] == Poison)
          continue;
        if (row >= c.dim1)
          ++pastRows;
        else if (column >= c.dim0)
          ++padding;
        else
          ++inside;
        lastColumn = column > lastColumn ? column : lastColumn;
      }
    std::printf("store %-48s %s: inside %zu, line padding %zu, past the rows %zu, last column %u\n",
                c.name, cudaGetErrorString(status), inside, padding, pastRows, lastColumn);
    failures += status != cudaSuccess;
    cudaFree(tensor);
  }
  {
    // A load of an 8 x 8 box from a 3 x 5 tensor whose line padding holds ones.
    const uint32_t dim0 = 3, dim1 = 5, ld = 8;
    uint16_t *tensor = nullptr, *out = nullptr;
    cudaMalloc(&tensor, ld * dim1 * 2);
    cudaMalloc(&out, 64 * 2);
    std::vector<uint16_t> ones(ld * dim1, One), box(64, Poison);
    cudaMemcpy(tensor, ones.data(), ones.size() * 2, cudaMemcpyHostToDevice);
    CUtensorMap map = encode(tensor, dim0, dim1, ld * 2, 8, 8, CU_TENSOR_MAP_SWIZZLE_NONE);
    cudaFuncSetAttribute(loadBox, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    loadBox<<<1, 128, 128 + 1024>>>(map, 128, out);
    cudaError_t status = cudaDeviceSynchronize();
    cudaMemcpy(box.data(), out, 128, cudaMemcpyDeviceToHost);
    size_t inside = 0, pastLine = 0, pastRows = 0;
    for (uint32_t row = 0; row < 8; ++row)
      for (uint32_t column = 0; column < 8; ++column) {
        bool nonzero = box[row * 8 + column] != 0;
        if (row >= dim1)
          pastRows += nonzero;
        else if (column >= dim0)
          pastLine += nonzero;
        else
          inside += nonzero;
      }
    std::printf("load  3x5 ld8 box8x8 (padding holds ones) %s: nonzero inside %zu of 15, "
                "past the line %zu, past the rows %zu\n",
                cudaGetErrorString(status), inside, pastLine, pastRows);
    failures += status != cudaSuccess;
  }
  return failures ? 1 : 0;
}
