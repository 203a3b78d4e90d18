//===- MaterializeSM100.cpp - gemm.matmul to an SM100 kernel -------------===//
//
// Builds the warp-role, tensor-memory kernel of an sm_100a gemm.matmul: a
// TMA load warp filling a shared-memory ring, an MMA warp whose elected
// thread issues tcgen05.mma into a ring of TMEM accumulators, a scheduler
// warp asking cluster launch control for more tiles, and four epilogue
// warps moving accumulators TMEM -> registers -> staging shared memory ->
// TMA store. docs/SM100.md describes the kernel and every barrier of it;
// this file is the single place that decides its shape.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMMATERIALIZESM100
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

namespace {

constexpr int64_t kEpilogueWarps = 4;
/// TMA-store staging slots per epilogue warp: one being written while the
/// previous one drains to global memory.
constexpr int64_t kStagingSlotsPerWarp = 2;
/// Rows of one staging slot and TMA store box: one warp's TMEM lane quarter.
constexpr int64_t kStoreBoxRows = 32;
/// Cluster-launch-control responses in flight: the scheduler asks for the
/// next tile while the other roles still work on the current one.
constexpr int64_t kClcStages = 2;
/// Arrivals that release one CLC response in each CTA: the load, MMA and
/// scheduler threads and the four epilogue warps.
constexpr int64_t kClcReadersPerCta = 3 + kEpilogueWarps;

/// Everything the SM100 kernel's shape depends on, derived once from the
/// matmul.
struct KernelShape : TileGeometry {
  TileScheduler scheduler;
  int64_t accumStages;

  int64_t threads() const {
    return 32 * (WarpRolesOp::kFirstEpilogueWarp + kEpilogueWarps);
  }
  bool usesClc() const { return scheduler == TileScheduler::clc; }
};

/// The kernel's shared-memory objects, in smem.plan order: A ring, B ring
/// (kGroup slots per stage), staging, the TMEM address word, CLC responses,
/// then the pipelines: TMA -> MMA ring, accumulators, CLC.
SmallVector<Type> getSmemObjects(MLIRContext *ctx, const KernelShape &shape) {
  int64_t slots = shape.stages * shape.kGroup;
  SmallVector<Type> objects = {
      SmemBufferType::get(ctx, slots, shape.bm, shape.bk, shape.inputType, 128),
      SmemBufferType::get(ctx, slots, shape.bRows(), shape.bk, shape.inputType,
                          128),
      SmemBufferType::get(ctx, kStagingSlotsPerWarp * kEpilogueWarps,
                          kStoreBoxRows, shape.epilogueCols, shape.outputType,
                          128),
      SmemBufferType::get(ctx, 1, 1, 1, IntegerType::get(ctx, 32), 0)};
  if (shape.usesClc())
    objects.push_back(SmemBufferType::get(ctx, kClcStages, 1, 4,
                                          IntegerType::get(ctx, 32), 0));
  // Both CTAs of an MMA pair arrive on the leader's full barriers; the
  // leader's epilogue-empty barriers count both CTAs' epilogue warps.
  objects.push_back(PipelineType::get(ctx, shape.stages,
                                      /*producers=*/shape.ctaGroup,
                                      shape.releasersPerStage()));
  objects.push_back(PipelineType::get(ctx, shape.accumStages, /*producers=*/1,
                                      kEpilogueWarps * shape.ctaGroup));
  if (shape.usesClc())
    objects.push_back(
        PipelineType::get(ctx, kClcStages, /*producers=*/1,
                          kClcReadersPerCta * shape.clusterSize()));
  return objects;
}

FailureOr<KernelShape> planKernel(MatmulOp op) {
  ConfigAttr config = op.getConfig();
  KernelShape shape;
  static_cast<TileGeometry &>(shape) = getTileGeometry(op);
  shape.scheduler = config.getScheduler();
  shape.accumStages = config.getAccumStages();
  if (shape.bn % shape.epilogueCols != 0)
    return op.emitOpError("tile N of ")
               << shape.bn << " is not a multiple of the " << shape.epilogueCols
               << "-column (128-byte) epilogue sub-tile",
           failure();
  MLIRContext *ctx = op.getContext();
  auto smemBytes = [&] {
    return SmemPlanOp::getTotalBytes(getSmemObjects(ctx, shape));
  };
  if (shape.stages == 0) {
    // The deepest ring that fits.
    shape.stages = 2;
    while (true) {
      ++shape.stages;
      if (smemBytes() > SmemPlanOp::kMaxBytes) {
        --shape.stages;
        break;
      }
    }
  }
  // A stage count given in the config that no plan could hold (a stage is
  // 16 KB or more) is refused before the plan is computed: its buffers and
  // pipeline could not even be typed (at most 1024 pipeline stages), and
  // its byte count would overflow.
  if (shape.stages > 1024)
    return op.emitOpError("a ring of ")
               << shape.stages << " stages of " << shape.stageBytes()
               << " bytes does not fit the " << SmemPlanOp::kMaxBytes
               << "-byte (227 KB) shared-memory budget: use fewer stages, a "
                  "smaller k_group or a narrower tile",
           failure();
  if (int64_t bytes = smemBytes(); bytes > SmemPlanOp::kMaxBytes)
    return op.emitOpError("a ring of ")
               << shape.stages << " stages of " << shape.stageBytes()
               << " bytes needs " << bytes
               << " bytes of shared memory with the epilogue's staging, over "
                  "the "
               << SmemPlanOp::kMaxBytes
               << "-byte (227 KB) budget: use fewer stages, a smaller k_group "
                  "or a narrower tile",
           failure();
  return shape;
}

/// Builds the SM100 kernel body; one member per part of the kernel.
class SM100KernelBuilder : public KernelBuilder {
public:
  SM100KernelBuilder(OpBuilder &b, Location loc, const KernelShape &shape,
                     MatmulOp matmul)
      : KernelBuilder(b, loc, shape), shape(shape), matmul(matmul) {}

