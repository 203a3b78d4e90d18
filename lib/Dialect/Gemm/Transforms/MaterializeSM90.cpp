//===- MaterializeSM90.cpp - gemm.matmul to an SM90 kernel ---------------===//
//
// Builds the persistent, warp-specialized TMA + WGMMA kernel of an sm_90a
// gemm.matmul in gemm kernel ops. docs/SM90.md describes the kernel and its
// synchronisation; this file is the single place that decides its shape.
//
//===----------------------------------------------------------------------===//

#include "DirectKernel.h"
#include "KernelBuilder.h"
#include "QuantBuilder.h"
#include "gemm/Bundle/StreamK.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMMATERIALIZESM90
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kProducerRegisters = 40;
/// setmaxnreg budgets of the consumers: two take what the producer leaves,
/// three share it ((65536 / 128 - 40) / 3, rounded down to 8).
constexpr int64_t kConsumerRegisters = 232;
constexpr int64_t kThreeConsumerRegisters = 152;
/// Rows of one staging slot and TMA store box: one 64-row WGMMA atom.
constexpr int64_t kStoreBoxRows = 64;
/// Rows of one A box of a tile that reaches past M: a 64-row tile's (the
/// tiles of small M: M = 16 loads one box of four), and a taller tile's,
/// one consumer's rows (smaller boxes cost more than they save there:
/// bench/results/2026-11-29-h200-edge-rows).
constexpr int64_t kSmallTileABoxRows = 16;
constexpr int64_t kTallTileABoxRows = 64;
/// Split-K and stream-K: the epilogue sub-tiles of one partial tile whose
/// values the last arriver loads together. Each load of a partial waits out
/// an L2 round trip; two sub-tiles halve the round trips and still fit the
/// registers (four spill in clusters).
constexpr int64_t kPartialSubTilesPerLoad = 2;

/// Everything the SM90 kernel's shape depends on, derived once from the
/// matmul.
struct KernelShape : TileGeometry {
  Schedule schedule;
  /// Element types, scales and fp8 accumulation (QuantBuilder.h).
  QuantPlan quant;
  bool streamK = false;
  /// Consumer warpgroups and the accumulator rows each one owns.
  int64_t consumers, accRows;
  /// Consumers that read each stage (cooperative: all; pingpong: one).
  int64_t readersPerStage;
  /// WGMMA groups left in flight when a stage is released (1: the previous
  /// k-block's stage goes back while the current k-block's MMAs run; at most
  /// 1 in promoted fp8 mainloops).
  int64_t wgmmaLookahead = 1;
  /// TMA-store staging slots per consumer warpgroup (2: one is written while
  /// the previous one drains to global memory).
  int64_t storeSlots = 2;
  /// fp8 promotion every k-block with the next k-block's MMAs in flight
  /// while the previous k-block's partial sums are promoted (two partial
  /// accumulators besides the f32 one; where the three fit the budget).
  bool overlapPromotion = false;
  /// fp8 promotion in column slices (bundle::AccumulatorPlan): each
  /// k-block's MMAs of one slice of the tile's columns are completed and
  /// promoted before the next slice's are issued.
  int64_t promoteSlices = 1;

  int64_t threads() const { return kWarpgroupThreads * (1 + consumers); }
  /// Block-wise fp8: the A scales of each k-block come with its stage,
  /// copied into a ring of their own by the producer warpgroup's second warp
  /// (gemm.scale.stage), and the consumers read them from shared memory:
  /// global loads issued by the consumer warps, whose issue slots bound
  /// this kernel, cost about a tenth of its speed
  /// (bench/results/2026-11-28-h200-blockfp8-profile).
  bool stagesScales() const { return quant.blockwise(); }
  /// One slot of the scale ring: an f32 scale per row of the tile.
  int64_t scaleSlotBytes() const { return stagesScales() ? bm * 4 : 0; }
  /// Shared memory per pipeline stage: the TMA boxes and the staged scales.
  int64_t ringStageBytes() const { return stageBytes() + scaleSlotBytes(); }
  /// The threads of a consumer warpgroup that release each stage it read:
  /// its leader where only its WGMMAs read the stage (their completion,
  /// which the leader waits for, covers every warp's); every thread where
  /// each also reads the staged scales, each after its own reads (its
  /// arrival releases them; a warp or named barrier before one thread's
  /// arrival orders them too, but compute-sanitizer racecheck reports that
  /// as a race: bench/probes/racecheck-cp-async-mbarrier.cu).
  int64_t releasingThreads() const {
    return stagesScales() ? kWarpgroupThreads : 1;
  }
  int64_t consumerRegisters() const {
    return consumers == 3 ? kThreeConsumerRegisters : kConsumerRegisters;
  }
  /// Tiles whose k-blocks several CTAs compute: split-K or stream-K.
  bool sharesTiles() const { return splits > 1 || streamK; }
  /// The consumers that hold a part of one tile's accumulator (cooperative:
  /// each its rows; pingpong: one, the whole tile). Each partial tile is one
  /// block per part, and each part of a tile has an arrival counter.
  int64_t parts() const {
    return schedule == Schedule::cooperative ? consumers : 1;
  }
  /// The epilogue sub-tiles the last arriver of a shared tile adds the
  /// partials of at once (buildEpilogue's subTilesPerAdd): the values it
  /// loads together stay those of kPartialSubTilesPerLoad sub-tiles of one
  /// partial. Stream-K loads its workers' partials one at a time; split-K
  /// loads the other splits' at once, so only a tile of two splits (one
  /// other partial, the most common split) takes two sub-tiles at a time
  /// (bench/results/2026-11-29-h200-small-latency: each load's round trip
  /// costs a split-K tile about 0.35 us).
  int64_t subTilesPerAdd() const {
    int64_t partialsPerLoad = streamK ? 1 : std::max<int64_t>(1, splits - 1);
    return std::max<int64_t>(1, kPartialSubTilesPerLoad / partialsPerLoad);
  }
  /// Stream-K: two partial tiles per CTA, those of the first and the last
  /// unit of its share (the units in between are whole).
  int64_t partialBytesPerCta() const { return 2 * bm * bn * 4; }
  int64_t stagingBytes() const {
    return storeSlots * consumers * kStoreBoxRows * 128;
  }
  /// The epilogue's sub-tiles of 128-byte columns; the last one may be
  /// narrower, whole 8-column groups of the WGMMA fragment (a column-major
  /// C's: lines of its boxes; a row-major C's: narrowCColumns-wide boxes).
  int64_t subTiles() const { return llvm::divideCeil(bn, epilogueCols); }
  int64_t subTileColumns(int64_t block) const {
    return std::min(epilogueCols, bn - block * epilogueCols);
  }
  static constexpr int64_t narrowSubTileStep() { return 8; }
  /// Lines of a column-major C's TMA store box: every sub-tile is a whole
  /// number of them (one box of W lines when N is a multiple of W).
  int64_t storeBoxLines() const { return std::gcd(bn, epilogueCols); }
};

/// The kernel's shared-memory plan: the A and B rings, the epilogue's
/// staging, the scale ring (block-wise), the ring's barriers and, for
/// pingpong, the consumers' order.
SmallVector<Type> getSmemObjects(MLIRContext *ctx, const KernelShape &shape) {
  auto major = [](bool mnMajor) { return mnMajor ? Major::mn : Major::k; };
  SmallVector<Type> objects = {
      SmemBufferType::get(ctx, shape.stages, shape.bm, shape.bk,
                          shape.inputType, 128, major(shape.aMNMajor)),
      SmemBufferType::get(ctx, shape.stages, shape.bn, shape.bk,
                          shape.inputTypeB, 128, major(shape.bMNMajor)),
      SmemBufferType::get(ctx, shape.storeSlots * shape.consumers,
                          kStoreBoxRows, shape.epilogueCols, shape.outputType,
                          128)};
  // The TMA thread arrives on each full barrier, and so do the 32 lanes of
  // the warp that stages the scales.
  int64_t producers = 1;
  if (shape.stagesScales()) {
    objects.push_back(SmemBufferType::get(ctx, shape.stages, 1, shape.bm,
                                          Float32Type::get(ctx), 0));
    producers += ScaleStageOp::kArrivals;
  }
  objects.push_back(
      PipelineType::get(ctx, shape.stages, producers,
                        shape.readersPerStage * shape.releasersPerStage() *
                            shape.releasingThreads()));
  if (shape.schedule == Schedule::pingpong)
    objects.push_back(PipelineType::get(ctx, shape.consumers, /*producers=*/1,
                                        /*consumers=*/1));
  return objects;
}

