//===- PipelineToNVVM.cpp - pipelines to mbarrier operations -------------===//

#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

struct PipelineInitLowering : public ConvertOpToLLVMPattern<PipelineInitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(PipelineInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PipelineType type = op.getPipeline().getType();
    Value producers = createI32(rewriter, loc, type.getProducers());
    Value consumers = createI32(rewriter, loc, type.getConsumers());
    for (int64_t stage = 0; stage < type.getStages(); ++stage) {
      for (bool empty : {false, true}) {
        Value barrier =
            getBarrierAddress(rewriter, loc, adaptor.getPipeline(), type,
                              createI32(rewriter, loc, stage), empty);
        NVVM::MBarrierInitOp::create(rewriter, loc, barrier,
                                     empty ? consumers : producers,
                                     /*predicate=*/Value());
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The bounded-wait description of a pipeline wait, or nullopt when waits
/// are not bounded.
template <typename WaitOp>
std::optional<DebugWait> debugWait(WaitOp op, Value iteration, int64_t limitMs,
                                   OpBuilder &b) {
  auto site = op->template getAttrOfType<IntegerAttr>(kWaitSiteAttrName);
  if (limitMs <= 0 || !site)
    return std::nullopt;
  PipelineType type = op.getPipeline().getType();
  DebugWait debug;
  debug.limitMs = limitMs;
  debug.site = site.getInt();
  debug.stage = LLVM::URemOp::create(
      b, op.getLoc(), iteration, createI32(b, op.getLoc(), type.getStages()));
  debug.iteration = iteration;
  return debug;
}

struct ProducerAcquireLowering
    : public ConvertOpToLLVMPattern<ProducerAcquireOp> {
  ProducerAcquireLowering(LLVMTypeConverter &converter, int64_t debugWaitsMs)
      : ConvertOpToLLVMPattern(converter), debugWaitsMs(debugWaitsMs) {}
  int64_t debugWaitsMs;

  LogicalResult
  matchAndRewrite(ProducerAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PipelineType type = op.getPipeline().getType();
    Value barrier =
        getBarrierAddress(rewriter, loc, adaptor.getPipeline(), type,
                          adaptor.getIteration(), /*empty=*/true);
    // The producer waits for the phase before its own: on the first pass
    // over the ring that phase counts as completed, so it does not block.
    Value parity = LLVM::XOrOp::create(
        rewriter, loc,
        getPhaseParity(rewriter, loc, type, adaptor.getIteration()),
        createI32(rewriter, loc, 1));
    std::optional<DebugWait> debug =
        debugWait(op, adaptor.getIteration(), debugWaitsMs, rewriter);
    createBarrierWait(rewriter, loc, barrier, parity,
                      debug ? &*debug : nullptr);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ProducerCommitLowering
    : public ConvertOpToLLVMPattern<ProducerCommitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ProducerCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier =
        getBarrierAddress(rewriter, loc, adaptor.getPipeline(),
                          op.getPipeline().getType(), adaptor.getIteration(),
                          /*empty=*/false);
    if (op.getCtaGroup() == 2)
      barrier = getPairLeaderAddress(rewriter, loc, barrier);
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, /*res=*/Type(), barrier,
        createI32(rewriter, loc, op.getTxBytes()), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConsumerWaitLowering : public ConvertOpToLLVMPattern<ConsumerWaitOp> {
  ConsumerWaitLowering(LLVMTypeConverter &converter, int64_t debugWaitsMs)
      : ConvertOpToLLVMPattern(converter), debugWaitsMs(debugWaitsMs) {}
  int64_t debugWaitsMs;

  LogicalResult
  matchAndRewrite(ConsumerWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PipelineType type = op.getPipeline().getType();
    Value barrier =
        getBarrierAddress(rewriter, loc, adaptor.getPipeline(), type,
                          adaptor.getIteration(), /*empty=*/false);
    std::optional<DebugWait> debug =
        debugWait(op, adaptor.getIteration(), debugWaitsMs, rewriter);
    createBarrierWait(
        rewriter, loc, barrier,
        getPhaseParity(rewriter, loc, type, adaptor.getIteration()),
        debug ? &*debug : nullptr);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConsumerReleaseLowering
    : public ConvertOpToLLVMPattern<ConsumerReleaseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ConsumerReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier =
        getBarrierAddress(rewriter, loc, adaptor.getPipeline(),
                          op.getPipeline().getType(), adaptor.getIteration(),
                          /*empty=*/true);
    if (!adaptor.getPeerMask()) {
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), barrier,
                                     /*count=*/Value());
      rewriter.eraseOp(op);
      return success();
    }
    // One arrive per CTA in the mask, on that CTA's copy of the barrier.
    auto clusterPtrType =
        LLVM::LLVMPointerType::get(rewriter.getContext(), kSharedClusterSpace);
    int64_t clusterSize = static_cast<int64_t>(*op.getClusterSize());
    for (int64_t cta = 0; cta < clusterSize; ++cta) {
      Value bit = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, adaptor.getPeerMask(),
                               createI32(rewriter, loc, cta)),
          createI32(rewriter, loc, 1));
      Value selected =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, bit,
                               createI32(rewriter, loc, 0));
      auto ifOp = scf::IfOp::create(rewriter, loc, selected,
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value remote =
          NVVM::MapaOp::create(rewriter, loc, clusterPtrType, barrier,
                               createI32(rewriter, loc, cta));
      // Release at CTA scope, as for a local arrive: the slot was read by
      // this CTA's WGMMAs (async proxy), which wgmma.wait_group already
      // completed; the peer's TMA that refills it is ordered by the barrier.
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote,
                                     /*count=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gemm::populatePipelineToNVVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                int64_t debugWaitsMs) {
  patterns.add<PipelineInitLowering, ProducerCommitLowering,
               ConsumerReleaseLowering>(converter);
  patterns.add<ProducerAcquireLowering, ConsumerWaitLowering>(converter,
                                                              debugWaitsMs);
}
