//===- GemmToNVVM.cpp - the convert-gemm-to-nvvm pass --------------------===//

#include "Patterns.h"
#include "gemm/Bundle/Manifest.h"
#include "gemm/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SmallPtrSet.h"
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

namespace {

/// The debug-waits polling loop: while `waiting()` (an i1 built at the
/// insertion point) is true, polls it; once `limitMs` milliseconds of
/// %globaltimer (nanoseconds) have passed since the loop began, calls
/// `expire()`, which records the wait and traps. The caller tests once
/// before, so that only a wait that did not complete at once reads the
/// timer.
void createBoundedPoll(OpBuilder &b, Location loc, int64_t limitMs,
                       function_ref<Value()> waiting,
                       function_ref<void()> expire) {
  Type i64 = b.getI64Type();
  Value start = NVVM::GlobalTimerOp::create(b, loc, i64);
  auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&loop.getBefore());
  scf::ConditionOp::create(b, loc, waiting(), ValueRange{});
  b.createBlock(&loop.getAfter());
  Value elapsed = LLVM::SubOp::create(
      b, loc, NVVM::GlobalTimerOp::create(b, loc, i64), start);
  Value expired = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::uge, elapsed,
      LLVM::ConstantOp::create(b, loc, i64, limitMs * 1'000'000));
  auto ifOp = scf::IfOp::create(b, loc, expired, /*withElseRegion=*/false);
  scf::YieldOp::create(b, loc);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  expire();
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
  // still incomplete after it reads %globaltimer and polls. One try
  // suspends the thread for at most 1 ms, so a wait gives up at most that
  // long after its bound.
  constexpr int64_t kTryNs = 1'000'000;
  Type i1 = b.getI1Type();
  Value one = LLVM::ConstantOp::create(b, loc, i1, 1);
  auto tryWait = [&]() -> Value {
    Value done = NVVM::MBarrierTryWaitOp::create(b, loc, i1, barrier, parity,
                                                 createI32(b, loc, kTryNs));
    return LLVM::XOrOp::create(b, loc, done, one);
  };
  auto slow = scf::IfOp::create(b, loc, tryWait(), /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(slow.thenBlock()->getTerminator());
  createBoundedPoll(b, loc, debug->limitMs, tryWait,
                    [&] { recordAndTrap(b, loc, *debug, parity); });
}

