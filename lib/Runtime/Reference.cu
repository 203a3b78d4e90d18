//===- Reference.cu - Reference GEMM, input and check kernels -------------===//
//
// Deliberately simple: correctness of everything else is judged by these.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Reference.h"

#include "gemm/Bundle/TestData.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace gemm::runtime {
namespace {

template <DType D> struct Element;
template <> struct Element<DType::BF16> {
  using Storage = uint16_t;
  static __device__ float decode(Storage bits) {
    return __bfloat162float(__ushort_as_bfloat16(bits));
  }
  static __device__ Storage encode(float x) {
    return __bfloat16_as_ushort(__float2bfloat16_rn(x));
  }
};
template <> struct Element<DType::F16> {
  using Storage = uint16_t;
  static __device__ float decode(Storage bits) {
    return __half2float(__ushort_as_half(bits));
  }
  static __device__ Storage encode(float x) {
    return __half_as_ushort(__float2half_rn(x));
  }
};
template <> struct Element<DType::F32> {
  using Storage = uint32_t;
  static __device__ float decode(Storage bits) { return __uint_as_float(bits); }
  static __device__ Storage encode(float x) { return __float_as_uint(x); }
};
template <__nv_fp8_interpretation_t Kind> struct Fp8Element {
  using Storage = uint8_t;
  static __device__ float decode(Storage bits) {
    return __half2float(__half(__nv_cvt_fp8_to_halfraw(bits, Kind)));
  }
  static __device__ Storage encode(float x) {
    return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, Kind);
  }
};
template <> struct Element<DType::E4M3> : Fp8Element<__NV_E4M3> {};
template <> struct Element<DType::E5M2> : Fp8Element<__NV_E5M2> {};
// 8-bit integers: exact as floats. Random values are integers of a normal
// distribution: s8 ~ 16 z (clamped to +-127), u8 ~ 128 + 32 z (to 0..255),
// so that products and their sums exercise every bit of the s32
// accumulator's low half without overflowing it at K = 65536.
template <> struct Element<DType::S8> {
  using Storage = int8_t;
  static __device__ float decode(Storage bits) { return float(bits); }
  static __device__ Storage encode(float x) {
    return Storage(fminf(fmaxf(rintf(x), -127.0f), 127.0f));
  }
  static __device__ float random(float z) { return 16.0f * z; }
};
template <> struct Element<DType::U8> {
  using Storage = uint8_t;
  static __device__ float decode(Storage bits) { return float(bits); }
  static __device__ Storage encode(float x) {
    return Storage(fminf(fmaxf(rintf(x), 0.0f), 255.0f));
  }
  static __device__ float random(float z) { return 128.0f + 32.0f * z; }
};
template <> struct Element<DType::S32> {
  using Storage = int32_t;
  static __device__ float decode(Storage bits) { return float(bits); }
  static __device__ double decodeExact(Storage bits) { return double(bits); }
  static __device__ Storage encode(float x) { return Storage(rintf(x)); }
};

template <DType D> using StorageOf = typename Element<D>::Storage;
template <DType D> using StorageOfType = typename Element<D>::Storage;

/// The random value a fill writes for a standard normal z: z itself, or the
/// integer distributions above.
template <DType D> __device__ float randomValue(float z) {
  if constexpr (D == DType::S8 || D == DType::U8)
    return Element<D>::random(z);
  else
    return z;
}

/// An output element as a double: exact for s32.
template <DType D> __device__ double decodeOutput(StorageOfType<D> bits) {
  if constexpr (D == DType::S32)
    return Element<D>::decodeExact(bits);
  else
    return Element<D>::decode(bits);
}