FailureOr<KernelShape> planKernel(MatmulOp op, int64_t wgmmaLookahead,
                                  int64_t storeSlots) {
  KernelShape shape;
  static_cast<TileGeometry &>(shape) = getTileGeometry(op);
  shape.storeSlots = storeSlots;
  shape.schedule = op.getConfig().getSchedule();
  shape.streamK = op.getConfig().getScheduler() == TileScheduler::stream_k;
  shape.quant = planQuant(op);
  // Promoted fp8 mainloops keep at most one group in flight: a group's
  // partial sums are read once the group is complete.
  shape.wgmmaLookahead = shape.quant.promote
                             ? std::min<int64_t>(wgmmaLookahead, 1)
                             : wgmmaLookahead;
  // A tile whose last rows lie past M loads A in boxes of 16 rows (64-row
  // tiles, which serve M <= 64) or of 64 and skips those past M
  // (TileGeometry::aBoxesPerSlice). With A multicast a skipped box's bytes
  // would have to be completed in the other CTAs' barriers, so those keep
  // one box.
  // An M-major A has M along the box's inner dimension: the rows past M
  // are the ends of its lines, not whole lines, and a box narrower than the
  // 128-byte span would not land in the swizzled block layout.
  // A grouped kernel's tiles end at their group's rows, not at M: its A
  // boxes are whole (rows past the group are the next group's, unused).
  // An fp8 output's amax takes every row of the tile (the store clips the
  // rows past M from C, the amax does not see M): those rows must be the
  // zeros whole boxes load, not what a skipped box leaves in the slot (a
  // previous tile's rows, or never-written shared memory: NaN amaxes on the
  // H200, bench/results/2026-11-24-h200-python-full).
  if (shape.clusterN == 1 && !shape.aMNMajor && !shape.grouped &&
      !shape.quant.fp8Output)
    shape.aBoxesPerSlice =
        shape.bm / (shape.bm == 64 ? kSmallTileABoxRows : kTallTileABoxRows);
  if (shape.schedule == Schedule::cooperative) {
    if (shape.bm < 128)
      return op.emitOpError("the cooperative schedule splits the tile's rows "
                            "between two consumer warpgroups and needs tile "
                            "M >= 128; use schedule = pingpong for 64-row "
                            "tiles"),
             failure();
    // 64-row atoms per consumer: 192 rows take three consumers.
    shape.consumers = shape.bm == 192 ? 3 : 2;
    shape.accRows = shape.bm / shape.consumers;
    shape.readersPerStage = shape.consumers;
  } else {
    shape.consumers = 2;
    shape.accRows = shape.bm;
    shape.readersPerStage = 1;
  }
  if (shape.accRows % 64 != 0)
    return op.emitOpError("each consumer warpgroup needs a multiple of 64 "
                          "rows, got ")
               << shape.accRows,
           failure();
  // The last sub-tile may be narrower: a column-major C's boxes have fewer
  // lines (each still 128 bytes of M); a row-major C's is staged packed and
  // stored through a second, unswizzled C descriptor of narrower boxes
  // (a grouped kernel's C descriptors are its groups', which have no such
  // twin). Its tensor, row and column scales cover its own columns; block
  // scales (per 128 columns of B) and an fp8 output's amax and output
  // scale take whole sub-tiles.
  if (shape.bn % shape.epilogueCols != 0) {
    bool wholeSubTiles = shape.quant.scaleA == ScaleMode::block ||
                         shape.quant.scaleB == ScaleMode::block ||
                         shape.quant.fp8Output;
    if (wholeSubTiles || shape.grouped ||
        shape.bn % shape.narrowSubTileStep() != 0)
      return op.emitOpError("tile N of ")
                 << shape.bn << " is not a multiple of the "
                 << shape.epilogueCols << "-column (128-byte) epilogue sub-tile"
                 << (wholeSubTiles
                         ? " (a narrower last sub-tile takes no block scales "
                           "and no fp8 output)"
                     : shape.grouped
                         ? " (grouped kernels store whole sub-tiles)"
                         : " nor of " +
                               std::to_string(shape.narrowSubTileStep())),
             failure();
    if (!shape.cColumns)
      shape.narrowCColumns = shape.bn % shape.epilogueCols;
  }
  // Register budget of the WGMMA accumulators: (accRows / 64) atoms of
  // bn / 2 f32 registers each must leave room for addresses and the
  // epilogue within the consumers' setmaxnreg budget. Promoting fp8 partial
  // sums holds them beside the f32 accumulator, the whole tile's or (192
  // rows) one column slice's (bundle::accumulatorPlan).
  bundle::AccumulatorPlan registers =
      shape.quant.accumulatorPlan(shape.accRows, shape.bn, shape.consumers);
  if (!registers.fits())
    return op.emitOpError("a consumer warpgroup would hold ")
               << registers.registers << " accumulator registers per thread"
               << (shape.quant.promote
                       ? " (the WGMMA partial sums and the f32 accumulator "
                         "they are promoted into)"
                       : "")
               << "; at most " << registers.maxRegisters << " fit the "
               << shape.consumerRegisters()
               << "-register budget: use a smaller tile"
               << (shape.consumers == 3  ? " (192 rows take tile N <= 192, "
                                           "or 128 with promoted fp8)"
                   : shape.quant.promote ? " (e.g. 128x192 cooperative) or "
                                           "accumulate = fast"
                                         : " or the cooperative schedule"),
           failure();
  shape.promoteSlices = registers.promoteSlices;
  // Promoting every k-block after `wgmma.wait_group 0` would leave this
  // warpgroup's tensor-core work idle from the end of its MMAs to the issue
  // of the next k-block's (the wait, the promotion, the stage's barrier);
  // with a second partial accumulator the next k-block's MMAs are issued
  // before the previous k-block's sums are promoted (wait_group 1), as the
  // plain mainloop keeps one group in flight. Three accumulators must fit
  // the promoted budget (128x128 cooperative, 64x128 pingpong); wider tiles
  // keep the serial promotion.
  shape.overlapPromotion =
      shape.quant.promote && shape.quant.promoteEvery == 1 &&
      3 * (shape.accRows / 64) * (shape.bn / 2) <= registers.maxRegisters;
  if (shape.stages == 0) {
    int64_t ring = SmemPlanOp::kMaxBytes - shape.stagingBytes() -
                   bundle::SmemBarrierReserveBytes;
    // The matmul verifier bounds a stage to 64 KB, so at least 2 fit.
    shape.stages = ring / shape.ringStageBytes();
  }
  // The consumer holds the stages of the k-blocks in flight and the one it
  // waits for: a ring of no more stages would never be refilled.
  if (shape.stages <= shape.wgmmaLookahead)
    return op.emitOpError("a ring of ")
               << shape.stages << " stages cannot keep " << shape.wgmmaLookahead
               << " WGMMA groups in flight: use more stages (0 derives the "
                  "deepest ring that fits) or a smaller wgmma-lookahead",
           failure();
  // A stage count given in the config must fit too (the ring alone is
  // compared first: a huge count would overflow the plan's byte count).
  if (shape.stages > SmemPlanOp::kMaxBytes / shape.ringStageBytes() ||
      SmemPlanOp::getTotalBytes(getSmemObjects(op.getContext(), shape)) >
          SmemPlanOp::kMaxBytes)
    return op.emitOpError("a ring of ")
               << shape.stages << " stages of " << shape.ringStageBytes()
               << " bytes does not fit the " << SmemPlanOp::kMaxBytes
               << "-byte (227 KB) shared-memory budget with the epilogue's "
                  "staging: use fewer stages (0 derives the deepest ring "
                  "that fits) or a smaller tile",
           failure();
  return shape;
}

/// Builds the SM90 kernel body; one member per part of the kernel.
class SM90KernelBuilder : public KernelBuilder {
public:
  SM90KernelBuilder(OpBuilder &b, Location loc, const KernelShape &shape,
                    MatmulOp matmul)
      : KernelBuilder(b, loc, shape), shape(shape), matmul(matmul),
        quant(*this, shape.quant) {}

