//===- KernelBuilder.cpp - pieces shared by the materialize passes -------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

TileGeometry mlir::gemm::getTileGeometry(MatmulOp op) {
  ConfigAttr config = op.getConfig();
  TileGeometry geometry;
  geometry.name = op.getSymName().str();
  geometry.inputType = op.getAType();
  geometry.inputTypeB = op.getBType();
  geometry.outputType = op.getCType();
  geometry.bm = config.getTile()[0];
  geometry.bn = config.getTile()[1];
  geometry.bk = config.getTile()[2];
  geometry.clusterM = config.getCluster()[0];
  geometry.clusterN = config.getCluster()[1];
  geometry.ctaGroup = config.getCtaGroup();
  geometry.kGroup = config.getKGroup();
  geometry.splits = config.getSplits();
  geometry.stages = config.getStages();
  geometry.raster = config.getRaster();
  geometry.swizzle = config.getSwizzle();
  geometry.epilogueCols = 128 / getElementBytes(geometry.outputType);
  geometry.aMNMajor = op.getALayout() == Layout::col;
  geometry.bMNMajor = op.getBLayout() == Layout::row;
  geometry.cColumns = op.getCLayout() == Layout::col;
  geometry.batched = op.getBatched();
  geometry.grouped = op.getGrouped();
  geometry.general = op.getGeneral();
  return geometry;
}

bundle::DType mlir::gemm::toBundleType(Type type) {
  if (type.isBF16())
    return bundle::DType::BF16;
  if (type.isF16())
    return bundle::DType::F16;
  if (isa<Float8E4M3FNType>(type))
    return bundle::DType::E4M3;
  if (isa<Float8E5M2Type>(type))
    return bundle::DType::E5M2;
  if (type.isSignedInteger(8))
    return bundle::DType::S8;
  if (type.isUnsignedInteger(8))
    return bundle::DType::U8;
  if (type.isInteger(32))
    return bundle::DType::S32;
  return bundle::DType::F32;
}