void mlir::gemm::createBoundedNamedBarrier(OpBuilder &b, Location loc, Value id,
                                           Value threads, int64_t limitMs,
                                           int64_t site) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  constexpr StringLiteral cta = "block"; // NVPTX's syncscope for .cta
  // Ids are 0-15 (bar.sync is undefined beyond); the mask keeps a wrong one
  // inside the counters.
  id = LLVM::AndOp::create(b, loc, id, createI32(b, loc, 15));
  Value words = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kSharedSpace),
      kDebugNamedBarriersSymbol);
  auto word = [&](Value index) {
    return LLVM::GEPOp::create(b, loc, words.getType(), i32, words,
                               ValueRange{index});
  };
  Value count = word(id);
  Value generation =
      word(LLVM::AddOp::create(b, loc, id, createI32(b, loc, 16)));
  auto load = [&](Value address, LLVM::AtomicOrdering ordering) -> Value {
    return LLVM::LoadOp::create(b, loc, i32, address, /*alignment=*/4,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/false,
                                /*isInvariantGroup=*/false, ordering, cta);
  };
  auto store = [&](Value value, Value address, LLVM::AtomicOrdering ordering) {
    LLVM::StoreOp::create(b, loc, value, address, /*alignment=*/4,
                          /*isVolatile=*/false, /*isNonTemporal=*/false,
                          /*isInvariantGroup=*/false, ordering, cta);
  };
  // The generation this thread arrives in, read before its arrival: the
  // barrier cannot complete (and move on to the next generation) without
  // it. The thread saw the previous generation end (it ended it, or
  // acquired its end below), so it cannot read an older one.
  Value arrivedIn = load(generation, LLVM::AtomicOrdering::monotonic);
  // Arrive: fence.acq_rel.cta, a relaxed atomic add, fence.acq_rel.cta (a
  // release and an acquire pattern in the PTX memory model). Release: the
  // thread's earlier accesses (the epilogue's staging writes, the split-K
  // partials) happen before the barrier completes. Acquire: the last
  // arriver, which completes it, sees every earlier arriver's. Fences, not
  // an acq_rel atomicrmw: LLVM 22's NVPTX back end emits that as a relaxed
  // `atom.shared.add` and drops the ordering.
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, cta);
  Value before = LLVM::AtomicRMWOp::create(
      b, loc, LLVM::AtomicBinOp::add, count, createI32(b, loc, 1),
      LLVM::AtomicOrdering::monotonic, cta);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, cta);
  Value last = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::eq, before,
      LLVM::SubOp::create(b, loc, threads, createI32(b, loc, 1)));
  auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
  // The warp meets again before what follows: the aligned, warp-collective
  // instructions after a bar.sync (stmatrix, bar.red, wgmma) need it
  // converged, and the paths above split it. Whole warps take part in a
  // bar.sync, so the full mask is right wherever the barrier was.
  NVVM::SyncWarpOp::create(b, loc, createI32(b, loc, -1));
  OpBuilder::InsertionGuard guard(b);
  // The last arriver resets the count for the next generation, then starts
  // it (release: after the reset, and after everything it acquired).
  b.setInsertionPoint(ifLast.thenBlock()->getTerminator());
  store(createI32(b, loc, 0), count, LLVM::AtomicOrdering::monotonic);
  store(LLVM::AddOp::create(b, loc, arrivedIn, createI32(b, loc, 1)),
        generation, LLVM::AtomicOrdering::release);
  // The others wait for the generation to move on (acquire: they see what
  // every participant did before arriving).
  b.setInsertionPoint(ifLast.elseBlock()->getTerminator());
  auto waiting = [&]() -> Value {
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                load(generation, LLVM::AtomicOrdering::acquire),
                                arrivedIn);
  };
  auto slow = scf::IfOp::create(b, loc, waiting(), /*withElseRegion=*/false);
  b.setInsertionPoint(slow.thenBlock()->getTerminator());
  createBoundedPoll(b, loc, limitMs, waiting, [&] {
    DebugWait debug;
    debug.limitMs = limitMs;
    debug.site = site;
    debug.stage = id;
    debug.iteration = load(count, LLVM::AtomicOrdering::monotonic);
    recordAndTrap(b, loc, debug, arrivedIn);
  });
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
                                 SmemBufferType type, Value slot, Value row,
                                 Value kLine) {
  Value offset = LLVM::MulOp::create(b, loc, slot,
                                     createI32(b, loc, type.getStageBytes()));
  auto addScaled = [&](Value index, int64_t bytes) {
    offset = LLVM::AddOp::create(
        b, loc, offset,
        LLVM::MulOp::create(b, loc, index, createI32(b, loc, bytes)));
  };
  if (type.isMNMajor()) {
    // Row r of an MN-major slot starts block r / span (row offsets are whole
    // blocks); K line k of a block is k swizzle lines into it.
    if (row)
      addScaled(LLVM::UDivOp::create(b, loc, row,
                                     createI32(b, loc, type.getSpanRows())),
                type.getBlockBytes());
    if (kLine)
      addScaled(kLine, type.getSwizzle());
  } else if (row) {
    addScaled(row, type.getCols() * getElementBytes(type.getElementType()));
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

/// Whether the debug lowering bounds `op`: a named barrier with a thread
/// count (nvvm.barrier with number_of_threads and no reduction: bar.sync id,
/// n) or gemm.barrier_any. A barrier without a count waits for every
/// non-exited thread of the CTA, a number a software barrier cannot know;
/// the kernels use one only where every thread reaches it (start-up and the
/// end), and it stays as it is.
bool isBoundedNamedBarrier(Operation *op) {
  if (isa<BarrierAnyOp>(op))
    return true;
  auto barrier = dyn_cast<NVVM::BarrierOp>(op);
  return barrier && barrier.getNumberOfThreads() && !barrier.getReductionOp();
}

/// "consumer: named barrier (bar.sync) of 128 threads".
std::string describeNamedBarrier(Operation *op) {
  std::optional<int64_t> threads;
  std::string kind = "bar.sync";
  if (auto any = dyn_cast<BarrierAnyOp>(op)) {
    kind = "bar.red.or";
    threads = static_cast<int64_t>(any.getThreads());
  } else {
    APInt value;
    if (matchPattern(cast<NVVM::BarrierOp>(op).getNumberOfThreads(),
                     m_ConstantInt(&value)))
      threads = value.getSExtValue();
  }
  return roleOf(op) + ": named barrier (" + kind + ") of " +
         (threads ? std::to_string(*threads) + " threads"
                  : std::string("a run-time number of threads"));
}

/// Shared memory the named-barrier counters can take from the budget: 128
/// bytes of static shared memory, behind which the dynamic buffer (1024-byte
/// aligned) starts at the next 1024-byte boundary.
constexpr int64_t kDebugNamedBarrierReserve = 1024;

/// Zeroes the named-barrier counters at the kernel's entry, which every
/// thread of the CTA executes, then bar.sync 0 (left unbounded: it has no
/// site) so that no thread arrives before they are zero.
void zeroNamedBarriersAtEntry(gpu::GPUFuncOp kernel) {
  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Type i32 = b.getI32Type();
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value zeroes = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, tid,
                                      createI32(b, loc, 32));
  auto ifOp = scf::IfOp::create(b, loc, zeroes, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value words = LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedSpace),
        kDebugNamedBarriersSymbol);
    Value word = LLVM::GEPOp::create(b, loc, words.getType(), i32, words,
                                     ValueRange{tid});
    LLVM::StoreOp::create(b, loc, createI32(b, loc, 0), word, /*alignment=*/4);
  }
  NVVM::BarrierOp::create(b, loc);
}

