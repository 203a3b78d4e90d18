//===- MaterializeSM90.cpp - gemm.matmul to an SM90 kernel ---------------===//
//
// Builds the persistent, warp-specialized TMA + WGMMA kernel of an sm_90a
// gemm.matmul in gemm kernel ops. docs/SM90.md describes the kernel and its
// synchronisation; this file is the single place that decides its shape.
//
//===----------------------------------------------------------------------===//

#include "gemm/Bundle/Manifest.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMMATERIALIZESM90
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

namespace {

constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kProducerRegisters = 40;
constexpr int64_t kConsumerRegisters = 232;
/// Shared memory kept free of the stage ring for barriers and alignment.
constexpr int64_t kBarrierReserveBytes = 1024;
/// TMA-store staging slots per consumer warpgroup: one being written while
/// the previous one drains to global memory.
constexpr int64_t kStagingSlotsPerConsumer = 2;

/// Everything the kernel's shape depends on, derived once from the matmul.
struct KernelShape {
  std::string name;
  Type inputType, outputType;
  int64_t bm, bn, bk;
  int64_t clusterM, clusterN;
  int64_t stages;
  Schedule schedule;
  Raster raster;
  int64_t swizzle;
  /// Consumer warpgroups and the accumulator rows each one owns.
  int64_t consumers, accRows;
  /// Consumers that read each stage (cooperative: all; pingpong: one).
  int64_t readersPerStage;
  /// Columns of one 128-byte-wide epilogue sub-tile.
  int64_t epilogueCols;