  void build(gpu::GPUFuncOp func);

private:
  /// What one work item of the CTA computes: k-blocks [begin, end) of tile
  /// unit `unit`. Split-K: `split` is the item's range of the tile.
  /// Stream-K: `shared` (i1) tells whether the unit is one of the shared
  /// ones, `sharedUnit` is its index among them.
  struct WorkItem {
    Value unit, begin, end;
    Value split;
    Value shared, sharedUnit;
    /// General grouped kernels: where the unit is (its group decides its
    /// k-blocks, so it is looked up with the item).
    std::optional<TileLocation> located;
  };
  /// The CTA's work items: their number and, for stream-K, the schedule's
  /// plan and this CTA's share of the shared units.
  void planWorkItems();
  /// How many of the units below `units` this CTA's cluster computes in the
  /// static schedule.
  Value staticItemsBelow(Value units);
  /// Work item `item` (0, 1, ... in the CTA's order).
  WorkItem getWorkItem(Value item);
  /// Pipeline iterations of work item `item`: its k-blocks.
  Value tripsOf(Value item);

  /// The producer's loop over the CTA's work items and their k-blocks:
  /// `beginItem` (if any) at the start of each item with its tile,
  /// `loadStageOf(tile, iteration, kBlock)` for each of its k-blocks with
  /// the pipeline iteration, `endItem` (if any) after them.
  void forEachStage(
      function_ref<void(const TileLocation &)> beginItem,
      function_ref<void(const TileLocation &, Value, Value)> loadStageOf,
      function_ref<void()> endItem);
  void buildProducer(Region &region);
  void buildConsumer(Region &region);
  /// One k-block: waits for its stage, issues its MMAs into `acc` and
  /// leaves at most `lookahead` WGMMA groups in flight.
  Value issueKBlock(Value acc, Value current, int64_t lookahead, Value aRow);
  /// Block-wise (null otherwise): the A scales of the consumer's rows from
  /// the stage of `iteration`, read once its MMAs completed, just before
  /// each thread releases the stage. Read there rather than
  /// with the MMAs' issue, the promotion waits out one shared-memory load,
  /// and the kernels ran 1.5-2% faster
  /// (bench/results/2026-11-28-h200-blockfp8-staged).
  Value readStagedRowScales(Value iteration, Value aRow);
  /// Promoted fp8 in column slices (KernelShape::promoteSlices): waits for
  /// the stage of `current`, then for each slice issues the k-block's MMAs
  /// of its columns, waits for them and promotes them into `acc` (with the
  /// slice's B block scales of `scalesB`, if any); the stage is released
  /// once the last slice's MMAs completed. Returns the f32 accumulator.
  Value promoteKBlockBySlices(Value acc, Value current, Value aRow,
                              Value isReleaser, ValueRange scalesB);
  /// Mainloop over k-blocks [begin, end) of the tile at columns `originN`:
  /// returns the accumulator and the next iteration. The threads where
  /// `isReleaser` holds release each stage (KernelShape::releasingThreads).
  std::pair<Value, Value> buildMainloop(Value iteration, Value begin, Value end,
                                        Value aRow, Value isReleaser,
                                        Value originN);
  /// The mainloop of fp8 kernels that promote their partial sums into an
  /// f32 accumulator (QuantPlan::promote); `zero` is the fresh WGMMA
  /// accumulator.
  std::pair<Value, Value> buildPromotedMainloop(Value iteration, Value begin,
                                                Value end, Value aRow,
                                                Value isReleaser, Value originN,
                                                Value zero);
  /// The promoted mainloop with a k-block's MMAs in flight while the
  /// previous k-block's partial sums are promoted
  /// (KernelShape::overlapPromotion).
  std::pair<Value, Value>
  buildOverlappedPromotedMainloop(Value iteration, Value begin, Value end,
                                  Value aRow, Value isReleaser, Value originN,
                                  Value zero);
  /// Split-K and stream-K: the epilogue of a work item whose tile may be
  /// the sum of several CTAs' partial tiles; only the last of them to
  /// arrive adds the others and stores the tile. Returns the next
  /// staging-slot counter.
  Value buildSharedTileEpilogue(Value acc, const WorkItem &work, Value originM,
                                Value originN, Value batch, Value aRow,
                                Value consumer, Value staged, Value isLeader);
  /// Adds the other partial tiles' values [first, first + count) of the
  /// thread (one epilogue sub-tile) to the accumulator.
  using AddPartials =
      function_ref<Value(Value acc, int64_t first, int64_t count)>;
  /// Epilogue of one tile; returns the next staging-slot counter.
  /// `addPartials`, if given, adds the other CTAs' partial tiles to each
  /// group of `subTilesPerAdd` sub-tiles just before the first is staged.
  Value buildEpilogue(Value acc, Value originM, Value originN, Value batch,
                      Value aRow, Value consumer, Value staged, Value isLeader,
                      AddPartials addPartials = nullptr,
                      int64_t subTilesPerAdd = 1);
  /// Grouped kernels: the consumer's rows of a tile that end inside their
  /// group (at or before `rowEnd`) go through the TMA epilogue; those of a
  /// tile that crosses its group's end are written by masked plain stores
  /// (gemm.accum.store_direct), so that no row of the next group is
  /// written. Returns the next staging-slot counter.
  Value buildGroupedEpilogue(Value acc, Value originM, Value originN,
                             Value rowEnd, Value aRow, Value consumer,
                             Value staged, Value isLeader);
  /// General grouped kernels: the epilogue through the group's C tensor
  /// map, which the warpgroup's storing thread acquires first.
  Value buildGeneralEpilogue(Value acc, Value originM, Value originN,
                             Value group, Value aRow, Value consumer,
                             Value staged, Value isLeader);
  void releaseStage(Value iteration);

  const KernelShape &shape;
  MatmulOp matmul;
  /// Scales and fp8 promotion (low-precision inputs).
  QuantBuilder quant;

  Value ringA, ringB, staging, pipeline;
  /// Block-wise: the A scales of each stage (KernelShape::stagesScales).
  Value ringScales;
  /// Pingpong only: the turn order of the consumers' mainloops.
  Value mathOrder;
  /// The CTA's work items; split-K: the work units (unitCount * splits).
  Value itemCount, workUnits;
  /// Stream-K: the units computed whole (the first dpUnits), the shared
  /// ones and the CTAs sharing them, this CTA's items of whole units, and
  /// its share (gemm.sched.stream_k_share).
  Value dpUnits, sharedUnits, workers, dpItems;
  Value shareFirst, shareBegin, shareSegments, shareEnd;
};

void SM90KernelBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);

  auto plan = SmemPlanOp::create(b, loc, getSmemObjects(b.getContext(), shape));
  ringA = plan.getResult(0);
  ringB = plan.getResult(1);
  staging = plan.getResult(2);
  unsigned next = 3;
  if (shape.stagesScales())
    ringScales = plan.getResult(next++);
  pipeline = plan.getResult(next++);
  if (shape.schedule == Schedule::pingpong)
    mathOrder = plan.getResult(next);

  readKernelArguments(entry);
  ifThen(eq(tid, i32(0)), [&] {
    PipelineInitOp::create(b, loc, pipeline);
    if (mathOrder)
      PipelineInitOp::create(b, loc, mathOrder);
    if (shape.clusterSize() > 1)
      NVVM::FenceMbarrierInitOp::create(b, loc);
    // A general grouped kernel's descriptors are the groups' (its
    // parameters are only the templates the prep kernel copied).
    if (!shape.general)
      for (Value desc : {descA, descB, descC})
        TmaPrefetchDescriptorOp::create(b, loc, desc);
  });
  // Barriers must be initialised before any thread (of any CTA of the
  // cluster, for multicast and remote arrivals) uses them.
  if (shape.clusterSize() > 1)
    syncCluster();
  else
    gpu::BarrierOp::create(b, loc);
  computeSchedule();
  if (shape.sharesTiles()) {
    partials = entry.getArgument(shape.commonParams());
    counters = entry.getArgument(shape.commonParams() + 1);
  }
  // Scales follow M, N, K, the batch and the workspaces.
  quant.readArguments(entry,
                      shape.commonParams() + (shape.sharesTiles() ? 2 : 0));
  planWorkItems();

  auto roles =
      WarpSpecializeOp::create(b, loc, b.getI64IntegerAttr(shape.consumers),
                               b.getI64IntegerAttr(kProducerRegisters),
                               b.getI64IntegerAttr(shape.consumerRegisters()));
  buildProducer(roles.getProducer());
  buildConsumer(roles.getConsumer());

  b.setInsertionPointAfter(roles);
  // No CTA may exit while a peer can still multicast into its shared memory
  // or arrive on its barriers.
  if (shape.clusterSize() > 1)
    syncCluster();
}

