//===- Elements.cpp - Element types: bits <-> values ----------------------===//

#include "Elements.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

using namespace mlir;
using namespace mlir::gemm::sim;

const ElementCodec *ElementCodec::get(Type type, std::string &error) {
  const llvm::fltSemantics *semantics = nullptr;
  unsigned size = 0;
  bool isInteger = false, isSigned = false;
  if (auto floatType = dyn_cast<FloatType>(type);
      floatType && floatType.getWidth() <= 64 &&
      floatType.getWidth() % 8 == 0) {
    semantics = &floatType.getFloatSemantics();
    size = floatType.getWidth() / 8;
  } else if (auto intType = dyn_cast<IntegerType>(type);
             intType && intType.getWidth() % 8 == 0 &&
             intType.getWidth() <= 32) {
    size = intType.getWidth() / 8;
    isInteger = true;
    isSigned = !intType.isUnsigned();
  } else {
    std::string name;
    llvm::raw_string_ostream os(name);
    type.print(os);
    error = "the simulator has no element model for " + name;
    return nullptr;
  }
  static std::mutex mutex;
  static std::map<std::tuple<const llvm::fltSemantics *, unsigned, bool, bool>,
                  std::unique_ptr<ElementCodec>>
      codecs;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ElementCodec> &codec =
      codecs[{semantics, size, isInteger, isSigned}];
  if (!codec)
    codec.reset(new ElementCodec(semantics, size, isInteger, isSigned));
  return codec.get();
}

ElementCodec::ElementCodec(const llvm::fltSemantics *semantics, unsigned size,
                           bool isInteger, bool isSigned)
    : semantics(semantics), size(size), isInteger(isInteger),
      isSigned(isSigned) {
  if (size <= 2) {
    table.resize(size_t(1) << (8 * size));
    for (size_t bits = 0; bits < table.size(); ++bits)
      table[bits] = static_cast<float>(decodeSlow(bits));
  }
}

double ElementCodec::decodeSlow(uint64_t bits) const {
  if (isInteger) {
    unsigned width = 8 * size;
    if (isSigned && width < 64 && (bits >> (width - 1)) & 1)
      return static_cast<double>(static_cast<int64_t>(bits | (~0ull << width)));
    return static_cast<double>(bits);
  }
  llvm::APFloat value(*semantics, llvm::APInt(8 * size, bits));
  bool lost = false;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

uint64_t ElementCodec::encode(double input) const {
  if (isInteger) {
    unsigned width = 8 * size;
    int64_t v = static_cast<int64_t>(std::nearbyint(input));
    return static_cast<uint64_t>(v) &
           (width == 64 ? ~0ull : (1ull << width) - 1);
  }
  llvm::APFloat value(input);
  if (size == 1 && std::isfinite(input)) {
    // The GPU's fp8 conversions saturate (satfinite).
    llvm::APFloat largest = llvm::APFloat::getLargest(*semantics);
    bool lost = false;
    largest.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
    double limit = largest.convertToDouble();
    input = std::max(-limit, std::min(limit, input));
    value = llvm::APFloat(input);
  }
  bool lost = false;
  value.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return value.bitcastToAPInt().getZExtValue();
}
