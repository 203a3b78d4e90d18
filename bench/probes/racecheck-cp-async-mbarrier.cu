// Does compute-sanitizer racecheck model the completion of cp.async copies
// through an mbarrier (cp.async.mbarrier.arrive.noinc, then a wait on the
// barrier's phase)? The block-wise fp8 kernels stage their A scales that way
// (gemm.scale.stage, lib/Conversion/GemmToNVVM/QuantToNVVM.cpp), and
// racecheck reports hazards between those copies and the consumers' reads
// once the ring's slots are reused (bench/results/2026-11-28-h200-blockfp8-staged).
//
// Two warps and a ring of two one-row slots, for ROUNDS rounds: warp 0's
// lanes each copy one f32 of round r into slot r mod 2 and arrive on the
// slot's full barrier (32 arrivals complete a phase); warp 1 waits for the
// phase, reads the slot, adds it up and arrives on the slot's empty barrier,
// which warp 0 waits for before the slot's next copy. The first argument is
// how warp 0 copies: "cp.async" (cp.async.ca.shared.global, then
// cp.async.mbarrier.arrive.noinc) or "st.shared" (each lane loads and
// stores its value, then mbarrier.arrive). The second is how warp 1
// releases: "lane0" (__syncwarp, then lane 0 arrives; the empty barrier
// counts 1) or "all" (every lane arrives after its own read; it counts
// 32). All four are race-free by the PTX memory model (bar.warp.sync
// orders the lanes' accesses); the sums check the data.
//
//   nvcc -arch=sm_90a -o /tmp/racecheck-probe bench/probes/racecheck-cp-async-mbarrier.cu
//   compute-sanitizer --tool racecheck /tmp/racecheck-probe cp.async lane0
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

constexpr int kRounds = 8;

__device__ uint32_t smemAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ void waitParity(uint64_t *barrier, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, "
                 "[%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(smemAddress(barrier)), "r"(parity)
                 : "memory");
}

__device__ void arrive(uint64_t *barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                   smemAddress(barrier))
               : "memory");
}

__global__ void probe(const float *in, float *out, bool cpAsync,
                      bool allLanes) {
  __shared__ float slots[2][32];
  __shared__ uint64_t full[2], empty[2];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    for (int s = 0; s < 2; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 32;" ::"r"(
          smemAddress(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                       smemAddress(&empty[s])),
                   "r"(allLanes ? 32 : 1));
    }
  __syncthreads();
  if (warp == 0) {
    for (int r = 0; r < kRounds; ++r) {
      int s = r % 2;
      if (r >= 2)
        waitParity(&empty[s], ((r / 2) - 1) & 1);
      const float *source = in + r * 32 + lane;
      if (cpAsync) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(
                         smemAddress(&slots[s][lane])),
                     "l"(source)
                     : "memory");
        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::
                         "r"(smemAddress(&full[s]))
                     : "memory");
      } else {
        slots[s][lane] = *source;
        arrive(&full[s]);
      }
    }
  } else {
    float sum = 0;
    for (int r = 0; r < kRounds; ++r) {
      int s = r % 2;
      waitParity(&full[s], (r / 2) & 1);
      sum += slots[s][lane];
      if (allLanes) {
        arrive(&empty[s]);
      } else {
        __syncwarp();
        if (lane == 0)
          arrive(&empty[s]);
      }
    }
    out[lane] = sum;
  }
}

int main(int argc, char **argv) {
  bool cpAsync = argc > 1 && std::strcmp(argv[1], "cp.async") == 0;
  bool allLanes = argc > 2 && std::strcmp(argv[2], "all") == 0;
  float host[kRounds * 32], sums[32];
  for (int i = 0; i < kRounds * 32; ++i)
    host[i] = static_cast<float>(i);
  float *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, sizeof(sums));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  probe<<<1, 64>>>(in, out, cpAsync, allLanes);
  cudaError_t error = cudaMemcpy(sums, out, sizeof(sums), cudaMemcpyDeviceToHost);
  if (error != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(error));
    return 1;
  }
  int wrong = 0;
  for (int lane = 0; lane < 32; ++lane) {
    float expected = 0;
    for (int r = 0; r < kRounds; ++r)
      expected += host[r * 32 + lane];
    wrong += sums[lane] != expected;
  }
  std::printf("%s, %s: %d of 32 sums wrong\n",
              cpAsync ? "cp.async" : "st.shared", allLanes ? "all" : "lane0",
              wrong);
  return wrong ? 1 : 0;
}