  void build(gpu::GPUFuncOp func);

private:
  /// Runs `body(unit, count)` for every tile unit of this CTA, numbered by
  /// `count` = 0, 1, ...: the static persistent schedule, or under cluster
  /// launch control the CTA's own unit and then those of the clusters the
  /// scheduler cancelled, until it reports none. A role of one thread
  /// releases each CLC response itself; a whole warp (`wholeWarp`)
  /// releases it from lane 0 once every lane has read it. Returns the
  /// number of units processed.
  Value forEachUnit(bool wholeWarp,
                    function_ref<void(Value unit, Value count)> body);
  void buildLoad(Region &region);
  void buildMma(Region &region);
  void buildScheduler(Region &region);
  void buildEpilogue(Region &region);
  void syncWarp() { NVVM::SyncWarpOp::create(b, loc, i32(-1)); }
  /// Arrives once on a slot's empty barrier of `pipeline`, in CTA `target`
  /// of the cluster (an i32 rank), or in this CTA when `target` is null.
  void release(Value pipeline, Value iteration, Value target);

  const KernelShape &shape;
  MatmulOp matmul;

  Value lane, warp, isPairLeader, kGroups;
  Value ringA, ringB, staging, addressSlot, responses;
  Value ring, accumulators, schedule;
  /// The TMEM accumulator ring.
  Value tmem;
};

void SM100KernelBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  MLIRContext *ctx = b.getContext();
  auto plan = SmemPlanOp::create(b, loc, getSmemObjects(ctx, shape));
  unsigned next = 0;
  ringA = plan.getResult(next++);
  ringB = plan.getResult(next++);
  staging = plan.getResult(next++);
  addressSlot = plan.getResult(next++);
  if (shape.usesClc())
    responses = plan.getResult(next++);
  ring = plan.getResult(next++);
  accumulators = plan.getResult(next++);
  if (shape.usesClc())
    schedule = plan.getResult(next++);