Value SM90KernelBuilder::staticItemsBelow(Value units) {
  // Units clusterId, clusterId + clusterCount, ... below `units`.
  return div(sub(add(units, clusterCount), add(clusterId, i32(1))),
             clusterCount);
}

void SM90KernelBuilder::planWorkItems() {
  if (!shape.streamK) {
    workUnits =
        shape.splits == 1 ? unitCount : mul(unitCount, i32(shape.splits));
    itemCount = staticItemsBelow(workUnits);
    return;
  }
  Type i32Type = b.getI32Type();
  auto plan = StreamKPlanOp::create(
      b, loc, i32Type, i32Type, unitCount, clusterCount, kBlocks,
      b.getI64IntegerAttr(bundle::StreamKMaxWorkersPerUnit));
  dpUnits = plan.getDpUnits();
  workers = plan.getWorkers();
  sharedUnits = sub(unitCount, dpUnits);
  // Whole waves when units are shared; otherwise the last wave is partial.
  dpItems = staticItemsBelow(dpUnits);
  auto share =
      StreamKShareOp::create(b, loc, i32Type, i32Type, i32Type, i32Type,
                             clusterId, workers, sharedUnits, kBlocks);
  shareFirst = share.getFirstUnit();
  shareBegin = share.getBegin();
  shareSegments = share.getSegments();
  shareEnd = share.getEnd();
  itemCount = add(dpItems, shareSegments);
}

SM90KernelBuilder::WorkItem SM90KernelBuilder::getWorkItem(Value item) {
  Value staticUnit = add(clusterId, mul(item, clusterCount));
  if (shape.splits > 1) {
    // The splits of a tile are consecutive work units, so they run at about
    // the same time on neighbouring CTAs.
    Value split = rem(staticUnit, i32(shape.splits));
    auto range =
        SplitKRangeOp::create(b, loc, b.getI32Type(), b.getI32Type(), split,
                              kBlocks, b.getI64IntegerAttr(shape.splits));
    return {div(staticUnit, i32(shape.splits)), range.getBegin(),
            range.getEnd(), split};
  }
  if (shape.general) {
    TileLocation tile = locateTile(staticUnit);
    WorkItem work{staticUnit, i32(0), tile.kBlocks};
    work.located = tile;
    return work;
  }
  if (!shape.streamK)
    return {staticUnit, i32(0), kBlocks};
  // Whole units first, as in the static schedule; then the share's
  // segments: the first may start and the last end inside their units.
  Value shared =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, item, dpItems);
  Value segment = sub(item, dpItems);
  Value sharedUnit = add(shareFirst, segment);
  Value first = both(shared, eq(segment, i32(0)));
  Value last = both(shared, eq(segment, sub(shareSegments, i32(1))));
  return {select(shared, add(dpUnits, sharedUnit), staticUnit),
          select(first, shareBegin, i32(0)),
          select(last, shareEnd, kBlocks),
          Value(),
          shared,
          sharedUnit};
}

Value SM90KernelBuilder::tripsOf(Value item) {
  if (!shape.sharesTiles() && !shape.general)
    return kBlocks;
  if (shape.general) {
    // The pingpong consumers ask for the other consumer's next item, which
    // may not exist (past the CTA's last item, or no unit at all): its unit
    // is past U, the lookup finds the last group, possibly one with M or N
    // of 0, whose tile grid divides by zero (found by the simulator). Such
    // an item has no trips and no lookup.
    Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         item, itemCount);
    auto trips = scf::IfOp::create(b, loc, b.getI32Type(), exists,
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(trips.thenBlock());
    WorkItem work = getWorkItem(item);
    scf::YieldOp::create(b, loc, sub(work.end, work.begin));
    b.setInsertionPointToStart(trips.elseBlock());
    scf::YieldOp::create(b, loc, i32(0));
    return trips.getResult(0);
  }
  WorkItem work = getWorkItem(item);
  return sub(work.end, work.begin);
}

