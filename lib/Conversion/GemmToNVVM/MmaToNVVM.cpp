//===- MmaToNVVM.cpp - SM90 warpgroup MMA --------------------------------===//

#include "Patterns.h"

#include "gemm/Dialect/Gemm/IR/WgmmaTypes.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Bytes between consecutive 8-row core-matrix groups of a 128-byte swizzled
/// K-major tile (the descriptor's stride byte offset).
constexpr int64_t kSwizzleAtomBytes = 1024;
/// K elements one wgmma consumes for 16-bit types (32 bytes of a row).
constexpr int64_t kWgmmaKBytes = 32;

/// A WGMMA shared-memory matrix descriptor for a 128-byte swizzled K-major
/// tile starting at `address` (PTX ISA "Matrix Descriptor Format"):
/// bits 0-13 start address >> 4, 16-29 leading byte offset >> 4 (unused for
/// swizzled K-major; 1 by convention), 32-45 stride byte offset >> 4,
/// 62-63 swizzle mode (1 = 128-byte). The start address is added rather
/// than masked in: shared addresses are below 2^18, so the sum is exact and
/// LLVM can fold the constant offsets of the k-steps into it.
Value createDescriptor(OpBuilder &b, Location loc, Value address) {
  Value addr32 = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), address);
  Value start = LLVM::ZExtOp::create(
      b, loc, b.getI64Type(),
      LLVM::LShrOp::create(b, loc, addr32, createI32(b, loc, 4)));
  int64_t fixedBits = (int64_t{1} << 16) | ((kSwizzleAtomBytes >> 4) << 32) |
                      (int64_t{1} << 62);
  Value fixed = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                         b.getI64IntegerAttr(fixedBits));
  return LLVM::AddOp::create(b, loc, start, fixed);
}

NVVM::WGMMATypes getWgmmaType(MmaOperandKind kind) {
  switch (kind) {
  case MmaOperandKind::BF16:
    return NVVM::WGMMATypes::bf16;
  case MmaOperandKind::F16:
    return NVVM::WGMMATypes::f16;
  case MmaOperandKind::TF32:
    return NVVM::WGMMATypes::tf32;
  case MmaOperandKind::E4M3:
    return NVVM::WGMMATypes::e4m3;
  case MmaOperandKind::E5M2:
    return NVVM::WGMMATypes::e5m2;
  case MmaOperandKind::S8:
    return NVVM::WGMMATypes::s8;
  case MmaOperandKind::U8:
    return NVVM::WGMMATypes::u8;
  }
  return NVVM::WGMMATypes::bf16;
}