  int64_t clusterSize() const { return clusterM * clusterN; }
  int64_t threads() const { return kWarpgroupThreads * (1 + consumers); }
  int64_t inputBytes() const { return getElementBytes(inputType); }
  int64_t stageBytes() const { return (bm + bn) * bk * inputBytes(); }
  int64_t stagingBytes() const {
    return kStagingSlotsPerConsumer * consumers * 64 * 128;
  }
  /// Rows of A (B) each CTA loads and multicasts to its cluster column (row).
  int64_t aSliceRows() const { return bm / clusterN; }
  int64_t bSliceRows() const { return bn / clusterM; }
  /// CTAs whose multicast loads write into this CTA's stages.
  int64_t writersPerStage() const { return clusterM + clusterN - 1; }
};

FailureOr<KernelShape> planKernel(MatmulOp op) {
  ConfigAttr config = op.getConfig();
  KernelShape shape;
  shape.name = op.getSymName().str();
  shape.inputType = op.getAType();
  shape.outputType = op.getCType();
  shape.bm = config.getTile()[0];
  shape.bn = config.getTile()[1];
  shape.bk = config.getTile()[2];
  shape.clusterM = config.getCluster()[0];
  shape.clusterN = config.getCluster()[1];
  shape.schedule = config.getSchedule();
  shape.raster = config.getRaster();
  shape.swizzle = config.getSwizzle();
  shape.epilogueCols = 128 / getElementBytes(shape.outputType);
  if (shape.schedule == Schedule::cooperative) {
    if (shape.bm < 128)
      return op.emitOpError("the cooperative schedule splits the tile's rows "
                            "between two consumer warpgroups and needs tile "
                            "M >= 128; use schedule = pingpong for 64-row "
                            "tiles"),
             failure();
    shape.consumers = 2;
    shape.accRows = shape.bm / 2;
    shape.readersPerStage = 2;
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
  if (shape.bn % shape.epilogueCols != 0)
    return op.emitOpError("tile N of ")
               << shape.bn << " is not a multiple of the " << shape.epilogueCols
               << "-column (128-byte) epilogue sub-tile",
           failure();
  // Register budget of the WGMMA accumulators: (accRows / 64) atoms of
  // bn / 2 f32 registers each must leave room for addresses and the
  // epilogue within the consumers' setmaxnreg budget.
  int64_t accRegisters = shape.accRows / 64 * shape.bn / 2;
  if (accRegisters > 128)
    return op.emitOpError("a consumer warpgroup would hold ")
               << accRegisters
               << " accumulator registers per thread; at most 128 fit the "
               << kConsumerRegisters
               << "-register budget: use a smaller tile or the cooperative "
                  "schedule",
           failure();
  shape.stages = config.getStages();
  if (shape.stages == 0) {
    int64_t ring =
        SmemPlanOp::kMaxBytes - shape.stagingBytes() - kBarrierReserveBytes;
    // The matmul verifier bounds a stage to 64 KB, so at least 2 fit.
    shape.stages = ring / shape.stageBytes();
  }
  return shape;
}

bundle::DType toBundleType(Type type) {
  if (type.isBF16())
    return bundle::DType::BF16;
  if (type.isF16())
    return bundle::DType::F16;
  if (isa<Float8E4M3FNType>(type))
    return bundle::DType::E4M3;
  if (isa<Float8E5M2Type>(type))
    return bundle::DType::E5M2;
  return bundle::DType::F32;
}

/// The launch contract of the kernel, for gemm-export-bundle.
bundle::KernelManifest buildManifest(const KernelShape &shape,
                                     int64_t smemBytes) {
  bundle::KernelManifest manifest;
  manifest.name = shape.name;
  manifest.kernel = shape.name;
  manifest.arch = bundle::Arch::Sm90a;
  manifest.ptx = shape.name + ".ptx";
  manifest.block = {static_cast<uint32_t>(shape.threads()), 1, 1};
  manifest.cluster = {static_cast<uint32_t>(shape.clusterSize()), 1, 1};
  manifest.grid = bundle::GridPolicy::Persistent;
  manifest.dynamicSmemBytes = static_cast<uint32_t>(smemBytes);
  manifest.tile = {static_cast<uint32_t>(shape.bm),
                   static_cast<uint32_t>(shape.bn),
                   static_cast<uint32_t>(shape.bk)};
  manifest.types.a = manifest.types.b = toBundleType(shape.inputType);
  manifest.types.c = toBundleType(shape.outputType);
  manifest.types.accumulator = bundle::DType::F32;
  auto tma = [](bundle::Tensor tensor, int64_t inner, int64_t outer,
                bundle::L2Promotion promotion) {
    bundle::TmaDescriptorParam param;
    param.tensor = tensor;
    param.box = {static_cast<uint32_t>(inner), static_cast<uint32_t>(outer)};
    param.swizzle = bundle::Swizzle::B128;
    param.l2Promotion = promotion;
    return bundle::Param::tmaDescriptor(param);
  };
  manifest.params = {
      tma(bundle::Tensor::A, shape.bk, shape.aSliceRows(),
          bundle::L2Promotion::B256),
      tma(bundle::Tensor::B, shape.bk, shape.bSliceRows(),
          bundle::L2Promotion::B256),
      tma(bundle::Tensor::C, shape.epilogueCols, 64, bundle::L2Promotion::None),
      bundle::Param::problemSize(bundle::ProblemDim::M),
      bundle::Param::problemSize(bundle::ProblemDim::N),
      bundle::Param::problemSize(bundle::ProblemDim::K)};
  return manifest;
}

/// Builds the kernel body; one member per part of the kernel.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const KernelShape &shape,
                MatmulOp matmul)
      : b(b), loc(loc), shape(shape), matmul(matmul) {}

  void build(gpu::GPUFuncOp func);

private:
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value i16(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 16); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value readIndex(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }
  /// Runs `body` in an scf.if on `condition`.
  void ifThen(Value condition, function_ref<void()> body) {
    auto ifOp = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    body();
  }
  void syncCluster() {
    NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  }

  /// Tile coordinates (element offsets) of persistent unit `unit` for this
  /// CTA of its cluster.
  std::pair<Value, Value> tileOrigin(Value unit);
  void buildProducer(Region &region);
  void buildConsumer(Region &region);
  /// Mainloop of one tile: returns the accumulator and the next iteration.
  std::pair<Value, Value> buildMainloop(Value iteration, Value aRow,
                                        Value isLeader);
  /// Epilogue of one tile; returns the next staging-slot counter.
  Value buildEpilogue(Value acc, Value origin_m, Value origin_n, Value aRow,
                      Value consumer, Value staged, Value isLeader);
  void releaseStage(Value iteration);

  OpBuilder &b;
  Location loc;
  const KernelShape &shape;
  MatmulOp matmul;

  // Values of the kernel prologue, visible to both roles.
  Value tid, descA, descB, descC, sizeM, sizeN, sizeK;
  Value ringA, ringB, staging, pipeline;
  /// Pingpong only: the turn order of the consumers' mainloops.
  Value mathOrder;
  Value clusterId, clusterCount, rankM, rankN;
  Value unitsM, unitsN, unitCount, kBlocks;
  Value multicastA, multicastB, peerMask;
};

void KernelBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  descA = entry.getArgument(0);
  descB = entry.getArgument(1);
  descC = entry.getArgument(2);
  sizeM = entry.getArgument(3);
  sizeN = entry.getArgument(4);
  sizeK = entry.getArgument(5);

  MLIRContext *ctx = b.getContext();
  auto ringAType = SmemBufferType::get(ctx, shape.stages, shape.bm, shape.bk,
                                       shape.inputType, 128);
  auto ringBType = SmemBufferType::get(ctx, shape.stages, shape.bn, shape.bk,
                                       shape.inputType, 128);
  auto stagingType =
      SmemBufferType::get(ctx, kStagingSlotsPerConsumer * shape.consumers, 64,
                          shape.epilogueCols, shape.outputType, 128);
  auto pipelineType =
      PipelineType::get(ctx, shape.stages, /*producers=*/1,
                        shape.readersPerStage * shape.writersPerStage());
  SmallVector<Type> objects = {ringAType, ringBType, stagingType, pipelineType};
  if (shape.schedule == Schedule::pingpong)
    objects.push_back(PipelineType::get(ctx, shape.consumers, /*producers=*/1,
                                        /*consumers=*/1));
  auto plan = SmemPlanOp::create(b, loc, objects);
  ringA = plan.getResult(0);
  ringB = plan.getResult(1);
  staging = plan.getResult(2);
  pipeline = plan.getResult(3);
  if (shape.schedule == Schedule::pingpong)
    mathOrder = plan.getResult(4);

  tid = readIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value blockId = readIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  Value gridSize = readIndex(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
  ifThen(eq(tid, i32(0)), [&] {
    PipelineInitOp::create(b, loc, pipeline);
    if (mathOrder)
      PipelineInitOp::create(b, loc, mathOrder);
    if (shape.clusterSize() > 1)
      NVVM::FenceMbarrierInitOp::create(b, loc);
    for (Value desc : {descA, descB, descC})
      TmaPrefetchDescriptorOp::create(b, loc, desc);
  });
  // Barriers must be initialised before any thread (of any CTA of the
  // cluster, for multicast and remote arrivals) uses them.
  if (shape.clusterSize() > 1)
    syncCluster();
  else
    gpu::BarrierOp::create(b, loc);

  // Clusters are 1-D along x, so a CTA's rank is its block index modulo
  // the cluster size. Rank r sits at (r mod clusterM, r / clusterM) of the
  // cluster's clusterM x clusterN tile block.
  Value clusterSize = i32(shape.clusterSize());
  clusterId = arith::DivUIOp::create(b, loc, blockId, clusterSize);
  clusterCount = arith::DivUIOp::create(b, loc, gridSize, clusterSize);
  Value rank = arith::RemUIOp::create(b, loc, blockId, clusterSize);
  rankM = arith::RemUIOp::create(b, loc, rank, i32(shape.clusterM));
  rankN = arith::DivUIOp::create(b, loc, rank, i32(shape.clusterM));
  Value tilesM = arith::CeilDivUIOp::create(b, loc, sizeM, i32(shape.bm));
  Value tilesN = arith::CeilDivUIOp::create(b, loc, sizeN, i32(shape.bn));
  unitsM = arith::CeilDivUIOp::create(b, loc, tilesM, i32(shape.clusterM));
  unitsN = arith::CeilDivUIOp::create(b, loc, tilesN, i32(shape.clusterN));
  unitCount = mul(unitsM, unitsN);
  kBlocks = arith::CeilDivUIOp::create(b, loc, sizeK, i32(shape.bk));

  // A tile is shared by the CTAs of one cluster row (same rankM), a B tile
  // by those of one cluster column (same rankN).
  if (shape.clusterSize() > 1) {
    Value one = i32(1);
    Value maskA = i32(0);
    for (int64_t j = 0; j < shape.clusterN; ++j)
      maskA = arith::OrIOp::create(
          b, loc, maskA,
          arith::ShLIOp::create(b, loc, one,
                                add(rankM, i32(j * shape.clusterM))));
    Value maskB = arith::ShLIOp::create(b, loc, i32((1 << shape.clusterM) - 1),
                                        mul(rankN, i32(shape.clusterM)));
    peerMask = arith::OrIOp::create(b, loc, maskA, maskB);
    multicastA = arith::TruncIOp::create(b, loc, b.getI16Type(), maskA);
    multicastB = arith::TruncIOp::create(b, loc, b.getI16Type(), maskB);
  }

  auto roles =
      WarpSpecializeOp::create(b, loc, b.getI64IntegerAttr(shape.consumers),
                               b.getI64IntegerAttr(kProducerRegisters),
                               b.getI64IntegerAttr(kConsumerRegisters));
  buildProducer(roles.getProducer());
  buildConsumer(roles.getConsumer());

  b.setInsertionPointAfter(roles);
  // No CTA may exit while a peer can still multicast into its shared memory
  // or arrive on its barriers.
  if (shape.clusterSize() > 1)
    syncCluster();
}