void SM90KernelBuilder::forEachStage(
    function_ref<void(const TileLocation &)> beginItem,
    function_ref<void(const TileLocation &, Value, Value)> loadStageOf,
    function_ref<void()> endItem) {
  auto items =
      scf::ForOp::create(b, loc, i32(0), itemCount, i32(1), ValueRange{i32(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(items.getBody());
  WorkItem work = getWorkItem(items.getInductionVar());
  TileLocation tile = work.located ? *work.located : locateTile(work.unit);
  if (beginItem)
    beginItem(tile);
  auto kLoop = scf::ForOp::create(b, loc, work.begin, work.end, i32(1),
                                  items.getRegionIterArgs());
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value iteration = kLoop.getRegionIterArgs()[0];
    loadStageOf(tile, iteration, kLoop.getInductionVar());
    scf::YieldOp::create(b, loc, add(iteration, i32(1)));
  }
  if (endItem)
    endItem();
  scf::YieldOp::create(b, loc, kLoop.getResult(0));
}

void SM90KernelBuilder::buildProducer(Region &region) {
  Block *body = b.createBlock(&region);
  b.setInsertionPointToStart(body);
  // One thread issues every TMA load of the CTA.
  ifThen(eq(tid, i32(0)), [&] {
    // A general grouped kernel loads through its group's tensor maps,
    // acquired by this (the only issuing) thread.
    Value templateA = descA, templateB = descB;
    auto acquireGroupMaps = [&](const TileLocation &tile) {
      descA = groupDescriptor(tile.group, 0, /*acquire=*/true);
      descB = groupDescriptor(tile.group, 1, /*acquire=*/true);
    };
    auto restoreTemplates = [&] {
      descA = templateA;
      descB = templateB;
    };
    forEachStage(
        shape.general
            ? function_ref<void(const TileLocation &)>(acquireGroupMaps)
            : nullptr,
        [&](const TileLocation &tile, Value iteration, Value kBlock) {
          loadStage(pipeline, ringA, ringB, iteration, kBlock, tile.originM,
                    tile.originN, tile.entry);
        },
        shape.general ? function_ref<void()>(restoreTemplates) : nullptr);
  });
  // The second warp copies the A scales of the same stages, each once its
  // slot is empty, and arrives on the stage's full barrier as they land.
  if (shape.stagesScales())
    ifThen(eq(div(tid, i32(kWarpSize)), i32(1)), [&] {
      forEachStage(
          nullptr,
          [&](const TileLocation &tile, Value iteration, Value kBlock) {
            ProducerAcquireOp::create(b, loc, pipeline, iteration);
            quant.stageRowScales(kBlock, tile.originM, ringScales,
                                 rem(iteration, i32(shape.stages)), pipeline,
                                 iteration);
          },
          nullptr);
    });
  YieldOp::create(b, loc);
}

void SM90KernelBuilder::releaseStage(Value iteration) {
  if (shape.clusterSize() > 1)
    ConsumerReleaseOp::create(b, loc, pipeline, iteration, releaseMask,
                              b.getI64IntegerAttr(shape.clusterSize()));
  else
    ConsumerReleaseOp::create(b, loc, pipeline, iteration, Value(),
                              IntegerAttr());
}

Value SM90KernelBuilder::readStagedRowScales(Value iteration, Value aRow) {
  if (!shape.stagesScales())
    return Value();
  return quant.readRowScales(ringScales, rem(iteration, i32(shape.stages)),
                             aRow, shape.accRows / 64);
}

Value SM90KernelBuilder::promoteKBlockBySlices(Value acc, Value current,
                                               Value aRow, Value isReleaser,
                                               ValueRange scalesB) {
  int64_t slices = shape.promoteSlices, width = shape.bn / slices;
  auto sliceType = AccumulatorType::get(b.getContext(), shape.accRows, width,
                                        shape.quant.accType);
  // Every slice's MMAs overwrite the same partial registers (scale-d = 0).
  Value zero = AccumZeroOp::create(b, loc, sliceType);
  ConsumerWaitOp::create(b, loc, pipeline, current);
  Value slot = arith::RemUIOp::create(b, loc, current, i32(shape.stages));
  Value rowScales;
  for (int64_t slice = 0; slice < slices; ++slice) {
    WgmmaFenceOp::create(b, loc);
    Value partial =
        MmaSm90Op::create(b, loc, sliceType, zero, ringA, slot, aRow, ringB,
                          b.getI64IntegerAttr(slice * width));
    WgmmaCommitOp::create(b, loc);
    WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
    if (slice == 0)
      rowScales = readStagedRowScales(current, aRow);
    if (slice == slices - 1)
      ifThen(isReleaser, [&] { releaseStage(current); });
    // Block-wise: the B scales of the slice's columns, whole groups of
    // bundle::blockScaleColumns or inside one (accumulatorPlan).
    SmallVector<Value> scales;
    if (rowScales)
      scales.push_back(rowScales);
    if (!scalesB.empty()) {
      int64_t groupCols = shape.bn / static_cast<int64_t>(scalesB.size());
      int64_t firstGroup = slice * width / groupCols;
      int64_t groups = std::max<int64_t>(1, width / groupCols);
      llvm::append_range(scales, scalesB.slice(firstGroup, groups));
    }
    acc = quant.promote(partial, acc, scales, slice * width);
  }
  return acc;
}

Value SM90KernelBuilder::issueKBlock(Value acc, Value current,
                                     int64_t lookahead, Value aRow) {
  ConsumerWaitOp::create(b, loc, pipeline, current);
  WgmmaFenceOp::create(b, loc);
  Value slot = arith::RemUIOp::create(b, loc, current, i32(shape.stages));
  Value next =
      MmaSm90Op::create(b, loc, acc.getType(), acc, ringA, slot, aRow, ringB,
                        /*bCol=*/IntegerAttr());
  WgmmaCommitOp::create(b, loc);
  WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(lookahead));
  return next;
}

std::pair<Value, Value>
SM90KernelBuilder::buildMainloop(Value iteration, Value begin, Value end,
                                 Value aRow, Value isReleaser, Value originN) {
  auto accType = AccumulatorType::get(b.getContext(), shape.accRows, shape.bn,
                                      shape.quant.accType);
  // One k-block: wait for its stage, issue its MMAs, and leave at most
  // `wgmmaLookahead` groups in flight.
  auto issue = [&](Value acc, Value current) {
    return issueKBlock(acc, current, shape.wgmmaLookahead, aRow);
  };
  // The first k-block is peeled: its MMAs take the zero accumulator
  // directly, which the lowering turns into scale-d = 0 instead of zero
  // registers. A split-K or stream-K range may be empty.
  Value zero = AccumZeroOp::create(b, loc, accType);
  if (shape.overlapPromotion)
    return buildOverlappedPromotedMainloop(iteration, begin, end, aRow,
                                           isReleaser, originN, zero);
  if (shape.quant.promote)
    return buildPromotedMainloop(iteration, begin, end, aRow, isReleaser,
                                 originN, zero);
  Value nonEmpty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, begin, end);
  auto first = scf::IfOp::create(b, loc, TypeRange{accType, b.getI32Type()},
                                 nonEmpty, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    Value acc = issue(zero, iteration);
    if (shape.wgmmaLookahead == 0)
      ifThen(isReleaser, [&] { releaseStage(iteration); });
    scf::YieldOp::create(b, loc, ValueRange{acc, add(iteration, i32(1))});
    b.setInsertionPointToStart(first.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{zero, iteration});
  }
  const int64_t lookahead = shape.wgmmaLookahead;
  auto kLoop = scf::ForOp::create(b, loc, add(begin, i32(1)), end, i32(1),
                                  first.getResults());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value current = kLoop.getRegionIterArgs()[1];
    Value next = issue(kLoop.getRegionIterArgs()[0], current);
    // With `lookahead` groups left in flight, k-block `current - lookahead`
    // is complete, so its stage goes back to the producer while the later
    // ones run (without lookahead, this k-block's own). A lookahead past
    // the first k-block has no such stage in the range's first k-blocks.
    Value released = lookahead == 0 ? current : sub(current, i32(lookahead));
    Value releases = isReleaser;
    if (lookahead > 1)
      releases = both(isReleaser,
                      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                            kLoop.getInductionVar(),
                                            add(begin, i32(lookahead))));
    ifThen(releases, [&] { releaseStage(released); });
    scf::YieldOp::create(b, loc, ValueRange{next, add(current, i32(1))});
  }
  Value next = kLoop.getResult(1);
  if (lookahead != 0) {
    WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
    // The range's last `lookahead` stages, oldest first; a range of fewer
    // k-blocks has fewer. An empty range has none (only split-K and
    // stream-K ranges may be empty).
    Value count = lookahead > 1 ? sub(next, iteration) : Value();
    for (int64_t back = lookahead; back >= 1; --back) {
      Value releases = isReleaser;
      if (back > 1)
        releases = both(isReleaser,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                              count, i32(back)));
      else if (shape.sharesTiles())
        releases = both(isReleaser, nonEmpty);
      ifThen(releases, [&] { releaseStage(sub(next, i32(back))); });
    }
  }
  return {kLoop.getResult(0), next};
}

std::pair<Value, Value> SM90KernelBuilder::buildPromotedMainloop(
    Value iteration, Value begin, Value end, Value aRow, Value isReleaser,
    Value originN, Value zero) {
  // fp8 partial sums stay in the WGMMA accumulator for at most promoteEvery
  // k-blocks (Hopper's fp8 MMA keeps fewer bits than f32), then are added,
  // scaled by the k-block's block scales if any, into an f32 accumulator
  // (docs/LowPrecision.md). Each group of k-blocks starts a fresh WGMMA
  // accumulator: its first MMAs take the zero accumulator (scale-d = 0), so
  // only the promotion reads the partial sums. An empty range (split-K,
  // stream-K) runs no group and leaves the accumulator zero.
  int64_t every = shape.quant.promoteEvery;
  // The f32 accumulator starts as zero registers (it is no MMA operand).
  Value start = AccumZeroOp::create(b, loc, zero.getType());
  Value lastKBlock = sub(kBlocks, i32(1));
  auto loadScalesOf = [&](Value kBlock) {
    return quant.loadBlockScalesB(
        arith::MinUIOp::create(b, loc, kBlock, lastKBlock), originN, shape.bn);
  };
  SmallVector<Value> inits = {start, iteration};
  llvm::append_range(inits, loadScalesOf(begin));
  auto groups = scf::ForOp::create(b, loc, begin, end, i32(every), inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(groups.getBody());
  Value kBlock = groups.getInductionVar();
  Value current = groups.getRegionIterArgs()[1];
  // Block-wise B scales: those of this group were loaded by the previous
  // iteration (or before the loop); the next group's are issued now, before
  // this one's data is awaited, so that an L2 round trip (several hundred
  // cycles while TMA streams the operands) hides behind a whole group's wait
  // and MMAs instead of delaying this group's promotion. Past the last
  // k-block of the matrix the last one's are read again (never out of
  // bounds). The A scales come with the group's (one k-block's) stage.
  ValueRange scalesB = groups.getRegionIterArgs().drop_front(2);
  SmallVector<Value> nextScales = loadScalesOf(add(kBlock, i32(every)));
  if (shape.promoteSlices > 1) {
    // One k-block a group (accumulatorPlan slices only promote_every = 1).
    SmallVector<Value> yielded = {
        promoteKBlockBySlices(groups.getRegionIterArgs()[0], current, aRow,
                              isReleaser, scalesB),
        add(current, i32(1))};
    llvm::append_range(yielded, nextScales);
    scf::YieldOp::create(b, loc, yielded);
    return {groups.getResult(0), groups.getResult(1)};
  }
  // The first k-block of the group; its sums are read only after the
  // group's last MMAs complete.
  int64_t lookahead = every == 1 ? 0 : shape.wgmmaLookahead;
  Value partial = issueKBlock(zero, current, lookahead, aRow);
  // Block-wise groups are one k-block (promote_every = 1), complete here.
  Value rowScales = readStagedRowScales(current, aRow);
  if (lookahead == 0)
    ifThen(isReleaser, [&] { releaseStage(current); });
  Value next = add(current, i32(1));
  if (every > 1) {
    // The group's other k-blocks, as in the plain mainloop: each releases
    // the stage before it (or its own without lookahead).
    Value last = arith::MinUIOp::create(b, loc, add(kBlock, i32(every)), end);
    auto kLoop = scf::ForOp::create(b, loc, add(kBlock, i32(1)), last, i32(1),
                                    ValueRange{partial, next});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value at = kLoop.getRegionIterArgs()[1];
      Value sums =
          issueKBlock(kLoop.getRegionIterArgs()[0], at, lookahead, aRow);
      Value released =
          lookahead == 0 ? at : arith::SubIOp::create(b, loc, at, i32(1));
      ifThen(isReleaser, [&] { releaseStage(released); });
      scf::YieldOp::create(b, loc, ValueRange{sums, add(at, i32(1))});
    }
    partial = kLoop.getResult(0);
    next = kLoop.getResult(1);
    if (lookahead != 0) {
      WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
      ifThen(isReleaser, [&] { releaseStage(sub(next, i32(1))); });
    }
  }
  SmallVector<Value> scales;
  if (rowScales)
    scales.push_back(rowScales);
  llvm::append_range(scales, scalesB);
  Value acc = quant.promote(partial, groups.getRegionIterArgs()[0], scales);
  SmallVector<Value> yielded = {acc, next};
  llvm::append_range(yielded, nextScales);
  scf::YieldOp::create(b, loc, yielded);
  return {groups.getResult(0), groups.getResult(1)};
}

