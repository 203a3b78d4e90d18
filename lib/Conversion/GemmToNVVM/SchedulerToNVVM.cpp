//===- SchedulerToNVVM.cpp - tile schedulers -----------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

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

struct SplitKArriveLowering : public ConvertOpToLLVMPattern<SplitKArriveOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SplitKArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value counter = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getCounters().getType(), i32,
        adaptor.getCounters(), ValueRange{adaptor.getIndex()});
    // The arrival releases this split's partial tile and, for the last,
    // acquires the others'. NVPTX (LLVM 22) emits an atomicrmw without its
    // ordering, so the two halves are explicit fences around a relaxed
    // atomic: fence.acq_rel.gpu; atom.global.add; fence.acq_rel.gpu, the
    // PTX memory model's release and acquire patterns.
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acq_rel,
                          /*syncscope=*/"device");
    Value earlier = LLVM::AtomicRMWOp::create(
        rewriter, loc, LLVM::AtomicBinOp::add, counter,
        createI32(rewriter, loc, 1), LLVM::AtomicOrdering::monotonic,
        /*syncscope=*/"device");
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acq_rel,
                          /*syncscope=*/"device");
    Value last = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, earlier,
        createI32(rewriter, loc, static_cast<int64_t>(op.getSplits()) - 1));
    // Every split of this launch has arrived: zero the counter for the next.
    auto reset = scf::IfOp::create(rewriter, loc, last,
                                   /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(reset.thenBlock()->getTerminator());
      LLVM::StoreOp::create(rewriter, loc, createI32(rewriter, loc, 0), counter,
                            /*alignment=*/4);
    }
    rewriter.replaceOp(op, last);
    return success();
  }
};

struct BarrierAnyLowering : public ConvertOpToLLVMPattern<BarrierAnyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(BarrierAnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // NVVM's barrier op takes a reduction only on barrier 0; the LLVM
    // intrinsic (bar.red.or.pred with a thread count) takes any barrier.
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, rewriter.getI1Type(),
        rewriter.getStringAttr("llvm.nvvm.barrier.cta.red.or.aligned.count"),
        ValueRange{
            adaptor.getBarrierId(),
            createI32(rewriter, loc, static_cast<int64_t>(op.getThreads())),
            adaptor.getPredicate()});
    return success();
  }
};

} // namespace

void mlir::gemm::populateSchedulerToNVVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<StaticTileLowering, SplitKRangeLowering, SplitKArriveLowering,
               BarrierAnyLowering>(converter);
}
