//===- SchedulerToNVVM.cpp - tile schedulers -----------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct StaticTileLowering : public ConvertOpToLLVMPattern<StaticTileOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StaticTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Walk `raster` fastest inside panels `swizzle` tiles long along it;
    // the last panel may be shorter.
    bool alongM = op.getRaster() == Raster::along_m;
    Value walked = alongM ? adaptor.getTilesM() : adaptor.getTilesN();
    Value crossed = alongM ? adaptor.getTilesN() : adaptor.getTilesM();
    Value swizzle = createI32(rewriter, loc, op.getSwizzle());
    Value tile = adaptor.getTile();
    Value perPanel = LLVM::MulOp::create(rewriter, loc, swizzle, crossed);
    Value panel = LLVM::UDivOp::create(rewriter, loc, tile, perPanel);
    Value inPanel = LLVM::URemOp::create(rewriter, loc, tile, perPanel);
    Value panelStart = LLVM::MulOp::create(rewriter, loc, panel, swizzle);
    Value remaining = LLVM::SubOp::create(rewriter, loc, walked, panelStart);
    Value panelLength = LLVM::UMinOp::create(rewriter, loc, swizzle, remaining);
    Value along = LLVM::AddOp::create(
        rewriter, loc, panelStart,
        LLVM::URemOp::create(rewriter, loc, inPanel, panelLength));
    Value across = LLVM::UDivOp::create(rewriter, loc, inPanel, panelLength);
    if (alongM)
      rewriter.replaceOp(op, {along, across});
    else
      rewriter.replaceOp(op, {across, along});
    return success();
  }
};

struct SplitKRangeLowering : public ConvertOpToLLVMPattern<SplitKRangeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SplitKRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // split * kBlocks / splits, in 64 bits so the product cannot overflow.
    Type i64 = rewriter.getI64Type();
    Value kBlocks =
        LLVM::ZExtOp::create(rewriter, loc, i64, adaptor.getKBlocks());
    Value splits = LLVM::ZExtOp::create(
        rewriter, loc, i64, createI32(rewriter, loc, op.getSplits()));
    auto boundary = [&](Value split) -> Value {
      Value split64 = LLVM::ZExtOp::create(rewriter, loc, i64, split);
      Value product = LLVM::MulOp::create(rewriter, loc, split64, kBlocks);
      Value quotient = LLVM::UDivOp::create(rewriter, loc, product, splits);
      return LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(),
                                   quotient);
    };
    Value begin = boundary(adaptor.getSplit());
    Value end = boundary(LLVM::AddOp::create(rewriter, loc, adaptor.getSplit(),
                                             createI32(rewriter, loc, 1)));
    rewriter.replaceOp(op, {begin, end});
    return success();
  }
};

} // namespace

void mlir::gemm::populateSchedulerToNVVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<StaticTileLowering, SplitKRangeLowering>(converter);
}