std::pair<Value, Value> KernelBuilder::tileOrigin(Value unit) {
  auto coords = StaticTileOp::create(
      b, loc, b.getI32Type(), b.getI32Type(), unit, unitsM, unitsN,
      RasterAttr::get(b.getContext(), shape.raster),
      b.getI64IntegerAttr(shape.swizzle));
  Value tileM = add(mul(coords.getM(), i32(shape.clusterM)), rankM);
  Value tileN = add(mul(coords.getN(), i32(shape.clusterN)), rankN);
  return {mul(tileM, i32(shape.bm)), mul(tileN, i32(shape.bn))};
}

void KernelBuilder::buildProducer(Region &region) {
  Block *body = b.createBlock(&region);
  b.setInsertionPointToStart(body);
  // One thread issues every TMA load of the CTA.
  ifThen(eq(tid, i32(0)), [&] {
    auto units = scf::ForOp::create(b, loc, clusterId, unitCount, clusterCount,
                                    ValueRange{i32(0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(units.getBody());
      auto [originM, originN] = tileOrigin(units.getInductionVar());
      auto kLoop = scf::ForOp::create(b, loc, i32(0), kBlocks, i32(1),
                                      units.getRegionIterArgs());
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(kLoop.getBody());
        Value iteration = kLoop.getRegionIterArgs()[0];
        ProducerAcquireOp::create(b, loc, pipeline, iteration);
        ProducerCommitOp::create(b, loc, pipeline, iteration,
                                 b.getI64IntegerAttr(shape.stageBytes()));
        Value slot =
            arith::RemUIOp::create(b, loc, iteration, i32(shape.stages));
        Value k = mul(kLoop.getInductionVar(), i32(shape.bk));
        // A CTA loads the whole tile, or its slice of it for the CTAs
        // sharing the tile (`sharing` of them; this one is `rank`th).
        auto loadTile = [&](Value desc, Value origin, Value ring,
                            int64_t sharing, Value rank, int64_t sliceRows,
                            Value multicast) {
          if (sharing == 1) {
            TmaLoadOp::create(b, loc, desc, k, origin, ring, slot,
                              /*row=*/Value(), pipeline, iteration,
                              /*multicastMask=*/Value(),
                              /*ctaGroup=*/IntegerAttr());
            return;
          }
          Value row = mul(rank, i32(sliceRows));
          TmaLoadOp::create(b, loc, desc, k, add(origin, row), ring, slot, row,
                            pipeline, iteration, multicast,
                            /*ctaGroup=*/IntegerAttr());
        };
        loadTile(descA, originM, ringA, shape.clusterN, rankN,
                 shape.aSliceRows(), multicastA);
        loadTile(descB, originN, ringB, shape.clusterM, rankM,
                 shape.bSliceRows(), multicastB);
        scf::YieldOp::create(b, loc, add(iteration, i32(1)));
      }
      scf::YieldOp::create(b, loc, kLoop.getResult(0));
    }
  });
  YieldOp::create(b, loc);
}

void KernelBuilder::releaseStage(Value iteration) {
  if (shape.clusterSize() > 1)
    ConsumerReleaseOp::create(b, loc, pipeline, iteration, peerMask,
                              b.getI64IntegerAttr(shape.clusterSize()));
  else
    ConsumerReleaseOp::create(b, loc, pipeline, iteration, Value(),
                              IntegerAttr());
}

std::pair<Value, Value>
KernelBuilder::buildMainloop(Value iteration, Value aRow, Value isLeader) {
  auto accType = AccumulatorType::get(b.getContext(), shape.accRows, shape.bn,
                                      b.getF32Type());
  Value zero = AccumZeroOp::create(b, loc, accType);
  auto kLoop = scf::ForOp::create(b, loc, i32(0), kBlocks, i32(1),
                                  ValueRange{zero, iteration});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value acc = kLoop.getRegionIterArgs()[0];
    Value current = kLoop.getRegionIterArgs()[1];
    ConsumerWaitOp::create(b, loc, pipeline, current);
    WgmmaFenceOp::create(b, loc);
    Value slot = arith::RemUIOp::create(b, loc, current, i32(shape.stages));
    Value next =
        MmaSm90Op::create(b, loc, acc.getType(), acc, ringA, slot, aRow, ringB);
    WgmmaCommitOp::create(b, loc);
    // Lookahead of one group: the previous k-block's MMAs are done, so its
    // stage goes back to the producer while this one runs.
    WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(1));
    Value notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           kLoop.getInductionVar(), i32(0));
    ifThen(arith::AndIOp::create(b, loc, isLeader, notFirst), [&] {
      releaseStage(arith::SubIOp::create(b, loc, current, i32(1)));
    });
    scf::YieldOp::create(b, loc, ValueRange{next, add(current, i32(1))});
  }
  WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
  Value end = kLoop.getResult(1);
  ifThen(isLeader,
         [&] { releaseStage(arith::SubIOp::create(b, loc, end, i32(1))); });
  return {kLoop.getResult(0), end};
}