struct MmaSm90Lowering : public ConvertOpToLLVMPattern<MmaSm90Op> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MmaSm90Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    AccumulatorType accType = op.getAccumulator().getType();
    SmemBufferType aType = op.getA().getType();
    SmemBufferType bType = op.getB().getType();
    int64_t rowBytes =
        aType.getCols() * getElementBytes(aType.getElementType());
    int64_t kSteps = rowBytes / kWgmmaKBytes;
    auto atomType = cast<LLVM::LLVMStructType>(
        cast<LLVM::LLVMStructType>(getTypeConverter()->convertType(accType))
            .getBody()[0]);

    Value aSlot = getSlotAddress(rewriter, loc, adaptor.getA(), aType,
                                 adaptor.getSlot(), adaptor.getARow());
    Value bSlot =
        getSlotAddress(rewriter, loc, adaptor.getB(), bType, adaptor.getSlot());
    // The verifier checked the pair: one instruction is 32 bytes of K deep
    // whatever the type (k16 for 16-bit, k32 for 8-bit, k8 for tf32).
    WgmmaOperands mma =
        *getWgmmaOperands(aType.getElementType(), bType.getElementType());
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, accType.getCols(), mma.k());
    auto typeA = NVVM::WGMMATypesAttr::get(ctx, getWgmmaType(mma.a));
    auto typeB = NVVM::WGMMATypesAttr::get(ctx, getWgmmaType(mma.b));
    auto accumType = NVVM::WGMMATypesAttr::get(
        ctx, mma.isInt8() ? NVVM::WGMMATypes::s32 : NVVM::WGMMATypes::f32);
    // s32 accumulators saturate instead of wrapping (.satfinite), so an
    // overflow shows as the s32 limit rather than a wrong sign.
    auto satfinite = mma.isInt8() ? NVVM::MMAIntOverflowAttr::get(
                                        ctx, NVVM::MMAIntOverflow::satfinite)
                                  : NVVM::MMAIntOverflowAttr();
    auto scaleOne = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
    auto accumulate =
        NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one);
    // A fresh tile's zeros are not materialised: the first k-step overwrites
    // the accumulator (scale-d = 0). Zero registers written between the
    // fence and the WGMMAs would make ptxas insert warpgroup.arrive/wait and
    // serialise the atoms' WGMMAs (C7517, C7519).
    bool fresh = op.getAccumulator().getDefiningOp<AccumZeroOp>() != nullptr;
    auto overwrite =
        NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::zero);
    // Both operands are K-major: "row" for A, "col" for B in PTX terms.
    auto aLayout = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row);
    auto bLayout = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col);

    Value acc = fresh ? LLVM::UndefOp::create(
                            rewriter, loc, adaptor.getAccumulator().getType())
                      : adaptor.getAccumulator();
    for (int64_t k = 0; k < kSteps; ++k) {
      Value bDesc = createDescriptor(
          rewriter, loc,
          LLVM::GEPOp::create(
              rewriter, loc, bSlot.getType(), rewriter.getI8Type(), bSlot,
              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k * kWgmmaKBytes)}));
      for (int64_t atom = 0; atom < accType.getAtoms(); ++atom) {
        int64_t aOffset = atom * 64 * rowBytes + k * kWgmmaKBytes;
        Value aDesc = createDescriptor(
            rewriter, loc,
            LLVM::GEPOp::create(
                rewriter, loc, aSlot.getType(), rewriter.getI8Type(), aSlot,
                ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(aOffset)}));
        Value atomAcc = LLVM::ExtractValueOp::create(rewriter, loc, acc, atom);
        Value updated = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, atomType, atomAcc, aDesc, bDesc, shape, typeA, typeB,
            accumType, fresh && k == 0 ? overwrite : accumulate, scaleOne,
            scaleOne, aLayout, bLayout, satfinite);
        acc = LLVM::InsertValueOp::create(rewriter, loc, acc, updated, atom);
      }
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

struct AccumZeroLowering : public ConvertOpToLLVMPattern<AccumZeroOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccumulatorType type = op.getResult().getType();
    Type structType = getTypeConverter()->convertType(type);
    Type element = type.getElementType();
    Value zero = LLVM::ConstantOp::create(rewriter, loc, element,
                                          rewriter.getZeroAttr(element));
    Value acc = LLVM::UndefOp::create(rewriter, loc, structType);
    for (int64_t atom = 0; atom < type.getAtoms(); ++atom)
      for (int64_t i = 0; i < type.getValuesPerAtom(); ++i)
        acc = LLVM::InsertValueOp::create(rewriter, loc, acc, zero,
                                          ArrayRef<int64_t>{atom, i});
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// The address of this thread's first float of block `index` of a split-K
/// partial buffer (gemm.accum.store_global's layout): index * rows * cols +
/// 4 * (tid.x mod 128). Its 16-byte step s is 512 floats further.
Value getPartialAddress(ConversionPatternRewriter &rewriter, Location loc,
                        AccumulatorType type, Value buffer, Value index) {
  Type i64 = rewriter.getI64Type();
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value lane =
      LLVM::URemOp::create(rewriter, loc, tid, createI32(rewriter, loc, 128));
  Value block = LLVM::MulOp::create(
      rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, index),
      LLVM::ConstantOp::create(
          rewriter, loc, i64,
          rewriter.getI64IntegerAttr(type.getRows() * type.getCols())));
  Value offset = LLVM::AddOp::create(
      rewriter, loc, block,
      LLVM::ZExtOp::create(rewriter, loc, i64,
                           LLVM::MulOp::create(rewriter, loc, lane,
                                               createI32(rewriter, loc, 4))));
  return LLVM::GEPOp::create(rewriter, loc, buffer.getType(),
                             rewriter.getF32Type(), buffer, ValueRange{offset});
}

