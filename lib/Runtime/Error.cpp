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
  }
  return ExitCudaError;
}

} // namespace gemm::runtime
