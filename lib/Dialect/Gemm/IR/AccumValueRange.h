//===- AccumValueRange.h - values(first, count) of a thread's accumulator -===//
//
// The ops that touch part of a thread's accumulator registers
// (gemm.accum.load_add_global, gemm.accum.scale) take `values(first, count)`.
// Both check and print the range without computing first + count in
// int64_t, which the verifiers' inputs can overflow.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_IR_ACCUMVALUERANGE_H
#define GEMM_DIALECT_GEMM_IR_ACCUMVALUERANGE_H

#include <cstdint>
#include <string>

namespace mlir::gemm {

/// Whether [first, first + count) is a non-empty range of whole groups of 4
/// values inside a thread's `total` values.
inline bool isWholeValueRange(int64_t first, int64_t count, int64_t total) {
  return first >= 0 && count > 0 && first % 4 == 0 && count % 4 == 0 &&
         first <= total && count <= total - first;
}

/// "[first, end)" with the end computed in 128 bits.
inline std::string formatValueRange(int64_t first, int64_t count) {
  __int128 end = static_cast<__int128>(first) + count;
  bool negative = end < 0;
  unsigned __int128 magnitude =
      negative ? -static_cast<unsigned __int128>(end) : end;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + magnitude % 10));
    magnitude /= 10;
  } while (magnitude);
  return "[" + std::to_string(first) + ", " + (negative ? "-" : "") + digits +
         ")";
}

} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_IR_ACCUMVALUERANGE_H