/// The largest finite value of an output type that rounds to infinity past
/// it (round to nearest: f16, bf16, e5m2, f32); infinity for the others,
/// whose conversions saturate (e4m3) or are exact (s32).
template <DType D> __device__ double largestFinite() {
  if constexpr (D == DType::F16)
    return 65504.0;
  else if constexpr (D == DType::BF16)
    return 3.3895313892515355e38;
  else if constexpr (D == DType::E5M2)
    return 57344.0;
  else if constexpr (D == DType::E4M3)
    return 448.0;
  else if constexpr (D == DType::F32)
    return 3.4028234663852886e38;
  else
    return HUGE_VAL;
}

/// Calls f(std::integral_constant<DType, d>) so kernels get the dtype as a
/// template argument: the floating-point types the reference GEMM takes
/// (others are dequantised to f32 first).
template <typename F> void dispatch(DType dtype, F &&f) {
  switch (dtype) {
  case DType::BF16:
    return f(std::integral_constant<DType, DType::BF16>{});
  case DType::F16:
    return f(std::integral_constant<DType, DType::F16>{});
  case DType::F32:
    return f(std::integral_constant<DType, DType::F32>{});
  case DType::E4M3:
    return f(std::integral_constant<DType, DType::E4M3>{});
  case DType::E5M2:
    return f(std::integral_constant<DType, DType::E5M2>{});
  default:
    throw Error(ErrorKind::Usage,
                "the reference GEMM takes bf16, f16, f32 and fp8 inputs; " +
                    std::string(bundle::toString(dtype)) +
                    " is dequantised to f32 first");
  }
}

/// Calls f(std::integral_constant<DType, d>) for every input and output
/// dtype, 8-bit integers and s32 included (fills, dequantisation, compare).
template <typename F> void dispatchAll(DType dtype, F &&f) {
  switch (dtype) {
  case DType::S8:
    return f(std::integral_constant<DType, DType::S8>{});
  case DType::U8:
    return f(std::integral_constant<DType, DType::U8>{});
  case DType::S32:
    return f(std::integral_constant<DType, DType::S32>{});
  default:
    return dispatch(dtype, f);
  }
}

void checkLaunch(const char *kernel) {
  if (cudaError_t error = cudaGetLastError(); error != cudaSuccess)
    throw Error(ErrorKind::Cuda, std::string("launching reference kernel ") +
                                     kernel + ": " + cudaGetErrorName(error) +
                                     " (" + cudaGetErrorString(error) + ")");
}

/// Grid-stride kernels: enough blocks to fill any current GPU.
constexpr unsigned StrideBlocks = 2048, StrideThreads = 256;

__device__ uint64_t mix64(uint64_t x) {
  // splitmix64's finalizer: a bijection with full avalanche.
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__device__ float normalAt(uint64_t seed, uint64_t index) {
  uint64_t h = mix64(seed ^ mix64(index + 0x9e3779b97f4a7c15ull));
  // Box-Muller on two 24-bit uniforms; u1 in (0, 1] keeps log finite.
  float u1 = float((h >> 40) + 1) * 0x1p-24f;
  float u2 = float((h >> 16) & 0xffffff) * 0x1p-24f;
  return sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
}

/// Element i of the logical (batch entry, row, column < ld) walk of a
/// matrix: its address in memory, entries batchStride apart.
__device__ uint64_t addressOf(uint64_t i, uint64_t outer, uint64_t ld,
                              uint64_t batchStride, uint64_t &row,
                              uint64_t &column) {
  column = i % ld;
  row = i / ld; // batch * outer + row
  return row / outer * batchStride + row % outer * ld + column;
}

template <DType D>
__global__ void
fillNormalKernel(StorageOf<D> *data, uint64_t outer, uint64_t inner,
                 uint64_t ld, uint64_t batchStride, uint64_t total,
                 bool fillPadding, uint64_t seed, StorageOf<D> poison) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t row, column;
    uint64_t at = addressOf(i, outer, ld, batchStride, row, column);
    if (column < inner)
      data[at] = Element<D>::encode(
          randomValue<D>(normalAt(seed, row * inner + column)));
    else if (fillPadding)
      data[at] = poison;
  }
}