namespace {

bundle::Param tma(bundle::Tensor tensor, int64_t inner, int64_t outer,
                  bundle::L2Promotion promotion,
                  bundle::Swizzle swizzle = bundle::Swizzle::B128) {
  bundle::TmaDescriptorParam param;
  param.tensor = tensor;
  param.box = {static_cast<uint32_t>(inner), static_cast<uint32_t>(outer)};
  param.swizzle = swizzle;
  param.l2Promotion = promotion;
  return bundle::Param::tmaDescriptor(param);
}

bundle::KernelManifest buildManifest(const TileGeometry &geometry,
                                     bundle::Arch arch, int64_t threads,
                                     int64_t smemBytes, int64_t storeBoxRows) {
  bundle::KernelManifest manifest;
  manifest.name = geometry.name;
  manifest.kernel = geometry.name;
  manifest.arch = arch;
  manifest.ptx = geometry.name + ".ptx";
  manifest.block = {static_cast<uint32_t>(threads), 1, 1};
  manifest.cluster = {static_cast<uint32_t>(geometry.clusterSize()), 1, 1};
  if (geometry.clusterSize() > 1)
    manifest.clusterTiles = {static_cast<uint32_t>(geometry.clusterM),
                             static_cast<uint32_t>(geometry.clusterN)};
  manifest.grid = bundle::GridPolicy::Persistent;
  manifest.dynamicSmemBytes = static_cast<uint32_t>(smemBytes);
  manifest.tile = {static_cast<uint32_t>(geometry.bm),
                   static_cast<uint32_t>(geometry.bn),
                   static_cast<uint32_t>(geometry.bk)};
  manifest.types.a = toBundleType(geometry.inputType);
  manifest.types.b = toBundleType(geometry.inputTypeB);
  manifest.types.c = toBundleType(geometry.outputType);
  // 8-bit integer MMA accumulates in s32, everything else in f32.
  bool int8 = geometry.inputType.isInteger(8);
  manifest.types.accumulator = int8 ? bundle::DType::S32 : bundle::DType::F32;
  manifest.layouts.a =
      geometry.aMNMajor ? bundle::Layout::Col : bundle::Layout::Row;
  manifest.layouts.b =
      geometry.bMNMajor ? bundle::Layout::Row : bundle::Layout::Col;
  manifest.layouts.c =
      geometry.cColumns ? bundle::Layout::Col : bundle::Layout::Row;
  auto [aInner, aOuter] = geometry.aBox();
  auto [bInner, bOuter] = geometry.bBox();
  manifest.params = {
      tma(bundle::Tensor::A, aInner, aOuter, bundle::L2Promotion::B256),
      tma(bundle::Tensor::B, bInner, bOuter, bundle::L2Promotion::B256),
      tma(bundle::Tensor::C, geometry.epilogueCols, storeBoxRows,
          bundle::L2Promotion::None),
      bundle::Param::problemSize(bundle::ProblemDim::M),
      bundle::Param::problemSize(bundle::ProblemDim::N),
      bundle::Param::problemSize(bundle::ProblemDim::K)};
  if (geometry.batched) {
    manifest.params.push_back(
        bundle::Param::problemSize(bundle::ProblemDim::Batch));
    manifest.params.push_back(
        bundle::Param::problemSize(bundle::ProblemDim::BatchBroadcast));
  }
  if (geometry.general) {
    manifest.params.push_back(
        bundle::Param::problemSize(bundle::ProblemDim::Groups));
    manifest.params.push_back(bundle::Param::groupProblemTable());
  } else if (geometry.grouped) {
    manifest.params.push_back(
        bundle::Param::problemSize(bundle::ProblemDim::Groups));
    manifest.params.push_back(bundle::Param::groupTable());
    manifest.params.push_back(bundle::Param::pointer(bundle::Tensor::C));
    manifest.params.push_back(bundle::Param::leadingDim(bundle::Tensor::C));
  }
  return manifest;
}

gpu::GPUFuncOp createKernelFunc(OpBuilder &b, Location loc,
                                const TileGeometry &geometry, StringRef chip,
                                int64_t threads, int64_t storeBoxRows,
                                ArrayRef<Type> extraParams) {
  MLIRContext *ctx = b.getContext();
  // wgmma of mixed s8/u8 operands needs PTX ISA 8.4, and
  // fence.proxy.tensormap (general grouped kernels) 8.3; LLVM's NVPTX back
  // end otherwise writes .version 8.0 for sm_90a.
  bool mixedIntegers = geometry.inputType.isInteger(8) &&
                       geometry.inputType != geometry.inputTypeB;
  bool newerPtx = mixedIntegers || geometry.general;
  auto gpuModule = gpu::GPUModuleOp::create(
      b, loc, geometry.name,
      b.getArrayAttr(
          {NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda",
                                     chip, newerPtx ? "+ptx84" : "")}));
  b.setInsertionPointToStart(gpuModule.getBody());
  // A batched kernel's descriptors are rank 3: one matrix of the batch per
  // box. A grouped kernel's B is (one matrix per group); its A and C are
  // one matrix of the groups' rows.
  auto descType = [&](int64_t inner, int64_t outer, Type type,
                      bool entries = false, int64_t swizzle = 128) {
    SmallVector<int64_t> box = {inner, outer};
    if (geometry.batched || entries)
      box.push_back(1);
    return TmaDescriptorType::get(ctx, type, box, swizzle);
  };
  Type i32 = b.getI32Type();
  auto [aInner, aOuter] = geometry.aBox();
  auto [bInner, bOuter] = geometry.bBox();
  SmallVector<Type> params = {
      descType(aInner, aOuter, geometry.inputType),
      descType(bInner, bOuter, geometry.inputTypeB,
               geometry.grouped && !geometry.general),
      descType(geometry.epilogueCols, storeBoxRows, geometry.outputType),
      i32,
      i32,
      i32};
  if (geometry.batched)
    params.append({i32, i32});
  if (geometry.general) {
    params.append({i32, LLVM::LLVMPointerType::get(ctx, 1)});
  } else if (geometry.grouped) {
    Type global = LLVM::LLVMPointerType::get(ctx, 1);
    params.append({i32, global, global, b.getI64Type()});
  }
  llvm::append_range(params, extraParams);
  if (geometry.narrowCColumns)
    params.push_back(descType(geometry.narrowCColumns, storeBoxRows,
                              geometry.outputType, false, /*swizzle=*/0));
  if (geometry.aBoxesPerSlice > 1)
    params.push_back(
        descType(geometry.bk, geometry.partialABoxRows(), geometry.inputType));
  auto funcType = b.getFunctionType(params, {});
  auto func = gpu::GPUFuncOp::create(b, loc, geometry.name, funcType);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr("nvvm.maxntid",
                b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  if (geometry.clusterSize() > 1)
    func->setAttr("nvvm.cluster_dim",
                  b.getDenseI32ArrayAttr(
                      {static_cast<int32_t>(geometry.clusterSize()), 1, 1}));
  func->setAttr("gemm.arch", b.getStringAttr(chip));
  SmallVector<int64_t> descriptorArgs;
  for (auto [index, type] : llvm::enumerate(params))
    if (isa<TmaDescriptorType>(type))
      descriptorArgs.push_back(static_cast<int64_t>(index));
  func->setAttr("gemm.grid_constant_args",
                b.getDenseI64ArrayAttr(descriptorArgs));
  return func;
}

} // namespace