std::pair<Value, Value> SM90KernelBuilder::buildOverlappedPromotedMainloop(
    Value iteration, Value begin, Value end, Value aRow, Value isReleaser,
    Value originN, Value zero) {
  // Each k-block's MMAs write fresh partial sums (scale-d = 0); they are
  // promoted into the f32 accumulator once the next k-block's MMAs are
  // issued and `wgmma.wait_group 1` says they are complete:
  //
  //   P = MMAs(k-block begin)
  //   for j in (begin, end): P' = MMAs(j); wait_group 1; release j - 1;
  //                          acc += P * scales(j - 1); P = P'
  //   wait_group 0; release end - 1; acc += P * scales(end - 1)
  //
  // The loop runs two k-blocks per trip with two partial accumulators in
  // fixed roles, so no in-flight accumulator is ever copied (a copy would
  // make ptxas serialise the WGMMAs); an odd k-block left over and the last
  // promotion are done in one branch that yields only the f32 accumulator.
  // Block-wise B scales of a k-block are loaded when its MMAs are issued and
  // used a k-block later, at its promotion; its A scales are read from its
  // stage at the promotion, before the stage is released.
  Type accType = zero.getType();
  Value start = AccumZeroOp::create(b, loc, accType);
  // Issues the MMAs of k-block `kBlock` (stage `current`) and returns their
  // partial sums and its B block scales.
  auto issueWithScales = [&](Value kBlock, Value current,
                             SmallVector<Value> &scales) {
    // Every k-block read here is one of the range (no clamp to the last).
    scales = quant.loadBlockScalesB(kBlock, originN, shape.bn);
    return issueKBlock(zero, current, /*lookahead=*/1, aRow);
  };
  struct InFlight {
    Value partial, acc, current;
    SmallVector<Value> scales;
  };
  // The previous k-block's promotion (stage s.current - 1, its MMAs
  // complete): its A scales read from the stage, the stage released, the
  // partial sums promoted.
  auto promotePrevious = [&](const InFlight &s) {
    Value previous = sub(s.current, i32(1));
    SmallVector<Value> scales;
    if (Value rowScales = readStagedRowScales(previous, aRow))
      scales.push_back(rowScales);
    llvm::append_range(scales, s.scales);
    ifThen(isReleaser, [&] { releaseStage(previous); });
    return quant.promote(s.partial, s.acc, scales);
  };
  // Issues k-block `kBlock` (stage `s.current`) and promotes s.partial.
  auto step = [&](const InFlight &s, Value kBlock) {
    InFlight next;
    next.partial = issueWithScales(kBlock, s.current, next.scales);
    next.acc = promotePrevious(s);
    next.current = add(s.current, i32(1));
    return next;
  };
  auto drain = [&](const InFlight &s) {
    WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
    return promotePrevious(s);
  };
  auto pack = [](const InFlight &s) {
    SmallVector<Value> values = {s.partial, s.acc, s.current};
    llvm::append_range(values, s.scales);
    return values;
  };
  auto unpack = [](ValueRange values) {
    return InFlight{values[0], values[1], values[2],
                    llvm::to_vector(values.drop_front(3))};
  };

  // A split-K or stream-K range may be empty: no MMA, a zero accumulator.
  Value nonEmpty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, begin, end);
  auto range = scf::IfOp::create(b, loc, TypeRange{accType, b.getI32Type()},
                                 nonEmpty, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(range.elseBlock());
  scf::YieldOp::create(b, loc, ValueRange{start, iteration});

  b.setInsertionPointToStart(range.thenBlock());
  InFlight first;
  first.partial = issueWithScales(begin, iteration, first.scales);
  first.acc = start;
  first.current = add(iteration, i32(1));
  // The k-blocks after the first: pairs, then at most one more.
  Value rest = sub(sub(end, begin), i32(1));
  Value pairsEnd = add(add(begin, i32(1)), mul(div(rest, i32(2)), i32(2)));
  auto pairs = scf::ForOp::create(b, loc, add(begin, i32(1)), pairsEnd, i32(2),
                                  pack(first));
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(pairs.getBody());
    Value kBlock = pairs.getInductionVar();
    InFlight s = step(unpack(pairs.getRegionIterArgs()), kBlock);
    s = step(s, add(kBlock, i32(1)));
    scf::YieldOp::create(b, loc, pack(s));
  }
  InFlight last = unpack(pairs.getResults());
  Value odd = ne(rem(rest, i32(2)), i32(0));
  auto tail = scf::IfOp::create(b, loc, TypeRange{accType, b.getI32Type()}, odd,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(tail.thenBlock());
    InFlight s = step(last, sub(end, i32(1)));
    scf::YieldOp::create(b, loc, ValueRange{drain(s), s.current});
    b.setInsertionPointToStart(tail.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{drain(last), last.current});
  }
  scf::YieldOp::create(b, loc, tail.getResults());
  return {range.getResult(0), range.getResult(1)};
}

Value SM90KernelBuilder::buildEpilogue(Value acc, Value originM, Value originN,
                                       Value batch, Value aRow, Value consumer,
                                       Value staged, Value isLeader,
                                       AddPartials addPartials,
                                       int64_t subTilesPerAdd) {
  int64_t atoms = shape.accRows / 64;
  int64_t columnBlocks = shape.subTiles();
  // Named barrier 0 is __syncthreads; consumer c uses 1 + c.
  Value barrierId = add(consumer, i32(1));
  Value barrierThreads = i32(kWarpgroupThreads);
  Value firstSlot = mul(consumer, i32(shape.storeSlots));
  for (int64_t atom = 0; atom < atoms; ++atom) {
    for (int64_t block = 0; block < columnBlocks; ++block) {
      Value slot =
          add(firstSlot,
              arith::RemUIOp::create(b, loc, staged, i32(shape.storeSlots)));
      // The sub-tile's columns (the last may be narrower) and their
      // per-column scales, loaded before its waits.
      int64_t columns = shape.subTileColumns(block);
      Value colScales =
          quant.loadColumnScales(block * shape.epilogueCols, columns, originN);
      // The slot written storeSlots sub-tiles ago must have been read by its
      // TMA store before it is overwritten.
      ifThen(isLeader, [&] {
        TmaStoreWaitOp::create(
            b, loc, b.getI64IntegerAttr(shape.storeSlots - 1), b.getUnitAttr());
      });
      NVVM::BarrierOp::create(b, loc, Type(), barrierId, barrierThreads,
                              nullptr, Value());
      // The sub-tile's values: 64 rows x epilogueCols columns of the atom
      // are the thread's values [col / 2, col / 2 + epilogueCols / 2).
      int64_t valuesPerAtom = shape.bn / 2;
      if (addPartials && block % subTilesPerAdd == 0) {
        int64_t addedColumns = 0;
        for (int64_t next = block;
             next < std::min(block + subTilesPerAdd, columnBlocks); ++next)
          addedColumns += shape.subTileColumns(next);
        acc = addPartials(acc,
                          atom * valuesPerAtom + block * shape.epilogueCols / 2,
                          addedColumns / 2);
      }
      // Low-precision outputs: the sub-tile's values dequantised (i32 to
      // f32) and scaled by their row, column and tensor scales. Only this
      // sub-tile's store reads the result; `acc` keeps the accumulator's
      // type for the next sub-tile's partial sums.
      Value values = quant.scaleSubTile(acc, atom, block * shape.epilogueCols,
                                        columns, colScales);
      // A column-major C stages the sub-tile transposed: 64 / epilogueCols
      // boxes of epilogueCols x epilogueCols, M along their lines. A
      // row-major C's narrower last sub-tile is staged packed.
      auto store = AccumStoreSmemOp::create(
          b, loc, values, b.getI64IntegerAttr(atom),
          b.getI64IntegerAttr(block * shape.epilogueCols),
          columns < shape.epilogueCols ? b.getI64IntegerAttr(columns)
                                       : IntegerAttr(),
          shape.cColumns ? b.getUnitAttr() : UnitAttr(), staging, slot,
          quant.outputScale(), quant.amaxPointer());
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
      NVVM::BarrierOp::create(b, loc, Type(), barrierId, barrierThreads,
                              nullptr, Value());
      ifThen(isLeader, [&] {
        Value column = add(originN, i32(block * shape.epilogueCols));
        Value row = add(add(originM, aRow), i32(atom * 64));
        if (!shape.cColumns) {
          // A narrower last sub-tile is packed in the slot for the
          // unswizzled descriptor of its width.
          TmaStoreOp::create(b, loc,
                             columns < shape.epilogueCols ? descCNarrow : descC,
                             column, row, batch, staging, slot,
                             /*row=*/Value());
        } else {
          // Box b of the slot holds rows [b W, (b + 1) W) (W =
          // epilogueCols), one line per column; each TMA store takes
          // storeBoxLines() of its lines (columns).
          int64_t boxes = kStoreBoxRows / shape.epilogueCols;
          int64_t lines = shape.storeBoxLines();
          for (int64_t box = 0; box < boxes; ++box)
            for (int64_t first = 0; first < columns; first += lines) {
              int64_t line = box * shape.epilogueCols + first;
              bool whole = boxes == 1 && lines == shape.epilogueCols;
              TmaStoreOp::create(
                  b, loc, descC,
                  box ? add(row, i32(box * shape.epilogueCols)) : row,
                  first ? add(column, i32(first)) : column, batch, staging,
                  slot, whole ? Value() : i32(line));
            }
        }
        TmaStoreCommitOp::create(b, loc);
      });
      staged = add(staged, i32(1));
    }
  }
  return staged;
}