template <DType D>
__global__ void
fillSmallKernel(StorageOf<D> *data, uint64_t outer, uint64_t inner, uint64_t ld,
                uint64_t batchStride, uint64_t total, bool fillPadding,
                uint64_t seed, bundle::Tensor tensor, StorageOf<D> poison) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t row, column;
    uint64_t at = addressOf(i, outer, ld, batchStride, row, column);
    if (column < inner)
      data[at] = Element<D>::encode(float(bundle::smallIntegerFor(
          D, bundle::storedSmallIntegerAt(seed, tensor, row / outer, outer,
                                          row % outer, column))));
    else if (fillPadding)
      data[at] = poison;
  }
}

constexpr int RefTile = 16;

/// One operand of the reference: element (row, k) of batch entry b at
/// b * batchStride + row * ld + k, or row + k * ld when transposed (an
/// M-major A, an N-major B).
template <DType D> struct RefOperand {
  const StorageOf<D> *data;
  uint64_t ld, batchStride;
  uint32_t rows;
  bool transposed;

  /// Loads the 16 x 16 block at (row0, k0) into `tile` (tile[r][k]), with
  /// consecutive threads (tx) on consecutive addresses in either layout.
  __device__ void loadTile(float (*tile)[RefTile + 1], uint64_t batch,
                           uint32_t row0, uint32_t k0, uint32_t k) const {
    uint32_t tx = threadIdx.x, ty = threadIdx.y;
    const StorageOf<D> *base = data + batch * batchStride;
    uint32_t r = row0 + (transposed ? tx : ty);
    uint32_t kk = k0 + (transposed ? ty : tx);
    float value = 0.0f;
    if (r < rows && kk < k)
      value = Element<D>::decode(transposed ? base[uint64_t(kk) * ld + r]
                                            : base[uint64_t(r) * ld + kk]);
    if (transposed)
      tile[tx][ty] = value;
    else
      tile[ty][tx] = value;
  }
};

template <DType DA, DType DB>
__global__ void referenceGemmKernel(RefOperand<DA> a, RefOperand<DB> b,
                                    float *out, uint64_t outRowStride,
                                    uint64_t outColStride, uint32_t k) {
  // Padding by one float keeps the transposed reads of the tiles
  // conflict-free.
  __shared__ float aTile[RefTile][RefTile + 1];
  __shared__ float bTile[RefTile][RefTile + 1];
  uint32_t tx = threadIdx.x, ty = threadIdx.y;
  uint64_t batch = blockIdx.z;
  uint32_t row = blockIdx.y * RefTile + ty;
  uint32_t column = blockIdx.x * RefTile + tx;
  double acc = 0;
  for (uint32_t k0 = 0; k0 < k; k0 += RefTile) {
    a.loadTile(aTile, batch, blockIdx.y * RefTile, k0, k);
    b.loadTile(bTile, batch, blockIdx.x * RefTile, k0, k);
    __syncthreads();
    for (int i = 0; i < RefTile; ++i)
      acc += double(aTile[ty][i]) * double(bTile[tx][i]);
    __syncthreads();
  }
  if (row < a.rows && column < b.rows)
    out[batch * uint64_t(a.rows) * b.rows + row * outRowStride +
        column * outColStride] = float(acc);
}

struct CompareAccumulators {
  double errorSquared, referenceSquared;
  unsigned long long maxAbsErrorBits, referenceMaxAbsBits;
  unsigned long long unwritten, nonFinite, outOfBounds, referenceNonFinite;
  unsigned long long firstBad;
};

template <typename T> __device__ T warpSum(T value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffff, value, offset);
  return value;
}

template <typename T> __device__ T warpReduce(T value, bool takeMax) {
  for (int offset = 16; offset > 0; offset /= 2) {
    T other = __shfl_down_sync(0xffffffff, value, offset);
    value = takeMax ? max(value, other) : min(value, other);
  }
  return value;
}

