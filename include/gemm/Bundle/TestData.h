//===- TestData.h - Exact test inputs and C dumps, shared by sim and GPU
//-*-===//
//
// The kernel simulator (gemm-sim) and gemm-runner must compute on the same
// inputs to compare their results bit for bit. This header is the one
// definition of those inputs and of the file C is exchanged in; it needs
// neither CUDA nor MLIR.
//
// Inputs are small non-zero integers (-4..-1, 1..4; 1..4 in u8): every product
// and every partial sum of a GEMM with K < 2^20 is an integer below 2^24, exact
// in f32 whatever the order of the additions, and every such input is exact in
// bf16, f16, f32 and the fp8 formats. Zero is left out so that no sum can be
// a signed zero whose sign would depend on the order of additions.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_BUNDLE_TESTDATA_H
#define GEMM_BUNDLE_TESTDATA_H

#include "gemm/Bundle/Manifest.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace gemm::bundle {

/// splitmix64's finalizer: a bijection with full avalanche.
constexpr uint64_t mixTestBits(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Element (row, column) of input `tensor` (A: M x K, B: N x K, both indexed
/// row then column as stored) for `seed`: an integer in -4..-1, 1..4.
constexpr int smallIntegerAt(uint64_t seed, Tensor tensor, uint64_t row,
                             uint64_t column) {
  uint64_t stream = seed * 0x9e3779b97f4a7c15ull +
                    static_cast<uint64_t>(tensor) * 0x632be59bd9b4e019ull;
  uint64_t h =
      mixTestBits(stream ^ mixTestBits(row * 0x100000001b3ull + column));
  int magnitude = static_cast<int>(h % 4) + 1;
  return (h >> 32) & 1 ? -magnitude : magnitude;
}

/// Element (row, column) as stored in memory of batch entry `entry` of input
/// `tensor`, whose entries hold `rows` rows each: entry after entry, as one
/// matrix of entries x rows rows. Rows are the memory's (an M-major A's rows
/// are its K indices): gemm-runner fills its buffers by address, the
/// simulator likewise, and each reference maps logical indices to these. A
/// broadcast operand stores entry 0 only.
constexpr int storedSmallIntegerAt(uint64_t seed, Tensor tensor, uint64_t entry,
                                   uint64_t rows, uint64_t row,
                                   uint64_t column) {
  return smallIntegerAt(seed, tensor, entry * rows + row, column);
}

/// The small integer `value` as an input of type `dtype` holds it: an
/// unsigned 8-bit input holds its magnitude (1..4), every other input type
/// the value itself (exactly).
constexpr int smallIntegerFor(DType dtype, int value) {
  return dtype == DType::U8 && value < 0 ? -value : value;
}

/// Scale factor `index` (flat, in the layout of the scale parameter:
/// docs/LowPrecision.md) of tensor `tensor` (A, B, or C for an fp8
/// output's output scale) for `seed`, with small-integer inputs: a power of
/// two in 1/4 .. 4. Products of such scales with the small-integer sums
/// are exact in f32 in any order (no rounding before the final conversion
/// to C's type), so the simulator and the GPU agree bit for bit on scaled
/// kernels too, and a scale read from the wrong row, column or block
/// changes a result by a factor of 2 to 16, never by a rounding error.
inline float smallScaleAt(uint64_t seed, Tensor tensor, uint64_t index) {
  uint64_t h =
      mixTestBits(seed * 0xd1b54a32d192ed03ull +
                  static_cast<uint64_t>(tensor) * 0xa0761d6478bd642full +
                  mixTestBits(index + 0x5bd1e995u));
  static constexpr float scales[5] = {0.25f, 0.5f, 1.0f, 2.0f, 4.0f};
  return scales[h % 5];
}

/// A matrix dump: the text line `gemm-matrix 1 DTYPE ROWS COLS\n`, then the
/// ROWS x COLS element bits, row-major, packed, little-endian (what the GPU
/// and the simulator hold in memory). C is dumped as stored: a column-major
/// C as N rows of M, a batch as its entries' rows one after the other
/// (batch x rows rows), row padding left out.
struct MatrixDump {
  DType dtype = DType::F32;
  uint64_t rows = 0, cols = 0;
  std::vector<uint8_t> bytes;

  uint64_t elementBits(uint64_t row, uint64_t col) const {
    uint64_t size = elementBytes(dtype);
    uint64_t bits = 0;
    for (uint64_t i = 0; i < size; ++i)
      bits |= uint64_t(bytes[(row * cols + col) * size + i]) << (8 * i);
    return bits;
  }
};

/// Writes `dump` to `path`; false with `error` set when it cannot.
inline bool writeMatrixDump(const std::string &path, const MatrixDump &dump,
                            std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = "cannot write " + path;
    return false;
  }
  std::string header = "gemm-matrix 1 " + std::string(toString(dump.dtype)) +
                       " " + std::to_string(dump.rows) + " " +
                       std::to_string(dump.cols) + "\n";
  bool ok =
      std::fwrite(header.data(), 1, header.size(), file) == header.size() &&
      std::fwrite(dump.bytes.data(), 1, dump.bytes.size(), file) ==
          dump.bytes.size();
  ok = std::fclose(file) == 0 && ok;
  if (!ok)
    error = "writing " + path + " failed";
  return ok;
}

/// Reads a dump written by writeMatrixDump; nullopt with `error` set when the
/// file is missing or malformed.
inline std::optional<MatrixDump> readMatrixDump(const std::string &path,
                                                std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  char name[16] = {};
  unsigned long long rows = 0, cols = 0;
  int version = 0;
  MatrixDump dump;
  bool ok = std::fscanf(file, "gemm-matrix %d %15s %llu %llu", &version, name,
                        &rows, &cols) == 4 &&
            version == 1 && std::fgetc(file) == '\n';
  std::optional<DType> dtype = ok ? parseEnum<DType>(name) : std::nullopt;
  if (!dtype) {
    std::fclose(file);
    error = path + ": not a gemm-matrix 1 dump";
    return std::nullopt;
  }
  dump.dtype = *dtype;
  dump.rows = rows;
  dump.cols = cols;
  dump.bytes.resize(rows * cols * elementBytes(dump.dtype));
  ok = std::fread(dump.bytes.data(), 1, dump.bytes.size(), file) ==
           dump.bytes.size() &&
       std::fgetc(file) == EOF;
  std::fclose(file);
  if (!ok) {
    error = path + ": the element data does not match its header";
    return std::nullopt;
  }
  return dump;
}

} // namespace gemm::bundle

#endif // GEMM_BUNDLE_TESTDATA_H
