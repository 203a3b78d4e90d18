//===- CheckPipelines.cpp - static checks of the pipeline protocol -------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMCHECKPIPELINES
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// Bytes that one TMA load delivers into this CTA's slot. A multicast load
/// is one slice of the slot: the other CTAs of its multicast group load the
/// remaining slices into this CTA, so together they deliver the whole slot.
int64_t deliveredBytes(TmaLoadOp load) {
  int64_t box = load.getDescriptor().getType().getBoxBytes();
  if (!load.getMulticastMask())
    return box;
  return box * load.getSlices();
}

/// A cluster-launch-control response is 16 bytes, also in every CTA it is
/// multicast to.
constexpr int64_t kClcResponseBytes = 16;

using Deliveries = SmallVector<std::pair<Operation *, int64_t>>;

int64_t totalBytes(const Deliveries &deliveries) {
  int64_t total = 0;
  for (auto [op, bytes] : deliveries)
    total += bytes;
  return total;
}

/// The asynchronous writes to `pipeline`'s full barrier for `iteration`
/// issued in `block`, nested ops included (e.g. an scf.if electing the CTA
/// of a cluster that issues a multicast request), with the bytes each
/// delivers here. An scf.if with an else branch is a choice between its
/// branches: both must deliver the same bytes, and one counts (a
/// mismatch is reported on the scf.if).
Deliveries collectDeliveries(Block &block, Value pipeline, Value iteration,
                             bool &failed) {
  Deliveries deliveries;
  for (Operation &op : block) {
    if (auto load = dyn_cast<TmaLoadOp>(op)) {
      if (load.getPipeline() == pipeline && load.getIteration() == iteration)
        deliveries.push_back({load, deliveredBytes(load)});
    } else if (auto cancel = dyn_cast<ClcTryCancelOp>(op)) {
      if (cancel.getPipeline() == pipeline &&
          cancel.getIteration() == iteration)
        deliveries.push_back({cancel, kClcResponseBytes});
    } else if (auto choice = dyn_cast<scf::IfOp>(op);
               choice && !choice.getElseRegion().empty()) {
      Deliveries then =
          collectDeliveries(*choice.thenBlock(), pipeline, iteration, failed);
      Deliveries other =
          collectDeliveries(*choice.elseBlock(), pipeline, iteration, failed);
      if (totalBytes(then) != totalBytes(other)) {
        choice.emitError("the branches of this scf.if deliver ")
            << totalBytes(then) << " and " << totalBytes(other)
            << " bytes to the same ring stage; its expect_tx cannot match "
               "both (hang or race)";
        failed = true;
      }
      deliveries.append(then);
    } else {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          deliveries.append(
              collectDeliveries(nested, pipeline, iteration, failed));
    }
  }
  return deliveries;
}

/// The asynchronous writes that complete on the commit's full barrier and
/// that are issued next to it, in its block.
Deliveries getStageDeliveries(ProducerCommitOp commit, bool &failed) {
  return collectDeliveries(*commit->getBlock(), commit.getPipeline(),
                           commit.getIteration(), failed);
}

/// The cta_group of a tcgen05 operation, or nothing for other ops.
std::optional<int64_t> getTcgen05CtaGroup(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<TmemAllocOp, TmemDeallocOp, TmemRelinquishOp, MmaSm100Op,
            MmaSm100CommitOp>([](auto tcgen05) -> std::optional<int64_t> {
        return tcgen05.getCtaGroupAttr().getInt();
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// PTX ISA (tcgen05): all tcgen05 instructions of a kernel must use the same
/// .cta_group.
LogicalResult checkOneCtaGroup(Operation *kernel) {
  Operation *first = nullptr;
  int64_t firstGroup = 0;
  WalkResult result = kernel->walk([&](Operation *op) {
    std::optional<int64_t> group = getTcgen05CtaGroup(op);
    if (!group)
      return WalkResult::advance();
    if (!first) {
      first = op;
      firstGroup = *group;
      return WalkResult::advance();
    }
    if (*group == firstGroup)
      return WalkResult::advance();
    InFlightDiagnostic diag =
        op->emitError("uses cta_group ")
        << *group << ", but the kernel's first tcgen05 operation uses "
        << firstGroup
        << "; all tcgen05 operations of a kernel must use one cta_group";
    diag.attachNote(first->getLoc()) << "cta_group " << firstGroup << " here";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

struct GemmCheckPipelinesPass
    : public mlir::gemm::impl::GemmCheckPipelinesBase<GemmCheckPipelinesPass> {
  void runOnOperation() override {
    bool failed = false;
    llvm::DenseMap<Value, int> inits;
    getOperation().walk([&](PipelineInitOp init) {
      if (++inits[init.getPipeline()] == 2) {
        init.emitError("pipeline is initialised twice: its barriers would be "
                       "reset under the threads that use them");
        failed = true;
      }
    });
    getOperation().walk([&](ProducerCommitOp commit) {
      Value pipeline = commit.getPipeline();
      if (!inits.count(pipeline)) {
        commit.emitError("pipeline is never initialised (gemm.pipeline.init)");
        failed = true;
      }
      Deliveries deliveries = getStageDeliveries(commit, failed);
      int64_t delivered = totalBytes(deliveries);
      if (delivered == static_cast<int64_t>(commit.getTxBytes()))
        return;
      auto diag = commit.emitError("expect_tx of ")
                  << commit.getTxBytes() << " bytes does not match the "
                  << delivered << " bytes that the " << deliveries.size()
                  << " asynchronous write(s) of this stage (TMA loads, "
                     "cluster launch control responses) deliver; the full "
                     "barrier would never complete (hang) or complete early "
                     "(race)";
      for (auto [op, bytes] : deliveries)
        diag.attachNote(op->getLoc()) << "delivers " << bytes << " bytes";
      failed = true;
    });
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (mlir::failed(checkOneCtaGroup(kernel)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
