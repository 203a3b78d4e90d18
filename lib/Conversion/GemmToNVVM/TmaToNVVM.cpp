//===- TmaToNVVM.cpp - TMA loads, stores and prefetches ------------------===//

#include "Patterns.h"
#include "gemm/Runtime/GroupProblems.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The box coordinates: [inner, outer], and the batch entry of a rank-3
/// descriptor.
SmallVector<Value> coordinates(Value inner, Value outer, Value batch) {
  SmallVector<Value> coords = {inner, outer};
  if (batch)
    coords.push_back(batch);
  return coords;
}

NVVM::CTAGroupKindAttr getCtaGroup(TmaLoadOp op) {
  std::optional<uint64_t> group = op.getCtaGroup();
  if (!group)
    return nullptr;
  return NVVM::CTAGroupKindAttr::get(op.getContext(),
                                     *group == 2 ? NVVM::CTAGroupKind::CTA_2
                                                 : NVVM::CTAGroupKind::CTA_1);
}

struct TmaLoadLowering : public ConvertOpToLLVMPattern<TmaLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(),
                                op.getBuffer().getType(), adaptor.getSlot(),
                                adaptor.getRow(), adaptor.getKOffset());
    // The instruction addresses the destination in the cluster window; a
    // CTA's own shared memory is part of it.
    Value destination = LLVM::AddrSpaceCastOp::create(
        rewriter, loc,
        LLVM::LLVMPointerType::get(rewriter.getContext(), kSharedClusterSpace),
        slot);
    Value barrier =
        getBarrierAddress(rewriter, loc, adaptor.getPipeline(),
                          op.getPipeline().getType(), adaptor.getIteration(),
                          /*empty=*/false);
    if (op.getCtaGroup() == 2) {
      // The instruction takes a shared::cluster address for the barrier, of
      // which a CTA's own shared::cta addresses are a part; NVVM types the
      // operand as a shared::cta pointer, so the pair leader's cluster
      // address goes in through an integer cast.
      Value leader = LLVM::PtrToIntOp::create(
          rewriter, loc, rewriter.getI64Type(),
          getPairLeaderAddress(rewriter, loc, barrier));
      barrier =
          LLVM::IntToPtrOp::create(rewriter, loc, barrier.getType(), leader);
    }
    Value issue = adaptor.getIssue();
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, destination, adaptor.getDescriptor(),
        coordinates(adaptor.getInner(), adaptor.getOuter(), adaptor.getBatch()),
        barrier,
        /*im2colOffsets=*/ValueRange{}, adaptor.getMulticastMask(),
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        getCtaGroup(op), issue);
    if (issue) {
      // A skipped box still counts its bytes, so the barrier's phase
      // completes as if it had arrived.
      Value skip = LLVM::XOrOp::create(
          rewriter, loc, issue,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                   rewriter.getBoolAttr(true)));
      Value bytes =
          createI32(rewriter, loc, op.getDescriptor().getType().getBoxBytes());
      NVVM::InlinePtxOp::create(
          rewriter, loc, TypeRange{}, ValueRange{barrier, bytes}, ValueRange{},
          "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [$0], $1;", skip);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaStoreLowering : public ConvertOpToLLVMPattern<TmaStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value slot = getSlotAddress(rewriter, loc, adaptor.getBuffer(),
                                op.getBuffer().getType(), adaptor.getSlot(),
                                adaptor.getRow());
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        rewriter, loc, adaptor.getDescriptor(), slot,
        coordinates(adaptor.getInner(), adaptor.getOuter(), adaptor.getBatch()),
        /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
        /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaStoreWaitLowering : public ConvertOpToLLVMPattern<TmaStoreWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaStoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, rewriter.getI32IntegerAttr(op.getPending()),
        op.getRead() ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct TmaPrefetchDescriptorLowering
    : public ConvertOpToLLVMPattern<TmaPrefetchDescriptorOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaPrefetchDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::PrefetchOp>(
        op, /*cacheLevel=*/nullptr, /*evictPriority=*/nullptr,
        adaptor.getDescriptor(), /*predicate=*/Value(), /*tensormap=*/true);
    return success();
  }
};

struct TmaPrefetchLowering : public ConvertOpToLLVMPattern<TmaPrefetchOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaPrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkTensorPrefetchOp>(
        op, adaptor.getDescriptor(),
        coordinates(adaptor.getInner(), adaptor.getOuter(), adaptor.getBatch()),
        /*im2colOffsets=*/ValueRange{},
        NVVM::TMALoadModeAttr::get(rewriter.getContext(),
                                   NVVM::TMALoadMode::TILE),
        /*l2CacheHint=*/Value());
    return success();
  }
};

/// The generic address of tensor map `operand` of `group`: table +
/// align128(16 + 16 G) + 128 x (3 group + operand) (the layout of
/// gemm/Runtime/GroupProblems.h), 64-bit arithmetic.
struct TmaGroupDescriptorLowering
    : public ConvertOpToLLVMPattern<TmaGroupDescriptorOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaGroupDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    namespace general = ::gemm::runtime::general;
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto constant = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(v));
    };
    auto wide = [&](Value v) -> Value {
      return LLVM::ZExtOp::create(rewriter, loc, i64, v);
    };
    // align128(16 + 16 G) = (16 G + 16 + 127) & ~127.
    Value entries =
        LLVM::MulOp::create(rewriter, loc, wide(adaptor.getGroups()),
                            constant(general::EntryBytes));
    Value maps = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::AddOp::create(rewriter, loc, entries,
                            constant(general::HeaderBytes + 127)),
        constant(~int64_t(127)));
    Value index = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, wide(adaptor.getGroup()),
                            constant(general::MapsPerGroup)),
        constant(int64_t(op.getOperand())));
    Value offset = LLVM::AddOp::create(
        rewriter, loc, maps,
        LLVM::MulOp::create(rewriter, loc, index,
                            constant(general::TensorMapBytes)));
    Value address = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getTable().getType(), rewriter.getI8Type(),
        adaptor.getTable(), ValueRange{offset});
    rewriter.replaceOpWithNewOp<LLVM::AddrSpaceCastOp>(
        op, LLVM::LLVMPointerType::get(rewriter.getContext()), address);
    return success();
  }
};

/// fence.proxy.tensormap::generic.acquire.gpu [descriptor], 128.
struct TmaAcquireDescriptorLowering
    : public ConvertOpToLLVMPattern<TmaAcquireDescriptorOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TmaAcquireDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value size =
        LLVM::ConstantOp::create(rewriter, op.getLoc(), rewriter.getI32Type(),
                                 rewriter.getI32IntegerAttr(128));
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyAcquireOp>(
        op, NVVM::MemScopeKind::GPU, adaptor.getDescriptor(), size,
        NVVM::ProxyKind::GENERIC, NVVM::ProxyKind::TENSORMAP);
    return success();
  }
};

} // namespace

void mlir::gemm::populateTmaToNVVMPatterns(LLVMTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<
      TmaLoadLowering, TmaStoreLowering,
      OneToOneLowering<TmaStoreCommitOp, NVVM::CpAsyncBulkCommitGroupOp>,
      TmaStoreWaitLowering, TmaPrefetchDescriptorLowering, TmaPrefetchLowering,
      TmaGroupDescriptorLowering, TmaAcquireDescriptorLowering>(converter);
}
