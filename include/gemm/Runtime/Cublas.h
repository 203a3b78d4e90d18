//===- Cublas.h - cuBLASLt as reference and as competitor -------*- C++ -*-===//

#ifndef GEMM_RUNTIME_CUBLAS_H
#define GEMM_RUNTIME_CUBLAS_H

#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Plan.h"

#include <cuda.h>

#include <initializer_list>
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

/// How cuBLASLt runs a low-precision GEMM (our A and B, as in MatrixPlan).
struct CublasOptions {
  /// f32 inputs through TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)
  /// instead of exact f32 arithmetic.
  bool tf32 = false;
  /// fp8: device addresses of the f32 scales of A, B (one per tensor, or
  /// with outerVectors M and N), the output scale and the amax of D; 0:
  /// none (1, and no amax).
  CUdeviceptr scaleA = 0, scaleB = 0, scaleD = 0, amaxD = 0;
  /// The scales of A and B are per row of A and per column of D
  /// (CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F).
  bool outerVectors = false;
  /// fp8: accumulate in the MMA's own precision (CUBLASLT_MATMUL_DESC_
  /// FAST_ACCUM) instead of promoting to f32.
  bool fastAccum = false;
  /// The alignment that run()'s addresses of A, B and D have at least (a
  /// power of two): cuBLASLt's heuristic otherwise assumes 256 bytes, and
  /// its algorithm then refuses less aligned addresses when run.
  uint32_t addressAlignment = 256;
};

/// The largest power of two, up to 256, that divides every address of
/// `addresses` (0 divides by all): CublasOptions::addressAlignment of them.
uint32_t commonAlignment(std::initializer_list<CUdeviceptr> addresses);

/// D = A * B^T in the runner's terms (A: M x K, B: N x K, D: M x N, each in
/// its plan's layout, strided batches as planned), f32 accumulation (s32
/// for s8 inputs: IMMA), prepared once per problem with the algorithm
/// cuBLASLt's heuristic picks first.
class CublasGemm {
public:
  /// Null, with `whyNot` set, when cuBLASLt has no algorithm for these
  /// dtypes, options, sizes and leading dimensions.
  static std::unique_ptr<CublasGemm>
  create(const CublasLt &lt, const MatrixPlan &a, const MatrixPlan &b,
         const MatrixPlan &d, std::string &whyNot,
         const CublasOptions &options = {});
  ~CublasGemm();
  void run(CUdeviceptr a, CUdeviceptr b, CUdeviceptr d, CUstream stream) const;

private:
  struct State;
  explicit CublasGemm(std::unique_ptr<State> state);
  std::unique_ptr<State> state;
};

} // namespace gemm::runtime

#endif // GEMM_RUNTIME_CUBLAS_H
