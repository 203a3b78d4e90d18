//===- GemmQuant.cpp - element types and scales of gemm.matmul -----------===//
//
// The type rules of a GEMM problem: which A/B/C/accumulator types go
// together, and the #gemm.quant scales and accumulation of fp8 and int8
// problems. docs/LowPrecision.md explains them.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "AccumValueRange.h"
#include "gemm/Dialect/Gemm/IR/WgmmaTypes.h"

using namespace mlir;
using namespace mlir::gemm;

//===----------------------------------------------------------------------===//
// QuantAttr
//===----------------------------------------------------------------------===//

LogicalResult QuantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ScaleMode a, ScaleMode b, ScaleMode c,
                                Accumulation accumulate, int64_t promoteEvery) {
  if (a == ScaleMode::col)
    return emitError() << "a = col: A is scaled per tensor, per row or per "
                          "1 x 128 block; per-column scales belong to b";
  if (b == ScaleMode::row)
    return emitError() << "b = row: B is scaled per tensor, per column of C "
                          "(b = col) or per 128 x 128 block; per-row scales "
                          "belong to a";
  if (c != ScaleMode::none && c != ScaleMode::tensor)
    return emitError() << "c = " << stringifyScaleMode(c)
                       << ": the output scale is one f32 per tensor (c = "
                          "tensor)";
  if ((a == ScaleMode::block) != (b == ScaleMode::block))
    return emitError() << "block-wise scales go together: a = block (1 x "
                          "128) with b = block (128 x 128), got a = "
                       << stringifyScaleMode(a)
                       << ", b = " << stringifyScaleMode(b);
  if (promoteEvery < 1 || promoteEvery > 16)
    return emitError() << "promote_every must be in [1, 16] k-blocks, got "
                       << promoteEvery;
  if (accumulate == Accumulation::fast && promoteEvery != 1)
    return emitError() << "promote_every applies to accumulate = promoted";
  if (a == ScaleMode::block && accumulate == Accumulation::fast)
    return emitError() << "block-wise scales are applied when the partial "
                          "sums are promoted; accumulate = fast has no "
                          "promotion";
  if (a == ScaleMode::block && promoteEvery != 1)
    return emitError() << "block-wise scales change every 128-deep k-block, "
                          "so the partial sums are promoted every k-block; "
                          "got promote_every = "
                       << promoteEvery;
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

QuantAttr MatmulOp::getQuantOrDefault() {
  if (QuantAttr quant = getQuantAttr())
    return quant;
  return QuantAttr::get(getContext(), ScaleMode::none, ScaleMode::none,
                        ScaleMode::none, Accumulation::promoted, 1);
}

Type MatmulOp::getEpilogueValueType() {
  if (getAccType().isInteger(32) && isa<FloatType>(getCType()))
    return Float32Type::get(getContext());
  return getAccType();
}

Type mlir::gemm::getEpilogueResultType(Type cType) {
  if (isa<Float8E4M3FNType, Float8E5M2Type>(cType))
    return Float32Type::get(cType.getContext());
  return cType;
}

static bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

LogicalResult mlir::gemm::verifyMatmulTypes(MatmulOp op) {
  Type aType = op.getAType(), bType = op.getBType(), cType = op.getCType();
  bool sm90 = op.getConfig().getArch() == Arch::sm_90a;
  if (!sm90) {
    // The SM100 kernel takes bf16, f16 and fp8 pairs of one type, no scales.
    if (!isSupportedInputType(aType))
      return op.emitOpError("A element type must be bf16, f16, f8E4M3FN or "
                            "f8E5M2, got ")
             << aType;
    if (aType != bType)
      return op.emitOpError("A and B element types must match, got ")
             << aType << " and " << bType;
    if (!isa<BFloat16Type, Float16Type, Float32Type>(cType))
      return op.emitOpError("C element type must be bf16, f16 or f32, got ")
             << cType;
    if (!op.getAccType().isF32())
      return op.emitOpError("accumulator type must be f32, got ")
             << op.getAccType();
    if (op.getQuantAttr())
      return op.emitOpError("scales (quant) are implemented for sm_90a "
                            "kernels only");
    return success();
  }

  std::string why;
  std::optional<WgmmaOperands> mma = getWgmmaOperands(aType, bType, &why);
  if (!mma)
    return op.emitOpError(why);
  // The direct kernel (element loads into K-major shared memory, plain
  // stores) is built for 16-bit inputs only.
  if (op.getConfig().getSchedule() == Schedule::direct &&
      (getElementBytes(aType) != 2 || op.getQuantAttr()))
    return op.emitOpError("schedule = direct takes bf16 or f16 inputs "
                          "without scales, got ")
           << aType << " x " << bType
           << (op.getQuantAttr() ? " with quant" : "")
           << ": use schedule = cooperative or pingpong for fp8, int8 and "
              "tf32 (f32) inputs";
  if (mma->requiresKMajor() &&
      (op.getALayout() != Layout::row || op.getBLayout() != Layout::col))
    return op.emitOpError("WGMMA reads ")
           << aType << " x " << bType
           << " operands from shared memory only K-major (no transpose for "
              "8-bit and tf32 types): use a(T, row) and b(T, col), i.e. "
              "transpose the MN-major operand in memory first";
  Type accType = mma->getAccumulatorType(op.getContext());
  if (op.getAccType() != accType)
    return op.emitOpError("accumulator type must be ")
           << accType << " for " << aType << " x " << bType << " operands, got "
           << op.getAccType();

  bool fp8Out = isFp8(cType);
  bool intOut = cType.isSignlessInteger(32);
  if (mma->isInt8()) {
    if (!intOut && !isa<BFloat16Type, Float16Type, Float32Type>(cType))
      return op.emitOpError("C element type of an int8 GEMM must be i32 (the "
                            "s32 accumulator, signless) or bf16, f16, f32 (dequantised), "
                            "got ")
             << cType;
  } else if (mma->isFp8()) {
    if (!fp8Out && !isa<BFloat16Type, Float16Type, Float32Type>(cType))
      return op.emitOpError("C element type of an fp8 GEMM must be bf16, "
                            "f16, f32, f8E4M3FN or f8E5M2, got ")
             << cType;
  } else if (!isa<BFloat16Type, Float16Type, Float32Type>(cType)) {
    return op.emitOpError("C element type must be bf16, f16 or f32, got ")
           << cType;
  }

  QuantAttr quant = op.getQuantOrDefault();
  bool scaled = quant.getA() != ScaleMode::none ||
                quant.getB() != ScaleMode::none ||
                quant.getC() != ScaleMode::none;
  if (!mma->isFp8() && !mma->isInt8()) {
    if (op.getQuantAttr())
      return op.emitOpError("scales and accumulation (quant) apply to fp8 "
                            "and int8 inputs, not ")
             << aType;
    return success();
  }
  if (mma->isInt8()) {
    if (quant.getAccumulate() != Accumulation::promoted ||
        quant.getPromoteEvery() != 1)
      return op.emitOpError("accumulate and promote_every apply to fp8 "
                            "inputs: int8 accumulates exactly in s32");
    if (quant.isBlockwise())
      return op.emitOpError("block-wise scales are implemented for fp8 "
                            "inputs; int8 takes per-tensor, per-row (a) and "
                            "per-column (b) dequantisation scales");
    if (intOut && scaled)
      return op.emitOpError("an i32 output holds the raw s32 accumulator; "
                            "dequantisation scales need a bf16, f16 or f32 "
                            "output");
  }
  if (fp8Out && quant.getC() != ScaleMode::tensor)
    return op.emitOpError("an fp8 output needs an output scale: add c = "
                          "tensor to the quant attribute");
  if (!fp8Out && quant.getC() != ScaleMode::none)
    return op.emitOpError("c = ")
           << stringifyScaleMode(quant.getC())
           << ": the output scale applies to fp8 outputs only, got C of "
           << cType;
  if (quant.isBlockwise()) {
    // One 128-column B scale block must cover whole tiles, or each
    // 64-column group of a tile (tile origins are then multiples of 64, so
    // no group straddles two blocks).
    int64_t bn = op.getConfig().getTile()[1];
    if (128 % bn != 0 && bn % 64 != 0)
      return op.emitOpError("block-wise B scales cover 128 columns; tile N "
                            "of ")
             << bn
             << " must divide 128 or be a multiple of 64 (e.g. 64, 128, "
                "192, 256)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Scale ops
//===----------------------------------------------------------------------===//

LogicalResult mlir::gemm::verifyStoreConversion(AccumStoreSmemOp op) {
  Type acc = op.getAccumulator().getType().getElementType();
  Type slot = op.getBuffer().getType().getElementType();
  if (acc.isSignlessInteger(32) != slot.isSignlessInteger(32))
    return op.emitOpError("an i32 accumulator is stored into i32 slots only "
                          "(convert and scale it with gemm.accum.scale for a "
                          "float output), got ")
           << acc << " into " << slot;
  bool fp8 = isFp8(slot);
  if (fp8 && !op.getOutScale())
    return op.emitOpError("an fp8 output needs its output scale: scale(%s)");
  if (!fp8 && (op.getOutScale() || op.getAmax()))
    return op.emitOpError("scale(...) and amax(...) apply to fp8 outputs, not ")
           << slot;
  return success();
}

/// The values one thread holds of an accumulator: cols / 2 per atom (2 rows
/// x 2 columns of every 8-column group).
static int64_t threadValues(AccumulatorType type) {
  return type.getAtoms() * type.getValuesPerAtom();
}

LogicalResult ScaleRowsOp::verify() {
  int64_t elements = getResult().getType().getNumElements();
  if (elements < 2 || elements % 2 != 0 || elements > 8)
    return emitOpError("a thread holds 2 rows of each of 1 to 4 64-row "
                       "atoms, so the result has 2, 4, 6 or 8 elements, got ")
           << elements;
  return success();
}

/// A ring of one row of f32 scales per slot, unswizzled: what
/// gemm.scale.stage fills and gemm.scale.rows_smem reads.
static LogicalResult verifyScaleRing(Operation *op, SmemBufferType type) {
  if (!type.getElementType().isF32() || type.getRows() != 1 ||
      type.getSwizzle() != 0 || type.isMNMajor())
    return op->emitOpError("the scale ring holds one unswizzled row of f32 "
                           "scales per slot (!gemm.smem<S x 1 x R x f32, "
                           "swizzle = 0>), got ")
           << type;
  return success();
}

LogicalResult ScaleStageOp::verify() {
  SmemBufferType type = getBuffer().getType();
  if (failed(verifyScaleRing(*this, type)))
    return failure();
  if (type.getCols() % kArrivals != 0)
    return emitOpError("the warp's lanes copy whole 16-byte groups of the "
                       "slot, the same number each, so the slot's ")
           << type.getCols() << " scales must be a multiple of 32";
  PipelineType pipeline = getPipeline().getType();
  if (pipeline.getProducers() <= kArrivals)
    return emitOpError("the staging warp makes 32 arrivals on each full "
                       "barrier besides the TMA producer's, but the pipeline "
                       "counts ")
           << pipeline.getProducers()
           << " producer arrivals: declare producers = 33 (one TMA thread "
              "and the warp)";
  if (pipeline.getStages() != type.getStages())
    return emitOpError("the scale ring has ")
           << type.getStages() << " slots but the pipeline has "
           << pipeline.getStages() << " stages: give it one slot per stage";
  return success();
}

LogicalResult ScaleRowsSmemOp::verify() {
  SmemBufferType type = getBuffer().getType();
  if (failed(verifyScaleRing(*this, type)))
    return failure();
  int64_t elements = getResult().getType().getNumElements();
  if (elements < 2 || elements % 2 != 0 || elements > 8)
    return emitOpError("a thread holds 2 rows of each of 1 to 4 64-row "
                       "atoms, so the result has 2, 4, 6 or 8 elements, got ")
           << elements;
  if (32 * elements > type.getCols())
    return emitOpError("the thread's rows span ")
           << 32 * elements << " rows, more than the slot's " << type.getCols()
           << " scales";
  return success();
}

LogicalResult ScaleColsOp::verify() {
  int64_t elements = getResult().getType().getNumElements();
  if (elements < 2 || elements % 2 != 0 || elements > 64)
    return emitOpError("a thread holds 2 columns of each 8-column group of "
                       "up to 256 columns, so the result has an even number "
                       "of elements in [2, 64], got ")
           << elements;
  return success();
}

/// Checks the scale operands shared by accum.scale and accum.promote.
static LogicalResult verifyScales(Operation *op, AccumulatorType type,
                                  Value rowScales, ValueRange scalars) {
  if (rowScales) {
    int64_t rows = cast<VectorType>(rowScales.getType()).getNumElements();
    if (rows != 2 * type.getAtoms())
      return op->emitOpError("rows(...) holds ")
             << rows << " scales, but a thread holds " << 2 * type.getAtoms()
             << " rows of the accumulator (2 per 64-row atom)";
  }
  int64_t blocks = static_cast<int64_t>(scalars.size());
  if (blocks > 0 &&
      (type.getCols() % blocks != 0 || (type.getCols() / blocks) % 8 != 0))
    return op->emitOpError("by(...) has ")
           << blocks << " scalars, which do not cut the accumulator's "
           << type.getCols() << " columns into equal blocks of whole 8-column "
           << "groups";
  return success();
}

std::pair<int64_t, int64_t> AccumScaleOp::getValueRange() {
  AccumulatorType type = getAccumulator().getType();
  if (!getFirst())
    return {0, threadValues(type)};
  return {static_cast<int64_t>(*getFirst()),
          static_cast<int64_t>(getCount().value_or(0))};
}

LogicalResult AccumScaleOp::verify() {
  AccumulatorType in = getAccumulator().getType();
  AccumulatorType out = getResult().getType();
  if (out.getRows() != in.getRows() || out.getCols() != in.getCols() ||
      !out.getElementType().isF32())
    return emitOpError("the result is the accumulator's shape in f32, got ")
           << out;
  if (getFirst().has_value() != getCount().has_value())
    return emitOpError("values(first, count) needs both");
  auto [first, count] = getValueRange();
  int64_t total = threadValues(in);
  if (!isWholeValueRange(first, count, total))
    return emitOpError("values ")
           << formatValueRange(first, count)
           << " must be a non-empty range of whole 8-column groups "
              "(multiples of 4) within the thread's "
           << total << " accumulator values";
  if (getColScales()) {
    int64_t perAtom = in.getValuesPerAtom();
    if (first / perAtom != (first + count - 1) / perAtom)
      return emitOpError("cols(...) scales the columns of one atom; values [")
             << first << ", " << first + count << ") span atoms";
    int64_t columns =
        cast<VectorType>(getColScales().getType()).getNumElements();
    if (columns != count / 2)
      return emitOpError("cols(...) holds ")
             << columns << " scales, but values [" << first << ", "
             << first + count << ") are " << count / 2
             << " of the thread's columns";
  }
  return verifyScales(*this, in, getRowScales(), getScalars());
}

LogicalResult AccumPromoteOp::verify() {
  AccumulatorType type = getAccumulator().getType();
  AccumulatorType partial = getPartial().getType();
  if (!type.getElementType().isF32())
    return emitOpError("promotes f32 partial sums, got ") << type;
  if (!getCol()) {
    if (partial != type)
      return emitOpError("partial sums of type ")
             << partial << " need cols(...) to go into " << type;
  } else {
    int64_t first = getColOffset();
    if (partial.getElementType() != type.getElementType() ||
        partial.getRows() != type.getRows())
      return emitOpError("partial sums ")
             << partial << " must have the rows and element type of " << type;
    if (first < 0 || first % 8 != 0 ||
        first + partial.getCols() > type.getCols())
      return emitOpError("cols(")
             << first << ") must be a multiple of 8 with the partial sums' "
             << partial.getCols() << " columns inside the accumulator's "
             << type.getCols();
  }
  return verifyScales(*this, partial, getRowScales(), getScalars());
}