Value SM90KernelBuilder::buildGroupedEpilogue(Value acc, Value originM,
                                              Value originN, Value rowEnd,
                                              Value aRow, Value consumer,
                                              Value staged, Value isLeader) {
  // The condition is the same in the whole warpgroup, so the TMA path's
  // named barriers see all of its threads.
  Value first = add(originM, aRow);
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                       add(first, i32(shape.accRows)), rowEnd);
  auto epilogue = scf::IfOp::create(b, loc, b.getI32Type(), inside,
                                    /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(epilogue.thenBlock());
  scf::YieldOp::create(b, loc,
                       buildEpilogue(acc, originM, originN, Value(), aRow,
                                     consumer, staged, isLeader));
  b.setInsertionPointToStart(epilogue.elseBlock());
  Value one = arith::ConstantIntOp::create(b, loc, 1, 64);
  auto store = AccumStoreDirectOp::create(b, loc, acc, pointerC, first, originN,
                                          leadingDimC, one, rowEnd, sizeN,
                                          TypeAttr::get(shape.outputType),
                                          /*staging=*/Value(), UnitAttr());
  if (!matmul.getEpilogue().empty()) {
    IRMapping mapping;
    matmul.getEpilogue().cloneInto(&store.getEpilogue(), mapping);
  }
  scf::YieldOp::create(b, loc, staged);
  return epilogue.getResult(0);
}

Value SM90KernelBuilder::buildGeneralEpilogue(Value acc, Value originM,
                                              Value originN, Value group,
                                              Value aRow, Value consumer,
                                              Value staged, Value isLeader) {
  // The address is every thread's; only the leader issues the TMA stores,
  // so only it acquires the tensor map. The group's C map has the group's
  // extent: TMA clips the rows and columns of the tile past M_g and N_g.
  Value templateC = descC;
  descC = groupDescriptor(group, 2, /*acquire=*/false);
  ifThen(isLeader, [&] { TmaAcquireDescriptorOp::create(b, loc, descC); });
  Value next = buildEpilogue(acc, originM, originN, Value(), aRow, consumer,
                             staged, isLeader);
  descC = templateC;
  return next;
}

