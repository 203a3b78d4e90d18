//===- QuantToNVVM.cpp - scale factors of low-precision GEMMs ------------===//
//
// Loads of f32 scale factors into the WGMMA accumulator layout, and the
// scaling and promotion of accumulator values. Accumulator value r of thread
// (warp w, lane l) of a 64-row atom sits at row 16 w + l / 4 + 8 ((r / 2)
// mod 2) and column 8 (r / 4) + 2 (l mod 4) + (r mod 2) (PTX ISA, "Matrix
// fragments for wgmma.mma_async", D matrix; the same for f32 and s32).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The warp (0-3) and lane of this thread within its warpgroup.
std::pair<Value, Value> warpAndLane(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value inGroup = LLVM::URemOp::create(b, loc, tid, createI32(b, loc, 128));
  return {LLVM::UDivOp::create(b, loc, inGroup, createI32(b, loc, 32)),
          LLVM::URemOp::create(b, loc, inGroup, createI32(b, loc, 32))};
}

/// The element base + min(first + offset, end - 1) (base 0 when null): the
/// index of a scale clamped to its tensor's end.
Value clampedIndex(OpBuilder &b, Location loc, Value base, Value first,
                   Value offset, Value end) {
  Value index = LLVM::AddOp::create(b, loc, first, offset);
  Value last = LLVM::SubOp::create(b, loc, end, createI32(b, loc, 1));
  index = LLVM::UMinOp::create(b, loc, index, last);
  if (base)
    index = LLVM::AddOp::create(b, loc, base, index);
  return index;
}

/// That element of the f32 tensor at `ptr`, read through the non-coherent
/// cache (an invariant load: scales do not change while the kernel runs).
Value loadClamped(OpBuilder &b, Location loc, Value ptr, Value base,
                  Value first, Value offset, Value end) {
  return loadScale(b, loc, ptr, clampedIndex(b, loc, base, first, offset, end));
}

/// The row within its 64-row atom of this thread's first accumulator row,
/// 16 w + l / 4, and the row of element i of a row-scale vector:
/// 64 (i / 2) + 8 (i mod 2) past it.
Value rowInAtom(OpBuilder &b, Location loc) {
  auto [warp, lane] = warpAndLane(b, loc);
  return LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, warp, createI32(b, loc, 16)),
      LLVM::UDivOp::create(b, loc, lane, createI32(b, loc, 4)));
}
Value rowOfElement(OpBuilder &b, Location loc, Value inAtom, int64_t i) {
  return LLVM::AddOp::create(b, loc, inAtom,
                             createI32(b, loc, 64 * (i / 2) + 8 * (i % 2)));
}

/// The vector of `type` whose element i is `element(i)`.
Value buildVector(OpBuilder &b, Location loc, VectorType type,
                  function_ref<Value(int64_t)> element) {
  Value result = LLVM::UndefOp::create(b, loc, type);
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    Value value = element(i);
    result = LLVM::InsertElementOp::create(b, loc, result, value,
                                           createI32(b, loc, i));
  }
  return result;
}

struct ScaleLoadLowering : public ConvertOpToLLVMPattern<ScaleLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScaleLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, loadScale(rewriter, op.getLoc(), adaptor.getPtr(),
                                     adaptor.getIndex()));
    return success();
  }
};

/// Element 2 a + h: the scale of row 64 a + 16 w + l / 4 + 8 h.
struct ScaleRowsLowering : public ConvertOpToLLVMPattern<ScaleRowsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScaleRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getResult().getType();
    Value inAtom = rowInAtom(rewriter, loc);
    rewriter.replaceOp(op, buildVector(rewriter, loc, type, [&](int64_t i) {
                         return loadClamped(
                             rewriter, loc, adaptor.getPtr(), adaptor.getBase(),
                             adaptor.getFirst(),
                             rowOfElement(rewriter, loc, inAtom, i),
                             adaptor.getEnd());
                       }));
    return success();
  }
};

