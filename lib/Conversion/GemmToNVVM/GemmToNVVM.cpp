//===- GemmToNVVM.cpp - the convert-gemm-to-nvvm pass --------------------===//

#include "Patterns.h"
#include "gemm/Bundle/Manifest.h"
#include "gemm/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"

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

namespace {

/// The first thread whose bounded wait gave up writes the wait record
/// (kDebugWaitRecordSymbol) for the host to read, then traps; the others go
/// on waiting until its trap ends the kernel, since a trap of theirs could
/// end it before the record is complete (seen on the H200). Without a
/// record every such thread traps.
void recordAndTrap(OpBuilder &b, Location loc, const DebugWait &debug,
                   Value parity) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value slot = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1), kDebugWaitRecordSymbol);
  Value address = LLVM::LoadOp::create(b, loc, i64, slot, /*alignment=*/8,
                                       /*isVolatile=*/true);
  Value mapped = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, address,
                                      LLVM::ConstantOp::create(b, loc, i64, 0));
  auto ifMapped = scf::IfOp::create(b, loc, mapped, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifMapped.elseBlock()->getTerminator());
    LLVM::Trap::create(b, loc);
    b.setInsertionPoint(ifMapped.thenBlock()->getTerminator());
    Value record = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx), address);
    auto claim = LLVM::AtomicCmpXchgOp::create(
        b, loc, record, createI32(b, loc, 0), createI32(b, loc, 1),
        LLVM::AtomicOrdering::acq_rel, LLVM::AtomicOrdering::monotonic);
    Value previous = LLVM::ExtractValueOp::create(b, loc, claim, 0);
    Value first = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                       previous, createI32(b, loc, 0));
    auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
    auto word = [&](int32_t index) {
      return LLVM::GEPOp::create(b, loc, record.getType(), i32, record,
                                 ArrayRef<LLVM::GEPArg>{index});
    };
    Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
    Value fields[] = {createI32(b, loc, debug.site),
                      NVVM::BlockIdXOp::create(b, loc, i32),
                      NVVM::BlockIdYOp::create(b, loc, i32),
                      NVVM::BlockIdZOp::create(b, loc, i32),
                      LLVM::UDivOp::create(b, loc, tid, createI32(b, loc, 32)),
                      debug.stage,
                      parity,
                      debug.iteration};
    for (auto [index, value] : llvm::enumerate(fields))
      LLVM::StoreOp::create(b, loc, value, word(int32_t(index) + 1),
                            /*alignment=*/4,
                            /*isVolatile=*/true);
    // The fields reach host memory before the flag that says they are there.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst, StringRef());
    LLVM::StoreOp::create(b, loc, createI32(b, loc, 1), word(9),
                          /*alignment=*/4, /*isVolatile=*/true);
    // And the flag before the trap ends the kernel.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst, StringRef());
    LLVM::Trap::create(b, loc);
  }
}

} // namespace

void mlir::gemm::createBarrierWait(OpBuilder &b, Location loc, Value barrier,
                                   Value parity, const DebugWait *debug) {
  if (!debug) {
    // The op loops on mbarrier.try_wait.parity until the phase completed;
    // the suspend-time hint lets a waiting warp sleep instead of spinning.
    constexpr int64_t kSuspendTimeHintNs = 10'000'000;
    NVVM::MBarrierTryWaitParityOp::create(
        b, loc, barrier, parity, createI32(b, loc, kSuspendTimeHintNs));
    return;
  }
  // The fast path is one try, as in the unbounded loop; only a wait that is
  // still incomplete after it reads %globaltimer (nanoseconds) and polls.
  // One try suspends the thread for at most 1 ms, so a wait gives up at most
  // that long after its bound.
  constexpr int64_t kTryNs = 1'000'000;
  Type i1 = b.getI1Type(), i64 = b.getI64Type();
  Value one = LLVM::ConstantOp::create(b, loc, i1, 1);
  auto tryWait = [&]() -> Value {
    Value done = NVVM::MBarrierTryWaitOp::create(b, loc, i1, barrier, parity,
                                                 createI32(b, loc, kTryNs));
    return LLVM::XOrOp::create(b, loc, done, one);
  };
  auto slow = scf::IfOp::create(b, loc, tryWait(), /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(slow.thenBlock()->getTerminator());
  Value start = NVVM::GlobalTimerOp::create(b, loc, i64);
  auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  b.createBlock(&loop.getBefore());
  scf::ConditionOp::create(b, loc, tryWait(), ValueRange{});
  b.createBlock(&loop.getAfter());
  Value elapsed = LLVM::SubOp::create(
      b, loc, NVVM::GlobalTimerOp::create(b, loc, i64), start);
  Value expired = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::uge, elapsed,
      LLVM::ConstantOp::create(b, loc, i64, debug->limitMs * 1'000'000));
  auto ifOp = scf::IfOp::create(b, loc, expired, /*withElseRegion=*/false);
  scf::YieldOp::create(b, loc);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  recordAndTrap(b, loc, *debug, parity);
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
/// The warp role (region of gemm.warp_specialize or gemm.warp_roles) that
/// `op` runs in, for the descriptions of bounded waits.
std::string roleOf(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *owner = region->getParentOp();
    if (auto roles = dyn_cast<WarpSpecializeOp>(owner))
      return region == &roles.getProducer() ? "producer" : "consumer";
    if (auto roles = dyn_cast<WarpRolesOp>(owner)) {
      if (region == &roles.getLoad())
        return "load";
      if (region == &roles.getMma())
        return "mma";
      if (region == &roles.getScheduler())
        return "scheduler";
      return "epilogue";
    }
  }
  return "kernel";
}