Value KernelBuilder::buildEpilogue(Value acc, Value originM, Value originN,
                                   Value aRow, Value consumer, Value staged,
                                   Value isLeader) {
  int64_t atoms = shape.accRows / 64;
  int64_t columnBlocks = shape.bn / shape.epilogueCols;
  // Named barrier 0 is __syncthreads; consumer c uses 1 + c.
  Value barrierId = add(consumer, i32(1));
  Value barrierThreads = i32(kWarpgroupThreads);
  Value firstSlot = mul(consumer, i32(kStagingSlotsPerConsumer));
  for (int64_t atom = 0; atom < atoms; ++atom) {
    for (int64_t block = 0; block < columnBlocks; ++block) {
      Value slot =
          add(firstSlot, arith::RemUIOp::create(b, loc, staged,
                                                i32(kStagingSlotsPerConsumer)));
      // The slot written two sub-tiles ago must have been read by its TMA
      // store before it is overwritten.
      ifThen(isLeader, [&] {
        TmaStoreWaitOp::create(
            b, loc, b.getI64IntegerAttr(kStagingSlotsPerConsumer - 1),
            b.getUnitAttr());
      });
      NVVM::BarrierOp::create(b, loc, Type(), barrierId, barrierThreads,
                              nullptr, Value());
      auto store = AccumStoreSmemOp::create(
          b, loc, acc, b.getI64IntegerAttr(atom),
          b.getI64IntegerAttr(block * shape.epilogueCols), staging, slot);
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
        TmaStoreOp::create(b, loc, descC, column, row, staging, slot);
        TmaStoreCommitOp::create(b, loc);
      });
      staged = add(staged, i32(1));
    }
  }
  return staged;
}

