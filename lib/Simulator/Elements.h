//===- Elements.h - Element types: bits <-> values, in one place -*- C++
//-*-===//
//
// Internal to the simulator. Every conversion between an element's bits in
// memory and its value, and every rounding to an element type, goes through
// ElementCodec: a new element type (tf32, int8, ...) is one case here.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_SIMULATOR_ELEMENTS_H
#define GEMM_LIB_SIMULATOR_ELEMENTS_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/APFloat.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::gemm::sim {

class ElementCodec {
public:
  /// The codec of `type`; null (with `error` set) for a type the simulator
  /// does not model.
  static const ElementCodec *get(Type type, std::string &error);

  unsigned bytes() const { return size; }
  /// The value of `bits` (little-endian element bits).
  double decode(uint64_t bits) const {
    if (!table.empty())
      return table[bits & (table.size() - 1)];
    return decodeSlow(bits);
  }
  /// The bits of `value` rounded to nearest even (saturating to the largest
  /// finite value for the fp8 formats, as the GPU's conversions do).
  uint64_t encode(double value) const;
  /// `value` rounded to this type.
  double round(double value) const { return decode(encode(value)); }

  /// Reads / writes an element at `data` (little-endian).
  uint64_t load(const uint8_t *data) const {
    uint64_t bits = 0;
    for (unsigned i = 0; i < size; ++i)
      bits |= uint64_t(data[i]) << (8 * i);
    return bits;
  }
  void store(uint8_t *data, uint64_t bits) const {
    for (unsigned i = 0; i < size; ++i)
      data[i] = static_cast<uint8_t>(bits >> (8 * i));
  }

private:
  ElementCodec(const llvm::fltSemantics *semantics, unsigned size,
               bool isInteger, bool isSigned);
  double decodeSlow(uint64_t bits) const;

  /// Codecs are cached across MLIR contexts, so they hold no Type: the
  /// float semantics (static objects of LLVM) or the integer's width and
  /// signedness.
  const llvm::fltSemantics *semantics = nullptr;
  unsigned size = 0;
  bool isInteger = false, isSigned = false;
  /// Every value of a type of at most 16 bits.
  std::vector<float> table;
};

} // namespace mlir::gemm::sim

#endif // GEMM_LIB_SIMULATOR_ELEMENTS_H