/// "consumer: the full barrier of a 4-stage pipeline (1 producer(s), 2
/// consumer(s))": what a wait site's record index stands for.
std::string describeWait(Operation *op, PipelineType type, bool empty) {
  return roleOf(op) + ": the " + (empty ? "empty" : "full") + " barrier of a " +
         std::to_string(type.getStages()) + "-stage pipeline (" +
         std::to_string(type.getProducers()) + " producer(s), " +
         std::to_string(type.getConsumers()) + " consumer(s))";
}

/// Numbers each kernel's pipeline waits (before the role regions are
/// lowered away) and returns their descriptions by kernel name; gives each
/// gpu.module with waits the record-address global.
llvm::StringMap<std::vector<std::string>> annotateWaitSites(ModuleOp root) {
  llvm::StringMap<std::vector<std::string>> sites;
  root.walk([&](gpu::GPUFuncOp kernel) {
    std::vector<std::string> &list = sites[kernel.getName()];
    kernel.walk([&](Operation *op) {
      std::string text;
      if (auto acquire = dyn_cast<ProducerAcquireOp>(op))
        text = describeWait(op, acquire.getPipeline().getType(), true);
      else if (auto wait = dyn_cast<ConsumerWaitOp>(op))
        text = describeWait(op, wait.getPipeline().getType(), false);
      else
        return;
      op->setAttr(kWaitSiteAttrName,
                  IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                   list.size()));
      list.push_back(text);
    });
  });
  root.walk([&](gpu::GPUModuleOp module) {
    bool waits = false;
    module.walk([&](Operation *op) {
      waits |= isa<ProducerAcquireOp, ConsumerWaitOp>(op);
    });
    if (!waits || module.lookupSymbol(kDebugWaitRecordSymbol))
      return;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Type i64 = b.getI64Type();
    LLVM::GlobalOp::create(b, module.getLoc(), i64, /*isConstant=*/false,
                           LLVM::Linkage::External, kDebugWaitRecordSymbol,
                           b.getI64IntegerAttr(0), /*alignment=*/8,
                           /*addrSpace=*/1);
  });
  return sites;
}

/// Writes the bound and the wait sites into each kernel's launch contract
/// (gemm.bundles), so the runtime maps the record and reads a failed launch
/// of it as a debug-wait trap.
LogicalResult
recordDebugWaits(ModuleOp module, int64_t limitMs,
                 const llvm::StringMap<std::vector<std::string>> &sites) {
  auto bundles = module->getAttrOfType<DictionaryAttr>("gemm.bundles");
  if (!bundles)
    return success();
  SmallVector<NamedAttribute> updated;
  for (NamedAttribute entry : bundles) {
    auto text = dyn_cast<StringAttr>(entry.getValue());
    ::gemm::bundle::ParseResult parsed =
        ::gemm::bundle::parseManifestText(text ? text.getValue().str() : "");
    if (!parsed.manifest)
      return module.emitError("gemm.bundles entry '")
             << entry.getName().getValue() << "' is not a manifest";
    parsed.manifest->debugWaitsMs = static_cast<uint32_t>(limitMs);
    auto found = sites.find(parsed.manifest->kernel);
    if (found != sites.end())
      parsed.manifest->debugWaitSites = found->second;
    updated.emplace_back(entry.getName(),
                         StringAttr::get(module.getContext(),
                                         parsed.manifest->toJsonString(-1)));
  }
  module->setAttr("gemm.bundles",
                  DictionaryAttr::get(module.getContext(), updated));
  return success();
}

struct ConvertGemmToNVVMPass
    : public mlir::gemm::impl::ConvertGemmToNVVMBase<ConvertGemmToNVVMPass> {
  using ConvertGemmToNVVMBase::ConvertGemmToNVVMBase;

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

    if (debugWaitsMs > 0) {
      if (debugWaitsMs > UINT32_MAX) {
        emitError(getOperation().getLoc(), "debug-waits=")
            << debugWaitsMs << " ms is beyond the 32-bit bound of a manifest";
        return signalPassFailure();
      }
      llvm::StringMap<std::vector<std::string>> sites =
          annotateWaitSites(getOperation());
      if (failed(recordDebugWaits(getOperation(), debugWaitsMs, sites)))
        return signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    populateGemmTypeConversions(converter);

    RewritePatternSet patterns(ctx);
    populateStructureToNVVMPatterns(converter, patterns);
    populatePipelineToNVVMPatterns(converter, patterns, debugWaitsMs);
    populateTmaToNVVMPatterns(converter, patterns);
    populateMmaToNVVMPatterns(converter, patterns);
    populateEpilogueToNVVMPatterns(converter, patterns);
    populateSchedulerToNVVMPatterns(converter, patterns);
    populateQuantToNVVMPatterns(converter, patterns);
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
