//===- WgmmaTypes.cpp - What WGMMA does with each element type pair ------===//

#include "gemm/Dialect/Gemm/IR/WgmmaTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::gemm;

StringRef mlir::gemm::stringifyMmaOperandKind(MmaOperandKind kind) {
  switch (kind) {
  case MmaOperandKind::BF16:
    return "bf16";
  case MmaOperandKind::F16:
    return "f16";
  case MmaOperandKind::TF32:
    return "tf32";
  case MmaOperandKind::E4M3:
    return "e4m3";
  case MmaOperandKind::E5M2:
    return "e5m2";
  case MmaOperandKind::S8:
    return "s8";
  case MmaOperandKind::U8:
    return "u8";
  }
  return "";
}

std::optional<MmaOperandKind> mlir::gemm::getMmaOperandKind(Type type) {
  if (type.isBF16())
    return MmaOperandKind::BF16;
  if (type.isF16())
    return MmaOperandKind::F16;
  if (type.isF32())
    return MmaOperandKind::TF32;
  if (isa<Float8E4M3FNType>(type))
    return MmaOperandKind::E4M3;
  if (isa<Float8E5M2Type>(type))
    return MmaOperandKind::E5M2;
  if (type.isSignedInteger(8))
    return MmaOperandKind::S8;
  if (type.isUnsignedInteger(8))
    return MmaOperandKind::U8;
  return std::nullopt;
}

namespace {

enum class Family { Half, Tf32, Fp8, Int8 };

Family familyOf(MmaOperandKind kind) {
  switch (kind) {
  case MmaOperandKind::BF16:
  case MmaOperandKind::F16:
    return Family::Half;
  case MmaOperandKind::TF32:
    return Family::Tf32;
  case MmaOperandKind::E4M3:
  case MmaOperandKind::E5M2:
    return Family::Fp8;
  case MmaOperandKind::S8:
  case MmaOperandKind::U8:
    return Family::Int8;
  }
  return Family::Half;
}

std::string spell(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

} // namespace

Type WgmmaOperands::getAccumulatorType(MLIRContext *ctx) const {
  if (isInt8())
    return IntegerType::get(ctx, 32);
  return Float32Type::get(ctx);
}

bool WgmmaOperands::isLegalN(int64_t n) const {
  if (n < 8 || n > 256 || n % 8 != 0)
    return false;
  return !isInt8() || n <= 24 || n % 16 == 0;
}

StringRef WgmmaOperands::legalNRule() const {
  return isInt8() ? "8, 16, 24 or a multiple of 16 up to 256, for 8-bit "
                    "integers"
                  : "a multiple of 8 in [8, 256]";
}

std::optional<WgmmaOperands> mlir::gemm::getWgmmaOperands(Type a, Type b,
                                                          std::string *why) {
  auto fail = [&](std::string message) -> std::optional<WgmmaOperands> {
    if (why)
      *why = std::move(message);
    return std::nullopt;
  };
  for (Type type : {a, b}) {
    if (type.isSignlessInteger(8))
      return fail("8-bit integer operands must say their signedness: use "
                  "si8 or ui8 instead of i8");
    if (!getMmaOperandKind(type))
      return fail("element type " + spell(type) +
                  " is not a WGMMA operand type (bf16, f16, f32 as tf32, "
                  "f8E4M3FN, f8E5M2, si8, ui8)");
  }
  WgmmaOperands operands;
  operands.a = *getMmaOperandKind(a);
  operands.b = *getMmaOperandKind(b);
  Family family = familyOf(operands.a);
  // PTX ISA (wgmma.mma_async): .f16/.bf16 and .tf32 need .atype == .btype;
  // e4m3 and e5m2 mix freely, as do s8 and u8; nothing mixes across
  // families.
  if (familyOf(operands.b) != family ||
      ((family == Family::Half || family == Family::Tf32) &&
       operands.a != operands.b))
    return fail("wgmma has no instruction for A of " + spell(a) +
                " with B of " + spell(b) +
                " (16-bit and tf32 operands must match; e4m3 and e5m2 mix "
                "with each other, si8 and ui8 with each other)");
  operands.elementBytes = family == Family::Half   ? 2
                          : family == Family::Tf32 ? 4
                                                   : 1;
  return operands;
}
