// What a split-K fixup costs when the splits of a tile exchange their f32
// partial tiles through global memory (what our kernels do: every split
// stores its partial, fences and takes a ticket; the last arriver loads the
// others' partials) and when they exchange them through a cluster's
// distributed shared memory (the splits of a tile in one cluster; every
// split but rank 0 writes its partial into rank 0's shared memory with
// st.async, which completes the bytes on rank 0's mbarrier; no fence, atomic
// or L2 round trip). One warpgroup per CTA holds a 64 x 128 f32 accumulator
// in the WGMMA fragment's register count (64 a thread), as a 64x128
// pingpong consumer does; a fixed stretch of FMAs stands for the mainloop.
// Each variant's kernel time minus the no-fixup kernel's (same grid, one
// split) is its fixup. A probe, not a product step.
//
//   nvcc -arch=sm_90a -O3 -o /tmp/split-k-fixup bench/probes/split-k-fixup.cu
//   /tmp/split-k-fixup
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kThreads = 128;
constexpr int kValues = 64;                           // f32 a thread
constexpr int kTileBytes = kThreads * kValues * 4;    // 32 KB
constexpr int kVectors = kValues / 4;                 // 16-byte stores a thread

enum Variant { None, Global, ClusterNone, Dsmem };

__device__ __forceinline__ void mainloop(float (&acc)[kValues], int work) {
  float x = 1.0f + threadIdx.x * 1e-6f;
#pragma unroll
  for (int i = 0; i < kValues; ++i)
    acc[i] = x * (blockIdx.x + i);
  for (int n = 0; n < work; ++n)
#pragma unroll
    for (int i = 0; i < kValues; ++i)
      acc[i] = fmaf(acc[i], 0.999f, 1e-3f);
}

/// Fragment-major: vector v of thread t at (v * 128 + t) * 16 bytes, as our
/// kernels store partials (coalesced 16-byte stores).
__device__ __forceinline__ void storeTile(float4 *to, const float (&acc)[kValues]) {
#pragma unroll
  for (int v = 0; v < kVectors; ++v)
    to[v * kThreads + threadIdx.x] =
        make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
}

__device__ __forceinline__ void addTile(float (&acc)[kValues], const float4 *from) {
  float4 in[kVectors];
#pragma unroll
  for (int v = 0; v < kVectors; ++v)
    in[v] = from[v * kThreads + threadIdx.x];
#pragma unroll
  for (int v = 0; v < kVectors; ++v) {
    acc[4 * v] += in[v].x;
    acc[4 * v + 1] += in[v].y;
    acc[4 * v + 2] += in[v].z;
    acc[4 * v + 3] += in[v].w;
  }
}

/// No fixup: every CTA owns a whole tile (grid of T tiles).
__global__ void __launch_bounds__(kThreads) wholeTiles(float4 *out, int work) {
  float acc[kValues];
  mainloop(acc, work);
  storeTile(out + size_t(blockIdx.x) * kThreads * kVectors, acc);
}

/// Our kernels' fixup: CTA (tile, split) = blockIdx.x (tile * S + split).
__global__ void __launch_bounds__(kThreads)
    globalFixup(float4 *out, float4 *partials, unsigned *counters, int splits,
                int work) {
  float acc[kValues];
  mainloop(acc, work);
  int tile = blockIdx.x / splits, split = blockIdx.x % splits;
  storeTile(partials + size_t(blockIdx.x) * kThreads * kVectors, acc);
  __syncthreads();
  int last = 0;
  if (threadIdx.x == 0) {
    __threadfence();
    unsigned old = atomicAdd(&counters[tile], 1u);
    __threadfence();
    last = old == unsigned(splits - 1);
    if (last)
      counters[tile] = 0;
  }
  if (!__syncthreads_or(last))
    return;
  for (int other = 1; other < splits; ++other)
    addTile(acc, partials + size_t(tile * splits + (split + other) % splits) *
                                kThreads * kVectors);
  storeTile(out + size_t(tile) * kThreads * kVectors, acc);
}

/// Whole tiles in clusters of S CTAs (the launch and cluster sync alone).
__global__ void __launch_bounds__(kThreads)
    clusterWholeTiles(float4 *out, int work) {
  cg::this_cluster().sync();
  float acc[kValues];
  mainloop(acc, work);
  storeTile(out + size_t(blockIdx.x) * kThreads * kVectors, acc);
}

/// The splits of a tile are a cluster (blockIdx.x = tile * S + rank): rank
/// r > 0 writes its partial into slot r - 1 of rank 0's shared memory with
/// st.async; rank 0 expects (S - 1) tiles of bytes on its mbarrier.
__global__ void __launch_bounds__(kThreads)
    dsmemFixup(float4 *out, int splits, int work) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ __align__(8) uint64_t bar;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  uint32_t barAddr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barAddr));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  cluster.sync();
  float acc[kValues];
  mainloop(acc, work);
  int tile = blockIdx.x / splits;
  if (rank != 0) {
    uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) +
                    (rank - 1) * kTileBytes;
    uint32_t remoteSlot, remoteBar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;"
                 : "=r"(remoteSlot)
                 : "r"(slot));
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;"
                 : "=r"(remoteBar)
                 : "r"(barAddr));
