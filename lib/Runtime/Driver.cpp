//===- Driver.cpp - The CUDA driver API, loaded at run time ---------------===//

#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace gemm::runtime {
namespace {

std::atomic<bool> gpuIsUsable{true};

/// The 5-argument cuGetProcAddress of CUDA 12.0 and later.
using GetProcAddressFn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                      CUdriverProcAddressQueryResult *);

std::string loadedPath(void *handle, const std::string &fallback) {
  link_map *map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
      map->l_name[0] != '\0')
    return map->l_name;
  return fallback;
}

[[noreturn]] void noDevice(const std::string &message) {
  throw Error(ErrorKind::NoDevice, message);
}

} // namespace

std::unique_ptr<DriverApi> loadDriver(const std::string &libraryPath) {
  std::string name = libraryPath.empty() ? "libcuda.so.1" : libraryPath;
  // The handle is never closed: driver functions stay in use until exit.
  void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    noDevice("no NVIDIA driver: cannot load " + name + " (" +
             (reason ? reason : "unknown reason") + ")");
  }
  auto api = std::make_unique<DriverApi>();
  api->libraryPath = loadedPath(handle, name);

  // cuInit first, through plain dlsym: the toolkit's stub library answers
  // every call, cuGetProcAddress included, with CUDA_ERROR_STUB_LIBRARY.
  using InitFn = CUresult (*)(unsigned);
  using ErrorNameFn = CUresult (*)(CUresult, const char **);
  auto init = reinterpret_cast<InitFn>(dlsym(handle, "cuInit"));
  auto errorName =
      reinterpret_cast<ErrorNameFn>(dlsym(handle, "cuGetErrorName"));
  if (!init || !errorName)
    noDevice("no NVIDIA driver: " + api->libraryPath +
             " does not export cuInit; it is not a CUDA driver");
  CUresult initResult = init(0);
  if (initResult == CUDA_ERROR_STUB_LIBRARY)
    noDevice("no NVIDIA driver: " + api->libraryPath +
             " is the CUDA toolkit's stub library, not a driver");
  if (initResult == CUDA_ERROR_NO_DEVICE)
    noDevice("no CUDA GPU: the NVIDIA driver (" + api->libraryPath +
             ") reports no device");
  if (initResult != CUDA_SUCCESS) {
    const char *name = nullptr;
    errorName(initResult, &name);
    noDevice("NVIDIA driver unusable: cuInit failed with " +
             std::string(name ? name : "an unknown error") + " (" +
             api->libraryPath + ")");
  }

  auto getProcAddress =
      reinterpret_cast<GetProcAddressFn>(dlsym(handle, "cuGetProcAddress_v2"));
  if (!getProcAddress)
    noDevice("NVIDIA driver too old: " + api->libraryPath +
             " has no cuGetProcAddress_v2 (CUDA 12.0 or newer is required)");

  auto resolve = [&](const char *symbol, void **function) {
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult result = getProcAddress(symbol, function, CUDA_VERSION,
                                     CU_GET_PROC_ADDRESS_DEFAULT, &found);
    if (result != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS ||
        !*function)
      noDevice(
          "NVIDIA driver too old: " + api->libraryPath + " does not provide " +
          symbol + " for CUDA " + std::to_string(CUDA_VERSION / 1000) + "." +
          std::to_string(CUDA_VERSION % 1000 / 10) + " (update the driver)");
  };
#define GEMM_RESOLVE_DRIVER_FUNCTION(name)                                     \
  resolve(#name, reinterpret_cast<void **>(&api->name));
  GEMM_CUDA_DRIVER_FUNCTIONS(GEMM_RESOLVE_DRIVER_FUNCTION)
#undef GEMM_RESOLVE_DRIVER_FUNCTION

  if (CUresult result = api->cuDriverGetVersion(&api->version);
      result != CUDA_SUCCESS)
    noDevice("NVIDIA driver unusable: cuDriverGetVersion failed");
  return api;
}

const DriverApi &driver() {
  // Loaded once; a failure is remembered so every caller sees the same error.
  static std::once_flag once;
  static std::unique_ptr<DriverApi> api;
  static std::string failure;
  std::call_once(once, [] {
    const char *override = std::getenv("GEMM_RUNTIME_LIBCUDA");
    try {
      api = loadDriver(override ? override : "");
    } catch (const Error &error) {
      failure = error.what();
    }
  });
  if (!api)
    noDevice(failure);
  return *api;
}

std::string describeCuResult(CUresult result) {
  const DriverApi &api = driver();
  const char *name = nullptr;
  const char *description = nullptr;
  api.cuGetErrorName(result, &name);
  api.cuGetErrorString(result, &description);
  std::string text = name ? name : "CUDA error " + std::to_string(result);
  if (description)
    text += std::string(" (") + description + ")";
  return text;
}

void checkCu(CUresult result, std::string_view step) {
  if (result == CUDA_SUCCESS)
    return;
  // A fault poisons the context: later frees would report the same error.
  if (result == CUDA_ERROR_ILLEGAL_ADDRESS ||
      result == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
      result == CUDA_ERROR_MISALIGNED_ADDRESS ||
      result == CUDA_ERROR_INVALID_ADDRESS_SPACE ||
      result == CUDA_ERROR_INVALID_PC || result == CUDA_ERROR_LAUNCH_FAILED ||
      result == CUDA_ERROR_HARDWARE_STACK_ERROR ||
      result == CUDA_ERROR_LAUNCH_TIMEOUT)
    markGpuUnusable();
  throw Error(ErrorKind::Cuda,
              std::string(step) + ": " + describeCuResult(result));
}

void markGpuUnusable() { gpuIsUsable = false; }
bool gpuUsable() { return gpuIsUsable; }

} // namespace gemm::runtime
