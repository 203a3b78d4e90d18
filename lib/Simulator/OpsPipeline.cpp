//===- OpsPipeline.cpp - The shared-memory plan and pipeline barriers -----===//
//
// gemm.smem.plan places the kernel's objects; a !gemm.pipeline is `stages`
// full mbarriers then `stages` empty ones (8 bytes each) at its offset.
// Iteration n of a pipeline uses stage n mod stages and phase n / stages;
// every op names its iteration, which is how the simulator knows the phase
// each wait and arrival intends (Machine::waitPhase, Machine::arrive).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

namespace {

Step smemPlan(Exec &e) {
  auto plan = cast<SmemPlanOp>(e.op);
  if (plan.getTotalBytes() > int64_t(e.m.ctas[e.t.cta].smem.bytes.size()))
    return e.fail(Violation::Kind::Rule,
                  "the plan needs " + std::to_string(plan.getTotalBytes()) +
                      " bytes of shared memory but the launch gives " +
                      std::to_string(e.m.plan.dynamicSmemBytes));
  for (auto [i, offset] : llvm::enumerate(e.m.kernel.planOffsets))
    e.setInt(i, static_cast<uint64_t>(offset));
  return Step::Next;
}

Step pipelineInit(Exec &e) {
  auto op = cast<PipelineInitOp>(e.op);
  PipelineType type = op.getPipeline().getType();
  uint64_t base = e.bits(0);
  const PipelineInfo *info = e.m.kernel.pipelineAt(base);
  for (int64_t stage = 0; stage < type.getStages(); ++stage) {
    for (bool empty : {false, true}) {
      uint32_t offset = pipelineBarrier(type, base, stage, empty);
      MBarrier &barrier = e.m.barrierAt(e.op, e.t.cta, offset);
      if (barrier.initialized)
        return e.fail(Violation::Kind::Rule,
                      "initialises " + e.m.describeBarrier(barrier) +
                          " a second time, under the threads that use it");
      barrier.initialized = true;
      barrier.pipeline = info ? int(info - e.m.kernel.pipelines.data()) : -1;
      barrier.stage = stage;
      barrier.empty = empty;
      barrier.count = empty ? type.getConsumers() : type.getProducers();
      barrier.pending = barrier.count;
      barrier.comp = e.m.newComponent();
      barrier.init = e.m.threadAccess(e.t, e.op);
    }
  }
  e.m.log(e.t, e.op,
          "initialises pipeline " + std::to_string(info ? info->index : 0));
  e.t.vc.raise(e.t.id, e.t.vc.get(e.t.id) + 1);
  return Step::Next;
}

Step producerAcquire(Exec &e) {
  auto op = cast<ProducerAcquireOp>(e.op);
  PipelineType type = op.getPipeline().getType();
  uint64_t n = maskTo(e.bits(1), 32);
  uint32_t offset = pipelineBarrier(type, e.bits(0), n, /*empty=*/true);
  MBarrier &barrier = e.m.barrierAt(e.op, e.t.cta, offset);
  return e.m.waitPhase(e.t, e.op, barrier, offset,
                       int64_t(n / type.getStages()) - 1, int64_t(n));
}

Step consumerWait(Exec &e) {
  auto op = cast<ConsumerWaitOp>(e.op);
  PipelineType type = op.getPipeline().getType();
  uint64_t n = maskTo(e.bits(1), 32);
  uint32_t offset = pipelineBarrier(type, e.bits(0), n, /*empty=*/false);
  MBarrier &barrier = e.m.barrierAt(e.op, e.t.cta, offset);
  return e.m.waitPhase(e.t, e.op, barrier, offset,
                       int64_t(n / type.getStages()), int64_t(n));
}

Step producerCommit(Exec &e) {
  auto op = cast<ProducerCommitOp>(e.op);
  PipelineType type = op.getPipeline().getType();
  uint64_t n = maskTo(e.bits(1), 32);
  uint32_t offset = pipelineBarrier(type, e.bits(0), n, /*empty=*/false);
  uint32_t cta = e.t.cta;
  if (op.getCtaGroup() && *op.getCtaGroup() == 2)
    cta = e.m.pairLeaderCta(cta);
  MBarrier &barrier = e.m.barrierAt(e.op, cta, offset);
  e.m.arrive(barrier, offset, e.op, e.t.id, e.t.vc, 1,
             static_cast<int64_t>(op.getTxBytes()),
             int64_t(n / type.getStages()), int64_t(n), /*async=*/false);
  e.t.vc.raise(e.t.id, e.t.vc.get(e.t.id) + 1);
  return e.m.violation ? Step::Stop : Step::Yield;
}

/// Arrival on the empty barrier of each CTA of `mask` (a multicast/peer
/// mask of the cluster), or of this CTA.
Step release(Exec &e, PipelineType type, uint64_t base, uint64_t n,
             std::optional<uint64_t> mask) {
  uint32_t offset = pipelineBarrier(type, base, n, /*empty=*/true);
  uint32_t clusterSize = e.m.plan.cluster[0];
  std::vector<uint32_t> targets;
  if (!mask) {
    targets.push_back(e.t.cta);
  } else {
    if (*mask >> clusterSize)
      return e.fail(Violation::Kind::Mask,
                    "peer mask 0x" + llvm::utohexstr(*mask) +
                        " names CTAs outside the cluster of " +
                        std::to_string(clusterSize));
    for (uint32_t rank = 0; rank < clusterSize; ++rank)
      if ((*mask >> rank) & 1)
        targets.push_back(e.m.clusterCta(e.t.cta, rank));
  }
  for (uint32_t cta : targets) {
    if (e.m.ctas[cta].exited)
      return e.fail(Violation::Kind::Rule, "arrives on a barrier of CTA " +
                                               std::to_string(cta) +
                                               ", which already exited");
    MBarrier &barrier = e.m.barrierAt(e.op, cta, offset);
    e.m.arrive(barrier, offset, e.op, e.t.id, e.t.vc, 1, 0,
               int64_t(n / type.getStages()), int64_t(n), /*async=*/false);
    if (e.m.violation)
      return Step::Stop;
  }
  e.t.vc.raise(e.t.id, e.t.vc.get(e.t.id) + 1);
  return Step::Yield;
}

Step consumerRelease(Exec &e) {
  auto op = cast<ConsumerReleaseOp>(e.op);
  PipelineType type = op.getPipeline().getType();
  std::optional<uint64_t> mask;
  if (op.getPeerMask()) {
    mask = maskTo(e.t.values[e.m.kernel.index(op.getPeerMask())].bits, 32);
    if (op.getClusterSize() && *op.getClusterSize() != e.m.plan.cluster[0])
      return e.fail(Violation::Kind::Mask,
                    "cluster_size(" + std::to_string(*op.getClusterSize()) +
                        ") differs from the launch's cluster of " +
                        std::to_string(e.m.plan.cluster[0]) + " CTAs");
  }
  return release(e, type, e.bits(0), maskTo(e.bits(1), 32), mask);
}

} // namespace

void sim::registerPipelineOps(MLIRContext *ctx, HandlerTable &table) {
  addHandler<SmemPlanOp>(ctx, table, smemPlan);
  addHandler<PipelineInitOp>(ctx, table, pipelineInit);
  addHandler<ProducerAcquireOp>(ctx, table, producerAcquire);
  addHandler<ConsumerWaitOp>(ctx, table, consumerWait);
  addHandler<ProducerCommitOp>(ctx, table, producerCommit);
  addHandler<ConsumerReleaseOp>(ctx, table, consumerRelease);
}