Value SM90KernelBuilder::buildSharedTileEpilogue(
    Value acc, const WorkItem &work, Value originM, Value originN, Value batch,
    Value aRow, Value consumer, Value staged, Value isLeader) {
  Value part = shape.schedule == Schedule::cooperative ? consumer : i32(0);
  Value tile = add(mul(work.unit, i32(shape.clusterSize())), rank);
  Value counter =
      add(mul(tile, i32(TileGeometry::kCounterBytesPerTile / 4)), part);
  Value storesTile;
  std::function<Value(Value, int64_t, int64_t)> addPartials;
  if (shape.splits > 1) {
    // Block of the partial of (tile, split, part), in accumulators.
    auto block = [&](Value split) {
      return add(
          mul(add(mul(tile, i32(shape.splits)), split), i32(shape.parts())),
          part);
    };
    storesTile = buildArrival(acc, block(work.split), counter,
                              i32(shape.splits), consumer, isLeader);
    SmallVector<Value> others;
    for (int64_t other = 1; other < shape.splits; ++other)
      others.push_back(
          block(rem(add(work.split, i32(other)), i32(shape.splits))));
    addPartials = [&, others](Value sum, int64_t first, int64_t count) {
      for (Value other : others)
        sum = AccumLoadAddGlobalOp::create(b, loc, sum.getType(), sum, partials,
                                           other, b.getI64IntegerAttr(first),
                                           b.getI64IntegerAttr(count));
      return sum;
    };
  } else {
    // Stream-K: workers [first, last] computed parts of the unit. A worker
    // stores at most two partial tiles: slot 2w - 2 for the unit it starts
    // inside of (w > first), 2w + 1 for the one it starts and leaves
    // unfinished (w = first); the units in between are whole.
    auto workersOf = StreamKWorkersOp::create(b, loc, b.getI32Type(),
                                              b.getI32Type(), work.sharedUnit,
                                              workers, sharedUnits, kBlocks);
    Value first = workersOf.getFirst(), last = workersOf.getLast();
    Value sharedTile = both(work.shared, ne(first, last));
    // By value: addPartials keeps a copy after this scope ends.
    auto block = [this, first, part](Value worker) {
      Value doubled = mul(worker, i32(2));
      Value slot = select(arith::CmpIOp::create(
                              b, loc, arith::CmpIPredicate::ugt, worker, first),
                          sub(doubled, i32(2)), add(doubled, i32(1)));
      return add(mul(add(mul(slot, i32(shape.clusterSize())), rank),
                     i32(shape.parts())),
                 part);
    };
    auto arrival = scf::IfOp::create(b, loc, b.getI1Type(), sharedTile,
                                     /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(arrival.thenBlock());
      scf::YieldOp::create(b, loc,
                           buildArrival(acc, block(clusterId), counter,
                                        add(sub(last, first), i32(1)), consumer,
                                        isLeader));
      b.setInsertionPointToStart(arrival.elseBlock());
      scf::YieldOp::create(b, loc, i1(true));
    }
    storesTile = arrival.getResult(0);
    // The other workers' partials; none for a tile computed whole.
    Value end = select(sharedTile, add(last, i32(1)), first);
    addPartials = [&, first, end, block](Value sum, int64_t firstValue,
                                         int64_t count) {
      auto others =
          scf::ForOp::create(b, loc, first, end, i32(1), ValueRange{sum});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(others.getBody());
      Value worker = others.getInductionVar();
      Value partial = others.getRegionIterArgs()[0];
      auto addOther =
          scf::IfOp::create(b, loc, partial.getType(), ne(worker, clusterId),
                            /*withElseRegion=*/true);
      b.setInsertionPointToStart(addOther.thenBlock());
      scf::YieldOp::create(b, loc,
                           AccumLoadAddGlobalOp::create(
                               b, loc, partial.getType(), partial, partials,
                               block(worker), b.getI64IntegerAttr(firstValue),
                               b.getI64IntegerAttr(count))
                               .getResult());
      b.setInsertionPointToStart(addOther.elseBlock());
      scf::YieldOp::create(b, loc, partial);
      b.setInsertionPointAfter(addOther);
      scf::YieldOp::create(b, loc, addOther.getResult(0));
      return others.getResult(0);
    };
  }
  auto epilogue = scf::IfOp::create(b, loc, b.getI32Type(), storesTile,
                                    /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(epilogue.thenBlock());
  scf::YieldOp::create(b, loc,
                       buildEpilogue(acc, originM, originN, batch, aRow,
                                     consumer, staged, isLeader, addPartials,
                                     shape.subTilesPerAdd()));
  b.setInsertionPointToStart(epilogue.elseBlock());
  scf::YieldOp::create(b, loc, staged);
  return epilogue.getResult(0);
}

void SM90KernelBuilder::buildConsumer(Region &region) {
  Block *body = b.createBlock(&region, {}, {b.getI32Type()}, {loc});
  b.setInsertionPointToStart(body);
  Value consumer = body->getArgument(0);
  Value isLeader =
      eq(arith::RemUIOp::create(b, loc, tid, i32(kWarpgroupThreads)), i32(0));
  // The threads that release the stages this warpgroup read
  // (KernelShape::releasingThreads).
  Value isReleaser = shape.releasingThreads() == 1 ? isLeader : i1(true);
  bool pingpong = shape.schedule == Schedule::pingpong;
  // Cooperative: every consumer works on every item, on its own rows.
  // Pingpong: consumers take turns with whole items, and skip the pipeline
  // iterations of the other consumer's items.
  Value aRow = pingpong ? i32(0) : mul(consumer, i32(shape.accRows));
  // Per-tensor scales and the output scale, once per consumer.
  quant.loadInvariants();
  Value firstItem = pingpong ? consumer : i32(0);
  Value itemStep = i32(pingpong ? shape.consumers : 1);
  Value firstIteration = pingpong ? mul(consumer, tripsOf(i32(0))) : i32(0);
  auto items = scf::ForOp::create(b, loc, firstItem, itemCount, itemStep,
                                  ValueRange{firstIteration, i32(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(items.getBody());
    Value item = items.getInductionVar();
    WorkItem work = getWorkItem(item);
    TileLocation tile = work.located ? *work.located : locateTile(work.unit);
    Value originM = tile.originM, originN = tile.originN, batch = tile.entry;
    // Pingpong consumers take turns with their mainloops, in item order.
    // Besides letting one consumer's epilogue overlap the other's mainloop,
    // this keeps each consumer at most one phase ahead of the full barriers
    // it waits on, which phase-parity waits require. The turns reuse a
    // pipeline's empty barriers: "acquire" n + 1 waits until "release" n - 1
    // (the previous item's mainloop) happened, and passes for n = 0.
    if (pingpong)
      ProducerAcquireOp::create(b, loc, mathOrder, add(item, i32(1)));
    // Row scales of A (row-wise scaling) for this tile's epilogue, loaded
    // before the mainloop hides their latency.
    quant.beginTile(add(originM, aRow), shape.accRows / 64);
    auto [acc, next] = buildMainloop(items.getRegionIterArgs()[0], work.begin,
                                     work.end, aRow, isReleaser, originN);
    if (pingpong) {
      // The leader may pass the turn on only once every thread of the
      // warpgroup passed its acquire above: otherwise a lagging warp could
      // poll the turn barrier after the other consumer's next release, see
      // the parity of the phase it waits for as incomplete and wait a whole
      // turn too long (a hang). The WGMMAs order it (they start only once
      // all four warps issued them, and the leader waited for them); an
      // empty split-K range has none, so it synchronises the warpgroup
      // instead (found by gemm-check-protocol).
      if (shape.sharesTiles()) {
        Value empty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                            work.begin, work.end);
        ifThen(empty, [&] {
          NVVM::BarrierOp::create(b, loc, Type(), add(consumer, i32(1)),
                                  i32(kWarpgroupThreads), nullptr, Value());
        });
      }
      ifThen(isLeader, [&] {
        ConsumerReleaseOp::create(b, loc, mathOrder, item, Value(),
                                  IntegerAttr());
      });
    }
    Value staged =
        shape.sharesTiles()
            ? buildSharedTileEpilogue(acc, work, originM, originN, batch, aRow,
                                      consumer, items.getRegionIterArgs()[1],
                                      isLeader)
        : shape.general
            ? buildGeneralEpilogue(acc, originM, originN, tile.group, aRow,
                                   consumer, items.getRegionIterArgs()[1],
                                   isLeader)
        : shape.grouped
            ? buildGroupedEpilogue(acc, originM, originN, tile.rowEnd, aRow,
                                   consumer, items.getRegionIterArgs()[1],
                                   isLeader)
            : buildEpilogue(acc, originM, originN, batch, aRow, consumer,
                            items.getRegionIterArgs()[1], isLeader);
    // Skip the iterations of the other consumer's item.
    if (pingpong)
      next = add(next, tripsOf(add(item, i32(1))));
    scf::YieldOp::create(b, loc, ValueRange{next, staged});
  }
  // Stores must have completed, not only read shared memory, before exit.
  ifThen(isLeader, [&] {
    TmaStoreWaitOp::create(b, loc, b.getI64IntegerAttr(0), UnitAttr());
  });
  YieldOp::create(b, loc);
}

struct GemmMaterializeSM90Pass
    : public mlir::gemm::impl::GemmMaterializeSM90Base<
          GemmMaterializeSM90Pass> {
  using Base::Base;

  void runOnOperation() override {
    if (wgmmaLookahead < 0 || wgmmaLookahead > 4) {
      getOperation().emitError("wgmma-lookahead must be in [0, 4], got ")
          << static_cast<int64_t>(wgmmaLookahead);
      return signalPassFailure();
    }
    if (storeSlots < 1 || storeSlots > 4) {
      getOperation().emitError("store-slots must be in [1, 4], got ")
          << static_cast<int64_t>(storeSlots);
      return signalPassFailure();
    }
    auto materialize =
        [&](MatmulOp matmul) -> FailureOr<bundle::KernelManifest> {
      if (matmul.getConfig().getSchedule() == Schedule::direct)
        return materializeDirectKernel(matmul);
      FailureOr<KernelShape> shape =
          planKernel(matmul, wgmmaLookahead, storeSlots);
      if (failed(shape))
        return failure();
      Location loc = matmul.getLoc();
      OpBuilder b(matmul);
      auto buildBody = [&](gpu::GPUFuncOp func) {
        // One CTA per SM: the register cap at entry (65536 / threads) is what
        // lets setmaxnreg redistribute registers between the roles.
        func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
        SM90KernelBuilder(b, loc, *shape, matmul).build(func);
      };
      // Split-K, stream-K: the partial tiles and the arrival counters.
      SmallVector<Type> extraParams;
      if (shape->sharesTiles())
        extraParams.assign(2, LLVM::LLVMPointerType::get(b.getContext(), 1));
      // Then the scale pointers of low-precision kernels.
      llvm::append_range(extraParams, shape->quant.paramTypes(b.getContext()));
      // The C box: 64 rows (one atom) of a 128-byte sub-tile row, or for a
      // column-major C a square box of one swizzle span along M.
      int64_t storeBoxRows =
          shape->cColumns ? shape->storeBoxLines() : kStoreBoxRows;
      bundle::KernelManifest manifest =
          buildKernel(b, loc, *shape, Arch::sm_90a, shape->threads(),
                      storeBoxRows, buildBody, extraParams);
      if (shape->sharesTiles()) {
        bundle::WorkspaceParam partialTiles;
        if (shape->streamK) {
          // Up to that many CTAs share a unit when there are few units.
          manifest.workUnitsPerTile = bundle::StreamKMaxWorkersPerUnit;
          partialTiles.bytesPerCta =
              static_cast<uint64_t>(shape->partialBytesPerCta());
        } else {
          // Each split of a tile is a work unit for its own CTA.
          manifest.workUnitsPerTile = static_cast<uint32_t>(shape->splits);
          partialTiles = splitKPartialTiles(*shape);
        }
        llvm::append_range(manifest.params,
                           sharedTileWorkspaceParams(partialTiles));
      }
      llvm::append_range(manifest.params, shape->quant.manifestParams());
      if (shape->narrowCColumns)
        manifest.params.push_back(narrowCDescriptor(*shape, kStoreBoxRows));
      if (shape->quant.mma.isFp8()) {
        manifest.types.fp8Accumulation = shape->quant.promote
                                             ? bundle::Fp8Accumulation::Promoted
                                             : bundle::Fp8Accumulation::Fast;
        manifest.types.promoteEveryK = static_cast<uint32_t>(
            shape->quant.promote ? shape->quant.promoteEvery * shape->bk : 0);
      }
      if (shape->aBoxesPerSlice > 1)
        manifest.params.push_back(partialTileADescriptor(*shape));
      return manifest;
    };
    if (failed(materializeMatmuls(getOperation(), Arch::sm_90a, materialize)))
      signalPassFailure();
  }
};

} // namespace