template <DType D>
__global__ void compareKernel(const StorageOf<D> *out, uint64_t rows,
                              uint64_t outer, uint64_t inner, uint64_t ld,
                              uint64_t batchStride, bool checkPadding,
                              const float *ref, double referenceScale,
                              StorageOf<D> poison, CompareAccumulators *acc) {
  double errorSquared = 0, referenceSquared = 0, maxAbsError = 0,
         referenceMaxAbs = 0;
  unsigned long long unwritten = 0, nonFinite = 0, outOfBounds = 0,
                     referenceNonFinite = 0, firstBad = ~0ull;
  uint64_t total = rows * ld;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t row, column;
    uint64_t at = addressOf(i, outer, ld, batchStride, row, column);
    if (column >= inner && !checkPadding)
      continue;
    StorageOf<D> bits = out[at];
    if (column >= inner) {
      outOfBounds += bits != poison;
      continue;
    }
    uint64_t index = row * inner + column;
    double unscaled = ref[index];
    if (!isfinite(unscaled)) {
      ++referenceNonFinite;
      continue;
    }
    referenceMaxAbs = fmax(referenceMaxAbs, fabs(unscaled));
    double expected = unscaled * referenceScale;
    referenceSquared += expected * expected;
    double value = decodeOutput<D>(bits);
    // A value past the output type's range is infinity when rounded to it
    // (e.g. an unscaled u8 x u8 sum in f16), or the largest finite value
    // when converted with saturation (fp8 outputs are cvt...satfinite): the
    // kernel's infinity or largest value of the same sign is the right
    // answer, not a non-finite or a large error.
    if (bits != poison && fabs(expected) > largestFinite<D>() &&
        (isinf(value) || fabs(value) == largestFinite<D>()) &&
        signbit(value) == signbit(expected))
      continue;
    if (bits == poison || !isfinite(value)) {
      unwritten += bits == poison;
      nonFinite += bits != poison;
      firstBad = min(firstBad, (unsigned long long)index);
      continue;
    }
    double error = double(value) - expected;
    errorSquared += error * error;
    maxAbsError = fmax(maxAbsError, fabs(error));
  }
  // One set of atomics per warp.
  errorSquared = warpSum(errorSquared);
  referenceSquared = warpSum(referenceSquared);
  maxAbsError = warpReduce(maxAbsError, /*takeMax=*/true);
  referenceMaxAbs = warpReduce(referenceMaxAbs, /*takeMax=*/true);
  unwritten = warpSum(unwritten);
  nonFinite = warpSum(nonFinite);
  outOfBounds = warpSum(outOfBounds);
  referenceNonFinite = warpSum(referenceNonFinite);
  firstBad = warpReduce(firstBad, /*takeMax=*/false);
  if (threadIdx.x % 32 != 0)
    return;
  atomicAdd(&acc->errorSquared, errorSquared);
  atomicAdd(&acc->referenceSquared, referenceSquared);
  // Non-negative doubles order like their bit patterns.
  atomicMax(&acc->maxAbsErrorBits,
            (unsigned long long)__double_as_longlong(maxAbsError));
  atomicMax(&acc->referenceMaxAbsBits,
            (unsigned long long)__double_as_longlong(referenceMaxAbs));
  atomicAdd(&acc->unwritten, unwritten);
  atomicAdd(&acc->nonFinite, nonFinite);
  atomicAdd(&acc->outOfBounds, outOfBounds);
  atomicAdd(&acc->referenceNonFinite, referenceNonFinite);
  atomicMin(&acc->firstBad, firstBad);
}

/// How a dequantisation reads the scale of element (row, column) of an
/// operand (docs/Runtime.md): none, one scalar, one per row of the matrix
/// (A's rows, or B's rows, i.e. C's columns), A's 1 x 128 blocks stored
/// k-block-major (ld = M), B's 128 x 128 blocks row-major (ld = k-blocks).
enum class ScaleRead { None, Scalar, PerRow, BlockA, BlockB };

