//===- MaterializeSM90Direct.cpp - the SM90 direct kernel ----------------===//
//
// `schedule = direct`: one CTA per tile (with split-K, one per k-range of a
// tile, the partial tiles reduced by the last to arrive), BM / 64
// warpgroups that all load and all multiply. A and B are read with plain
// element loads (any row stride, any base address: no TMA, so nothing is
// staged), stored into the 128-byte-swizzled K-major shared-memory layout
// that gemm.mma.sm90 reads, two stages deep so that the next k-block's loads
// are in flight while the current one's WGMMAs run; C is written from the
// accumulator through each warp's staging rows, in stores contiguous along
// C. docs/SM90.md ("The direct kernel") explains the choices.
//
//===----------------------------------------------------------------------===//

#include "DirectKernel.h"
#include "KernelBuilder.h"
#include "gemm/Bundle/Accumulators.h"
#include "gemm/Dispatch/KernelConfig.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

namespace {

/// Shared-memory stages: the k-block being multiplied and the next one.
constexpr int64_t kDirectStages = 2;

struct DirectShape : TileGeometry {
  int64_t warpgroups = 1;
  int64_t threads() const { return kWarpgroupThreads * warpgroups; }
  /// Elements of one k-block each thread loads: its share of A and of B.
  int64_t aFragment() const { return bm * bk / threads(); }
  int64_t bFragment() const { return bn * bk / threads(); }
};

FailureOr<DirectShape> planDirectKernel(MatmulOp op) {
  DirectShape shape;
  static_cast<TileGeometry &>(shape) = getTileGeometry(op);
  shape.stages = kDirectStages;
  if (shape.bm != 64 && shape.bm != 128)
    return op.emitOpError("schedule = direct gives each warpgroup 64 rows of "
                          "the tile (one WGMMA atom): tile M must be 64 or "
                          "128, got ")
               << shape.bm,
           failure();
  shape.warpgroups = shape.bm / 64;
  int64_t registers = bundle::directRegisters(shape.bm, shape.bn, shape.bk);
  if (registers > bundle::MaxDirectRegisters)
    return op.emitOpError("schedule = direct keeps the accumulator (")
               << shape.bn / 2 << " registers per thread) and one k-block of "
               << "A and B (" << shape.aFragment() + shape.bFragment()
               << ") in registers: " << registers << " over the "
               << bundle::MaxDirectRegisters
               << " that leave room for addresses; use a smaller tile N",
           failure();
  return shape;
}

/// Builds the direct kernel's body.
class DirectKernelBuilder : public KernelBuilder {
public:
  DirectKernelBuilder(OpBuilder &b, Location loc, const DirectShape &shape,
                      MatmulOp matmul)
      : KernelBuilder(b, loc, shape), shape(shape), matmul(matmul) {}

  void build(gpu::GPUFuncOp func);

private:
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  /// The fragments of k-block `kBlock` of this CTA's A and B tiles.
  std::pair<Value, Value> load(Value kBlock);
  /// Writes fragments into ring slot `slot` and makes them visible to the
  /// WGMMAs (async proxy) of every thread once the next barrier passed.
  void store(std::pair<Value, Value> fragments, Value slot);
  /// One k-block that has a next one: loads the next one's fragments,
  /// issues this one's WGMMAs, stores the next fragments into the other
  /// slot, waits for the WGMMAs and synchronises the CTA. Returns the
  /// accumulator.
  Value step(Value acc, Value kBlock);
  /// The last k-block: its WGMMAs, waited for.
  Value lastStep(Value acc, Value kBlock);
  /// The WGMMAs of k-block `kBlock` (slot kBlock mod 2), committed.
  Value multiply(Value acc, Value kBlock);

