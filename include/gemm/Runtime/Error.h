//===- Error.h - Runtime errors and gemm-runner exit codes ------*- C++ -*-===//
//
// Every runtime failure is an Error whose kind decides the process exit code,
// so scripts can tell a wrong result from a missing GPU from a hung kernel.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_ERROR_H
#define GEMM_RUNTIME_ERROR_H

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace gemm::runtime {

/// gemm-runner's exit codes (documented in docs/Runtime.md).
enum ExitCode : int {
  ExitOk = 0,
  ExitCheckFailed = 1,
  ExitUsage = 2,
  ExitNoDevice = 3,
  ExitArchMismatch = 4,
  ExitCudaError = 5,
  ExitHang = 6,
  ExitTrap = 7,
};

enum class ErrorKind {
  /// Bad command line or a problem the kernel cannot run (exit 2).
  Usage,
  /// Missing, unreadable or invalid bundle / manifest (exit 2).
  Bundle,
  /// No driver, stub driver, or no GPU (exit 3).
  NoDevice,
  /// The bundle's arch does not run on this GPU (exit 4).
  ArchMismatch,
  /// A CUDA, cuBLAS or launch failure (exit 5).
  Cuda,
  /// A kernel did not finish within the time limit (exit 6). The GPU context
  /// is unusable afterwards; see markGpuUnusable().
  Hang,
  /// A kernel built with debug-waits trapped: one of its bounded waits
  /// expired, and the GPU printed which (exit 7).
  Trap,
};

ExitCode exitCodeFor(ErrorKind kind);

/// The message may hold several lines (one per manifest problem).
class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message)
      : std::runtime_error(message), errorKind(kind) {}
  ErrorKind kind() const { return errorKind; }

private:
  ErrorKind errorKind;
};

/// A launch failure of a kernel built with debug-waits (`debugWaitsMs` > 0)
/// is the trap of an expired wait: returns that Error(Trap), naming the wait
/// from `record` (LoadedKernel::debugWaitReport) when the kernel wrote one,
/// else `error` unchanged.
Error asDebugWaitTrap(const Error &error, uint32_t debugWaitsMs,
                      const std::optional<std::string> &record = {});

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_ERROR_H