__device__ float scaleAt(const float *scales, ScaleRead read, uint64_t ld,
                         uint64_t row, uint64_t column) {
  switch (read) {
  case ScaleRead::None:
    return 1.0f;
  case ScaleRead::Scalar:
    return scales[0];
  case ScaleRead::PerRow:
    return scales[row];
  case ScaleRead::BlockA:
    return scales[column / 128 * ld + row];
  case ScaleRead::BlockB:
    return scales[row / 128 * ld + column / 128];
  }
  return 1.0f;
}

template <DType D>
__global__ void dequantizeKernel(const StorageOf<D> *in, uint64_t outer,
                                 uint64_t inner, uint64_t ld,
                                 uint64_t batchStride, uint64_t total,
                                 const float *scales, ScaleRead read,
                                 uint64_t scaleLd, float *out) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t column = i % inner;
    uint64_t row = i / inner % outer;
    uint64_t batch = i / inner / outer;
    float value =
        Element<D>::decode(in[batch * batchStride + row * ld + column]);
    // Products of exact fp8/int8 values and f32 scales: the f32 rounding of
    // the product is the only error the reference takes on.
    out[i] = value * scaleAt(scales, read, scaleLd, row, column);
  }
}

/// Log-uniform scale factors in [1/4, 4): a scaling bug (a wrong block, row
/// or column) changes results by up to 16x, not by a rounding error.
__global__ void fillScalesKernel(float *data, uint64_t total, uint64_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t h = mix64(seed ^ mix64(i + 0x9e3779b97f4a7c15ull));
    float u = float(h >> 40) * 0x1p-24f;
    data[i] = exp2f(4.0f * u - 2.0f);
  }
}

unsigned strideBlocks(uint64_t total) {
  return static_cast<unsigned>(std::min<uint64_t>(
      StrideBlocks, (total + StrideThreads - 1) / StrideThreads + 1));
}

} // namespace

uint32_t poisonBits(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return 0x7fa5;
  case DType::F16:
    return 0x7d5a;
  case DType::F32:
    return 0x7fa5a5a5;
  case DType::E4M3:
  case DType::E5M2:
    return 0x7f;
  case DType::S8:
  case DType::U8:
    return 0x7f;
  case DType::S32:
    // Not a NaN: an s32 output still holding it was most likely not
    // written (the chance that a sum equals it is negligible).
    return 0x7fa5a5a5;
  }
  return 0;
}

void poison(CUdeviceptr ptr, DType dtype, uint64_t elements, CUstream stream) {
  const DriverApi &api = driver();
  uint32_t bits = poisonBits(dtype);
  const char *step = "poisoning the output with NaN";
  switch (bundle::elementBytes(dtype)) {
  case 1:
    checkCu(api.cuMemsetD8Async(ptr, uint8_t(bits), elements, stream), step);
    return;
  case 2:
    checkCu(api.cuMemsetD16Async(ptr, uint16_t(bits), elements, stream), step);
    return;
  default:
    checkCu(api.cuMemsetD32Async(ptr, bits, elements, stream), step);
  }
}

void fillRandomNormal(CUdeviceptr ptr, const MatrixPlan &matrix, uint64_t seed,
                      CUstream stream) {
  // Every stored entry (one of a broadcast matrix); row padding is
  // poisoned, except where entries interleave (it is other entries' rows).
  uint64_t total = matrix.storedBatches() * matrix.outer * matrix.ld;
  // Distinct streams per tensor from one user seed.
  uint64_t tensorSeed =
      seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(matrix.tensor) + 1;
  dispatchAll(matrix.dtype, [&](auto d) {
    constexpr DType D = decltype(d)::value;
    fillNormalKernel<D><<<strideBlocks(total), StrideThreads, 0, stream>>>(
        reinterpret_cast<StorageOf<D> *>(ptr), matrix.outer, matrix.inner,
        matrix.ld, matrix.batchStride, total, matrix.blocked(), tensorSeed,
        StorageOf<D>(poisonBits(D)));
  });
  checkLaunch("fillNormal");
}

