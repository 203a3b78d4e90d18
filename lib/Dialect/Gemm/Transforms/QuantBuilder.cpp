//===- QuantBuilder.cpp - scales of low-precision SM90 kernels -----------===//

#include "QuantBuilder.h"

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

namespace {

bundle::ScaleGranularity toGranularity(ScaleMode mode) {
  switch (mode) {
  case ScaleMode::row:
    return bundle::ScaleGranularity::Row;
  case ScaleMode::col:
    return bundle::ScaleGranularity::Col;
  case ScaleMode::block:
    return bundle::ScaleGranularity::Block;
  case ScaleMode::none:
  case ScaleMode::tensor:
    break;
  }
  return bundle::ScaleGranularity::Tensor;
}

/// Block-wise scales cover 128 x 128 blocks of B and 1 x 128 of A.
constexpr int64_t kScaleBlock = 128;

} // namespace

bool QuantPlan::scalesEpilogue(Type outputType) const {
  auto epilogueMode = [](ScaleMode mode) {
    return mode == ScaleMode::tensor || mode == ScaleMode::row ||
           mode == ScaleMode::col;
  };
  return epilogueMode(scaleA) || epilogueMode(scaleB) ||
         (accType.isInteger(32) && isa<FloatType>(outputType));
}

SmallVector<Type> QuantPlan::paramTypes(MLIRContext *ctx) const {
  Type pointer = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> types;
  int64_t count = (scaleA != ScaleMode::none) + (scaleB != ScaleMode::none) +
                  (fp8Output ? 2 : 0);
  types.assign(count, pointer);
  return types;
}

SmallVector<bundle::Param> QuantPlan::manifestParams() const {
  SmallVector<bundle::Param> params;
  if (scaleA != ScaleMode::none)
    params.push_back(bundle::Param::scaleFactors(
        {bundle::Tensor::A, toGranularity(scaleA)}));
  if (scaleB != ScaleMode::none)
    params.push_back(bundle::Param::scaleFactors(
        {bundle::Tensor::B, toGranularity(scaleB)}));
  if (fp8Output) {
    params.push_back(bundle::Param::scaleFactors(
        {bundle::Tensor::C, bundle::ScaleGranularity::Tensor}));
    params.push_back(bundle::Param::amaxOutput());
  }
  return params;
}

bundle::AccumulatorPlan QuantPlan::accumulatorPlan(int64_t accRows, int64_t bn,
                                                   int64_t consumers) const {
  return bundle::accumulatorPlan(accRows, bn, consumers, promote, promoteEvery);
}

QuantPlan mlir::gemm::planQuant(MatmulOp op) {
  QuantPlan plan;
  plan.mma = *getWgmmaOperands(op.getAType(), op.getBType());
  plan.accType = op.getAccType();
  QuantAttr quant = op.getQuantOrDefault();
  plan.scaleA = quant.getA();
  plan.scaleB = quant.getB();
  plan.fp8Output = isa<Float8E4M3FNType, Float8E5M2Type>(op.getCType());
  plan.promote =
      plan.mma.isFp8() && quant.getAccumulate() == Accumulation::promoted;
  plan.promoteEvery = quant.getPromoteEvery();
  return plan;
}

void QuantBuilder::readArguments(Block &entry, unsigned first) {
  unsigned next = first;
  if (plan.scaleA != ScaleMode::none)
    scalesA = entry.getArgument(next++);
  if (plan.scaleB != ScaleMode::none)
    scalesB = entry.getArgument(next++);
  if (plan.fp8Output) {
    scalesC = entry.getArgument(next++);
    amax = entry.getArgument(next++);
  }
}

void QuantBuilder::loadInvariants() {
  Value zero = kb.i32(0);
  auto load = [&](Value ptr) {
    return ScaleLoadOp::create(b, loc, b.getF32Type(), ptr, zero).getResult();
  };
  if (plan.scaleA == ScaleMode::tensor)
    tensorScale = load(scalesA);
  if (plan.scaleB == ScaleMode::tensor) {
    Value scale = load(scalesB);
    tensorScale =
        tensorScale
            ? arith::MulFOp::create(b, loc, tensorScale, scale).getResult()
            : scale;
  }
  if (plan.fp8Output)
    outScale = load(scalesC);
}

