// The host's cost of the driver calls one gemm.matmul launch makes:
// cuTensorMapEncodeTiled (three per TMA kernel), cuCtxGetCurrent (the
// binding's context check) and cuLaunchKernelEx of an empty kernel with a
// 128-byte descriptor parameter, each timed alone over back-to-back calls.
// A probe.
//
//   nvcc -arch=sm_90a -o /tmp/launch-costs bench/probes/launch-costs.cu -lcuda
//   /tmp/launch-costs
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void empty(CUtensorMap map, unsigned m) {
  if (m == 0xffffffffu)
    printf("%p\n", &map);
}

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r = (call);                                                       \
    if (r != CUDA_SUCCESS) {                                                   \
      std::printf("%s failed: %d\n", #call, static_cast<int>(r));              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

template <typename F> double usPerCall(F &&call, int count) {
  call();
  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i)
    call();
  auto end = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  return std::chrono::duration<double, std::micro>(end - start).count() / count;
}

int main() {
  cudaFree(nullptr);
  void *buffer = nullptr;
  cudaMalloc(&buffer, 4096 * 4096 * 2);
  cuuint64_t dims[2] = {4096, 4096};
  cuuint64_t strides[1] = {4096 * 2};
  cuuint32_t box[2] = {64, 128};
  cuuint32_t elementStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult encodeResult = CUDA_SUCCESS;
  double encode = usPerCall(
      [&] {
        encodeResult = cuTensorMapEncodeTiled(
            &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, buffer, dims, strides,
            box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      },
      100000);
  CHECK(encodeResult);
  CUcontext context;
  double current = usPerCall([&] { cuCtxGetCurrent(&context); }, 100000);

  CUfunction function;
  if (cudaGetFuncBySymbol(&function, reinterpret_cast<void *>(empty)) !=
      cudaSuccess) {
    std::printf("cudaGetFuncBySymbol failed\n");
    return 1;
  }
  unsigned m = 1;
  void *params[] = {&map, &m};
  CUlaunchConfig config = {};
  config.gridDimX = 132;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 384;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = nullptr;
  CUresult launchResult = CUDA_SUCCESS;
  double launch = usPerCall(
      [&] { launchResult = cuLaunchKernelEx(&config, function, params, nullptr); },
      2000);
  CHECK(launchResult);
  std::printf("cuTensorMapEncodeTiled %.3f us\ncuCtxGetCurrent %.3f us\n"
              "cuLaunchKernelEx (empty kernel, 132 x 384) %.3f us\n",
              encode, current, launch);
  return 0;
}
