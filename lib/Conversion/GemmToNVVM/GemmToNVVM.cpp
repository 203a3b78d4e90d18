//===- GemmToNVVM.cpp - the convert-gemm-to-nvvm pass --------------------===//

#include "Patterns.h"
#include "gemm/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_CONVERTGEMMTONVVM
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

//===----------------------------------------------------------------------===//
// Helpers shared by the pattern files
//===----------------------------------------------------------------------===//

Value mlir::gemm::createI32(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

Value mlir::gemm::getSlot(OpBuilder &b, Location loc, int64_t stages,
                          Value iteration) {
  return LLVM::URemOp::create(b, loc, iteration, createI32(b, loc, stages));
}

Value mlir::gemm::getBarrierAddress(OpBuilder &b, Location loc, Value base,
                                    PipelineType type, Value iteration,
                                    bool empty) {
  Value index = getSlot(b, loc, type.getStages(), iteration);
  if (empty)
    index =
        LLVM::AddOp::create(b, loc, index, createI32(b, loc, type.getStages()));
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI64Type(), base,
                             ValueRange{index});
}

Value mlir::gemm::getPhaseParity(OpBuilder &b, Location loc, PipelineType type,
                                 Value iteration) {
  Value pass = LLVM::UDivOp::create(b, loc, iteration,
                                    createI32(b, loc, type.getStages()));
  return LLVM::AndOp::create(b, loc, pass, createI32(b, loc, 1));
}

void mlir::gemm::createBarrierWait(OpBuilder &b, Location loc, Value barrier,
                                   Value parity) {
  // The op loops on mbarrier.try_wait.parity until the phase completed; the
  // suspend-time hint lets a waiting warp sleep instead of spinning.
  constexpr int64_t kSuspendTimeHintNs = 10'000'000;
  NVVM::MBarrierTryWaitParityOp::create(b, loc, barrier, parity,
                                        createI32(b, loc, kSuspendTimeHintNs));
}

Value mlir::gemm::getPairLeaderAddress(OpBuilder &b, Location loc,
                                       Value barrier) {
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  Value leader = LLVM::AndOp::create(b, loc, rank, createI32(b, loc, ~1));
  return NVVM::MapaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterSpace),
      barrier, leader);
}

Value mlir::gemm::getSlotAddress(OpBuilder &b, Location loc, Value base,
                                 SmemBufferType type, Value slot, Value row) {
  Value offset = LLVM::MulOp::create(b, loc, slot,
                                     createI32(b, loc, type.getStageBytes()));
  if (row) {
    int64_t rowBytes = type.getCols() * getElementBytes(type.getElementType());
    offset = LLVM::AddOp::create(
        b, loc, offset,
        LLVM::MulOp::create(b, loc, row, createI32(b, loc, rowBytes)));
  }
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{offset});
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertGemmToNVVMPass
    : public mlir::gemm::impl::ConvertGemmToNVVMBase<ConvertGemmToNVVMPass> {
  void runOnOperation() override {
    // A problem op left here was not turned into a kernel: say so instead of
    // producing a module without it.
    bool unmaterialized = false;
    getOperation().walk([&](MatmulOp matmul) {
      auto diag = matmul.emitOpError("was not turned into a kernel: ");
      if (matmul.getConfig().getArch() == Arch::sm_90a)
        diag << "run gemm-materialize-sm90 before convert-gemm-to-nvvm";
      else
        diag << "run gemm-materialize-sm100 before convert-gemm-to-nvvm";
      unmaterialized = true;
    });
    if (unmaterialized)
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    populateGemmTypeConversions(converter);

    RewritePatternSet patterns(ctx);
    populateStructureToNVVMPatterns(converter, patterns);
    populatePipelineToNVVMPatterns(converter, patterns);
    populateTmaToNVVMPatterns(converter, patterns);
    populateMmaToNVVMPatterns(converter, patterns);
    populateEpilogueToNVVMPatterns(converter, patterns);
    populateSchedulerToNVVMPatterns(converter, patterns);
    populateTmemToNVVMPatterns(converter, patterns);
    populateTcgen05MmaToNVVMPatterns(converter, patterns);
    populateClcToNVVMPatterns(converter, patterns);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<GemmDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           arith::ArithDialect, gpu::GPUDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(patterns,
                                                                     converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // The epilogue regions of gemm.accum.store_smem are inlined by its
    // pattern; their terminators go with them.
    target.addDynamicallyLegalOp<YieldOp>([](YieldOp op) {
      return !isa<AccumStoreSmemOp, TmemStoreSmemOp>(op->getParentOp());
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
