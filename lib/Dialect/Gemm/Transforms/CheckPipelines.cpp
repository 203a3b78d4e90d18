//===- CheckPipelines.cpp - static checks of the pipeline protocol -------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

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
  SmemBufferType slot = load.getBuffer().getType();
  return box * (slot.getRows() / load.getDescriptor().getType().getBox()[1]);
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
      // The loads of a stage are the ones in the same block that complete
      // on the same pipeline iteration.
      int64_t delivered = 0;
      SmallVector<TmaLoadOp> loads;
      for (Operation &op : *commit->getBlock())
        if (auto load = dyn_cast<TmaLoadOp>(op))
          if (load.getPipeline() == pipeline &&
              load.getIteration() == commit.getIteration()) {
            delivered += deliveredBytes(load);
            loads.push_back(load);
          }
      if (delivered == commit.getTxBytes())
        return;
      auto diag = commit.emitError("expect_tx of ")
                  << commit.getTxBytes() << " bytes does not match the "
                  << delivered << " bytes that the " << loads.size()
                  << " TMA load(s) of this stage deliver; the full barrier "
                     "would never complete (hang) or complete early (race)";
      for (TmaLoadOp load : loads)
        diag.attachNote(load.getLoc())
            << "delivers " << deliveredBytes(load) << " bytes";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
