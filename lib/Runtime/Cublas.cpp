//===- Cublas.cpp - cuBLASLt as reference and as competitor ---------------===//

#include "gemm/Runtime/Cublas.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"

#include <cublasLt.h>

namespace gemm::runtime {
namespace {

using bundle::DType;

/// cuBLAS's own recommendation for Hopper and Blackwell.
constexpr size_t WorkspaceBytes = 32 << 20;

void checkLt(cublasStatus_t status, const std::string &step) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(ErrorKind::Cuda, step + ": " + cublasLtGetStatusName(status) +
                                     " (" + cublasLtGetStatusString(status) +
                                     ")");
}

cudaDataType_t cudaType(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return CUDA_R_16BF;
  case DType::F16:
    return CUDA_R_16F;
  case DType::F32:
    return CUDA_R_32F;
  case DType::E4M3:
    return CUDA_R_8F_E4M3;
  case DType::E5M2:
    return CUDA_R_8F_E5M2;
  }
  return CUDA_R_32F;
}

} // namespace

CublasLt::CublasLt() {
  checkLt(cublasLtCreate(&ltHandle), "creating the cuBLASLt handle");
  workspaceBuffer = DeviceBuffer(WorkspaceBytes, "the cuBLASLt workspace");
}

CublasLt::~CublasLt() {
  if (ltHandle && gpuUsable())
    cublasLtDestroy(ltHandle);
}

std::string CublasLt::version() {
  size_t v = cublasLtGetVersion();
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

struct CublasGemm::State {
  cublasLtHandle_t handle = nullptr;
  CUdeviceptr workspace = 0;
  size_t workspaceBytes = 0;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t aLayout = nullptr, bLayout = nullptr,
                         dLayout = nullptr;
  cublasLtMatmulAlgo_t algo = {};
  /// cuBLASLt's first operand is our A (column-major D), else our B.
  bool swapped = false;

  ~State() {
    if (!gpuUsable())
      return;
    if (dLayout)
      cublasLtMatrixLayoutDestroy(dLayout);
    if (bLayout)
      cublasLtMatrixLayoutDestroy(bLayout);
    if (aLayout)
      cublasLtMatrixLayoutDestroy(aLayout);
    if (op)
      cublasLtMatmulDescDestroy(op);
  }
};

CublasGemm::CublasGemm(std::unique_ptr<State> state)
    : state(std::move(state)) {}
CublasGemm::~CublasGemm() = default;

std::unique_ptr<CublasGemm>
CublasGemm::create(const CublasLt &lt, const MatrixPlan &a, const MatrixPlan &b,
                   const MatrixPlan &d, std::string &whyNot) {
  auto s = std::make_unique<State>();
  s->handle = lt.handle();
  s->workspace = lt.workspace();
  s->workspaceBytes = lt.workspaceBytes();
  checkLt(cublasLtMatmulDescCreate(&s->op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
          "creating the cuBLASLt matmul descriptor");
  // cuBLASLt computes column-major D' = op(X) * op(Y), and each of our
  // matrices is, read column-major, `inner` rows by `outer` columns. A
  // row-major D (M x N) is a column-major D' = D^T (N x M) = B * A^T: X is our
  // B (N x K) and Y is A^T (K x M). A column-major D is D' = D = A * B^T: X
  // is our A (M x K) and Y is B^T (K x N). X is transposed for cuBLASLt when
  // its stored rows (inner) run along K, Y when they do not. The default
  // layouts (A row, B col, D row) are the "TN" form, which fp8 requires.
  bool columnMajorD = d.transposed();
  const MatrixPlan &x = columnMajorD ? a : b;
  const MatrixPlan &y = columnMajorD ? b : a;
  auto innerIsK = [](const MatrixPlan &m) { return !m.transposed(); };
  cublasOperation_t transA = innerIsK(x) ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t transB = innerIsK(y) ? CUBLAS_OP_N : CUBLAS_OP_T;
  checkLt(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_TRANSA,
                                         &transA, sizeof(transA)),
          "setting cuBLASLt transa");
  checkLt(cublasLtMatmulDescSetAttribute(s->op, CUBLASLT_MATMUL_DESC_TRANSB,
                                         &transB, sizeof(transB)),
          "setting cuBLASLt transb");

  auto layout = [](cublasLtMatrixLayout_t &out, const MatrixPlan &m,
                   const char *what) {
    checkLt(cublasLtMatrixLayoutCreate(&out, cudaType(m.dtype), m.inner,
                                       m.outer, static_cast<int64_t>(m.ld)),
            std::string("creating the cuBLASLt layout of ") + what);
    if (m.batch == 1)
      return;
    int32_t count = static_cast<int32_t>(m.batch);
    int64_t stride = static_cast<int64_t>(m.batchStride);
    checkLt(cublasLtMatrixLayoutSetAttribute(
                out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)),
            std::string("setting the batch count of ") + what);
    checkLt(cublasLtMatrixLayoutSetAttribute(
                out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                sizeof(stride)),
            std::string("setting the batch stride of ") + what);
  };
  layout(s->aLayout, x, columnMajorD ? "A" : "B");
  layout(s->bLayout, y, columnMajorD ? "B" : "A");
  layout(s->dLayout, d, "D");
  s->swapped = columnMajorD;

  cublasLtMatmulPreference_t preference = nullptr;
  checkLt(cublasLtMatmulPreferenceCreate(&preference),
          "creating the cuBLASLt preference");
  uint64_t workspaceBytes = s->workspaceBytes;
  cublasStatus_t status = cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
      sizeof(workspaceBytes));
  cublasLtMatmulHeuristicResult_t heuristic = {};
  int found = 0;
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulAlgoGetHeuristic(s->handle, s->op, s->aLayout,
                                            s->bLayout, s->dLayout, s->dLayout,
                                            preference, 1, &heuristic, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  std::string types = std::string(bundle::toString(a.dtype)) + " x " +
                      std::string(bundle::toString(b.dtype)) + " -> " +
                      std::string(bundle::toString(d.dtype));
  if (status == CUBLAS_STATUS_NOT_SUPPORTED ||
      (status == CUBLAS_STATUS_SUCCESS && found == 0)) {
    whyNot = "cuBLASLt has no algorithm for " + types + " (layouts a " +
             std::string(bundle::toString(a.layout)) + ", b " +
             std::string(bundle::toString(b.layout)) + ", d " +
             std::string(bundle::toString(d.layout)) + ") with lda " +
             std::to_string(a.ld) + ", ldb " + std::to_string(b.ld) + ", ldd " +
             std::to_string(d.ld);
    return nullptr;
  }
  checkLt(status, "choosing a cuBLASLt algorithm for " + types);
  s->algo = heuristic.algo;
  return std::unique_ptr<CublasGemm>(new CublasGemm(std::move(s)));
}

void CublasGemm::run(CUdeviceptr a, CUdeviceptr b, CUdeviceptr d,
                     CUstream stream) const {
  const float alpha = 1.0f, beta = 0.0f;
  auto ptr = [](CUdeviceptr p) { return reinterpret_cast<void *>(p); };
  CUdeviceptr first = state->swapped ? a : b;
  CUdeviceptr second = state->swapped ? b : a;
  checkLt(cublasLtMatmul(state->handle, state->op, &alpha, ptr(first),
                         state->aLayout, ptr(second), state->bLayout, &beta,
                         ptr(d), state->dLayout, ptr(d), state->dLayout,
                         &state->algo, ptr(state->workspace),
                         state->workspaceBytes, stream),
          "running cuBLASLt");
}

} // namespace gemm::runtime