bundle::KernelManifest mlir::gemm::buildKernel(
    OpBuilder &b, Location loc, const TileGeometry &geometry, Arch arch,
    int64_t threads, int64_t storeBoxRows,
    function_ref<void(gpu::GPUFuncOp)> buildBody, ArrayRef<Type> extraParams) {
  gpu::GPUFuncOp func = createKernelFunc(b, loc, geometry, stringifyArch(arch),
                                         threads, storeBoxRows, extraParams);
  buildBody(func);
  b.setInsertionPointToEnd(&func.getBody().back());
  gpu::ReturnOp::create(b, loc);
  int64_t smemBytes = 0;
  func.walk([&](SmemPlanOp plan) { smemBytes = plan.getTotalBytes(); });
  bundle::Arch bundleArch =
      arch == Arch::sm_90a ? bundle::Arch::Sm90a : bundle::Arch::Sm100a;
  return buildManifest(geometry, bundleArch, threads, smemBytes, storeBoxRows);
}

bundle::Param mlir::gemm::partialTileADescriptor(const TileGeometry &geometry) {
  return tma(bundle::Tensor::A, geometry.bk, geometry.partialABoxRows(),
             bundle::L2Promotion::B256);
}

bundle::Param mlir::gemm::narrowCDescriptor(const TileGeometry &geometry,
                                            int64_t storeBoxRows) {
  return tma(bundle::Tensor::C, geometry.narrowCColumns, storeBoxRows,
             bundle::L2Promotion::None, bundle::Swizzle::None);
}