void fillSmallIntegers(CUdeviceptr ptr, const MatrixPlan &matrix, uint64_t seed,
                       CUstream stream) {
  // Every stored entry by stored position (gemm/Bundle/TestData.h), as the
  // simulator fills its buffers; padding as in fillRandomNormal.
  uint64_t total = matrix.storedBatches() * matrix.outer * matrix.ld;
  // Every input type, 8-bit integers included (an s32 input does not exist).
  dispatchAll(matrix.dtype, [&](auto d) {
    constexpr DType D = decltype(d)::value;
    if constexpr (D != DType::S32)
      fillSmallKernel<D><<<strideBlocks(total), StrideThreads, 0, stream>>>(
          reinterpret_cast<StorageOf<D> *>(ptr), matrix.outer, matrix.inner,
          matrix.ld, matrix.batchStride, total, matrix.blocked(), seed,
          matrix.tensor, StorageOf<D>(poisonBits(D)));
  });
  checkLaunch("fillSmall");
}

void referenceGemm(CUdeviceptr a, const MatrixPlan &aPlan, CUdeviceptr b,
                   const MatrixPlan &bPlan, CUdeviceptr out,
                   const MatrixPlan &outPlan, CUstream stream) {
  uint64_t m = aPlan.transposed() ? aPlan.inner : aPlan.outer;
  uint64_t k = aPlan.transposed() ? aPlan.outer : aPlan.inner;
  uint64_t n = bPlan.transposed() ? bPlan.inner : bPlan.outer;
  dim3 grid(static_cast<unsigned>((n + RefTile - 1) / RefTile),
            static_cast<unsigned>((m + RefTile - 1) / RefTile),
            static_cast<unsigned>(aPlan.batch));
  if (grid.y > 65535 || grid.z > 65535)
    throw Error(ErrorKind::Usage,
                "the naive reference handles m up to " +
                    std::to_string(65535 * RefTile) +
                    " and batch up to 65535; use --reference cublas");
  // The packed output in C's layout: row-major M x N, or N x M.
  uint64_t rowStride = outPlan.transposed() ? 1 : n;
  uint64_t colStride = outPlan.transposed() ? m : 1;
  dispatch(aPlan.dtype, [&](auto da) {
    dispatch(bPlan.dtype, [&](auto db) {
      constexpr DType DA = decltype(da)::value, DB = decltype(db)::value;
      RefOperand<DA> refA{reinterpret_cast<const StorageOf<DA> *>(a), aPlan.ld,
                          aPlan.batchStride, static_cast<uint32_t>(m),
                          aPlan.transposed()};
      RefOperand<DB> refB{reinterpret_cast<const StorageOf<DB> *>(b), bPlan.ld,
                          bPlan.batchStride, static_cast<uint32_t>(n),
                          bPlan.transposed()};
      referenceGemmKernel<DA, DB><<<grid, dim3(RefTile, RefTile), 0, stream>>>(
          refA, refB, reinterpret_cast<float *>(out), rowStride, colStride,
          static_cast<uint32_t>(k));
    });
  });
  checkLaunch("referenceGemm");
}

double CompareStats::relativeError() const {
  if (referenceSquared == 0)
    return errorSquared == 0 ? 0 : INFINITY;
  return std::sqrt(errorSquared / referenceSquared);
}

void fillRandomScales(CUdeviceptr ptr, const ScalePlan &plan, uint64_t seed,
                      CUstream stream) {
  uint64_t total = plan.elements();
  uint64_t scaleSeed = seed * 0xd1b54a32d192ed03ull +
                       static_cast<uint64_t>(plan.tensor) * 977 +
                       static_cast<uint64_t>(plan.granularity) + 11;
  fillScalesKernel<<<strideBlocks(total), StrideThreads, 0, stream>>>(
      reinterpret_cast<float *>(ptr), total, scaleSeed);
  checkLaunch("fillScales");
}