/// The address of 16-byte step `step` from a thread's first float.
Value getPartialStep(ConversionPatternRewriter &rewriter, Location loc,
                     Value first, int64_t step) {
  return LLVM::GEPOp::create(
      rewriter, loc, first.getType(), rewriter.getF32Type(), first,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(step * 512)});
}

struct AccumStoreGlobalLowering
    : public ConvertOpToLLVMPattern<AccumStoreGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumStoreGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccumulatorType type = op.getAccumulator().getType();
    Value first = getPartialAddress(rewriter, loc, type, adaptor.getBuffer(),
                                    adaptor.getIndex());
    auto vectorType = VectorType::get({4}, type.getElementType());
    int64_t perAtom = type.getValuesPerAtom();
    Value acc = adaptor.getAccumulator();
    for (int64_t step = 0; step < type.getAtoms() * perAtom / 4; ++step) {
      Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
      for (int64_t i = 0; i < 4; ++i) {
        int64_t value = step * 4 + i;
        Value element = LLVM::ExtractValueOp::create(
            rewriter, loc, acc,
            ArrayRef<int64_t>{value / perAtom, value % perAtom});
        vector = LLVM::InsertElementOp::create(rewriter, loc, vector, element,
                                               createI32(rewriter, loc, i));
      }
      LLVM::StoreOp::create(rewriter, loc, vector,
                            getPartialStep(rewriter, loc, first, step),
                            /*alignment=*/16);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AccumLoadAddGlobalLowering
    : public ConvertOpToLLVMPattern<AccumLoadAddGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AccumLoadAddGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccumulatorType type = op.getAccumulator().getType();
    Value first = getPartialAddress(rewriter, loc, type, adaptor.getBuffer(),
                                    adaptor.getIndex());
    auto vectorType = VectorType::get({4}, type.getElementType());
    int64_t perAtom = type.getValuesPerAtom();
    Value acc = adaptor.getAccumulator();
    bool integer = type.getElementType().isInteger(32);
    auto [firstValue, count] = op.getValueRange();
    for (int64_t step = firstValue / 4; step < (firstValue + count) / 4;
         ++step) {
      Value vector = LLVM::LoadOp::create(
          rewriter, loc, vectorType, getPartialStep(rewriter, loc, first, step),
          /*alignment=*/16);
      for (int64_t i = 0; i < 4; ++i) {
        int64_t value = step * 4 + i;
        SmallVector<int64_t> position = {value / perAtom, value % perAtom};
        Value other = LLVM::ExtractElementOp::create(
            rewriter, loc, vector, createI32(rewriter, loc, i));
        Value mine = LLVM::ExtractValueOp::create(rewriter, loc, acc, position);
        // s32 partial sums add exactly.
        Value sum =
            integer
                ? LLVM::AddOp::create(rewriter, loc, mine, other).getResult()
                : LLVM::FAddOp::create(rewriter, loc, mine, other).getResult();
        acc = LLVM::InsertValueOp::create(rewriter, loc, acc, sum, position);
      }
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

struct WgmmaWaitLowering : public ConvertOpToLLVMPattern<WgmmaWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WgmmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::WgmmaWaitGroupSyncOp>(op,
                                                            op.getPending());
    return success();
  }
};

} // namespace

void mlir::gemm::populateMmaToNVVMPatterns(LLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<MmaSm90Lowering, AccumZeroLowering, AccumStoreGlobalLowering,
               AccumLoadAddGlobalLowering, WgmmaWaitLowering,
               OneToOneLowering<WgmmaFenceOp, NVVM::WgmmaFenceAlignedOp>,
               OneToOneLowering<WgmmaCommitOp, NVVM::WgmmaGroupSyncAlignedOp>>(
      converter);
}
