//===- MmaToNVVM.cpp - SM90 warpgroup MMA --------------------------------===//

#include "Patterns.h"

#include "gemm/Dialect/Gemm/IR/WgmmaTypes.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Bytes between consecutive groups of 8 swizzled 128-byte lines: 8 rows of
/// a K-major tile, 8 K lines of an MN-major one (the descriptor's stride
/// byte offset in both cases).
constexpr int64_t kSwizzleAtomBytes = 1024;
/// Bytes of K one wgmma consumes (16 elements of a 16-bit type).
constexpr int64_t kWgmmaKBytes = 32;

/// How one operand ring is read by WGMMA (PTX ISA "Shared Memory Matrix
/// Layout", "Matrix Descriptor Format"): the descriptor's byte offsets and
/// where each k-step and each 64-row atom starts.
struct OperandLayout {
  /// Leading and stride byte offsets of the descriptor.
  int64_t leadingBytes, strideBytes;
  /// Start-address advance per k-step and per 64 rows (M or N).
  int64_t kStepBytes, atomBytes;
  NVVM::MMALayout layout;

  /// 128-byte swizzle. K-major (canonical ((8,m),(T,2k)):((8T,SBO),(1,T))):
  /// rows of 128 bytes, SBO = 8 rows, LBO unused (1 by convention), a
  /// k-step is the next 32 bytes of the rows. MN-major (canonical
  /// ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))): blocks of 64 M or N elements,
  /// each BK lines of 128 bytes (one per K), so LBO = BK * 128 (block to
  /// block) and SBO = 8 lines; a k-step is the next 16 lines, two whole
  /// swizzle atoms, so the start stays 1024-byte aligned (base offset 0).
  /// `kMajorLayout` is PTX's name for the K-major form of this operand
  /// (row for A, col for B); the MN-major form is the other (the
  /// transpose immediate).
  static OperandLayout of(SmemBufferType type, NVVM::MMALayout kMajorLayout) {
    int64_t rowBytes = type.getCols() * getElementBytes(type.getElementType());
    if (!type.isMNMajor())
      return {16, kSwizzleAtomBytes, kWgmmaKBytes, 64 * rowBytes, kMajorLayout};
    int64_t linesPerStep =
        kWgmmaKBytes / getElementBytes(type.getElementType());
    auto transposed = kMajorLayout == NVVM::MMALayout::row
                          ? NVVM::MMALayout::col
                          : NVVM::MMALayout::row;
    return {type.getBlockBytes(), kSwizzleAtomBytes,
            linesPerStep * type.getSwizzle(),
            64 / type.getSpanRows() * type.getBlockBytes(), transposed};
  }
};

/// The descriptors' start addresses are offsets in the CTA's shared memory
/// (PTX ISA "Matrix Descriptor Format": matrix-descriptor-encode(x) = (x &
/// 0x3FFFF) >> 4). A shared::cta address is not always one: in a cluster
/// launch it carries the CTA's rank in the cluster from bit 24 up (it is
/// also the CTA's shared::cluster address), which an unmasked >> 4 put into
/// the leading byte offset (bits 16-29). Only an MN-major operand of more
/// than one 64-element block reads that offset (an N-major B wider than 64
/// columns), so those kernels read B's later blocks 256 x rank bytes off in
/// every CTA but rank 0 (wrong results and NaN on the H200).
constexpr int64_t kSharedOffsetMask = 0x3FFFF;

/// The start address field of the descriptors of the slot at `address`:
/// its offset in the CTA's shared memory >> 4, as an i64. Every address a
/// descriptor names is a 16-byte multiple below 2^18 (228 KB of shared
/// memory), so a descriptor at a constant offset into the slot adds offset
/// >> 4 to it exactly, without reaching bit 14, and the k-steps and atoms
/// cost one addition each.
Value getDescriptorStart(OpBuilder &b, Location loc, Value address) {
  Value addr32 = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), address);
  Value offset =
      LLVM::AndOp::create(b, loc, addr32, createI32(b, loc, kSharedOffsetMask));
  return LLVM::ZExtOp::create(
      b, loc, b.getI64Type(),
      LLVM::LShrOp::create(b, loc, offset, createI32(b, loc, 4)));
}

/// A WGMMA shared-memory matrix descriptor for a 128-byte swizzled tile
/// `offset` bytes into the slot whose start field is `start`
/// (getDescriptorStart) (PTX ISA "Matrix Descriptor Format"): bits 0-13
/// start address >> 4, 16-29 leading byte offset >> 4, 32-45 stride byte
/// offset >> 4, 62-63 swizzle mode (1 = 128-byte).
Value createDescriptor(OpBuilder &b, Location loc, Value start, int64_t offset,
                       const OperandLayout &layout) {
  assert(offset % 16 == 0 && offset <= kSharedOffsetMask &&
         "descriptor addresses are 16-byte multiples in shared memory");
  int64_t fixedBits = (offset >> 4) | ((layout.leadingBytes >> 4) << 16) |
                      ((layout.strideBytes >> 4) << 32) | (int64_t{1} << 62);
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
    OperandLayout aLayout = OperandLayout::of(aType, NVVM::MMALayout::row);
    OperandLayout bLayout = OperandLayout::of(bType, NVVM::MMALayout::col);
    // k-steps of 16 elements (32 bytes) of K.
    int64_t kSteps = aType.getCols() * getElementBytes(aType.getElementType()) /
                     kWgmmaKBytes;
    auto atomType = cast<LLVM::LLVMStructType>(
        cast<LLVM::LLVMStructType>(getTypeConverter()->convertType(accType))
            .getBody()[0]);

    Value aSlot = getSlotAddress(rewriter, loc, adaptor.getA(), aType,
                                 adaptor.getSlot(), adaptor.getARow());
    // A column slice (cols(c)) starts c rows into B's slot.
    Value bSlot = getSlotAddress(
        rewriter, loc, adaptor.getB(), bType, adaptor.getSlot(),
        op.getBCol() ? createI32(rewriter, loc, op.getBColOffset()) : Value());
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
    // K-major: "row" for A, "col" for B in PTX terms; MN-major the other
    // (the transpose immediate is 1).
    auto aMmaLayout = NVVM::MMALayoutAttr::get(ctx, aLayout.layout);
    auto bMmaLayout = NVVM::MMALayoutAttr::get(ctx, bLayout.layout);
    Value aStart = getDescriptorStart(rewriter, loc, aSlot);
    Value bStart = getDescriptorStart(rewriter, loc, bSlot);

    Value acc = fresh ? LLVM::UndefOp::create(
                            rewriter, loc, adaptor.getAccumulator().getType())
                      : adaptor.getAccumulator();
    for (int64_t k = 0; k < kSteps; ++k) {
      Value bDesc = createDescriptor(rewriter, loc, bStart,
                                     k * bLayout.kStepBytes, bLayout);
      for (int64_t atom = 0; atom < accType.getAtoms(); ++atom) {
        Value aDesc = createDescriptor(
            rewriter, loc, aStart,
            atom * aLayout.atomBytes + k * aLayout.kStepBytes, aLayout);
        Value atomAcc = LLVM::ExtractValueOp::create(rewriter, loc, acc, atom);
        Value updated = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, atomType, atomAcc, aDesc, bDesc, shape, typeA, typeB,
            accumType, fresh && k == 0 ? overwrite : accumulate, scaleOne,
            scaleOne, aMmaLayout, bMmaLayout, satfinite);
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
