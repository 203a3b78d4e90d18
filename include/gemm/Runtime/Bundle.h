//===- Bundle.h - Kernel bundles on disk and on the GPU ---------*- C++ -*-===//

#ifndef GEMM_RUNTIME_BUNDLE_H
#define GEMM_RUNTIME_BUNDLE_H

#include "gemm/Bundle/Manifest.h"
#include "gemm/Runtime/Device.h"

#include <cuda.h>

#include <filesystem>
#include <optional>
#include <string>

namespace gemm::runtime {

/// A bundle read from disk: the parsed and validated manifest plus its files.
/// Needs no GPU.
struct KernelBundle {
  std::filesystem::path manifestPath;
  bundle::KernelManifest manifest;
  std::filesystem::path ptxPath;
  std::optional<std::filesystem::path> cubinPath;

  /// Reads NAME.json, parses and validates it, checks that this runner
  /// supports it and that its PTX (and cubin, when named) exist. Throws
  /// Error(Bundle) with one line per problem, each prefixed by the path.
  static KernelBundle load(const std::filesystem::path &manifestPath);
};

/// Throws Error(ArchMismatch) unless the GPU runs the bundle's arch ('a'
/// targets need exactly that compute capability).
void checkArch(const bundle::KernelManifest &manifest, const DeviceInfo &gpu);

/// The kernel loaded into the current context, with its launch attributes set.
class LoadedKernel {
public:
  /// Checks the arch, loads the cubin when there is one and the driver takes
  /// it, else JIT-compiles the PTX (the JIT log is in the error), finds the
  /// entry and raises its dynamic shared memory limit.
  static LoadedKernel load(const KernelBundle &bundle, const Device &device);

  LoadedKernel(LoadedKernel &&other) noexcept;
  LoadedKernel(const LoadedKernel &) = delete;
  LoadedKernel &operator=(const LoadedKernel &) = delete;
  ~LoadedKernel();

  CUfunction function() const { return fn; }
  const std::string &name() const { return kernelName; }
  /// "cubin NAME.cubin" or "ptx NAME.ptx (JIT)".
  const std::string &source() const { return sourceText; }
  int registersPerThread() const { return registers; }
  /// After a failed cubin load: why the PTX was used instead.
  const std::string &note() const { return noteText; }
  /// Built with debug-waits: what the first wait that gave up wrote into
  /// its record (host-mapped memory the kernel finds through its
  /// gemm_debug_wait_record global), e.g. "CTA (4, 0, 0) warp 7, consumer:
  /// the full barrier of a 4-stage pipeline (...), stage 0, expected phase
  /// parity 0, iteration 0". nullopt when no wait gave up.
  std::optional<std::string>
  debugWaitReport(const bundle::KernelManifest &manifest) const;

private:
  LoadedKernel() = default;
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  std::string kernelName, sourceText, noteText;
  int registers = 0;
  /// Host-mapped wait record of a debug-waits kernel (10 u32 words).
  volatile uint32_t *debugRecord = nullptr;
};

/// The report of a debug-waits record (10 u32 words: claimed, site, CTA
/// x/y/z, warp, stage, parity, iteration, complete), nullopt while it is not
/// complete. The site's description comes from the manifest. A bounded
/// named barrier (its site says "named barrier") records its barrier id,
/// generation and the threads arrived where a pipeline wait records its
/// stage, expected phase parity and iteration.
std::optional<std::string>
formatDebugWaitRecord(const volatile uint32_t *record,
                      const bundle::KernelManifest &manifest);

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_BUNDLE_H
