//===- Device.cpp - GPU, memory, streams, events --------------------------===//

#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <thread>

namespace gemm::runtime {
namespace {

/// The few NVML entry points used, declared here because the toolkit ships no
/// nvml.h; their ABI has been stable since NVML 5.
struct Nvml {
  using Device = struct nvmlDevice_st *;
  enum ClockType : int { ClockSm = 1, ClockMem = 2 };
  static constexpr int Success = 0;

  int (*init)() = nullptr;
  int (*handleByPciBusId)(const char *, Device *) = nullptr;
  int (*clockInfo)(Device, ClockType, unsigned *) = nullptr;
  int (*maxClockInfo)(Device, ClockType, unsigned *) = nullptr;
  int (*enforcedPowerLimit)(Device, unsigned *) = nullptr;
  int (*temperature)(Device, int, unsigned *) = nullptr;

  /// Null when NVML is not installed or does not initialize.
  static const Nvml *get() {
    static const Nvml *nvml = load();
    return nvml;
  }

private:
  static const Nvml *load() {
    void *handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return nullptr;
    static Nvml nvml;
    auto sym = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(handle, name));
      return fn != nullptr;
    };
    bool ok = sym(nvml.init, "nvmlInit_v2") &&
              sym(nvml.handleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2") &&
              sym(nvml.clockInfo, "nvmlDeviceGetClockInfo") &&
              sym(nvml.maxClockInfo, "nvmlDeviceGetMaxClockInfo") &&
              sym(nvml.enforcedPowerLimit, "nvmlDeviceGetEnforcedPowerLimit") &&
              sym(nvml.temperature, "nvmlDeviceGetTemperature");
    if (!ok || nvml.init() != Success)
      return nullptr;
    return &nvml;
  }
};

int attribute(CUdevice device, CUdevice_attribute attr, const char *what) {
  int value = 0;
  checkCu(driver().cuDeviceGetAttribute(&value, attr, device),
          std::string("reading device attribute ") + what);
  return value;
}

} // namespace

Device Device::open(int ordinal) {
  const DriverApi &api = driver();
  int count = 0;
  checkCu(api.cuDeviceGetCount(&count), "counting GPUs");
  if (count == 0)
    throw Error(ErrorKind::NoDevice, "no CUDA GPU: the NVIDIA driver reports "
                                     "no device");
  if (ordinal < 0 || ordinal >= count)
    throw Error(ErrorKind::Usage,
                "--device " + std::to_string(ordinal) + ": this machine has " +
                    std::to_string(count) + " GPU(s), numbered 0.." +
                    std::to_string(count - 1));
  CUdevice device = 0;
  checkCu(api.cuDeviceGet(&device, ordinal), "opening the GPU");

  DeviceInfo info;
  info.ordinal = ordinal;
  char text[256] = {};
  checkCu(api.cuDeviceGetName(text, sizeof(text) - 1, device),
          "reading the GPU name");
  info.name = text;
  checkCu(api.cuDeviceGetPCIBusId(text, sizeof(text) - 1, device),
          "reading the GPU's PCI bus id");
  info.pciBusId = text;
  info.ccMajor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           "compute capability");
  info.ccMinor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           "compute capability");
  info.smCount =
      attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
  info.maxSmemPerBlockOptin =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                "shared memory per block");
  info.l2CacheBytes =
      attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 size");
  size_t totalMemory = 0;
  checkCu(api.cuDeviceTotalMem(&totalMemory, device), "reading GPU memory");
  info.totalMemoryBytes = totalMemory;
  info.driverVersion = api.version;
  // Newer drivers may drop these attributes; then the clocks are "unknown".
  int kHz = 0;
  if (api.cuDeviceGetAttribute(&kHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, device) ==
          CUDA_SUCCESS &&
      kHz > 0)
    info.smClockPeakKHz = kHz;
  if (api.cuDeviceGetAttribute(&kHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                               device) == CUDA_SUCCESS &&
      kHz > 0)
    info.memClockPeakKHz = kHz;

  CUcontext context = nullptr;
  checkCu(api.cuDevicePrimaryCtxRetain(&context, device),
          "creating the GPU context");
  Device result(device, context, std::move(info));
  checkCu(api.cuCtxSetCurrent(context), "making the GPU context current");
  // The reference kernels and cuBLAS go through the CUDA runtime, which then
  // uses this same primary context.
  if (cudaError_t error = cudaSetDevice(ordinal); error != cudaSuccess)
    throw Error(ErrorKind::Cuda, std::string("selecting the GPU in the CUDA "
                                             "runtime: ") +
                                     cudaGetErrorName(error) + " (" +
                                     cudaGetErrorString(error) + ")");
  return result;
}

Device::Device(Device &&other) noexcept
    : device(other.device), context(other.context),
      deviceInfo(std::move(other.deviceInfo)) {
  other.context = nullptr;
}