  /// A warpgroup's accumulator: its 64 rows of the tile, in f32.
  AccumulatorType accumulatorType() {
    return AccumulatorType::get(b.getContext(), 64, shape.bn, b.getF32Type());
  }
  /// The accumulator of k-blocks [begin, end) of the tile (at least one).
  Value mainloop(Value begin, Value end);
  /// Writes the warpgroup's rows of the tile from `acc` into C.
  void storeTile(Value acc);
  /// Split-K: counts this CTA's partial tile in; the last of the tile's
  /// splits to arrive adds the others and writes the tile.
  void reduceAndStoreTile(Value acc, Value unit, Value split);

  const DirectShape &shape;
  MatmulOp matmul;
  Value aPtr, bPtr, cPtr, lda, ldb, ldc, one, originM, originN, aRow, group;
  /// The (row, column) strides of A (M x K), B (N x K) and C (M x N) in
  /// their layouts: (ld, 1) where rows are contiguous, (1, ld) where columns
  /// are.
  std::pair<Value, Value> aStrides, bStrides, cStrides;
  Value ringA, ringB, staging;
  FragmentType aType, bType;
};

std::pair<Value, Value> DirectKernelBuilder::load(Value kBlock) {
  Value k = mul(kBlock, i32(shape.bk));
  auto threads = b.getI64IntegerAttr(shape.threads());
  auto cols = b.getI64IntegerAttr(shape.bk);
  Value fa = DirectLoadOp::create(b, loc, aType, aPtr, originM, k,
                                  aStrides.first, aStrides.second, sizeM, sizeK,
                                  b.getI64IntegerAttr(shape.bm), cols, threads);
  Value fb = DirectLoadOp::create(b, loc, bType, bPtr, originN, k,
                                  bStrides.first, bStrides.second, sizeN, sizeK,
                                  b.getI64IntegerAttr(shape.bn), cols, threads);
  return {fa, fb};
}

void DirectKernelBuilder::store(std::pair<Value, Value> fragments, Value slot) {
  auto threads = b.getI64IntegerAttr(shape.threads());
  DirectStoreSmemOp::create(b, loc, fragments.first, ringA, slot, threads);
  DirectStoreSmemOp::create(b, loc, fragments.second, ringB, slot, threads);
  // Generic-proxy writes must be visible to WGMMA (async proxy).
  NVVM::FenceProxyOp::create(
      b, loc,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

Value DirectKernelBuilder::multiply(Value acc, Value kBlock) {
  Value slot = rem(kBlock, i32(kDirectStages));
  WgmmaFenceOp::create(b, loc);
  Value result =
      MmaSm90Op::create(b, loc, acc.getType(), acc, ringA, slot, aRow, ringB,
                        /*bCol=*/IntegerAttr());
  WgmmaCommitOp::create(b, loc);
  return result;
}

Value DirectKernelBuilder::step(Value acc, Value kBlock) {
  Value next = add(kBlock, i32(1));
  // The next k-block's loads go out before this one's WGMMAs, so their
  // latency overlaps the MMAs; the registers they fill are only read by the
  // stores below.
  std::pair<Value, Value> fragments = load(next);
  Value result = multiply(acc, kBlock);
  // The other slot was last read by the previous k-block's WGMMAs, which
  // every warpgroup waited for before the barrier that ended that k-block.
  store(fragments, rem(next, i32(kDirectStages)));
  WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
  // Every thread's stores of the next k-block are fenced, and every
  // warpgroup's WGMMAs of this one are done: the next k-block may read its
  // slot, and the one after may overwrite this one.
  gpu::BarrierOp::create(b, loc);
  return result;
}

Value DirectKernelBuilder::lastStep(Value acc, Value kBlock) {
  Value result = multiply(acc, kBlock);
  WgmmaWaitOp::create(b, loc, b.getI64IntegerAttr(0));
  return result;
}

void DirectKernelBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  MLIRContext *ctx = b.getContext();
  auto ringAType = SmemBufferType::get(ctx, kDirectStages, shape.bm, shape.bk,
                                       shape.inputType, 128);
  auto ringBType = SmemBufferType::get(ctx, kDirectStages, shape.bn, shape.bk,
                                       shape.inputType, 128);
  // C's staging rows: one per tile row, padded so that the fragment writes
  // and the row reads are free of bank conflicts.
  int64_t outputBytes = getElementBytes(shape.outputType);
  auto stagingType = SmemBufferType::get(
      ctx, 1, shape.bm,
      shape.bn + ::gemm::dispatch::DirectStagingRowPadBytes / outputBytes,
      shape.outputType, 0);
  auto plan =
      SmemPlanOp::create(b, loc, TypeRange{ringAType, ringBType, stagingType});
  ringA = plan.getResult(0);
  ringB = plan.getResult(1);
  staging = plan.getResult(2);
  aType = FragmentType::get(ctx, shape.aFragment(), shape.inputType);
  bType = FragmentType::get(ctx, shape.bFragment(), shape.inputType);

  aPtr = entry.getArgument(0);
  bPtr = entry.getArgument(1);
  cPtr = entry.getArgument(2);
  sizeM = entry.getArgument(3);
  sizeN = entry.getArgument(4);
  sizeK = entry.getArgument(5);
  lda = entry.getArgument(6);
  ldb = entry.getArgument(7);
  ldc = entry.getArgument(8);
  auto readIndex = [&](Value index) -> Value {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  };
  tid = readIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  blockId = readIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  gridSize = readIndex(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
  // Block b is tile unit b of the static schedule (raster order and
  // swizzle as in the persistent kernels), or with split-K unit b / splits.
  computeSchedule();
  // One CTA per tile, or with split-K one per k-range of a tile: the splits
  // of a tile are consecutive blocks, so they run at about the same time.
  Value unit = blockId, split;
  if (shape.splits > 1) {
    partials = entry.getArgument(9);
    counters = entry.getArgument(10);
    unit = div(blockId, i32(shape.splits));
    split = rem(blockId, i32(shape.splits));
  }
  std::tie(originM, originN) = tileOrigin(unit);
  // Layouts are strides: a K-major operand or a row-major C has rows `ld`
  // elements apart and the elements of a row adjacent; an MN-major operand
  // or a column-major C the reverse. (The loads' lanes walk K, so they are
  // coalesced for K-major operands; the dispatcher takes direct kernels for
  // those only.)
  one = i64(1);
  auto strides = [&](bool columns, Value ld) {
    return columns ? std::pair{one, ld} : std::pair{ld, one};
  };
  aStrides = strides(shape.aMNMajor, lda);
  bStrides = strides(shape.bMNMajor, ldb);
  cStrides = strides(shape.cColumns, ldc);
  if (shape.warpgroups == 1) {
    group = aRow = i32(0);
  } else {
    // The warpgroup index, broadcast from lane 0 so that ptxas sees it (and
    // the WGMMA descriptors built from it) as warp-uniform.
    group = div(tid, i32(kWarpgroupThreads));
    group = NVVM::ShflOp::create(
        b, loc, b.getI32Type(), i32(-1), group, i32(0), i32(31),
        NVVM::ShflKindAttr::get(ctx, NVVM::ShflKind::idx),
        /*return_value_and_is_valid=*/nullptr);
    aRow = mul(group, i32(64));
  }

  if (shape.splits == 1) {
    storeTile(mainloop(i32(0), kBlocks));
    return;
  }
  auto range = SplitKRangeOp::create(b, loc, b.getI32Type(), b.getI32Type(),
                                     split, kBlocks,
                                     b.getI64IntegerAttr(shape.splits));
  // A k-range may be empty (fewer k-blocks than splits): its partial tile is
  // zero, and it still counts in.
  AccumulatorType accType = accumulatorType();
  auto partial = scf::IfOp::create(
      b, loc, TypeRange{accType},
      ne(range.getBegin(), range.getEnd()), /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(partial.thenBlock());
    scf::YieldOp::create(b, loc, mainloop(range.getBegin(), range.getEnd()));
    b.setInsertionPointToStart(partial.elseBlock());
    scf::YieldOp::create(b, loc,
                         AccumZeroOp::create(b, loc, accType).getResult());
  }
  reduceAndStoreTile(partial.getResult(0), unit, split);
}

Value DirectKernelBuilder::mainloop(Value begin, Value end) {
  // The first k-block: loaded, stored and made visible before the loop.
  store(load(begin), rem(begin, i32(kDirectStages)));
  gpu::BarrierOp::create(b, loc);
  // The first k-block's WGMMAs take the zero accumulator directly (scale-d
  // = 0, no zeroed registers); the others accumulate. Every k-block but the
  // last loads the next one, so no load is conditional: one k-block alone,
  // or the first, the loop over the middle ones and the last.
  AccumulatorType accType = accumulatorType();
  Value zero = AccumZeroOp::create(b, loc, accType);
  Value last = sub(end, i32(1));
  auto loop = scf::IfOp::create(b, loc, TypeRange{accType}, eq(begin, last),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.thenBlock());
  scf::YieldOp::create(b, loc, lastStep(zero, begin));
  b.setInsertionPointToStart(loop.elseBlock());
  Value acc = step(zero, begin);
  auto kLoop = scf::ForOp::create(b, loc, add(begin, i32(1)), last, i32(1),
                                  ValueRange{acc});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(kLoop.getBody());
    scf::YieldOp::create(
        b, loc, step(kLoop.getRegionIterArgs()[0], kLoop.getInductionVar()));
  }
  scf::YieldOp::create(b, loc, lastStep(kLoop.getResult(0), last));
  return loop.getResult(0);
}

void DirectKernelBuilder::storeTile(Value acc) {
  // C through the staging rows, so that each warp store is contiguous in C.
  auto epilogue = AccumStoreDirectOp::create(
      b, loc, acc, cPtr, add(originM, aRow), originN, cStrides.first,
      cStrides.second, sizeM, sizeN, TypeAttr::get(shape.outputType), staging,
      shape.cColumns ? b.getUnitAttr() : UnitAttr());
  if (!matmul.getEpilogue().empty()) {
    IRMapping mapping;
    matmul.getEpilogue().cloneInto(&epilogue.getEpilogue(), mapping);
  }
}

void DirectKernelBuilder::reduceAndStoreTile(Value acc, Value unit,
                                             Value split) {
  // Each warpgroup's rows are a partial block of their own, counted on their
  // own counter: block (tile, split, warpgroup) of the partials.
  auto block = [&](Value s) {
    return add(mul(add(mul(unit, i32(shape.splits)), s), i32(shape.warpgroups)),
               group);
  };
  Value counter =
      add(mul(unit, i32(TileGeometry::kCounterBytesPerTile / 4)), group);
  Value isLeader = eq(rem(tid, i32(kWarpgroupThreads)), i32(0));
  Value last = buildArrival(acc, block(split), counter, i32(shape.splits),
                            group, isLeader);
  ifThen(last, [&] {
    Value sum = acc;
    for (int64_t other = 1; other < shape.splits; ++other)
      sum = AccumLoadAddGlobalOp::create(
          b, loc, sum.getType(), sum, partials,
          block(rem(add(split, i32(other)), i32(shape.splits))),
          IntegerAttr(), IntegerAttr());
    storeTile(sum);
  });
}

bundle::KernelManifest buildManifest(const DirectShape &shape,
                                     int64_t smemBytes) {
  bundle::KernelManifest manifest;
  manifest.name = shape.name;
  manifest.kernel = shape.name;
  manifest.arch = bundle::Arch::Sm90a;
  manifest.ptx = shape.name + ".ptx";
  manifest.block = {static_cast<uint32_t>(shape.threads()), 1, 1};
  manifest.grid = bundle::GridPolicy::Tiles;
  manifest.dynamicSmemBytes = static_cast<uint32_t>(smemBytes);
  manifest.tile = {static_cast<uint32_t>(shape.bm),
                   static_cast<uint32_t>(shape.bn),
                   static_cast<uint32_t>(shape.bk)};
  manifest.types.a = manifest.types.b = toBundleType(shape.inputType);
  manifest.types.c = toBundleType(shape.outputType);
  manifest.types.accumulator = bundle::DType::F32;
  manifest.layouts.a =
      shape.aMNMajor ? bundle::Layout::Col : bundle::Layout::Row;
  manifest.layouts.b =
      shape.bMNMajor ? bundle::Layout::Row : bundle::Layout::Col;
  manifest.layouts.c =
      shape.cColumns ? bundle::Layout::Col : bundle::Layout::Row;
  using bundle::Tensor;
  manifest.params = {bundle::Param::pointer(Tensor::A),
                     bundle::Param::pointer(Tensor::B),
                     bundle::Param::pointer(Tensor::C),
                     bundle::Param::problemSize(bundle::ProblemDim::M),
                     bundle::Param::problemSize(bundle::ProblemDim::N),
                     bundle::Param::problemSize(bundle::ProblemDim::K),
                     bundle::Param::leadingDim(Tensor::A),
                     bundle::Param::leadingDim(Tensor::B),
                     bundle::Param::leadingDim(Tensor::C)};
  if (shape.splits > 1) {
    // Each split of a tile is its own CTA.
    manifest.workUnitsPerTile = static_cast<uint32_t>(shape.splits);
    llvm::append_range(manifest.params,
                       sharedTileWorkspaceParams(splitKPartialTiles(shape)));
  }
  // Element-granular loads and stores: any leading dimension and any
  // element-aligned address will do, so the runtime never stages.
  manifest.constraints.leadingDimAlignmentBytes = static_cast<uint32_t>(
      std::min(shape.inputBytes(), getElementBytes(shape.outputType)));
  return manifest;
}

} // namespace

FailureOr<bundle::KernelManifest>
mlir::gemm::materializeDirectKernel(MatmulOp matmul) {
  FailureOr<DirectShape> shape = planDirectKernel(matmul);
  if (failed(shape))
    return failure();
  Location loc = matmul.getLoc();
  OpBuilder b(matmul);
  MLIRContext *ctx = b.getContext();
  auto gpuModule = gpu::GPUModuleOp::create(
      b, loc, shape->name,
      b.getArrayAttr({NVVM::NVVMTargetAttr::get(
          ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda", "sm_90a")}));
  b.setInsertionPointToStart(gpuModule.getBody());
  Type ptr = LLVM::LLVMPointerType::get(ctx, 1);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  SmallVector<Type> params = {ptr, ptr, ptr, i32, i32, i32, i64, i64, i64};
  // Split-K: the partial tiles and the arrival counters.
  if (shape->splits > 1)
    params.append({ptr, ptr});
  auto funcType = b.getFunctionType(params, {});
  auto func = gpu::GPUFuncOp::create(b, loc, shape->name, funcType);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(
      "nvvm.maxntid",
      b.getDenseI32ArrayAttr({static_cast<int32_t>(shape->threads()), 1, 1}));
  func->setAttr("gemm.arch", b.getStringAttr("sm_90a"));
  // The CTAs per SM the dispatcher's model assumes: a register cap that the
  // kernel fits without spilling (test/PTX/sm90-direct.mlir).
  func->setAttr(
      "nvvm.minctasm",
      b.getI32IntegerAttr(
          static_cast<int32_t>(::gemm::dispatch::directResidentCtas(
              static_cast<uint32_t>(shape->bm),
              static_cast<uint32_t>(shape->bn),
              static_cast<uint32_t>(shape->bk),
              static_cast<uint32_t>(getElementBytes(shape->outputType))))));
  DirectKernelBuilder(b, loc, *shape, matmul).build(func);
  b.setInsertionPointToEnd(&func.getBody().back());
  gpu::ReturnOp::create(b, loc);
  int64_t smemBytes = 0;
  func.walk([&](SmemPlanOp plan) { smemBytes = plan.getTotalBytes(); });
  return buildManifest(*shape, smemBytes);
}