void dequantize(CUdeviceptr in, const MatrixPlan &plan, const ScalePlan *scale,
                CUdeviceptr scales, CUdeviceptr out, CUstream stream) {
  ScaleRead read = ScaleRead::None;
  uint64_t scaleLd = 0;
  if (scale) {
    switch (scale->granularity) {
    case bundle::ScaleGranularity::Tensor:
      read = ScaleRead::Scalar;
      break;
    case bundle::ScaleGranularity::Row:
    case bundle::ScaleGranularity::Col:
      read = ScaleRead::PerRow;
      break;
    case bundle::ScaleGranularity::Block:
      read = plan.tensor == Tensor::A ? ScaleRead::BlockA : ScaleRead::BlockB;
      scaleLd = scale->cols;
      break;
    }
  }
  uint64_t total = plan.elements();
  dispatchAll(plan.dtype, [&](auto d) {
    constexpr DType D = decltype(d)::value;
    if constexpr (D != DType::S32)
      dequantizeKernel<D><<<strideBlocks(total), StrideThreads, 0, stream>>>(
          reinterpret_cast<const StorageOf<D> *>(in), plan.outer, plan.inner,
          plan.ld, plan.batchStride, total,
          reinterpret_cast<const float *>(scales), read, scaleLd,
          reinterpret_cast<float *>(out));
  });
  checkLaunch("dequantize");
}

CompareStats compareToReference(CUdeviceptr out, const MatrixPlan &outPlan,
                                CUdeviceptr reference, CUstream stream,
                                std::chrono::milliseconds timeout,
                                double referenceScale) {
  const DriverApi &api = driver();
  DeviceBuffer accumulators(sizeof(CompareAccumulators), "check results");
  // Zero everything, then set firstBad to "none" (all ones).
  checkCu(api.cuMemsetD8Async(accumulators.get(), 0,
                              sizeof(CompareAccumulators), stream),
          "clearing check results");
  checkCu(api.cuMemsetD32Async(accumulators.get() +
                                   offsetof(CompareAccumulators, firstBad),
                               ~0u, 2, stream),
          "clearing check results");
  uint64_t rows = outPlan.batch * outPlan.outer;
  uint64_t total = rows * outPlan.ld;
  DType dtype = outPlan.dtype;
  if (bundle::isInt8(dtype))
    throw Error(ErrorKind::Usage, "cannot check " +
                                      std::string(bundle::toString(dtype)) +
                                      " outputs");
  dispatchAll(dtype, [&](auto d) {
    constexpr DType D = decltype(d)::value;
    if constexpr (D != DType::S8 && D != DType::U8)
      compareKernel<D><<<strideBlocks(total), StrideThreads, 0, stream>>>(
          reinterpret_cast<const StorageOf<D> *>(out), rows, outPlan.outer,
          outPlan.inner, outPlan.ld, outPlan.batchStride, outPlan.blocked(),
          reinterpret_cast<const float *>(reference), referenceScale,
          StorageOf<D>(poisonBits(D)),
          reinterpret_cast<CompareAccumulators *>(accumulators.get()));
  });
  checkLaunch("compare");
  waitForStream(stream, timeout, "comparing against the reference");
  CompareAccumulators result;
  checkCu(api.cuMemcpyDtoH(&result, accumulators.get(), sizeof(result)),
          "reading check results");

  CompareStats stats;
  stats.elements = outPlan.elements();
  stats.unwritten = result.unwritten;
  stats.nonFinite = result.nonFinite;
  stats.outOfBoundsWrites = result.outOfBounds;
  stats.referenceNonFinite = result.referenceNonFinite;
  stats.firstBadIndex = result.firstBad;
  stats.errorSquared = result.errorSquared;
  stats.referenceSquared = result.referenceSquared;
  std::memcpy(&stats.maxAbsError, &result.maxAbsErrorBits, sizeof(double));
  std::memcpy(&stats.referenceMaxAbs, &result.referenceMaxAbsBits,
              sizeof(double));
  return stats;
}

} // namespace gemm::runtime
