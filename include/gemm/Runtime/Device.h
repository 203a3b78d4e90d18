//===- Device.h - GPU, memory, streams, events ------------------*- C++ -*-===//
//
// RAII wrappers over the driver API. All of them work in the device's primary
// context, which the CUDA runtime (reference kernels) and cuBLAS share.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_DEVICE_H
#define GEMM_RUNTIME_DEVICE_H

#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gemm::runtime {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string pciBusId;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  int maxSmemPerBlockOptin = 0;
  int l2CacheBytes = 0;
  uint64_t totalMemoryBytes = 0;
  /// CUDA version the driver supports, e.g. 13000.
  int driverVersion = 0;
  /// Driver-reported peak clocks in kHz; nullopt when the driver has none.
  std::optional<int> smClockPeakKHz, memClockPeakKHz;
};

/// Clocks and power as NVML reports them now; nullopt is "unknown" (no NVML,
/// or the GPU does not report it).
struct ClockSample {
  std::optional<unsigned> smClockMHz, smClockMaxMHz, memClockMHz;
  std::optional<double> powerLimitWatts;
  std::optional<unsigned> temperatureC;
};

class Device {
public:
  /// Opens GPU `ordinal` and makes its primary context current on this thread
  /// (for the CUDA runtime too). Throws Error(NoDevice) without a GPU and
  /// Error(Usage) when the ordinal does not exist.
  static Device open(int ordinal);

  Device(Device &&other) noexcept;
  Device &operator=(Device &&) = delete;
  Device(const Device &) = delete;
  ~Device();

  const DeviceInfo &info() const { return deviceInfo; }
  CUdevice handle() const { return device; }
  /// The device's primary context (shared with the CUDA runtime and the
  /// frameworks that use it, e.g. PyTorch).
  CUcontext primaryContext() const { return context; }
  /// Samples NVML (loaded with dlopen; absent is fine).
  ClockSample sampleClocks() const;

private:
  Device(CUdevice device, CUcontext context, DeviceInfo info)
      : device(device), context(context), deviceInfo(std::move(info)) {}
  CUdevice device = 0;
  CUcontext context = nullptr;
  DeviceInfo deviceInfo;
};

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  /// `what` names the buffer in an out-of-memory error.
  DeviceBuffer(size_t bytes, std::string_view what);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  CUdeviceptr get() const { return ptr; }
  size_t size() const { return bytes; }

private:
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
};

class Stream {
public:
  Stream();
  Stream(const Stream &) = delete;
  ~Stream();
  CUstream get() const { return stream; }

private:
  CUstream stream = nullptr;
};

class Event {
public:
  Event();
  Event(const Event &) = delete;
  ~Event();
  CUevent get() const { return event; }
  void record(CUstream stream);

private:
  CUevent event = nullptr;
};

/// Holds the work queued on a stream until it is opened: the stream waits
/// on a device word that a second stream writes. Work timed behind a closed
/// gate is all queued when the gate opens, so the events around it bracket
/// the GPU's work alone, without the host's cost of launching it.
class StreamGate {
public:
  StreamGate();
  StreamGate(const StreamGate &) = delete;

  /// Queues `enqueue` (which must only queue work on `stream`, never wait
  /// for it) behind a closed gate on `stream`, then opens the gate, also
  /// when `enqueue` throws. Throws Error(Usage) when the driver cannot make
  /// a stream wait on memory.
  template <typename Enqueue>
  void holdWhile(CUstream stream, Enqueue &&enqueue) {
    close(stream);
    try {
      enqueue();
    } catch (...) {
      open();
      throw;
    }
    open();
  }

private:
  void close(CUstream stream);
  void open();
  DeviceBuffer word;
  Stream opener;
  uint32_t closings = 0;
};

/// Waits for `event` by polling until `timeout`. Throws Error(Hang) naming
/// `what` when the deadline passes (and marks the GPU unusable), and
/// Error(Cuda) when the work before the event failed.
void waitForEvent(const Event &event, std::chrono::milliseconds timeout,
                  std::string_view what);

/// Records an event on `stream` and waits for it as waitForEvent does.
void waitForStream(CUstream stream, std::chrono::milliseconds timeout,
                   std::string_view what);

/// Milliseconds between two completed events.
float elapsedMs(const Event &start, const Event &stop);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_DEVICE_H
