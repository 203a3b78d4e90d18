//===- BarrierToNVVM.cpp - named barriers ---------------------------------===//
//
// gemm.barrier_any (bar.red.or on a named barrier) and, under debug-waits,
// the bounded form of the named barriers with a thread count (`bar.sync id,
// n`, nvvm.barrier ops the materialize passes build for the SM90 epilogue and
// the split-K fixup): a hardware named barrier has no time-out, so a thread
// count that never arrives hangs the kernel; the bounded form gives up,
// records the barrier and traps (createBoundedNamedBarrier, docs/Runtime.md).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The wait-site index the conversion gave `op` under debug-waits, if any.
std::optional<int64_t> getWaitSite(Operation *op) {
  if (auto site = op->getAttrOfType<IntegerAttr>(kWaitSiteAttrName))
    return site.getInt();
  return std::nullopt;
}

struct BarrierAnyLowering : public ConvertOpToLLVMPattern<BarrierAnyOp> {
  BarrierAnyLowering(LLVMTypeConverter &converter, int64_t debugWaitsMs)
      : ConvertOpToLLVMPattern(converter), debugWaitsMs(debugWaitsMs) {}
  int64_t debugWaitsMs;

  LogicalResult
  matchAndRewrite(BarrierAnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value threads =
        createI32(rewriter, loc, static_cast<int64_t>(op.getThreads()));
    // Under debug-waits the threads first meet at the bounded barrier; the
    // hardware one below, which only computes the OR, then cannot wait for
    // long: every participant is past the bounded one, with nothing between.
    if (std::optional<int64_t> site = getWaitSite(op); site && debugWaitsMs > 0)
      createBoundedNamedBarrier(rewriter, loc, adaptor.getBarrierId(), threads,
                                debugWaitsMs, *site);
    // NVVM's barrier op takes a reduction only on barrier 0; the LLVM
    // intrinsic (bar.red.or.pred with a thread count) takes any barrier.
    Value any =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, rewriter.getI1Type(),
            rewriter.getStringAttr(
                "llvm.nvvm.barrier.cta.red.or.aligned.count"),
            ValueRange{adaptor.getBarrierId(), threads, adaptor.getPredicate()})
            .getResult(0);
    // The OR is the same in every thread, but ptxas does not know it: a
    // branch on it counts as divergent, and code after it (the next tile's
    // mainloop) then keeps its stage counter and WGMMA descriptors in
    // vector registers, with an R2UR before every WGMMA. A warp vote of the
    // value is warp-uniform by definition, which keeps them uniform.
    rewriter.replaceOpWithNewOp<NVVM::VoteSyncOp>(op, rewriter.getI1Type(),
                                                  createI32(rewriter, loc, -1),
                                                  any, NVVM::VoteSyncKind::any);
    return success();
  }
};

/// Under debug-waits: `bar.sync id, n` (an nvvm.barrier with a wait site)
/// becomes the bounded counter barrier, which replaces it: it orders memory
/// among the participants as bar.sync does (release at arrival, acquire at
/// the end of the wait).
struct NamedBarrierDebugLowering
    : public ConvertOpToLLVMPattern<NVVM::BarrierOp> {
  NamedBarrierDebugLowering(LLVMTypeConverter &converter, int64_t debugWaitsMs)
      : ConvertOpToLLVMPattern(converter), debugWaitsMs(debugWaitsMs) {}
  int64_t debugWaitsMs;

  LogicalResult
  matchAndRewrite(NVVM::BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> site = getWaitSite(op);
    if (!site || !adaptor.getNumberOfThreads() || op.getReductionOp())
      return rewriter.notifyMatchFailure(op, "not a bounded named barrier");
    Location loc = op.getLoc();
    Value id = adaptor.getBarrierId() ? adaptor.getBarrierId()
                                      : createI32(rewriter, loc, 0);
    createBoundedNamedBarrier(rewriter, loc, id, adaptor.getNumberOfThreads(),
                              debugWaitsMs, *site);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gemm::populateBarrierToNVVMPatterns(LLVMTypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               int64_t debugWaitsMs) {
  patterns.add<BarrierAnyLowering>(converter, debugWaitsMs);
  if (debugWaitsMs > 0)
    patterns.add<NamedBarrierDebugLowering>(converter, debugWaitsMs);
}