/// Lane l copies the 16-byte groups l, l + 32, ... of the slot, each as four
/// 4-byte cp.async (a row of the tensor may start at any element), then
/// arrives on the stage's full barrier once they have landed. Where the
/// groups do not fill the last round (a slot of 64 scales: 16 groups), the
/// lanes past them copy nothing (predicated off) and only arrive.
struct ScaleStageLowering : public ConvertOpToLLVMPattern<ScaleStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScaleStageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmemBufferType type = op.getBuffer().getType();
    Type f32 = rewriter.getF32Type();
    Value lane = warpAndLane(rewriter, loc).second;
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(), type,
                                adaptor.getSlot());
    auto cache = NVVM::LoadCacheModifierKindAttr::get(
        rewriter.getContext(), NVVM::LoadCacheModifierKind::CA);
    int64_t groups = type.getCols() / 4;
    for (int64_t round = 0; round < groups; round += ScaleStageOp::kArrivals) {
      Value group = LLVM::AddOp::create(rewriter, loc, lane,
                                        createI32(rewriter, loc, round));
      Value inSlot;
      if (round + ScaleStageOp::kArrivals > groups)
        inSlot = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                      group, createI32(rewriter, loc, groups));
      Value firstOfGroup = LLVM::MulOp::create(rewriter, loc, group,
                                               createI32(rewriter, loc, 4));
      for (int64_t i = 0; i < 4; ++i) {
        Value element = LLVM::AddOp::create(rewriter, loc, firstOfGroup,
                                            createI32(rewriter, loc, i));
        Value index =
            clampedIndex(rewriter, loc, adaptor.getBase(), adaptor.getFirst(),
                         element, adaptor.getEnd());
        Value source =
            LLVM::GEPOp::create(rewriter, loc, adaptor.getPtr().getType(), f32,
                                adaptor.getPtr(), ValueRange{index});
        Value destination = LLVM::GEPOp::create(rewriter, loc, slot.getType(),
                                                f32, slot, ValueRange{element});
        if (inSlot)
          NVVM::InlinePtxOp::create(
              rewriter, loc, TypeRange{}, ValueRange{destination, source},
              ValueRange{}, "cp.async.ca.shared.global [$0], [$1], 4;", inSlot);
        else
          NVVM::CpAsyncOp::create(rewriter, loc, destination, source,
                                  rewriter.getI32IntegerAttr(4), cache,
                                  Value());
      }
    }
    Value barrier = getBarrierAddress(rewriter, loc, adaptor.getPipeline(),
                                      op.getPipeline().getType(),
                                      adaptor.getIteration(), /*empty=*/false);
    NVVM::CpAsyncMBarrierArriveOp::create(rewriter, loc, barrier,
                                          /*noinc=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Element 2 a + h: slot element first + 64 a + 16 w + l / 4 + 8 h.
struct ScaleRowsSmemLowering : public ConvertOpToLLVMPattern<ScaleRowsSmemOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScaleRowsSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getResult().getType();
    Type f32 = rewriter.getF32Type();
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(),
                                op.getBuffer().getType(), adaptor.getSlot());
    Value first = LLVM::AddOp::create(rewriter, loc, adaptor.getFirst(),
                                      rowInAtom(rewriter, loc));
    rewriter.replaceOp(op, buildVector(rewriter, loc, type, [&](int64_t i) {
                         Value address = LLVM::GEPOp::create(
                             rewriter, loc, slot.getType(), f32, slot,
                             ValueRange{rowOfElement(rewriter, loc, first, i)});
                         return LLVM::LoadOp::create(rewriter, loc, f32,
                                                     address,
                                                     /*alignment=*/4)
                             .getResult();
                       }));
    return success();
  }
};

/// Element 2 g + i: the scale of column 8 g + 2 (l mod 4) + i.
struct ScaleColsLowering : public ConvertOpToLLVMPattern<ScaleColsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScaleColsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getResult().getType();
    Value lane = warpAndLane(rewriter, loc).second;
    Value colInGroup = LLVM::MulOp::create(
        rewriter, loc,
        LLVM::URemOp::create(rewriter, loc, lane, createI32(rewriter, loc, 4)),
        createI32(rewriter, loc, 2));
    rewriter.replaceOp(op, buildVector(rewriter, loc, type, [&](int64_t i) {
                         Value column = LLVM::AddOp::create(
                             rewriter, loc, colInGroup,
                             createI32(rewriter, loc, 8 * (i / 2) + i % 2));
                         return loadClamped(
                             rewriter, loc, adaptor.getPtr(), /*base=*/Value(),
                             adaptor.getFirst(), column, adaptor.getEnd());
                       }));
    return success();
  }
};

/// The scale factors of accumulator value `value` (within its atom `atom`)
/// that the ops' optional operands give: its row's, its column's and its
/// column block's scalar. Null when none applies.
struct ValueScales {
  Value rowScales, colScales;
  ValueRange scalars;
  int64_t cols = 0;
  /// The first value of the atom that colScales covers.
  int64_t colFirst = 0;

  Value get(OpBuilder &b, Location loc, int64_t atom, int64_t value) const {
    Value scale;
    auto times = [&](Value factor) {
      scale = scale ? LLVM::FMulOp::create(b, loc, scale, factor).getResult()
                    : factor;
    };
    int64_t group = value / 4, half = (value / 2) % 2, pair = value % 2;
    if (rowScales)
      times(LLVM::ExtractElementOp::create(b, loc, rowScales,
                                           createI32(b, loc, 2 * atom + half)));
    if (colScales)
      times(LLVM::ExtractElementOp::create(
          b, loc, colScales,
          createI32(b, loc, 2 * (group - colFirst / 4) + pair)));
    if (!scalars.empty()) {
      int64_t blockCols = cols / static_cast<int64_t>(scalars.size());
      times(scalars[8 * group / blockCols]);
    }
    return scale;
  }
};