Device::~Device() {
  if (context && gpuUsable())
    driver().cuDevicePrimaryCtxRelease(device);
}

ClockSample Device::sampleClocks() const {
  ClockSample sample;
  const Nvml *nvml = Nvml::get();
  Nvml::Device handle = nullptr;
  if (!nvml || nvml->handleByPciBusId(deviceInfo.pciBusId.c_str(), &handle) !=
                   Nvml::Success)
    return sample;
  unsigned value = 0;
  if (nvml->clockInfo(handle, Nvml::ClockSm, &value) == Nvml::Success)
    sample.smClockMHz = value;
  if (nvml->maxClockInfo(handle, Nvml::ClockSm, &value) == Nvml::Success)
    sample.smClockMaxMHz = value;
  if (nvml->clockInfo(handle, Nvml::ClockMem, &value) == Nvml::Success)
    sample.memClockMHz = value;
  if (nvml->enforcedPowerLimit(handle, &value) == Nvml::Success)
    sample.powerLimitWatts = value / 1000.0;
  if (nvml->temperature(handle, /*NVML_TEMPERATURE_GPU=*/0, &value) ==
      Nvml::Success)
    sample.temperatureC = value;
  return sample;
}

DeviceBuffer::DeviceBuffer(size_t size, std::string_view what) : bytes(size) {
  checkCu(driver().cuMemAlloc(&ptr, size == 0 ? 1 : size),
          "allocating " + std::to_string(size) + " bytes for " +
              std::string(what));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : ptr(other.ptr), bytes(other.bytes) {
  other.ptr = 0;
  other.bytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  std::swap(ptr, other.ptr);
  std::swap(bytes, other.bytes);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr && gpuUsable())
    driver().cuMemFree(ptr);
}

Stream::Stream() {
  checkCu(driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
          "creating a stream");
}

Stream::~Stream() {
  if (stream && gpuUsable())
    driver().cuStreamDestroy(stream);
}

Event::Event() {
  checkCu(driver().cuEventCreate(&event, CU_EVENT_DEFAULT),
          "creating an event");
}

Event::~Event() {
  if (event && gpuUsable())
    driver().cuEventDestroy(event);
}

void Event::record(CUstream stream) {
  checkCu(driver().cuEventRecord(event, stream), "recording an event");
}

StreamGate::StreamGate() : word(sizeof(uint32_t), "a stream gate's word") {
  checkCu(driver().cuMemsetD32Async(word.get(), 0, 1, opener.get()),
          "clearing a stream gate's word");
  checkCu(driver().cuStreamSynchronize(opener.get()),
          "clearing a stream gate's word");
}

void StreamGate::close(CUstream stream) {
  // The word only grows, so each closing waits for its own opening.
  ++closings;
  CUresult result = driver().cuStreamWaitValue32(stream, word.get(), closings,
                                                 CU_STREAM_WAIT_VALUE_GEQ);
  if (result == CUDA_ERROR_NOT_SUPPORTED)
    throw Error(ErrorKind::Usage,
                "this driver cannot make a stream wait on memory "
                "(cuStreamWaitValue32), which timing the GPU's work alone "
                "needs; time each call from an idle stream instead "
                "(gemm-runner --timing call)");
  checkCu(result, "closing a stream gate");
}

void StreamGate::open() {
  checkCu(driver().cuStreamWriteValue32(opener.get(), word.get(), closings,
                                        CU_STREAM_WRITE_VALUE_DEFAULT),
          "opening a stream gate");
}

void waitForEvent(const Event &event, std::chrono::milliseconds timeout,
                  std::string_view what) {
  // Polling instead of cuEventSynchronize: a hung kernel must not hang us.
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::now() + timeout;
  std::chrono::microseconds sleep(20);
  while (true) {
    CUresult result = driver().cuEventQuery(event.get());
    if (result == CUDA_SUCCESS)
      return;
    if (result != CUDA_ERROR_NOT_READY)
      checkCu(result, what);
    if (Clock::now() >= deadline) {
      markGpuUnusable();
      throw Error(ErrorKind::Hang, std::string(what) +
                                       " did not finish within " +
                                       std::to_string(timeout.count()) + " ms");
    }
    std::this_thread::sleep_for(sleep);
    sleep = std::min(sleep * 2, std::chrono::microseconds(1000));
  }
}

void waitForStream(CUstream stream, std::chrono::milliseconds timeout,
                   std::string_view what) {
  Event done;
  done.record(stream);
  waitForEvent(done, timeout, what);
}

float elapsedMs(const Event &start, const Event &stop) {
  float ms = 0;
  checkCu(driver().cuEventElapsedTime(&ms, start.get(), stop.get()),
          "reading event times");
  return ms;
}

} // namespace gemm::runtime
