// How fast can the runtime's staging copy move rows TMA cannot address?
// (issue 16: on the test set's staged problems the copies take 5-27 us, the
// large ones at 63-64% of the DRAM's peak; bench/results/2026-11-29-h200-
// test-losers, call 2.) Times, on the GPU, copies of rows of `rowBytes` at a
// source pitch of rowBytes into rows at the next 16-byte pitch:
//   runtime: staging::copyChunk as lib/Runtime/StagingCopy.cu launches it
//            (blocks of 256 threads, a warp or more along a row, about four
//            16-byte words per thread, one word after the other);
//   ilp4:    the same words, each thread loading its four words' windows
//            before it stores any (the loads in flight together);
//   memcpy2d: cudaMemcpy2DAsync, device to device.
// Each is checked byte for byte against the source.
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -I include bench/probes/staging-copy.cu -o /tmp/staging-copy
//   /tmp/staging-copy ROWS ROW_BYTES [ROWS ROW_BYTES ...]

#include "gemm/Runtime/StagingCopy.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace gemm::runtime::staging;

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void __launch_bounds__(256) runtimeKernel(RowCopy copy, uint64_t chunksPerRowCount) {
  DeviceMemory memory;
  uint64_t first = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t row = blockIdx.y * uint64_t(blockDim.y) + threadIdx.y; row < copy.rows;
       row += uint64_t(gridDim.y) * blockDim.y)
    for (uint64_t k = first; k < chunksPerRowCount; k += stride)
      copyChunk(copy, row, k, memory);
}

// Interior words of a 16-byte-aligned destination row whose source lies
// inside the buffer: the window of two aligned source words, loaded for
// all of a thread's words first. Edge words go through copyChunk.
__global__ void __launch_bounds__(256) ilp4Kernel(RowCopy copy, uint64_t chunksPerRowCount) {
  DeviceMemory memory;
  uint64_t first = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t row = blockIdx.y * uint64_t(blockDim.y) + threadIdx.y; row < copy.rows;
       row += uint64_t(gridDim.y) * blockDim.y) {
    uint64_t dstRow = copy.dst + row * copy.dstPitch;
    uint64_t srcRow = copy.src + row * copy.srcPitch;
    for (uint64_t k0 = first; k0 < chunksPerRowCount; k0 += 4 * stride) {
      uint4 lo[4], hi[4];
      bool interior[4];
      GEMM_UNROLL
      for (int i = 0; i < 4; ++i) {
        uint64_t k = k0 + i * stride;
        uint64_t word = dstRow + 16 * k;
        uint64_t from = srcRow + 16 * k;
        uint64_t base = from & ~uint64_t(15);
        interior[i] = k < chunksPerRowCount && word + 16 <= dstRow + copy.rowBytes &&
                      base + 32 <= copy.srcEnd;
        if (interior[i]) {
          lo[i] = __ldg(reinterpret_cast<const uint4 *>(base));
          hi[i] = __ldg(reinterpret_cast<const uint4 *>(base + 16));
        }
      }
      GEMM_UNROLL
      for (int i = 0; i < 4; ++i) {
        uint64_t k = k0 + i * stride;
        if (k >= chunksPerRowCount)
          continue;
        if (!interior[i]) {
          copyChunk(copy, row, k, memory);
          continue;
        }
        uint32_t window[8] = {lo[i].x, lo[i].y, lo[i].z, lo[i].w,
                              hi[i].x, hi[i].y, hi[i].z, hi[i].w};
        uint32_t offset = uint32_t((srcRow + 16 * k) & 15);
        uint32_t shift = 8 * (offset % 4);
        Chunk value;
        switch (offset / 4) {
        case 0: value = extract<0>(window, shift); break;
        case 1: value = extract<1>(window, shift); break;
        case 2: value = extract<2>(window, shift); break;
        default: value = extract<3>(window, shift); break;
        }
        memory.store16(dstRow + 16 * k, value);
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 3 || argc % 2 == 0) {
    std::printf("usage: %s ROWS ROW_BYTES [ROWS ROW_BYTES ...]\n", argv[0]);
    return 2;
  }
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::printf("| rows x row bytes | MB | runtime us | TB/s | ilp4 us | TB/s | memcpy2d us | TB/s |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int a = 1; a + 1 < argc; a += 2) {
    uint64_t rows = std::strtoull(argv[a], nullptr, 10);
    uint64_t rowBytes = std::strtoull(argv[a + 1], nullptr, 10);
    uint64_t dstPitch = (rowBytes + 15) / 16 * 16;
    uint64_t srcBytes = rows * rowBytes, dstBytes = rows * dstPitch;
    unsigned char *src, *dst;
    CHECK(cudaMalloc(&src, srcBytes));
    CHECK(cudaMalloc(&dst, dstBytes));
    std::vector<unsigned char> host(srcBytes);
    for (uint64_t i = 0; i < srcBytes; ++i)
      host[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
    CHECK(cudaMemcpy(src, host.data(), srcBytes, cudaMemcpyHostToDevice));
    RowCopy copy;
    copy.dst = reinterpret_cast<uint64_t>(dst);
    copy.dstPitch = dstPitch;
    copy.src = reinterpret_cast<uint64_t>(src);
    copy.srcPitch = rowBytes;
    copy.rows = rows;
    copy.rowBytes = rowBytes;
    copy.srcBegin = copy.src;
    copy.srcEnd = copy.src + srcBytes;
    uint64_t words = chunksPerRow(copy);
    // The runtime's launch shape (rowCopyLaunch).
    uint32_t x = 32;
    while (x < 256 && x < words)
      x *= 2;
    dim3 block(x, 256 / x);
    dim3 grid(uint32_t(std::max<uint64_t>((words + x * 4 - 1) / (x * 4), 1)),
              uint32_t(std::min<uint64_t>((rows + block.y - 1) / block.y, 65535)));
    double us[3];
    for (int variant = 0; variant < 3; ++variant) {
      std::vector<float> times;
      for (int it = 0; it < 25; ++it) {
        CHECK(cudaMemset(dst, 0, dstBytes));
        CHECK(cudaEventRecord(start));
        if (variant == 0)
          runtimeKernel<<<grid, block>>>(copy, words);
        else if (variant == 1)
          ilp4Kernel<<<grid, block>>>(copy, words);
        else
          CHECK(cudaMemcpy2DAsync(dst, dstPitch, src, rowBytes, rowBytes, rows,
                                  cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (it >= 5)
          times.push_back(ms);
      }
      std::sort(times.begin(), times.end());
      us[variant] = times[times.size() / 2] * 1e3;
      std::vector<unsigned char> back(dstBytes);
      CHECK(cudaMemcpy(back.data(), dst, dstBytes, cudaMemcpyDeviceToHost));
      for (uint64_t r = 0; r < rows; ++r)
        for (uint64_t i = 0; i < rowBytes; ++i)
          if (back[r * dstPitch + i] != host[r * rowBytes + i]) {
            std::printf("variant %d: row %llu byte %llu differs\n", variant,
                        (unsigned long long)r, (unsigned long long)i);
            return 1;
          }
    }
    double moved = double(srcBytes + dstBytes);
    std::printf("| %llu x %llu | %.1f | %.1f | %.2f | %.1f | %.2f | %.1f | %.2f |\n",
                (unsigned long long)rows, (unsigned long long)rowBytes, moved / 1e6,
                us[0], moved / us[0] / 1e6, us[1], moved / us[1] / 1e6, us[2],
                moved / us[2] / 1e6);
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
  }
  return 0;
}