  readKernelArguments(entry);
  warp = div(tid, i32(32));
  lane = rem(tid, i32(32));
  auto tmemType =
      TmemType::get(ctx, shape.accumStages, shape.bm, shape.bn, b.getF32Type());
  int64_t columns = tmemType.getAllocColumns();
  IntegerAttr columnsAttr = b.getI64IntegerAttr(columns);
  IntegerAttr groupAttr = b.getI64IntegerAttr(shape.ctaGroup);
  // The MMA warp owns the tensor memory: it allocates it here and frees it
  // at the end. Giving up the allocation permit right away lets a CTA of a
  // later cluster on this SM allocate (and wait) instead of failing.
  ifThen(eq(warp, i32(1)), [&] {
    TmemAllocOp::create(b, loc, addressSlot, columnsAttr, groupAttr);
    TmemRelinquishOp::create(b, loc, groupAttr);
  });
  ifThen(eq(tid, i32(0)), [&] {
    PipelineInitOp::create(b, loc, ring);
    PipelineInitOp::create(b, loc, accumulators);
    if (schedule)
      PipelineInitOp::create(b, loc, schedule);
    if (shape.clusterSize() > 1)
      NVVM::FenceMbarrierInitOp::create(b, loc);
    for (Value desc : {descA, descB, descC})
      TmaPrefetchDescriptorOp::create(b, loc, desc);
  });
  // Barrier init and the TMEM address must be visible to every thread (of
  // every CTA of the cluster, for multicast, remote arrivals and the MMA
  // pair's shared tensor memory) before use; the tcgen05 fences order the
  // alloc around the synchronisation.
  TmemFenceOp::create(b, loc, TmemFence::before_thread_sync);
  if (shape.clusterSize() > 1)
    syncCluster();
  else
    gpu::BarrierOp::create(b, loc);
  TmemFenceOp::create(b, loc, TmemFence::after_thread_sync);
  tmem = TmemAddressOp::create(b, loc, tmemType, addressSlot);
  computeSchedule();
  if (shape.ctaGroup > 1)
    isPairLeader = eq(pairIndex, i32(0));
  kGroups = arith::CeilDivUIOp::create(b, loc, kBlocks, i32(shape.kGroup));

  auto roles = WarpRolesOp::create(b, loc, b.getI64IntegerAttr(kEpilogueWarps));
  buildLoad(roles.getLoad());
  buildMma(roles.getMma());
  buildScheduler(roles.getScheduler());
  buildEpilogue(roles.getEpilogue());

  b.setInsertionPointAfter(roles);
  // Every tcgen05.ld of the epilogue is done once all warps are here.
  gpu::BarrierOp::create(b, loc);
  ifThen(eq(warp, i32(1)), [&] {
    TmemFenceOp::create(b, loc, TmemFence::after_thread_sync);
    TmemDeallocOp::create(b, loc, tmem, columnsAttr, groupAttr);
  });
  // No CTA may exit while a peer can still multicast into its shared memory
  // or arrive on its barriers.
  if (shape.clusterSize() > 1)
    syncCluster();
}

void SM100KernelBuilder::release(Value pipeline, Value iteration,
                                 Value target) {
  if (!target) {
    ConsumerReleaseOp::create(b, loc, pipeline, iteration, Value(),
                              IntegerAttr());
    return;
  }
  ConsumerReleaseOp::create(b, loc, pipeline, iteration,
                            arith::ShLIOp::create(b, loc, i32(1), target),
                            b.getI64IntegerAttr(shape.clusterSize()));
}

