//===- TestPlantBug.cpp - Plant a named protocol bug in a kernel ----------===//
//
// gemm-test-plant-bug{bug=NAME}: mutates every materialized kernel of the
// module (without the option: of each module with a `gemm.test.plant_bug`
// attribute naming the bug, for -split-input-file tests) in one named way that
// breaks its barrier protocol, so that the invalid tests of gemm-check-protocol
// are real kernels with a real bug. Fails when the kernel has nothing the bug
// applies to, so a test can never pass because nothing was planted.
//
//  arrival-count      the operand ring's empty barriers expect one arrival
//                     fewer than the roles make
//  release-early      a kernel built without WGMMA lookahead
//                     (wgmma-lookahead=0) releases each k-block's stage
//                     after its wgmma.wait, which now leaves one group in
//                     flight (pending(1)): the stage goes back before the
//                     WGMMAs reading it are done (the lookahead off by one)
//  initial-phase      the first k-block's full-barrier wait uses the wrong
//                     parity (waits one phase too far: passes at once)
//  missing-release    the release of a tile's last stage happens only on
//                     even iterations (missing on one branch)
//  single-stage       the operand ring has one stage, too few for the
//                     WGMMA lookahead of one group
//  multicast-peer     the consumers' releases leave out the last CTA of the
//                     cluster: a multicast peer never arrives there
//  accumulator-reuse  SM100: the MMA warp no longer waits for the epilogue
//                     to release an accumulator stage before reusing it
//  clc-early-read     SM100: the load warp decodes the cluster launch
//                     control response without waiting for it to land
//  double-release     the mainloop releases each stage twice
//  missing-wait       the epilogue reads the accumulator without the
//                     wgmma.wait_group that retires its last WGMMAs
//  mask-outside       the multicast loads' mask names a CTA past the
//                     cluster
//  direct-no-fence    a direct kernel: the fence.proxy.async between the
//                     threads' st.shared of the operand tiles and the
//                     WGMMAs (async proxy) that read them is left out
//  direct-no-barrier  a direct kernel: the CTA barrier after the operand
//                     tiles' st.shared is left out (the WGMMAs of one
//                     warpgroup read the tiles other warpgroups store)
//  no-amax            an fp8 output kernel: the epilogue no longer raises
//                     the amax (a data bug: gemm-sim reports the amax)
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The plan's results of pipeline type, in order.
SmallVector<Value> pipelinesOf(SmemPlanOp plan) {
  SmallVector<Value> pipelines;
  for (Value result : plan.getResults())
    if (isa<PipelineType>(result.getType()))
      pipelines.push_back(result);
  return pipelines;
}

Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// Plants the bug in one kernel; false when it has nothing it applies to.
bool plant(StringRef bug, gpu::GPUFuncOp func) {
  SmemPlanOp plan;
  func.walk([&](SmemPlanOp op) { plan = op; });
  if (!plan)
    return false;
  SmallVector<Value> pipelines = pipelinesOf(plan);
  Value ring = pipelines.empty() ? Value() : pipelines.front();
  MLIRContext *ctx = func.getContext();
  bool planted = false;

  if (bug == "arrival-count") {
    auto type = cast<PipelineType>(ring.getType());
    if (type.getConsumers() < 2)
      return false;
    ring.setType(PipelineType::get(ctx, type.getStages(), type.getProducers(),
                                   type.getConsumers() - 1));
    return true;
  }

  if (bug == "release-early") {
    // The waits that the ring's releases rely on: a wgmma.wait pending(0)
    // followed, in its block, by a release of the ring (directly or in the
    // leader's scf.if).
    SmallVector<WgmmaWaitOp> waits;
    func.walk([&](WgmmaWaitOp wait) {
      if (wait.getPending() != 0)
        return;
      for (Operation *op = wait->getNextNode(); op; op = op->getNextNode()) {
        bool releases = false;
        op->walk([&](ConsumerReleaseOp release) {
          releases |= release.getPipeline() == ring;
        });
        if (releases) {
          waits.push_back(wait);
          return;
        }
      }
    });
    for (WgmmaWaitOp wait : waits)
      wait.setPending(1);
    return !waits.empty();
  }

  if (bug == "initial-phase") {
    ConsumerWaitOp first;
    func.walk([&](ConsumerWaitOp wait) {
      if (!first && wait.getPipeline() == ring)
        first = wait;
    });
    if (!first)
      return false;
    OpBuilder b(first);
    auto type = cast<PipelineType>(ring.getType());
    Value shifted =
        arith::AddIOp::create(b, first.getLoc(), first.getIteration(),
                              constantI32(b, first.getLoc(), type.getStages()));
    first.getIterationMutable().assign(shifted);
    return true;
  }

  if (bug == "missing-release") {
    SmallVector<ConsumerReleaseOp> last;
    func.walk([&](ConsumerReleaseOp release) {
      if (release.getPipeline() != ring)
        return;
      auto minusOne = release.getIteration().getDefiningOp<arith::SubIOp>();
      if (minusOne && isa<OpResult>(minusOne.getLhs()) &&
          isa<scf::ForOp>(minusOne.getLhs().getDefiningOp()))
        last.push_back(release);
    });
    for (ConsumerReleaseOp release : last) {
      OpBuilder b(release);
      Location loc = release.getLoc();
      Value odd = arith::AndIOp::create(b, loc, release.getIteration(),
                                        constantI32(b, loc, 1));
      Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, odd,
                                         constantI32(b, loc, 0));
      auto branch = scf::IfOp::create(b, loc, even, /*withElseRegion=*/false);
      b.setInsertionPoint(branch.thenBlock()->getTerminator());
      b.clone(*release.getOperation());
      release.erase();
      planted = true;
    }
    return planted;
  }

  if (bug == "single-stage") {
    // The operand rings are the plan's first two buffers.
    auto type = cast<PipelineType>(ring.getType());
    ring.setType(
        PipelineType::get(ctx, 1, type.getProducers(), type.getConsumers()));
    for (unsigned i = 0; i < 2; ++i) {
      Value buffer = plan.getResult(i);
      auto bufferType = cast<SmemBufferType>(buffer.getType());
      buffer.setType(SmemBufferType::get(
          ctx, 1, bufferType.getRows(), bufferType.getCols(),
          bufferType.getElementType(), bufferType.getSwizzle()));
    }
    OpBuilder b(ctx);
    auto zeroBefore = [&](Operation *op) {
      b.setInsertionPoint(op);
      return constantI32(b, op->getLoc(), 0);
    };
    func.walk([&](TmaLoadOp load) {
      if (load.getPipeline() == ring)
        load.getSlotMutable().assign(zeroBefore(load));
    });
    func.walk(
        [&](MmaSm90Op mma) { mma.getSlotMutable().assign(zeroBefore(mma)); });
    return true;
  }

  if (bug == "multicast-peer") {
    auto clusterDim =
        func->getAttrOfType<DenseI32ArrayAttr>("nvvm.cluster_dim");
    if (!clusterDim || clusterDim[0] < 2)
      return false;
    int64_t keep = (int64_t(1) << (clusterDim[0] - 1)) - 1;
    func.walk([&](ConsumerReleaseOp release) {
      if (release.getPipeline() != ring || !release.getPeerMask())
        return;
      OpBuilder b(release);
      Value mask =
          arith::AndIOp::create(b, release.getLoc(), release.getPeerMask(),
                                constantI32(b, release.getLoc(), keep));
      release.getPeerMaskMutable().assign(mask);
      planted = true;
    });
    return planted;
  }

  if (bug == "accumulator-reuse") {
    if (pipelines.size() < 2)
      return false;
    Value accumulators = pipelines[1];
    SmallVector<ProducerAcquireOp> acquires;
    func.walk([&](ProducerAcquireOp acquire) {
      if (acquire.getPipeline() == accumulators)
        acquires.push_back(acquire);
    });
    for (ProducerAcquireOp acquire : acquires)
      acquire.erase();
    return !acquires.empty();
  }

  if (bug == "clc-early-read") {
    if (pipelines.size() < 3)
      return false;
    Value schedule = pipelines[2];
    WarpRolesOp roles;
    func.walk([&](WarpRolesOp op) { roles = op; });
    if (!roles)
      return false;
    ConsumerWaitOp wait;
    roles.getLoad().walk([&](ConsumerWaitOp op) {
      if (op.getPipeline() == schedule)
        wait = op;
    });
    if (!wait)
      return false;
    wait.erase();
    return true;
  }
  if (bug == "double-release") {
    func.walk([&](ConsumerReleaseOp release) {
      if (release.getPipeline() != ring || planted)
        return;
      OpBuilder b(release);
      b.setInsertionPointAfter(release);
      b.clone(*release.getOperation());
      planted = true;
    });
    return planted;
  }

  if (bug == "missing-wait") {
    // The wgmma.wait pending(0) after the mainloop (the next op uses the
    // accumulator of the loop).
    SmallVector<WgmmaWaitOp> waits;
    func.walk([&](WgmmaWaitOp wait) {
      if (wait.getPending() == 0 &&
          isa_and_nonnull<scf::ForOp>(wait->getPrevNode()))
        waits.push_back(wait);
    });
    for (WgmmaWaitOp wait : waits)
      wait.erase();
    return !waits.empty();
  }

  bool direct = false;
  func.walk([&](DirectStoreSmemOp) { direct = true; });
  if (bug == "direct-no-fence" || bug == "direct-no-barrier") {
    if (!direct)
      return false;
    // The fence and the barrier that follow each group of stores.
    SmallVector<Operation *> victims;
    func.walk([&](DirectStoreSmemOp store) {
      // Up to and including the next CTA barrier.
      for (Operation *next = store->getNextNode(); next;
           next = next->getNextNode()) {
        bool barrier = isa<gpu::BarrierOp>(next);
        bool victim =
            bug == "direct-no-fence" ? isa<NVVM::FenceProxyOp>(next) : barrier;
        if (victim && !llvm::is_contained(victims, next))
          victims.push_back(next);
        if (barrier)
          break;
      }
    });
    for (Operation *op : victims)
      op->erase();
    return !victims.empty();
  }

  if (bug == "no-amax") {
    func.walk([&](AccumStoreSmemOp store) {
      if (!store.getAmax())
        return;
      store.getAmaxMutable().clear();
      planted = true;
    });
    return planted;
  }

  if (bug == "scale-slot") {
    // The staging warp copies a k-block's scales into the next stage's
    // slot, which the consumers may still read.
    func.walk([&](ScaleStageOp stage) {
      OpBuilder b(stage);
      Location loc = stage.getLoc();
      int64_t stages = stage.getBuffer().getType().getStages();
      Value next =
          arith::RemUIOp::create(b, loc,
                                 arith::AddIOp::create(b, loc, stage.getSlot(),
                                                       constantI32(b, loc, 1)),
                                 constantI32(b, loc, stages));
      stage.getSlotMutable().assign(next);
      planted = true;
    });
    return planted;
  }

  if (bug == "mask-outside") {
    func.walk([&](TmaLoadOp load) {
      if (!load.getMulticastMask())
        return;
      OpBuilder b(load);
      Location loc = load.getLoc();
      Value outside = arith::ConstantIntOp::create(b, loc, 0x80, 16);
      Value mask =
          arith::OrIOp::create(b, loc, load.getMulticastMask(), outside);
      load.getMulticastMaskMutable().assign(mask);
      planted = true;
    });
    return planted;
  }
  return false;
}

struct TestPlantBugPass
    : public PassWrapper<TestPlantBugPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPlantBugPass)

  TestPlantBugPass() = default;
  TestPlantBugPass(const TestPlantBugPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "gemm-test-plant-bug"; }
  StringRef getDescription() const final {
    return "plant a named protocol bug in every materialized kernel (tests of "
           "gemm-check-protocol)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, scf::SCFDialect>();
  }

  Option<std::string> bug{*this, "bug",
                          llvm::cl::desc("which bug (see TestPlantBug.cpp)")};

  void runOnOperation() override {
    std::string name = bug;
    if (name.empty())
      if (auto attr =
              getOperation()->getAttrOfType<StringAttr>("gemm.test.plant_bug"))
        name = attr.str();
    bool any = false;
    bool failed = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
        return;
      any = true;
      if (!plant(name, func)) {
        func.emitError("gemm-test-plant-bug: '")
            << name << "' has nothing to plant in this kernel";
        failed = true;
      }
    });
    if (!any) {
      getOperation().emitError("gemm-test-plant-bug: no kernel");
      failed = true;
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::gemm::test {
void registerTestPasses() { PassRegistration<TestPlantBugPass>(); }
} // namespace mlir::gemm::test