struct AccumScaleLowering : public ConvertOpToLLVMPattern<AccumScaleOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccumulatorType type = op.getAccumulator().getType();
    bool integer = type.getElementType().isInteger(32);
    int64_t perAtom = type.getValuesPerAtom();
    auto [first, count] = op.getValueRange();
    ValueScales scales{adaptor.getRowScales(), adaptor.getColScales(),
                       adaptor.getScalars(), type.getCols(), first % perAtom};
    Type f32 = rewriter.getF32Type();
    Value in = adaptor.getAccumulator();
    Value out = LLVM::UndefOp::create(
        rewriter, loc, getTypeConverter()->convertType(op.getType()));
    for (int64_t atom = 0; atom < type.getAtoms(); ++atom) {
      for (int64_t value = 0; value < perAtom; ++value) {
        SmallVector<int64_t> position = {atom, value};
        Value element =
            LLVM::ExtractValueOp::create(rewriter, loc, in, position);
        // s32 to f32 rounds to nearest (exact below 2^24).
        if (integer)
          element = LLVM::SIToFPOp::create(rewriter, loc, f32, element);
        int64_t flat = atom * perAtom + value;
        if (flat >= first && flat < first + count)
          if (Value scale = scales.get(rewriter, loc, atom, value))
            element = LLVM::FMulOp::create(rewriter, loc, element, scale);
        out =
            LLVM::InsertValueOp::create(rewriter, loc, out, element, position);
      }
    }
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// `values` passed through an empty volatile inline asm that reads and
/// rewrites them ("+f"): an operand fence. LLVM keeps volatile asm in
/// program order (the WGMMA ops and `wgmma.wait_group` are such asm too), so
/// arithmetic on the fenced values can move neither above the fence nor,
/// when its results are fenced too, below it. No PTX instruction results.
SmallVector<Value> fenceOperands(OpBuilder &b, Location loc,
                                 ArrayRef<Value> values) {
  std::string constraints;
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "=f,";
  for (size_t i = 0; i < values.size(); ++i)
    constraints += std::to_string(i) + (i + 1 < values.size() ? "," : "");
  Type f32 = b.getF32Type();
  SmallVector<Type> fields(values.size(), f32);
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  auto fence = LLVM::InlineAsmOp::create(
      b, loc, type, values, /*asm_string=*/"", constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  SmallVector<Value> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, fence.getRes(),
                                               static_cast<int64_t>(i)));
  return out;
}

struct AccumPromoteLowering : public ConvertOpToLLVMPattern<AccumPromoteOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumPromoteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Value v of an atom of the partial sums is value v + first of the
    // accumulator's (4 values a thread per 8 columns, in column order).
    AccumulatorType type = op.getPartial().getType();
    int64_t first = op.getColOffset() / 2;
    ValueScales scales{adaptor.getRowScales(), Value(), adaptor.getScalars(),
                       type.getCols(), 0};
    Value partial = adaptor.getPartial();
    Value acc = adaptor.getAccumulator();
    // The promotion happens where the op is: the partial sums are fenced
    // before it (nothing reads them above the wait that completed them) and
    // the promoted values after it (LLVM does not sink the promotion below
    // the next k-block's WGMMAs, which would keep these partial sums live
    // beside the next ones: ptxas would then copy in-flight accumulator
    // registers and serialise the WGMMAs, C7514).
    for (int64_t atom = 0; atom < type.getAtoms(); ++atom) {
      SmallVector<Value> sums, promoted;
      for (int64_t value = 0; value < type.getValuesPerAtom(); ++value)
        sums.push_back(LLVM::ExtractValueOp::create(
            rewriter, loc, partial, ArrayRef<int64_t>{atom, value}));
      sums = fenceOperands(rewriter, loc, sums);
      for (int64_t value = 0; value < type.getValuesPerAtom(); ++value) {
        Value total = LLVM::ExtractValueOp::create(
            rewriter, loc, acc, ArrayRef<int64_t>{atom, first + value});
        Value sum = sums[value];
        Value scale = scales.get(rewriter, loc, atom, value);
        promoted.push_back(
            scale
                ? LLVM::FMAOp::create(rewriter, loc, sum, scale, total)
                      .getResult()
                : LLVM::FAddOp::create(rewriter, loc, total, sum).getResult());
      }
      promoted = fenceOperands(rewriter, loc, promoted);
      for (int64_t value = 0; value < type.getValuesPerAtom(); ++value)
        acc =
            LLVM::InsertValueOp::create(rewriter, loc, acc, promoted[value],
                                        ArrayRef<int64_t>{atom, first + value});
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

} // namespace

Value mlir::gemm::loadScale(OpBuilder &b, Location loc, Value ptr,
                            Value index) {
  Type f32 = b.getF32Type();
  Value address =
      LLVM::GEPOp::create(b, loc, ptr.getType(), f32, ptr, ValueRange{index});
  return LLVM::LoadOp::create(b, loc, f32, address, /*alignment=*/4,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/true);
}

void mlir::gemm::populateQuantToNVVMPatterns(LLVMTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<ScaleLoadLowering, ScaleRowsLowering, ScaleColsLowering,
               ScaleStageLowering, ScaleRowsSmemLowering, AccumScaleLowering,
               AccumPromoteLowering>(converter);
}