Value SM100KernelBuilder::forEachUnit(
    bool wholeWarp, function_ref<void(Value unit, Value count)> body) {
  if (!shape.usesClc())
    return forEachStaticUnit(body);
  Type i32Type = b.getI32Type();
  auto loop = scf::WhileOp::create(b, loc, TypeRange{i32Type, i32Type},
                                   ValueRange{clusterId, i32(0)});
  OpBuilder::InsertionGuard guard(b);
  Block *before =
      b.createBlock(&loop.getBefore(), {}, {i32Type, i32Type}, {loc, loc});
  Value unit = before->getArgument(0), count = before->getArgument(1);
  body(unit, count);
  // Response `count` names the unit after this one, or none.
  ConsumerWaitOp::create(b, loc, schedule, count);
  auto answer =
      ClcQueryOp::create(b, loc, b.getI1Type(), i32Type, i32Type, i32Type,
                         responses, rem(count, i32(kClcStages)));
  // The scheduler of cluster rank 0 refills the response slot in every CTA
  // of the cluster, so every reader releases it there.
  Value issuer = shape.clusterSize() > 1 ? i32(0) : Value();
  if (wholeWarp) {
    syncWarp();
    ifThen(eq(lane, i32(0)), [&] { release(schedule, count, issuer); });
  } else {
    release(schedule, count, issuer);
  }
  // The cancelled cluster's first CTA is at x = unit * cluster size.
  Value nextUnit = div(answer.getX(), i32(shape.clusterSize()));
  scf::ConditionOp::create(b, loc, answer.getValid(),
                           ValueRange{nextUnit, add(count, i32(1))});
  Block *after =
      b.createBlock(&loop.getAfter(), {}, {i32Type, i32Type}, {loc, loc});
  scf::YieldOp::create(b, loc, after->getArguments());
  return loop.getResult(1);
}

void SM100KernelBuilder::buildLoad(Region &region) {
  b.setInsertionPointToStart(b.createBlock(&region));
  // One thread issues every TMA load of the CTA.
  ifThen(eq(lane, i32(0)), [&] {
    Value units = forEachUnit(/*wholeWarp=*/false, [&](Value unit,
                                                       Value count) {
      auto [originM, originN] = tileOrigin(unit);
      Value first = mul(count, kGroups);
      auto groups = scf::ForOp::create(b, loc, i32(0), kGroups, i32(1));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(groups.getBody());
      Value group = groups.getInductionVar();
      loadStage(ring, ringA, ringB, add(first, group), group, originM, originN);
    });
    // Wait until the MMA issuers freed the last stages: their commits
    // arrive asynchronously, and the CTA must outlive every arrival on its
    // barriers.
    Value end = mul(units, kGroups);
    auto tail =
        scf::ForOp::create(b, loc, end, add(end, i32(shape.stages)), i32(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tail.getBody());
    ProducerAcquireOp::create(b, loc, ring, tail.getInductionVar());
  });
  YieldOp::create(b, loc);
}

void SM100KernelBuilder::buildMma(Region &region) {
  b.setInsertionPointToStart(b.createBlock(&region));
  // An MMA pair's leader issues the MMAs of both CTAs; the other CTA's MMA
  // thread only follows the schedule.
  Value emptyMask = releaseMask ? toMask(releaseMask) : Value();
  Value pairMask =
      shape.ctaGroup == 1
          ? Value()
          : toMask(arith::ShLIOp::create(
                b, loc, i32((int64_t(1) << shape.ctaGroup) - 1), pairLeader));
  ifThen(eq(lane, i32(0)), [&] {
    forEachUnit(/*wholeWarp=*/false, [&](Value unit, Value count) {
      auto issue = [&] {
        Value stage = rem(count, i32(shape.accumStages));
        // The epilogue must have drained this accumulator stage.
        ProducerAcquireOp::create(b, loc, accumulators, count);
        TmemFenceOp::create(b, loc, TmemFence::after_thread_sync);
        Value first = mul(count, kGroups);
        auto groups = scf::ForOp::create(b, loc, i32(0), kGroups, i32(1));
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(groups.getBody());
          Value kGroup = groups.getInductionVar();
          Value iteration = add(first, kGroup);
          ConsumerWaitOp::create(b, loc, ring, iteration);
          Value slot = rem(iteration, i32(shape.stages));
          if (shape.kGroup > 1)
            slot = mul(slot, i32(shape.kGroup));
          // The tile's first MMA overwrites the accumulator.
          Value notFirst = ne(kGroup, i32(0));
          Value always = arith::ConstantIntOp::create(b, loc, 1, 1);
          for (int64_t i = 0; i < shape.kGroup; ++i)
            MmaSm100Op::create(b, loc, ringA, ringB,
                               i == 0 ? slot : add(slot, i32(i)), tmem, stage,
                               i == 0 ? notFirst : always,
                               b.getI64IntegerAttr(shape.ctaGroup));
          // The slot is free once these MMAs completed, in every CTA whose
          // loads fill it.
          MmaSm100CommitOp::create(
              b, loc, ring, iteration,
              PipelineBarrierAttr::get(b.getContext(), PipelineBarrier::empty),
              emptyMask, b.getI64IntegerAttr(shape.ctaGroup));
        }
        MmaSm100CommitOp::create(
            b, loc, accumulators, count,
            PipelineBarrierAttr::get(b.getContext(), PipelineBarrier::full),
            pairMask, b.getI64IntegerAttr(shape.ctaGroup));
      };
      if (shape.ctaGroup == 1)
        issue();
      else
        ifThen(isPairLeader, issue);
    });
  });
  YieldOp::create(b, loc);
}

