//===- WgmmaTypes.h - WGMMA of each element type pair --------*- C++ -*-===//
//
// The one place that knows which A/B element types an SM90 warpgroup MMA
// takes, what it accumulates into, how deep one instruction is along K and
// which N it allows. The matmul and mma.sm90 verifiers, the SM90 planner and
// the WGMMA lowering all ask it, so they cannot disagree. docs/LowPrecision.md
// derives the rules from the PTX ISA.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DIALECT_GEMM_IR_WGMMATYPES_H
#define GEMM_DIALECT_GEMM_IR_WGMMATYPES_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::gemm {

/// The PTX operand types of wgmma.mma_async (.atype / .btype) that the SM90
/// kernels use. MLIR element types: bf16, f16, f32 (read as tf32),
/// f8E4M3FN, f8E5M2, si8, ui8.
enum class MmaOperandKind { BF16, F16, TF32, E4M3, E5M2, S8, U8 };

/// The PTX spelling: "bf16", "f16", "tf32", "e4m3", "e5m2", "s8", "u8".
StringRef stringifyMmaOperandKind(MmaOperandKind kind);

/// The operand kind of an MLIR element type, if WGMMA takes it.
std::optional<MmaOperandKind> getMmaOperandKind(Type type);

/// One wgmma.mma_async of an A and a B element type.
struct WgmmaOperands {
  MmaOperandKind a = MmaOperandKind::BF16, b = MmaOperandKind::BF16;
  /// Bytes of one A (and B) element in shared memory.
  int64_t elementBytes = 2;

  bool isFp8() const {
    return a == MmaOperandKind::E4M3 || a == MmaOperandKind::E5M2;
  }
  bool isInt8() const {
    return a == MmaOperandKind::S8 || a == MmaOperandKind::U8;
  }
  bool isTf32() const { return a == MmaOperandKind::TF32; }
  /// One instruction consumes 32 bytes of every K-major row: K = 16 for
  /// 16-bit types, 32 for 8-bit types, 8 for tf32 (shapes m64nNk16,
  /// m64nNk32, m64nNk8).
  int64_t k() const { return 32 / elementBytes; }
  /// wgmma reads its shared-memory operands transposed (MN-major, the
  /// imm-trans-a/b operands) only for .f16 and .bf16; 8-bit and tf32
  /// operands must be K-major.
  bool requiresKMajor() const { return elementBytes != 2; }
  /// The accumulator: f32, or i32 (.s32) for 8-bit integers.
  Type getAccumulatorType(MLIRContext *ctx) const;
  /// Whether N is a legal wgmma N for these types: multiples of 8 in
  /// [8, 256], and for 8-bit integers only 8, 16, 24 and multiples of 16.
  bool isLegalN(int64_t n) const;
  /// The rule isLegalN checks, for diagnostics.
  StringRef legalNRule() const;
};

/// The WGMMA of A and B element types `a` and `b`, or nullopt with `why`
/// set to a sentence naming the problem (unsupported type, or a pair
/// wgmma has no instruction for, e.g. fp8 A with bf16 B).
std::optional<WgmmaOperands> getWgmmaOperands(Type a, Type b,
                                              std::string *why = nullptr);

} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_IR_WGMMATYPES_H