#pragma unroll
    for (int v = 0; v < kVectors; ++v)
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4."
                   "b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(
                       remoteSlot + (v * kThreads + threadIdx.x) * 16),
                   "r"(__float_as_uint(acc[4 * v])),
                   "r"(__float_as_uint(acc[4 * v + 1])),
                   "r"(__float_as_uint(acc[4 * v + 2])),
                   "r"(__float_as_uint(acc[4 * v + 3])), "r"(remoteBar)
                   : "memory");
    return;
  }
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     barAddr),
                 "r"((splits - 1) * kTileBytes)
                 : "memory");
  asm volatile("{\n.reg .pred done;\nwait:\n"
               "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, "
               "[%0], 0;\n@!done bra wait;\n}" ::"r"(barAddr)
               : "memory");
  for (int other = 0; other < splits - 1; ++other)
    addTile(acc, reinterpret_cast<const float4 *>(smem + other * kTileBytes));
  storeTile(out + size_t(tile) * kThreads * kVectors, acc);
}

struct Case {
  int splits, tiles;
};

int main(int argc, char **argv) {
  int work = argc > 1 ? atoi(argv[1]) : 16;
  int runs = argc > 2 ? atoi(argv[2]) : 200;
  float4 *out, *partials;
  unsigned *counters;
  cudaMalloc(&out, size_t(132) * kTileBytes);
  cudaMalloc(&partials, size_t(132) * kTileBytes);
  cudaMalloc(&counters, 132 * sizeof(unsigned));
  cudaMemset(counters, 0, 132 * sizeof(unsigned));
  cudaFuncSetAttribute(dsmemFixup, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       7 * kTileBytes);
  cudaFuncSetAttribute(dsmemFixup, cudaFuncAttributeNonPortableClusterSizeAllowed,
                       1);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);

  auto launch = [&](Variant variant, Case c) {
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attribute[1];
    config.blockDim = dim3(kThreads);
    config.attrs = attribute;
    switch (variant) {
    case None:
      config.gridDim = dim3(c.tiles);
      cudaLaunchKernelEx(&config, wholeTiles, out, work);
      break;
    case Global:
      config.gridDim = dim3(c.tiles * c.splits);
      cudaLaunchKernelEx(&config, globalFixup, out, partials, counters,
                         c.splits, work);
      break;
    case ClusterNone:
    case Dsmem:
      config.gridDim = dim3(c.tiles * c.splits);
      attribute[0].id = cudaLaunchAttributeClusterDimension;
      attribute[0].val.clusterDim.x = c.splits;
      attribute[0].val.clusterDim.y = 1;
      attribute[0].val.clusterDim.z = 1;
      config.numAttrs = 1;
      if (variant == ClusterNone) {
        cudaLaunchKernelEx(&config, clusterWholeTiles, out, work);
      } else {
        config.dynamicSmemBytes = (c.splits - 1) * kTileBytes;
        cudaLaunchKernelEx(&config, dsmemFixup, out, c.splits, work);
      }
      break;
    }
  };
  auto time = [&](Variant variant, Case c) {
    for (int i = 0; i < 20; ++i)
      launch(variant, c);
    std::vector<float> ms;
    for (int i = 0; i < runs; ++i) {
      cudaEventRecord(start);
      launch(variant, c);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float t;
      cudaEventElapsedTime(&t, start, stop);
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2] * 1e3;
  };

  // A check: the DSMEM and global fixups sum the same partials.
  {
    Case c = {2, 4};
    std::vector<float> a(size_t(c.tiles) * kTileBytes / 4),
        b(size_t(c.tiles) * kTileBytes / 4);
    launch(Global, c);
    cudaMemcpy(a.data(), out, a.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemset(out, 0, a.size() * 4);
    launch(Dsmem, c);
    cudaMemcpy(b.data(), out, b.size() * 4, cudaMemcpyDeviceToHost);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
      std::printf("error: %s\n", cudaGetErrorString(e));
      return 1;
    }
    std::printf("check: global and DSMEM sums %s\n",
                a == b ? "equal" : "DIFFER");
  }

  std::printf("work %d FMA rounds, %d runs, median kernel time (us)\n", work,
              runs);
  std::printf("%6s %6s %8s %8s %8s %8s %10s %10s\n", "splits", "tiles", "none",
              "global", "cluster", "dsmem", "global-none", "dsmem-none");
  for (Case c : {Case{2, 8}, Case{2, 24}, Case{2, 48}, Case{2, 66},
                 Case{4, 6}, Case{4, 16}, Case{4, 33}, Case{8, 4},
                 Case{8, 16}}) {
    // Interleaved, three rounds: the medians of each.
    double t[4][3];
    for (int round = 0; round < 3; ++round)
      for (int v = 0; v < 4; ++v)
        t[v][round] = time(Variant(v), c);
    double m[4];
    for (int v = 0; v < 4; ++v) {
      std::sort(t[v], t[v] + 3);
      m[v] = t[v][1];
    }
    std::printf("%6d %6d %8.2f %8.2f %8.2f %8.2f %10.2f %10.2f\n", c.splits,
                c.tiles, m[None], m[Global], m[ClusterNone], m[Dsmem],
                m[Global] - m[None], m[Dsmem] - m[None]);
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
