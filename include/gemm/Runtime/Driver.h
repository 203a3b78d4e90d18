//===- Driver.h - The CUDA driver API, loaded at run time -------*- C++ -*-===//
//
// libcuda.so.1 is opened with dlopen instead of being linked, so gemm-runner
// starts on machines without a driver and says so in one line, instead of
// failing in the dynamic loader. Functions come from cuGetProcAddress with the
// toolkit's CUDA_VERSION, so each has the ABI of the cuda.h it was built with.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_DRIVER_H
#define GEMM_RUNTIME_DRIVER_H

#include <cuda.h>

#include <memory>
#include <string>
#include <string_view>

namespace gemm::runtime {

// Every driver function the runtime calls. cuda.h maps some names to versioned
// symbols with macros (cuMemAlloc -> cuMemAlloc_v2); the member names follow
// the same macros, and the lookup uses the unversioned name, as
// cuGetProcAddress expects.
#define GEMM_CUDA_DRIVER_FUNCTIONS(X)                                          \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceGetPCIBusId)                                                       \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuOccupancyMaxActiveClusters)                                              \
  X(cuLaunchKernelEx)                                                          \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemHostAlloc)                                                            \
  X(cuMemHostGetDevicePointer)                                                 \
  X(cuMemFreeHost)                                                             \
  X(cuModuleGetGlobal)                                                         \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8Async)                                                           \
  X(cuMemsetD16Async)                                                          \
  X(cuMemsetD32Async)                                                          \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitValue32)                                                       \
  X(cuStreamWriteValue32)                                                      \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventQuery)                                                              \
  X(cuEventElapsedTime)

struct DriverApi {
#define GEMM_DECLARE_DRIVER_FUNCTION(name) decltype(&::name) name = nullptr;
  GEMM_CUDA_DRIVER_FUNCTIONS(GEMM_DECLARE_DRIVER_FUNCTION)
#undef GEMM_DECLARE_DRIVER_FUNCTION

  /// The driver's CUDA version, e.g. 13000.
  int version = 0;
  /// Where the library was loaded from.
  std::string libraryPath;
};

/// Opens the driver library (libcuda.so.1 from the loader's search path when
/// `libraryPath` is empty), calls cuInit(0) and resolves every function.
/// Throws Error(NoDevice) with a one-line reason when there is no usable
/// driver or GPU, including when the library is the toolkit's stub.
std::unique_ptr<DriverApi> loadDriver(const std::string &libraryPath = {});

/// The process-wide driver, loaded on first use. $GEMM_RUNTIME_LIBCUDA, when
/// set, names the library to load instead of libcuda.so.1.
const DriverApi &driver();

/// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
std::string describeCuResult(CUresult result);

/// Throws Error(Cuda) "STEP: CUDA_ERROR_... (description)" unless success.
void checkCu(CUresult result, std::string_view step);

/// After a hang or a sticky fault the context cannot be trusted: frees and
/// destroys could block or fail, so RAII wrappers skip them once this is set.
void markGpuUnusable();
bool gpuUsable();

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_DRIVER_H
