//===- Error.cpp - Runtime errors and gemm-runner exit codes --------------===//

#include "gemm/Runtime/Error.h"

namespace gemm::runtime {

ExitCode exitCodeFor(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Usage:
  case ErrorKind::Bundle:
    return ExitUsage;
  case ErrorKind::NoDevice:
    return ExitNoDevice;
  case ErrorKind::ArchMismatch:
    return ExitArchMismatch;
  case ErrorKind::Cuda:
    return ExitCudaError;
  case ErrorKind::Hang:
    return ExitHang;
  case ErrorKind::Trap:
    return ExitTrap;
  }
  return ExitCudaError;
}

Error asDebugWaitTrap(const Error &error, uint32_t debugWaitsMs,
                      const std::optional<std::string> &record) {
  std::string message = error.what();
  // A trap ends the kernel as an unspecified launch failure.
  bool launchFailed =
      message.find("CUDA_ERROR_LAUNCH_FAILED") != std::string::npos ||
      message.find("CUDA_ERROR_ILLEGAL_INSTRUCTION") != std::string::npos;
  if (error.kind() != ErrorKind::Cuda || debugWaitsMs == 0 || !launchFailed)
    return error;
  std::string bound = std::to_string(debugWaitsMs) + " ms";
  if (record)
    return Error(ErrorKind::Trap, "the kernel trapped: a wait gave up after " +
                                      bound + ": " + *record + " (" + message +
                                      ")");
  return Error(ErrorKind::Trap,
               "the kernel trapped: a wait bounded by debug-waits (" + bound +
                   ") expired, but wrote no record of which (" + message + ")");
}

} // namespace gemm::runtime