LogicalResult mlir::gemm::materializeMatmuls(
    ModuleOp module, Arch arch,
    function_ref<FailureOr<bundle::KernelManifest>(MatmulOp)> materialize) {
  MLIRContext *ctx = module.getContext();
  SmallVector<MatmulOp> matmuls;
  module.walk([&](MatmulOp op) {
    if (op.getConfig().getArch() == arch)
      matmuls.push_back(op);
  });
  SmallVector<NamedAttribute> bundles;
  if (auto existing = module->getAttrOfType<DictionaryAttr>("gemm.bundles"))
    llvm::append_range(bundles, existing.getValue());

  Builder b(ctx);
  for (MatmulOp matmul : matmuls) {
    FailureOr<bundle::KernelManifest> manifest = materialize(matmul);
    if (failed(manifest))
      return failure();
    bundles.push_back(
        b.getNamedAttr(manifest->name,
                       b.getStringAttr(manifest->toJsonString(/*indent=*/-1))));
    matmul.erase();
  }
  if (!bundles.empty()) {
    module->setAttr("gemm.bundles", DictionaryAttr::get(ctx, bundles));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// KernelBuilder
//===----------------------------------------------------------------------===//

void KernelBuilder::ifThen(Value condition, function_ref<void()> body) {
  // Every thread (e.g. block-wise fp8 consumers releasing a stage): no
  // branch in the IR.
  if (matchPattern(condition, m_One())) {
    body();
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

void KernelBuilder::syncCluster() {
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
}

void KernelBuilder::readKernelArguments(Block &entry) {
  descA = entry.getArgument(0);
  descB = entry.getArgument(1);
  descC = entry.getArgument(2);
  sizeM = entry.getArgument(3);
  sizeN = entry.getArgument(4);
  sizeK = entry.getArgument(5);
  if (geometry.batched) {
    sizeBatch = entry.getArgument(6);
    broadcast = entry.getArgument(7);
  }
  if (geometry.grouped) {
    sizeGroups = entry.getArgument(6);
    groupTable = entry.getArgument(7);
  }
  if (geometry.grouped && !geometry.general) {
    pointerC = entry.getArgument(8);
    leadingDimC = entry.getArgument(9);
  }
  if (geometry.aBoxesPerSlice > 1)
    descAPartial = entry.getArguments().back();
  if (geometry.narrowCColumns)
    descCNarrow = entry.getArgument(entry.getNumArguments() - 1 -
                                    (geometry.aBoxesPerSlice > 1 ? 1 : 0));
  auto readIndex = [&](Value index) -> Value {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  };
  tid = readIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  blockId = readIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  gridSize = readIndex(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
}

void KernelBuilder::computeSchedule() {
  // Clusters are 1-D along x, so a CTA's rank is its block index modulo
  // the cluster size. Rank r sits at (r mod clusterM, r / clusterM) of the
  // cluster's clusterM x clusterN tile block.
  const TileGeometry &g = geometry;
  Value clusterSize = i32(g.clusterSize());
  clusterId = div(blockId, clusterSize);
  clusterCount = div(gridSize, clusterSize);
  rank = rem(blockId, clusterSize);
  rankM = rem(rank, i32(g.clusterM));
  rankN = div(rank, i32(g.clusterM));
  pairIndex = g.ctaGroup == 1 ? i32(0) : rem(rankM, i32(g.ctaGroup));
  pairLeader = g.ctaGroup == 1 ? rank : sub(rank, pairIndex);
  Value tilesM = arith::CeilDivUIOp::create(b, loc, sizeM, i32(g.bm));
  Value tilesN = arith::CeilDivUIOp::create(b, loc, sizeN, i32(g.bn));
  // A grouped kernel's row units are the group table's (the groups' M
  // differ; the prep kernel counted them on the device).
  // A general grouped kernel's units are numbered group by group; the
  // table's header holds their total.
  unitsM = g.grouped
               ? GroupUnitCountOp::create(b, loc, b.getI32Type(), groupTable)
                     .getResult()
               : arith::CeilDivUIOp::create(b, loc, tilesM, i32(g.clusterM))
                     .getResult();
  unitsN = g.general
               ? i32(1)
               : arith::CeilDivUIOp::create(b, loc, tilesN, i32(g.clusterN))
                     .getResult();
  unitsPerEntry = mul(unitsM, unitsN);
  unitCount = g.batched ? mul(unitsPerEntry, sizeBatch) : unitsPerEntry;
  kBlocks = arith::CeilDivUIOp::create(b, loc, sizeK, i32(g.bk));

  if (g.clusterSize() == 1)
    return;
  // A tile is shared by the CTAs of one cluster row (same rankM); a B tile
  // (or, for MMA pairs, one half of it) by those of one cluster column at
  // the same position in their pairs.
  Value maskA = i32(0);
  for (int64_t j = 0; j < g.clusterN; ++j)
    maskA = arith::OrIOp::create(b, loc, maskA, rankBit(rankM, j));
  int64_t bPattern = 0;
  for (int64_t j = 0; j < g.clusterM / g.ctaGroup; ++j)
    bPattern |= int64_t(1) << (j * g.ctaGroup);
  Value bShift = mul(rankN, i32(g.clusterM));
  if (g.ctaGroup != 1)
    bShift = add(pairIndex, bShift);
  Value maskB = arith::ShLIOp::create(b, loc, i32(bPattern), bShift);
  if (g.ctaGroup == 1) {
    releaseMask = arith::OrIOp::create(b, loc, maskA, maskB);
  } else {
    // The pair's MMA reads both CTAs' slots, so it frees the slots of every
    // CTA that writes into either: both cluster rows of the pair and the
    // whole cluster column.
    Value rows = i32(0);
    Value leaderM = sub(rankM, pairIndex);
    for (int64_t j = 0; j < g.clusterN; ++j)
      for (int64_t p = 0; p < g.ctaGroup; ++p)
        rows = arith::OrIOp::create(b, loc, rows,
                                    rankBit(add(leaderM, i32(p)), j));
    Value column =
        arith::ShLIOp::create(b, loc, i32((int64_t(1) << g.clusterM) - 1),
                              mul(rankN, i32(g.clusterM)));
    releaseMask = arith::OrIOp::create(b, loc, rows, column);
  }
  if (g.clusterN > 1 || g.ctaGroup == 1)
    multicastA = toMask(maskA);
  if (g.clusterM / g.ctaGroup > 1 || g.ctaGroup == 1)
    multicastB = toMask(maskB);
}

Value KernelBuilder::buildArrival(Value acc, Value block, Value counter,
                                  Value arrivals, Value warpgroup,
                                  Value isLeader) {
  AccumStoreGlobalOp::create(b, loc, acc, partials, block);
  // Every thread's partial is stored before the leader counts it in; the
  // barrier's OR then tells the whole warpgroup whether it was the last.
  Value barrierId = add(warpgroup, i32(1));
  NVVM::BarrierOp::create(b, loc, Type(), barrierId, i32(kWarpgroupThreads),
                          nullptr, Value());
  auto arrive = scf::IfOp::create(b, loc, b.getI1Type(), isLeader,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(arrive.thenBlock());
    scf::YieldOp::create(b, loc,
                         SplitKArriveOp::create(b, loc, b.getI1Type(), counters,
                                                counter, arrivals)
                             .getResult());
    b.setInsertionPointToStart(arrive.elseBlock());
    scf::YieldOp::create(b, loc, i1(false));
  }
  return BarrierAnyOp::create(b, loc, b.getI1Type(), arrive.getResult(0),
                              barrierId, b.getI64IntegerAttr(kWarpgroupThreads));
}

std::array<::gemm::bundle::Param, 2> mlir::gemm::sharedTileWorkspaceParams(
    ::gemm::bundle::WorkspaceParam partialTiles) {
  return {::gemm::bundle::Param::workspaceBuffer(partialTiles),
          ::gemm::bundle::Param::workspaceBuffer(
              {static_cast<uint64_t>(TileGeometry::kCounterBytesPerTile), 0,
               true})};
}

::gemm::bundle::WorkspaceParam
mlir::gemm::splitKPartialTiles(const TileGeometry &geometry) {
  ::gemm::bundle::WorkspaceParam partialTiles;
  partialTiles.bytesPerTile =
      static_cast<uint64_t>(geometry.partialBytesPerTile());
  return partialTiles;
}

Value KernelBuilder::rankBit(Value m, int64_t n) {
  return arith::ShLIOp::create(b, loc, i32(1),
                               add(m, i32(n * geometry.clusterM)));
}

Value KernelBuilder::batchOf(Value unit) {
  return geometry.batched ? div(unit, unitsPerEntry) : Value();
}

std::pair<Value, Value> KernelBuilder::tileOrigin(Value unit) {
  // Raster order and swizzle walk the units of one batch entry.
  Value inEntry = geometry.batched ? rem(unit, unitsPerEntry) : unit;
  auto coords = StaticTileOp::create(
      b, loc, b.getI32Type(), b.getI32Type(), inEntry, unitsM, unitsN,
      RasterAttr::get(b.getContext(), geometry.raster),
      b.getI64IntegerAttr(geometry.swizzle));
  Value tileM = add(mul(coords.getM(), i32(geometry.clusterM)), rankM);
  Value tileN = add(mul(coords.getN(), i32(geometry.clusterN)), rankN);
  return {mul(tileM, i32(geometry.bm)), mul(tileN, i32(geometry.bn))};
}

Value KernelBuilder::findGroup(Value unit) {
  // Invariant: first[lo] <= unit (first[0] = 0), and the answer is below
  // hi. Empty groups share their first unit with the next group; the last
  // g with first[g] <= unit < total has units.
  Type i32Type = b.getI32Type();
  auto loop = scf::WhileOp::create(b, loc, TypeRange{i32Type, i32Type},
                                   ValueRange{i32(0), sizeGroups});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before =
        b.createBlock(&loop.getBefore(), {}, {i32Type, i32Type}, {loc, loc});
    Value lo = before->getArgument(0), hi = before->getArgument(1);
    Value wide = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                       sub(hi, lo), i32(1));
    scf::ConditionOp::create(b, loc, wide, ValueRange{lo, hi});
    Block *after =
        b.createBlock(&loop.getAfter(), {}, {i32Type, i32Type}, {loc, loc});
    lo = after->getArgument(0);
    hi = after->getArgument(1);
    Value mid = add(lo, div(sub(hi, lo), i32(2)));
    Value first = GroupProblemOp::create(b, loc, i32Type, i32Type, i32Type,
                                         i32Type, groupTable, mid)
                      .getFirstUnit();
    Value below =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, first, unit);
    scf::YieldOp::create(
        b, loc, ValueRange{select(below, mid, lo), select(below, hi, mid)});
  }
  return loop.getResult(0);
}

Value KernelBuilder::groupDescriptor(Value group, int64_t operand,
                                     bool acquire) {
  Value param = operand == 0 ? descA : operand == 1 ? descB : descC;
  Value descriptor =
      TmaGroupDescriptorOp::create(b, loc, param.getType(), groupTable, group,
                                   sizeGroups, b.getI64IntegerAttr(operand));
  if (acquire)
    TmaAcquireDescriptorOp::create(b, loc, descriptor);
  return descriptor;
}

KernelBuilder::TileLocation KernelBuilder::locateTile(Value unit) {
  if (geometry.general) {
    Type i32Type = b.getI32Type();
    Value group = findGroup(unit);
    auto problem = GroupProblemOp::create(b, loc, i32Type, i32Type, i32Type,
                                          i32Type, groupTable, group);
    auto ceilDiv = [&](Value x, int64_t y) -> Value {
      return arith::CeilDivUIOp::create(b, loc, x, i32(y));
    };
    Value groupUnitsM =
        ceilDiv(problem.getM(), geometry.bm * geometry.clusterM);
    Value groupUnitsN =
        ceilDiv(problem.getN(), geometry.bn * geometry.clusterN);
    auto coords = StaticTileOp::create(
        b, loc, i32Type, i32Type, sub(unit, problem.getFirstUnit()),
        groupUnitsM, groupUnitsN,
        RasterAttr::get(b.getContext(), geometry.raster),
        b.getI64IntegerAttr(geometry.swizzle));
    Value tileM = add(mul(coords.getM(), i32(geometry.clusterM)), rankM);
    Value tileN = add(mul(coords.getN(), i32(geometry.clusterN)), rankN);
    return {mul(tileM, i32(geometry.bm)),
            mul(tileN, i32(geometry.bn)),
            Value(),
            Value(),
            group,
            ceilDiv(problem.getK(), geometry.bk)};
  }
  if (!geometry.grouped) {
    auto [originM, originN] = tileOrigin(unit);
    return {originM, originN, batchOf(unit), Value()};
  }
  auto coords = StaticTileOp::create(
      b, loc, b.getI32Type(), b.getI32Type(), unit, unitsM, unitsN,
      RasterAttr::get(b.getContext(), geometry.raster),
      b.getI64IntegerAttr(geometry.swizzle));
  auto rows = GroupUnitOp::create(b, loc, b.getI32Type(), b.getI32Type(),
                                  b.getI32Type(), groupTable, coords.getM());
  Value originM = add(rows.getRowBegin(), mul(rankM, i32(geometry.bm)));
  Value tileN = add(mul(coords.getN(), i32(geometry.clusterN)), rankN);
  return {originM, mul(tileN, i32(geometry.bn)), rows.getGroup(),
          rows.getRowEnd()};
}

Value KernelBuilder::forEachStaticUnit(
    function_ref<void(Value unit, Value count)> body) {
  auto units = scf::ForOp::create(b, loc, clusterId, unitCount, clusterCount,
                                  ValueRange{i32(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(units.getBody());
  Value count = units.getRegionIterArgs()[0];
  body(units.getInductionVar(), count);
  scf::YieldOp::create(b, loc, add(count, i32(1)));
  return units.getResult(0);
}

void KernelBuilder::loadStage(Value pipeline, Value ringA, Value ringB,
                              Value iteration, Value group, Value originM,
                              Value originN, Value batch) {
  const TileGeometry &g = geometry;
  // The batch entry each operand is read at: a broadcast operand (batch
  // stride 0) has one entry, read at 0 (its descriptor has one entry: a
  // zero stride is not a TMA stride).
  auto entryOf = [&](int64_t bit) -> Value {
    if (!batch)
      return Value();
    Value broadcasts =
        ne(arith::AndIOp::create(b, loc, broadcast, i32(bit)), i32(0));
    return select(broadcasts, i32(0), batch);
  };
  // A grouped kernel reads A at the group's rows (rank 2) and B at the
  // group's entry.
  Value batchA = geometry.grouped ? Value() : entryOf(1);
  Value batchB = geometry.grouped && !geometry.general ? batch : entryOf(2);
  IntegerAttr ctaGroup =
      g.ctaGroup == 1 ? IntegerAttr() : b.getI64IntegerAttr(g.ctaGroup);
  ProducerAcquireOp::create(b, loc, pipeline, iteration);
  ProducerCommitOp::create(b, loc, pipeline, iteration,
                           b.getI64IntegerAttr(g.stageBytes()), ctaGroup);
  Value stage = rem(iteration, i32(g.stages));
  // A CTA loads the whole tile, or its slice of it for the CTAs sharing
  // the tile (`sharing` of them; this one is `index`th), into the slot at
  // `origin` + `first` rows. K-major: one box of the slice's rows. MN-major:
  // one box per block of `span` rows, each of the slice's K lines.
  auto loadTile = [&](Value desc, Value origin, Value first, Value ring,
                      Value slot, Value k, int64_t sharing, Value index,
                      int64_t sliceRows, bool mnMajor, int64_t rows,
                      Value multicast, Value entry) {
    Value start = first ? add(origin, first) : origin;
    Value mask = sharing == 1 ? Value() : multicast;
    if (mnMajor) {
      Value kLine = sharing == 1 ? Value() : mul(index, i32(g.bk / sharing));
      Value outer = kLine ? add(k, kLine) : k;
      for (int64_t block = 0; block < rows / g.span(); ++block) {
        Value row = rows == g.span() ? Value() : i32(block * g.span());
        TmaLoadOp::create(b, loc, desc, row ? add(start, row) : start, outer,
                          entry, ring, slot, row, kLine, pipeline, iteration,
                          mask, /*issue=*/Value(), ctaGroup);
      }
      return;
    }
    if (sharing == 1) {
      TmaLoadOp::create(b, loc, desc, k, start, entry, ring, slot,
                        /*row=*/Value(), /*kOffset=*/Value(), pipeline,
                        iteration, /*multicastMask=*/Value(),
                        /*issue=*/Value(), ctaGroup);
      return;
    }
    Value row = mul(index, i32(sliceRows));
    TmaLoadOp::create(b, loc, desc, k, add(start, row), entry, ring, slot, row,
                      /*kOffset=*/Value(), pipeline, iteration, mask,
                      /*issue=*/Value(), ctaGroup);
  };
  // A tile whose last boxes lie past row M (one CTA, no multicast) loads its
  // A in small boxes: the first always holds rows of the tile; a later one
  // is loaded only if it starts below M. Both branches deliver the same
  // bytes.
  auto loadPartialA = [&](Value slot, Value k) {
    int64_t rows = g.partialABoxRows();
    for (int64_t box = 0; box < g.aBoxesPerSlice; ++box) {
      Value row = i32(box * rows);
      Value start = box == 0 ? originM : add(originM, row);
      Value issue =
          box == 0 ? Value()
                   : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           start, sizeM);
      TmaLoadOp::create(b, loc, descAPartial, k, start, batchA, ringA, slot,
                        row, /*kOffset=*/Value(), pipeline, iteration,
                        /*multicastMask=*/Value(), issue, ctaGroup);
    }
  };
  // One box where the tile's last box holds a row below M (every box would
  // be loaded); small boxes only where some can be skipped.
  Value wholeTileA;
  if (g.aBoxesPerSlice > 1)
    wholeTileA = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        add(originM, i32(g.bm - g.partialABoxRows())), sizeM);
  // An MMA pair's CTAs each hold one half of B; the CTAs of a cluster
  // column that hold the same half share it.
  Value bFirst = g.ctaGroup == 1 ? Value() : mul(pairIndex, i32(g.bRows()));
  Value bIndex = g.ctaGroup == 1 ? rankM : div(rankM, i32(g.ctaGroup));
  for (int64_t i = 0; i < g.kGroup; ++i) {
    Value slot = g.kGroup == 1 ? stage : add(mul(stage, i32(g.kGroup)), i32(i));
    Value kBlock =
        g.kGroup == 1 ? group : add(mul(group, i32(g.kGroup)), i32(i));
    Value k = mul(kBlock, i32(g.bk));
    auto loadWholeA = [&] {
      loadTile(descA, originM, Value(), ringA, slot, k, g.clusterN, rankN,
               g.aSliceRows(), g.aMNMajor, g.bm, multicastA, batchA);
    };
    if (g.aBoxesPerSlice == 1) {
      loadWholeA();
    } else {
      auto whole = scf::IfOp::create(b, loc, wholeTileA, /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(whole.thenBlock());
      loadWholeA();
      b.setInsertionPointToStart(whole.elseBlock());
      loadPartialA(slot, k);
    }
    loadTile(descB, originN, bFirst, ringB, slot, k, g.clusterM / g.ctaGroup,
             bIndex, g.bSliceRows(), g.bMNMajor, g.bRows(), multicastB, batchB);
  }
}
