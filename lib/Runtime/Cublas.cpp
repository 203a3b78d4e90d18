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
  case DType::S8:
    return CUDA_R_8I;
  case DType::U8:
    return CUDA_R_8U;
  case DType::S32:
    return CUDA_R_32I;
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
                         cLayout = nullptr, dLayout = nullptr;
  cublasLtMatmulAlgo_t algo = {};
  /// IMMA: s32 alpha and beta instead of f32.
  bool integer = false;
  /// fp8 outputs: a C of another type (beta = 0, never read).
  DeviceBuffer cBuffer;
  /// cuBLASLt's first operand is our A (column-major D), else our B.
  bool swapped = false;

  ~State() {
    if (!gpuUsable())
      return;
    if (cLayout)
      cublasLtMatrixLayoutDestroy(cLayout);
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
                   const MatrixPlan &d, std::string &whyNot,
                   const CublasOptions &options) {
  auto s = std::make_unique<State>();
  s->handle = lt.handle();
  s->workspace = lt.workspace();
  s->workspaceBytes = lt.workspaceBytes();
  s->integer = bundle::isInt8(a.dtype);
  cublasComputeType_t compute = s->integer     ? CUBLAS_COMPUTE_32I
                                : options.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                               : CUBLAS_COMPUTE_32F;
  checkLt(cublasLtMatmulDescCreate(&s->op, compute,
                                   s->integer ? CUDA_R_32I : CUDA_R_32F),
          "creating the cuBLASLt matmul descriptor");
  // cuBLASLt computes column-major D' = op(X) * op(Y), and each of our
  // matrices is, read column-major, `inner` rows by `outer` columns. A
  // row-major D (M x N) is a column-major D' = D^T (N x M) = B * A^T: X is our
  // B (N x K) and Y is A^T (K x M). A column-major D is D' = D = A * B^T: X
  // is our A (M x K) and Y is B^T (K x N). X is transposed for cuBLASLt when
  // its stored rows (inner) run along K, Y when they do not. The default
  // layouts (A row, B col, D row) are the "TN" form, which fp8 requires
  // (K-major A and B keep it TN with a column-major D too).
  bool columnMajorD = d.transposed();
  const MatrixPlan &x = columnMajorD ? a : b;
  const MatrixPlan &y = columnMajorD ? b : a;
  auto innerIsK = [](const MatrixPlan &m) { return !m.transposed(); };
  cublasOperation_t transA = innerIsK(x) ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t transB = innerIsK(y) ? CUBLAS_OP_N : CUBLAS_OP_T;
  auto set = [&](cublasLtMatmulDescAttributes_t attribute, const auto &value,
                 const char *what) {
    checkLt(
        cublasLtMatmulDescSetAttribute(s->op, attribute, &value, sizeof(value)),
        std::string("setting cuBLASLt ") + what);
  };
  // cuBLASLt's A is X and its B is Y; the scales follow the operands (an
  // outer vector runs along its operand's M or N either way).
  auto pointer = [](CUdeviceptr p) { return reinterpret_cast<void *>(p); };
  CUdeviceptr scaleX = columnMajorD ? options.scaleA : options.scaleB;
  CUdeviceptr scaleY = columnMajorD ? options.scaleB : options.scaleA;
  if (scaleX)
    set(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, pointer(scaleX),
        columnMajorD ? "the scale of A" : "the scale of B");
  if (scaleY)
    set(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, pointer(scaleY),
        columnMajorD ? "the scale of B" : "the scale of A");
  if (options.scaleD)
    set(CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, pointer(options.scaleD),
        "the output scale");
  if (options.amaxD)
    set(CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, pointer(options.amaxD),
        "the amax of D");
  if (options.outerVectors) {
    int32_t mode = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
    set(CUBLASLT_MATMUL_DESC_A_SCALE_MODE, mode, "the scale mode of X");
    set(CUBLASLT_MATMUL_DESC_B_SCALE_MODE, mode, "the scale mode of Y");
  }
  if (bundle::isFp8(a.dtype)) {
    int8_t fast = options.fastAccum ? 1 : 0;
    set(CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast, "fast accumulation");
  }
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
  // An fp8 D goes with a bf16 C (cuBLASLt's fp8 type rules); beta = 0, so
  // it is never read, but it must be a matrix of its own.
  MatrixPlan c = d;
  if (bundle::isFp8(d.dtype)) {
    c.dtype = DType::BF16;
    s->cBuffer = DeviceBuffer(c.bytes(), "the cuBLAS C of an fp8 output");
    layout(s->cLayout, c, "C");
  }
  s->swapped = columnMajorD;

  cublasLtMatmulPreference_t preference = nullptr;
  checkLt(cublasLtMatmulPreferenceCreate(&preference),
          "creating the cuBLASLt preference");
  uint64_t workspaceBytes = s->workspaceBytes;
  cublasStatus_t status = cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
      sizeof(workspaceBytes));
  for (cublasLtMatmulPreferenceAttributes_t attribute :
       {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    if (status == CUBLAS_STATUS_SUCCESS)
      status = cublasLtMatmulPreferenceSetAttribute(
          preference, attribute, &options.addressAlignment,
          sizeof(options.addressAlignment));
  cublasLtMatmulHeuristicResult_t heuristic = {};
  int found = 0;
  if (status == CUBLAS_STATUS_SUCCESS)
    status = cublasLtMatmulAlgoGetHeuristic(
        s->handle, s->op, s->aLayout, s->bLayout,
        s->cLayout ? s->cLayout : s->dLayout, s->dLayout, preference, 1,
        &heuristic, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  std::string types = std::string(bundle::toString(a.dtype)) + " x " +
                      std::string(bundle::toString(b.dtype)) + " -> " +
                      std::string(bundle::toString(d.dtype)) +
                      (options.tf32 ? " (tf32)" : "") +
                      (options.outerVectors ? " (row/column scales)" : "") +
                      (options.fastAccum ? " (fast accumulation)" : "");
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

uint32_t commonAlignment(std::initializer_list<CUdeviceptr> addresses) {
  uint32_t alignment = 256;
  for (CUdeviceptr address : addresses)
    while (address % alignment != 0)
      alignment /= 2;
  return alignment;
}

void CublasGemm::run(CUdeviceptr a, CUdeviceptr b, CUdeviceptr d,
                     CUstream stream) const {
  const float alpha = 1.0f, beta = 0.0f;
  const int32_t alphaInt = 1, betaInt = 0;
  const void *alphaPtr = state->integer ? static_cast<const void *>(&alphaInt)
                                        : static_cast<const void *>(&alpha);
  const void *betaPtr = state->integer ? static_cast<const void *>(&betaInt)
                                       : static_cast<const void *>(&beta);
  auto ptr = [](CUdeviceptr p) { return reinterpret_cast<void *>(p); };
  CUdeviceptr c = state->cLayout ? state->cBuffer.get() : d;
  CUdeviceptr first = state->swapped ? a : b;
  CUdeviceptr second = state->swapped ? b : a;
  checkLt(cublasLtMatmul(state->handle, state->op, alphaPtr, ptr(first),
                         state->aLayout, ptr(second), state->bLayout, betaPtr,
                         ptr(c),
                         state->cLayout ? state->cLayout : state->dLayout,
                         ptr(d), state->dLayout, &state->algo,
                         ptr(state->workspace), state->workspaceBytes, stream),
          "running cuBLASLt");
}

} // namespace gemm::runtime