void SM100KernelBuilder::buildScheduler(Region &region) {
  b.setInsertionPointToStart(b.createBlock(&region));
  if (shape.usesClc()) {
    ifThen(eq(lane, i32(0)), [&] {
      Type i32Type = b.getI32Type();
      auto loop =
          scf::WhileOp::create(b, loc, TypeRange{i32Type}, ValueRange{i32(0)});
      OpBuilder::InsertionGuard guard(b);
      Block *before = b.createBlock(&loop.getBefore(), {}, {i32Type}, {loc});
      Value count = before->getArgument(0);
      Value slot = rem(count, i32(kClcStages));
      bool cluster = shape.clusterSize() > 1;
      // Cluster rank 0 asks for the whole cluster: the response and its 16
      // transaction bytes land in every CTA, whose scheduler each arms its
      // own full barrier for them.
      Value isIssuer = eq(rank, i32(0));
      auto ask = [&] { ProducerAcquireOp::create(b, loc, schedule, count); };
      if (cluster)
        ifThen(isIssuer, ask);
      else
        ask();
      ProducerCommitOp::create(b, loc, schedule, count, b.getI64IntegerAttr(16),
                               IntegerAttr());
      auto cancel = [&] {
        ClcTryCancelOp::create(b, loc, responses, slot, schedule, count,
                               cluster ? b.getUnitAttr() : UnitAttr());
      };
      if (cluster)
        ifThen(isIssuer, cancel);
      else
        cancel();
      // The scheduler reads its own answer too: after the first failed
      // request it must not ask again.
      ConsumerWaitOp::create(b, loc, schedule, count);
      auto answer = ClcQueryOp::create(b, loc, b.getI1Type(), i32Type, i32Type,
                                       i32Type, responses, slot);
      release(schedule, count, cluster ? i32(0) : Value());
      scf::ConditionOp::create(b, loc, answer.getValid(),
                               ValueRange{add(count, i32(1))});
      Block *after = b.createBlock(&loop.getAfter(), {}, {i32Type}, {loc});
      scf::YieldOp::create(b, loc, after->getArguments());
    });
  }
  YieldOp::create(b, loc);
}