// A: one scale per row and k-block, k-block-major ([k-blocks][M]): the
// k-block's slice, read at the tile's rows (bounds the same for every k-block
// of the tile).
void QuantBuilder::stageRowScales(Value kBlock, Value originM, Value ring,
                                  Value slot, Value pipeline, Value iteration) {
  ScaleStageOp::create(b, loc, scalesA, kb.mul(kBlock, kb.sizeM), originM,
                       kb.sizeM, ring, slot, pipeline, iteration);
}

Value QuantBuilder::readRowScales(Value ring, Value slot, Value aRow,
                                  int64_t accAtoms) {
  return ScaleRowsSmemOp::create(
      b, loc, VectorType::get({2 * accAtoms}, b.getF32Type()), ring, slot,
      aRow);
}

SmallVector<Value> QuantBuilder::loadBlockScalesB(Value kBlock, Value originN,
                                                  int64_t bn) {
  if (!plan.blockwise())
    return {};
  SmallVector<Value> scales;
  // B: one scale per 128 x 128 block ([N / 128][K / 128], row-major), one
  // per group of bundle::blockScaleColumns of the tile (the matmul verifier
  // requires a width it covers). Block columns past N (the end of a wide
  // tile at the edge) read the last one: their values are clipped by the
  // TMA store.
  int64_t groupCols = bundle::blockScaleColumns(bn);
  Value blockColumns =
      arith::CeilDivUIOp::create(b, loc, kb.sizeN, kb.i32(kScaleBlock));
  Value lastColumn = kb.sub(blockColumns, kb.i32(1));
  for (int64_t i = 0; i < bn / groupCols; ++i) {
    Value column = arith::MinUIOp::create(
        b, loc,
        kb.div(kb.add(originN, kb.i32(i * groupCols)), kb.i32(kScaleBlock)),
        lastColumn);
    scales.push_back(
        ScaleLoadOp::create(b, loc, b.getF32Type(), scalesB,
                            kb.add(kb.mul(column, kb.kBlocks), kBlock)));
  }
  return scales;
}

Value QuantBuilder::promote(Value partial, Value acc, ValueRange blockScales,
                            int64_t col) {
  IntegerAttr cols = partial.getType() == acc.getType()
                         ? IntegerAttr()
                         : b.getI64IntegerAttr(col);
  if (blockScales.empty())
    return AccumPromoteOp::create(b, loc, acc.getType(), partial, acc,
                                  /*rowScales=*/Value(), ValueRange{}, cols);
  return AccumPromoteOp::create(b, loc, acc.getType(), partial, acc,
                                blockScales.front(), blockScales.drop_front(),
                                cols);
}

void QuantBuilder::beginTile(Value rowOrigin, int64_t accAtoms) {
  if (plan.scaleA != ScaleMode::row)
    return;
  tileRowScales = ScaleRowsOp::create(
      b, loc, VectorType::get({2 * accAtoms}, b.getF32Type()), scalesA,
      /*base=*/Value(), rowOrigin, kb.sizeM);
}

Value QuantBuilder::loadColumnScales(int64_t col, int64_t cols, Value originN) {
  if (plan.scaleB != ScaleMode::col)
    return Value();
  return ScaleColsOp::create(b, loc,
                             VectorType::get({cols / 4}, b.getF32Type()),
                             scalesB, kb.add(originN, kb.i32(col)), kb.sizeN);
}

Value QuantBuilder::scaleSubTile(Value acc, int64_t atom, int64_t col,
                                 int64_t cols, Value colScales) {
  if (!plan.scalesEpilogue(kb.geometry.outputType))
    return acc;
  auto type = cast<AccumulatorType>(acc.getType());
  SmallVector<Value> scalars;
  if (tensorScale)
    scalars.push_back(tensorScale);
  auto f32Type = AccumulatorType::get(b.getContext(), type.getRows(),
                                      type.getCols(), b.getF32Type());
  int64_t first = atom * type.getValuesPerAtom() + col / 2;
  return AccumScaleOp::create(b, loc, f32Type, acc, tileRowScales, colScales,
                              scalars, b.getI64IntegerAttr(first),
                              b.getI64IntegerAttr(cols / 2));
}
