//===- TmemToNVVM.cpp - tensor-memory ops to NVVM tcgen05 ----------------===//
//
// gemm.tmem.{alloc,relinquish,address,dealloc,fence,load} become the NVVM
// tcgen05 alloc/relinquish_alloc_permit/dealloc/fence/ld/wait ops. A TMEM
// address (!gemm.tmem) is an !llvm.ptr<6>: NVVM's tcgen05 ops take their
// tensor-memory operands in that address space, and NVPTX gives it 32-bit
// pointers, which is exactly the address tcgen05.alloc writes.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::gemm;

static constexpr unsigned kTensorSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::Tensor);

void mlir::gemm::populateTmemTypeConversions(LLVMTypeConverter &converter) {
  MLIRContext *ctx = &converter.getContext();
  converter.addConversion([ctx](TmemType) {
    return LLVM::LLVMPointerType::get(ctx, kTensorSpace);
  });
}

static NVVM::CTAGroupKindAttr getCtaGroupAttr(OpBuilder &b, int64_t group) {
  return NVVM::CTAGroupKindAttr::get(b.getContext(),
                                     group == 2 ? NVVM::CTAGroupKind::CTA_2
                                                : NVVM::CTAGroupKind::CTA_1);
}

/// The TMEM address `column` columns (and `laneBase` lanes, an i32 already
/// shifted into bits 31-16, if given) past `base`. TMEM addresses are not
/// byte addresses, so this is integer arithmetic, not a GEP.
static Value offsetTmemAddress(OpBuilder &b, Location loc, Value base,
                               Value column, Value laneBase = {}) {
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
  address = LLVM::AddOp::create(b, loc, address, column);
  if (laneBase)
    address = LLVM::AddOp::create(b, loc, address, laneBase);
  return LLVM::IntToPtrOp::create(b, loc, base.getType(), address);
}

Value mlir::gemm::loadTmemLaneQuarter(OpBuilder &b, Location loc, Value tmem,
                                      TmemType type, Value stage, int64_t col,
                                      int64_t count) {
  Type i32 = b.getI32Type();
  // A warp may only touch the lane quarter (warp id mod 4); with 32x32b,
  // its thread t reads lane 32 * (warp mod 4) + t.
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value warp = LLVM::LShrOp::create(b, loc, tid, createI32(b, loc, 5));
  Value quarter = LLVM::AndOp::create(b, loc, warp, createI32(b, loc, 3));
  // (32 * quarter) << 16: the lane field of the TMEM address.
  Value laneBase = LLVM::ShlOp::create(b, loc, quarter, createI32(b, loc, 21));
  Value column = LLVM::AddOp::create(
      b, loc,
      LLVM::MulOp::create(b, loc, stage, createI32(b, loc, type.getCols())),
      createI32(b, loc, col));
  Value address = offsetTmemAddress(b, loc, tmem, column, laneBase);

  // tcgen05.ld .x1 yields a scalar, wider ones a vector of b32.
  Type rawType = count == 1 ? i32 : VectorType::get({count}, i32);
  auto shape = NVVM::Tcgen05LdStShapeAttr::get(
      b.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
  Value raw = NVVM::Tcgen05LdOp::create(b, loc, rawType, /*pack=*/nullptr,
                                        shape, address, /*offset=*/Value());
  // The registers are undefined until tcgen05.wait::ld; waiting here keeps
  // the result an ordinary value.
  NVVM::Tcgen05WaitOp::create(b, loc,
                              NVVM::Tcgen05WaitKindAttr::get(
                                  b.getContext(), NVVM::Tcgen05WaitKind::LOAD));
  return raw;
}

namespace {

struct TmemAllocLowering : public ConvertOpToLLVMPattern<TmemAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmemAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::Tcgen05AllocOp::create(
        rewriter, loc, adaptor.getSlot(),
        createI32(rewriter, loc, op.getColumnsAttr().getInt()),
        getCtaGroupAttr(rewriter, op.getCtaGroupAttr().getInt()));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmemRelinquishLowering
    : public ConvertOpToLLVMPattern<TmemRelinquishOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmemRelinquishOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::Tcgen05RelinquishAllocPermitOp::create(
        rewriter, op.getLoc(),
        getCtaGroupAttr(rewriter, op.getCtaGroupAttr().getInt()));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmemAddressLowering : public ConvertOpToLLVMPattern<TmemAddressOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmemAddressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value word = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(),
                                      adaptor.getSlot(), /*alignment=*/4);
    Type tmemType = getTypeConverter()->convertType(op.getTmem().getType());
    rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(op, tmemType, word);
    return success();
  }
};

struct TmemDeallocLowering : public ConvertOpToLLVMPattern<TmemDeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmemDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::Tcgen05DeallocOp::create(
        rewriter, loc, adaptor.getTmem(),
        createI32(rewriter, loc, op.getColumnsAttr().getInt()),
        getCtaGroupAttr(rewriter, op.getCtaGroupAttr().getInt()));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmemFenceLowering : public ConvertOpToLLVMPattern<TmemFenceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmemFenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto kind = op.getKind() == TmemFence::before_thread_sync
                    ? NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC
                    : NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC;
    NVVM::Tcgen05FenceOp::create(
        rewriter, op.getLoc(),
        NVVM::Tcgen05FenceKindAttr::get(rewriter.getContext(), kind));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmemLoadLowering : public ConvertOpToLLVMPattern<TmemLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmemLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getResult().getType();
    int64_t count = resultType.getNumElements();
    Value raw = loadTmemLaneQuarter(rewriter, loc, adaptor.getTmem(),
                                    op.getTmem().getType(), adaptor.getStage(),
                                    op.getColAttr().getInt(), count);
    if (count == 1) {
      Value value =
          LLVM::BitcastOp::create(rewriter, loc, rewriter.getF32Type(), raw);
      Value vector = LLVM::UndefOp::create(rewriter, loc, resultType);
      rewriter.replaceOpWithNewOp<LLVM::InsertElementOp>(
          op, vector, value, createI32(rewriter, loc, 0));
      return success();
    }
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, resultType, raw);
    return success();
  }
};

} // namespace

void mlir::gemm::populateTmemToNVVMPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<TmemAllocLowering, TmemRelinquishLowering, TmemAddressLowering,
               TmemDeallocLowering, TmemFenceLowering, TmemLoadLowering>(
      converter);
}