void SM100KernelBuilder::buildEpilogue(Region &region) {
  Block *body = b.createBlock(&region, {}, {b.getI32Type()}, {loc});
  b.setInsertionPointToStart(body);
  Value epilogueWarp = body->getArgument(0);
  // Warp w may only read TMEM lane quarter w mod 4: those are its rows.
  Value quarterRow =
      mul(rem(add(epilogueWarp, i32(WarpRolesOp::kFirstEpilogueWarp)), i32(4)),
          i32(kStoreBoxRows));
  Value firstSlot = mul(epilogueWarp, i32(kStagingSlotsPerWarp));
  Value isLane0 = eq(lane, i32(0));
  int64_t blocks = shape.bn / shape.epilogueCols;
  // Both CTAs of an MMA pair tell the leader's MMA thread.
  Value accumulatorOwner = shape.ctaGroup == 1 ? Value() : pairLeader;
  forEachUnit(/*wholeWarp=*/true, [&](Value unit, Value count) {
    auto [originM, originN] = tileOrigin(unit);
    ConsumerWaitOp::create(b, loc, accumulators, count);
    TmemFenceOp::create(b, loc, TmemFence::after_thread_sync);
    Value stage = rem(count, i32(shape.accumStages));
    Value staged = mul(count, i32(blocks));
    for (int64_t block = 0; block < blocks; ++block) {
      Value slot = add(firstSlot,
                       rem(add(staged, i32(block)), i32(kStagingSlotsPerWarp)));
      // The slot written two sub-tiles ago must have been read by its TMA
      // store before it is overwritten.
      ifThen(isLane0, [&] {
        TmaStoreWaitOp::create(b, loc,
                               b.getI64IntegerAttr(kStagingSlotsPerWarp - 1),
                               b.getUnitAttr());
      });
      syncWarp();
      auto store = TmemStoreSmemOp::create(
          b, loc, tmem, stage, b.getI64IntegerAttr(block * shape.epilogueCols),
          staging, slot);
      if (!matmul.getEpilogue().empty()) {
        IRMapping mapping;
        matmul.getEpilogue().cloneInto(&store.getEpilogue(), mapping);
      }
      // Generic-proxy writes must be visible to the TMA (async proxy).
      NVVM::FenceProxyOp::create(
          b, loc,
          NVVM::ProxyKindAttr::get(b.getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(b.getContext(),
                                     NVVM::SharedSpace::shared_cta));
      syncWarp();
      if (block == blocks - 1) {
        // The stage's last tcgen05.ld is done in every lane: the MMA may
        // overwrite it.
        TmemFenceOp::create(b, loc, TmemFence::before_thread_sync);
        ifThen(isLane0,
               [&] { release(accumulators, count, accumulatorOwner); });
      }
      ifThen(isLane0, [&] {
        Value column = add(originN, i32(block * shape.epilogueCols));
        TmaStoreOp::create(b, loc, descC, column, add(originM, quarterRow),
                           /*batch=*/Value(), staging, slot, /*row=*/Value());
        TmaStoreCommitOp::create(b, loc);
      });
    }
  });
  // Stores must have completed, not only read shared memory, before exit.
  ifThen(isLane0, [&] {
    TmaStoreWaitOp::create(b, loc, b.getI64IntegerAttr(0), UnitAttr());
  });
  YieldOp::create(b, loc);
}

struct GemmMaterializeSM100Pass
    : public mlir::gemm::impl::GemmMaterializeSM100Base<
          GemmMaterializeSM100Pass> {
  void runOnOperation() override {
    auto materialize =
        [](MatmulOp matmul) -> FailureOr<bundle::KernelManifest> {
      FailureOr<KernelShape> shape = planKernel(matmul);
      if (failed(shape))
        return failure();
      Location loc = matmul.getLoc();
      OpBuilder b(matmul);
      bundle::KernelManifest manifest =
          buildKernel(b, loc, *shape, Arch::sm_100a, shape->threads(),
                      kStoreBoxRows, [&](gpu::GPUFuncOp func) {
                        SM100KernelBuilder(b, loc, *shape, matmul).build(func);
                      });
      // Cluster launch control hands out the tiles of clusters that were
      // launched but have not started: the grid has one cluster per unit.
      if (shape->usesClc())
        manifest.grid = bundle::GridPolicy::Tiles;
      return manifest;
    };
    if (failed(materializeMatmuls(getOperation(), Arch::sm_100a, materialize)))
      signalPassFailure();
  }
};

} // namespace
