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

struct ProducerAcquireLowering
    : public ConvertOpToLLVMPattern<ProducerAcquireOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

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
    createBarrierWait(rewriter, loc, barrier, parity);
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
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ConsumerWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PipelineType type = op.getPipeline().getType();
    Value barrier =
        getBarrierAddress(rewriter, loc, adaptor.getPipeline(), type,
                          adaptor.getIteration(), /*empty=*/false);
    createBarrierWait(
        rewriter, loc, barrier,
        getPhaseParity(rewriter, loc, type, adaptor.getIteration()));
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
                                                RewritePatternSet &patterns) {
  patterns.add<PipelineInitLowering, ProducerAcquireLowering,
               ProducerCommitLowering, ConsumerWaitLowering,
               ConsumerReleaseLowering>(converter);
}
