//===- Elements.cpp - Element types: bits <-> values ----------------------===//

#include "Elements.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <mutex>

using namespace mlir;
using namespace mlir::gemm::sim;

const ElementCodec *ElementCodec::get(Type type, std::string &error) {
  static std::mutex mutex;
  static llvm::DenseMap<Type, std::unique_ptr<ElementCodec>> codecs;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = codecs.find(type);
  if (found != codecs.end())
    return found->second.get();
  bool supported = false;
  if (auto floatType = dyn_cast<FloatType>(type))
    supported = floatType.getWidth() <= 64;
  else if (auto intType = dyn_cast<IntegerType>(type))
    supported = intType.getWidth() % 8 == 0 && intType.getWidth() <= 32;
  if (!supported) {
    std::string name;
    llvm::raw_string_ostream os(name);
    type.print(os);
    error = "the simulator has no element model for " + name;
    return nullptr;
  }
  auto codec = std::unique_ptr<ElementCodec>(new ElementCodec(type));
  const ElementCodec *result = codec.get();
  codecs[type] = std::move(codec);
  return result;
}

ElementCodec::ElementCodec(Type type) : elementType(type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    size = intType.getWidth() / 8;
    isInteger = true;
    isSigned = !intType.isUnsigned();
  } else {
    size = cast<FloatType>(type).getWidth() / 8;
  }
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
  auto floatType = cast<FloatType>(elementType);
  llvm::APFloat value(floatType.getFloatSemantics(),
                      llvm::APInt(floatType.getWidth(), bits));
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
  auto floatType = cast<FloatType>(elementType);
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  llvm::APFloat value(input);
  if (size == 1 && std::isfinite(input)) {
    // The GPU's fp8 conversions saturate (satfinite).
    llvm::APFloat largest = llvm::APFloat::getLargest(semantics);
    bool lost = false;
    largest.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
    double limit = largest.convertToDouble();
    input = std::max(-limit, std::min(limit, input));
    value = llvm::APFloat(input);
  }
  bool lost = false;
  value.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return value.bitcastToAPInt().getZExtValue();
}
