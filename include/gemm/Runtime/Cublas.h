//===- Cublas.h - cuBLASLt as reference and as competitor -------*- C++ -*-===//

#ifndef GEMM_RUNTIME_CUBLAS_H
#define GEMM_RUNTIME_CUBLAS_H

#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Plan.h"

#include <cuda.h>

#include <memory>
#include <string>

struct cublasLtContext;

namespace gemm::runtime {

/// A cuBLASLt handle with its workspace, in the current context.
class CublasLt {
public:
  CublasLt();
  CublasLt(const CublasLt &) = delete;
  ~CublasLt();
  cublasLtContext *handle() const { return ltHandle; }
  CUdeviceptr workspace() const { return workspaceBuffer.get(); }
  size_t workspaceBytes() const { return workspaceBuffer.size(); }
  /// e.g. "13.0.0".
  static std::string version();

private:
  cublasLtContext *ltHandle = nullptr;
  DeviceBuffer workspaceBuffer;
};

/// D = A * B^T in the runner's terms (A: M x K, B: N x K, D: M x N, each in
/// its plan's layout, strided batches as planned), f32 accumulation, prepared
/// once per problem with the algorithm cuBLASLt's heuristic picks first.
class CublasGemm {
public:
  /// Null, with `whyNot` set, when cuBLASLt has no algorithm for these
  /// dtypes, sizes and leading dimensions.
  static std::unique_ptr<CublasGemm>
  create(const CublasLt &lt, const MatrixPlan &a, const MatrixPlan &b,
         const MatrixPlan &d, std::string &whyNot);
  ~CublasGemm();
  void run(CUdeviceptr a, CUdeviceptr b, CUdeviceptr d, CUstream stream) const;

private:
  struct State;
  explicit CublasGemm(std::unique_ptr<State> state);
  std::unique_ptr<State> state;
};

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_CUBLAS_H