void KernelBuilder::buildConsumer(Region &region) {
  Block *body = b.createBlock(&region, {}, {b.getI32Type()}, {loc});
  b.setInsertionPointToStart(body);
  Value consumer = body->getArgument(0);
  Value isLeader =
      eq(arith::RemUIOp::create(b, loc, tid, i32(kWarpgroupThreads)), i32(0));
  bool pingpong = shape.schedule == Schedule::pingpong;
  // Cooperative: every consumer works on every tile, on its own rows.
  // Pingpong: consumers take turns with whole tiles, and skip the pipeline
  // iterations of the other consumer's tiles.
  Value aRow = pingpong ? i32(0) : mul(consumer, i32(shape.accRows));
  Value firstUnit = clusterId;
  Value unitStep = clusterCount;
  Value firstIteration = i32(0);
  if (pingpong) {
    firstUnit = add(clusterId, mul(consumer, clusterCount));
    unitStep = mul(clusterCount, i32(shape.consumers));
    firstIteration = mul(consumer, kBlocks);
  }
  auto units = scf::ForOp::create(b, loc, firstUnit, unitCount, unitStep,
                                  ValueRange{firstIteration, i32(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(units.getBody());
    auto [originM, originN] = tileOrigin(units.getInductionVar());
    // Pingpong consumers take turns with their mainloops, in tile order.
    // Besides letting one consumer's epilogue overlap the other's mainloop,
    // this keeps each consumer at most one phase ahead of the full barriers
    // it waits on, which phase-parity waits require. The turns reuse a
    // pipeline's empty barriers: "acquire" n + 1 waits until "release" n - 1
    // (the previous tile's mainloop) happened, and passes for n = 0.
    Value sequence;
    if (pingpong) {
      sequence = arith::DivUIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, units.getInductionVar(), clusterId),
          clusterCount);
      ProducerAcquireOp::create(b, loc, mathOrder, add(sequence, i32(1)));
    }
    auto [acc, next] =
        buildMainloop(units.getRegionIterArgs()[0], aRow, isLeader);
    if (pingpong)
      ifThen(isLeader, [&] {
        ConsumerReleaseOp::create(b, loc, mathOrder, sequence, Value(),
                                  IntegerAttr());
      });
    Value staged = buildEpilogue(acc, originM, originN, aRow, consumer,
                                 units.getRegionIterArgs()[1], isLeader);
    if (pingpong)
      next = add(next, mul(kBlocks, i32(shape.consumers - 1)));
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
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<MatmulOp> matmuls;
    module.walk([&](MatmulOp op) {
      if (op.getConfig().getArch() == Arch::sm_90a)
        matmuls.push_back(op);
    });
    SmallVector<NamedAttribute> bundles;
    if (auto existing = module->getAttrOfType<DictionaryAttr>("gemm.bundles"))
      llvm::append_range(bundles, existing.getValue());

    for (MatmulOp matmul : matmuls) {
      FailureOr<KernelShape> shape = planKernel(matmul);
      if (failed(shape))
        return signalPassFailure();
      Location loc = matmul.getLoc();
      OpBuilder b(matmul);
      auto gpuModule = gpu::GPUModuleOp::create(
          b, loc, shape->name,
          b.getArrayAttr({NVVM::NVVMTargetAttr::get(
              ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda", "sm_90a")}));
      b.setInsertionPointToStart(gpuModule.getBody());
      auto descType = [&](int64_t inner, int64_t outer, Type type) {
        return TmaDescriptorType::get(ctx, type, {inner, outer}, 128);
      };
      Type i32 = b.getI32Type();
      auto funcType = b.getFunctionType(
          {descType(shape->bk, shape->aSliceRows(), shape->inputType),
           descType(shape->bk, shape->bSliceRows(), shape->inputType),
           descType(shape->epilogueCols, 64, shape->outputType), i32, i32, i32},
          {});
      auto func = gpu::GPUFuncOp::create(b, loc, shape->name, funcType);
      func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
      int32_t threads = static_cast<int32_t>(shape->threads());
      func->setAttr("nvvm.maxntid", b.getDenseI32ArrayAttr({threads, 1, 1}));
      // One CTA per SM: the register cap at entry (65536 / threads) is what
      // lets setmaxnreg redistribute registers between the roles.
      func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
      if (shape->clusterSize() > 1)
        func->setAttr("nvvm.cluster_dim",
                      b.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(shape->clusterSize()), 1, 1}));
      func->setAttr("gemm.arch", b.getStringAttr("sm_90a"));
      func->setAttr("gemm.grid_constant_args",
                    b.getDenseI64ArrayAttr({0, 1, 2}));

      KernelBuilder builder(b, loc, *shape, matmul);
      builder.build(func);
      b.setInsertionPointToEnd(&func.getBody().back());
      gpu::ReturnOp::create(b, loc);

      int64_t smemBytes = 0;
      func.walk([&](SmemPlanOp plan) { smemBytes = plan.getTotalBytes(); });
      bundles.push_back(b.getNamedAttr(
          shape->name,
          b.getStringAttr(
              buildManifest(*shape, smemBytes).toJsonString(/*indent=*/-1))));
      matmul.erase();
    }
    if (!bundles.empty()) {
      module->setAttr("gemm.bundles", DictionaryAttr::get(ctx, bundles));
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(ctx));
    }
  }
};

} // namespace