/// Numbers each kernel's waits (pipeline waits and bounded named barriers,
/// before the role regions are lowered away) into `sites`, their
/// descriptions by kernel name; gives each gpu.module with waits the
/// record-address global, and each with named barriers their counters
/// (zeroed at each kernel's entry). Fails when a kernel's shared memory has
/// no room left for the counters.
LogicalResult
annotateWaitSites(ModuleOp root,
                  llvm::StringMap<std::vector<std::string>> &sites) {
  llvm::SmallPtrSet<Operation *, 4> modulesWithBarriers;
  WalkResult result = root.walk([&](gpu::GPUFuncOp kernel) {
    std::vector<std::string> &list = sites[kernel.getName()];
    bool barriers = false;
    kernel.walk([&](Operation *op) {
      std::string text;
      if (auto acquire = dyn_cast<ProducerAcquireOp>(op)) {
        text = describeWait(op, acquire.getPipeline().getType(), true);
      } else if (auto wait = dyn_cast<ConsumerWaitOp>(op)) {
        text = describeWait(op, wait.getPipeline().getType(), false);
      } else if (kernel.isKernel() && isBoundedNamedBarrier(op)) {
        // Only in kernels: the counters are zeroed at the kernel's entry.
        text = describeNamedBarrier(op);
        barriers = true;
      } else {
        return;
      }
      op->setAttr(kWaitSiteAttrName,
                  IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                   list.size()));
      list.push_back(text);
    });
    if (!barriers)
      return WalkResult::advance();
    WalkResult planned = kernel.walk([&](SmemPlanOp plan) {
      int64_t total = plan.getTotalBytes();
      if (total + kDebugNamedBarrierReserve <= SmemPlanOp::kMaxBytes)
        return WalkResult::advance();
      plan.emitOpError("needs ")
          << total << " bytes, and debug-waits keeps the counters of its "
          << "bounded named barriers in static shared memory, which can take "
          << kDebugNamedBarrierReserve << " bytes more of the "
          << SmemPlanOp::kMaxBytes
          << "-byte budget: compile this kernel with one stage fewer, or "
             "without debug-waits";
      return WalkResult::interrupt();
    });
    if (planned.wasInterrupted())
      return WalkResult::interrupt();
    zeroNamedBarriersAtEntry(kernel);
    modulesWithBarriers.insert(kernel->getParentOp());
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  WalkResult reserved = root.walk([&](gpu::GPUModuleOp module) {
    bool waits = false;
    module.walk(
        [&](Operation *op) { waits |= op->hasAttr(kWaitSiteAttrName); });
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    if (modulesWithBarriers.contains(module)) {
      if (Operation *taken = module.lookupSymbol(kDebugNamedBarriersSymbol)) {
        taken->emitOpError("uses the symbol @")
            << kDebugNamedBarriersSymbol
            << ", which debug-waits reserves for its named-barrier counters";
        return WalkResult::interrupt();
      }
      LLVM::GlobalOp::create(b, module.getLoc(),
                             LLVM::LLVMArrayType::get(b.getI32Type(), 32),
                             /*isConstant=*/false, LLVM::Linkage::Internal,
                             kDebugNamedBarriersSymbol, /*value=*/Attribute(),
                             /*alignment=*/8, kSharedSpace);
    }
    if (!waits)
      return WalkResult::advance();
    Type i64 = b.getI64Type();
    if (Operation *taken = module.lookupSymbol(kDebugWaitRecordSymbol)) {
      // The record's global from an earlier run is fine; anything else
      // named so (a kernel, say) would take the waits' addressof.
      auto global = dyn_cast<LLVM::GlobalOp>(taken);
      if (global && global.getGlobalType() == i64 && global.getAddrSpace() == 1)
        return WalkResult::advance();
      taken->emitOpError("uses the symbol @")
          << kDebugWaitRecordSymbol
          << ", which debug-waits reserves for its wait record's address";
      return WalkResult::interrupt();
    }
    LLVM::GlobalOp::create(b, module.getLoc(), i64, /*isConstant=*/false,
                           LLVM::Linkage::External, kDebugWaitRecordSymbol,
                           b.getI64IntegerAttr(0), /*alignment=*/8,
                           /*addrSpace=*/1);
    return WalkResult::advance();
  });
  return failure(reserved.wasInterrupted());
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
      llvm::StringMap<std::vector<std::string>> sites;
      if (failed(annotateWaitSites(getOperation(), sites)))
        return signalPassFailure();
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
    populateDirectToNVVMPatterns(converter, patterns);
    populateSchedulerToNVVMPatterns(converter, patterns);
    populateQuantToNVVMPatterns(converter, patterns);
    populateBarrierToNVVMPatterns(converter, patterns, debugWaitsMs);
    populateTmemToNVVMPatterns(converter, patterns);
    populateTcgen05MmaToNVVMPatterns(converter, patterns);
    populateClcToNVVMPatterns(converter, patterns);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<GemmDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           arith::ArithDialect, gpu::GPUDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    // Under debug-waits the named barriers given a wait site are replaced
    // by their bounded form.
    target.addDynamicallyLegalOp<NVVM::BarrierOp>(
        [](NVVM::BarrierOp op) { return !op->hasAttr(kWaitSiteAttrName); });
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(patterns,
                                                                     converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    // The epilogue regions of gemm.accum.store_smem (and the other ops that
    // write accumulators) are inlined by their patterns; their terminators
    // go with them.
    target.addDynamicallyLegalOp<YieldOp>([](YieldOp op) {
      return !isa<AccumStoreSmemOp, TmemStoreSmemOp, AccumStoreDirectOp>(
          op->getParentOp());
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
