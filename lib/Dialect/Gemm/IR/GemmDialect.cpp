//===- GemmDialect.cpp - gemm dialect, attributes and types --------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gemm;

#include "gemm/Dialect/Gemm/IR/GemmEnums.cpp.inc"
#include "gemm/Dialect/Gemm/IR/GemmOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmOpsTypes.cpp.inc"

void GemmDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "gemm/Dialect/Gemm/IR/GemmOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gemm/Dialect/Gemm/IR/GemmAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "gemm/Dialect/Gemm/IR/GemmOpsTypes.cpp.inc"
      >();
}

int64_t mlir::gemm::getElementBytes(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return (intType.getWidth() + 7) / 8;
  if (auto floatType = dyn_cast<FloatType>(type))
    return (floatType.getWidth() + 7) / 8;
  return 0;
}

bool mlir::gemm::isSupportedInputType(Type type) {
  return isa<BFloat16Type, Float16Type, Float8E4M3FNType, Float8E5M2Type>(type);
}

FailureOr<SmallVector<int64_t>>
mlir::gemm::parseBracketedIntegers(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

void mlir::gemm::printBracketedIntegers(AsmPrinter &printer,
                                        ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

static bool isValidSwizzle(int64_t swizzle) {
  return swizzle == 0 || swizzle == 32 || swizzle == 64 || swizzle == 128;
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Arch arch, ArrayRef<int64_t> tile,
                                 ArrayRef<int64_t> cluster, int64_t stages,
                                 Schedule schedule, TileScheduler scheduler,
                                 Raster raster, int64_t swizzle,
                                 int64_t accumStages, int64_t ctaGroup,
                                 int64_t kGroup, int64_t splits) {
  if (tile.size() != 3 || llvm::any_of(tile, [](int64_t v) { return v <= 0; }))
    return emitError() << "tile must be three positive sizes [BM, BN, BK]";
  if (cluster.size() != 2 ||
      llvm::any_of(cluster, [](int64_t v) { return v <= 0; }))
    return emitError()
           << "cluster must be two positive sizes [along M, along N]";
  // Each size first: their product could overflow.
  if (cluster[0] > 8 || cluster[1] > 8)
    return emitError() << "cluster [" << cluster[0] << ", " << cluster[1]
                       << "] exceeds the portable limit of 8 CTAs";
  if (cluster[0] * cluster[1] > 8)
    return emitError() << "cluster of " << cluster[0] * cluster[1]
                       << " CTAs exceeds the portable limit of 8";
  if (stages < 0 || stages == 1)
    return emitError() << "stages must be 0 (derive from the shared-memory "
                          "budget) or at least 2, got "
                       << stages;
  if (swizzle < 1 || swizzle > ::gemm::bundle::MaxRasterSwizzle)
    return emitError() << "swizzle must be in [1, "
                       << ::gemm::bundle::MaxRasterSwizzle << "] tiles, got "
                       << swizzle;
  if (accumStages < 1 || accumStages > 4)
    return emitError() << "accum_stages must be in [1, 4], got " << accumStages;
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "cta_group must be 1 or 2, got " << ctaGroup;
  if (kGroup < 1 || kGroup > 8)
    return emitError() << "k_group must be in [1, 8], got " << kGroup;
  if (splits < 1 || splits > 16)
    return emitError() << "splits must be in [1, 16], got " << splits;
  if (scheduler == TileScheduler::split_k && splits < 2)
    return emitError() << "scheduler = split_k needs splits >= 2 (the "
                          "k-ranges each tile is cut into)";
  if (scheduler != TileScheduler::split_k && splits != 1)
    return emitError() << "splits = " << splits << " needs scheduler = split_k";
  if (arch == Arch::sm_90a) {
    if (schedule == Schedule::warp_roles)
      return emitError()
             << "schedule warp_roles is the SM100 kernel structure; "
                "use cooperative or pingpong for sm_90a";
    if (scheduler == TileScheduler::clc)
      return emitError() << "the clc scheduler (cluster launch control) needs "
                            "sm_100a; use static_persistent for sm_90a";
    if (ctaGroup != 1)
      return emitError() << "cta_group 2 (MMA across a CTA pair) needs sm_100a";
    if (kGroup != 1)
      return emitError() << "k_group is implemented for sm_100a kernels; "
                            "sm_90a kernels use k_group = 1";
    if (schedule == Schedule::direct) {
      if (cluster[0] != 1 || cluster[1] != 1)
        return emitError() << "schedule = direct runs one CTA per tile and "
                              "shares no operand across CTAs; use cluster = "
                              "[1, 1]";
      if (scheduler != TileScheduler::static_persistent &&
          scheduler != TileScheduler::split_k)
        return emitError() << "schedule = direct launches one CTA per tile "
                              "(or per k-range of one, with scheduler = "
                              "split_k); the "
                           << stringifyTileScheduler(scheduler)
                           << " scheduler is for the TMA kernels";
      if (stages != 0 && stages != 2)
        return emitError() << "schedule = direct double-buffers its k-blocks "
                              "in shared memory: stages must be 0 or 2, got "
                           << stages;
    }
  }
  if (arch == Arch::sm_100a) {
    if (schedule != Schedule::warp_roles)
      return emitError() << "sm_100a kernels use schedule warp_roles";
    if (scheduler == TileScheduler::split_k ||
        scheduler == TileScheduler::stream_k)
      return emitError() << "the " << stringifyTileScheduler(scheduler)
                         << " scheduler is not implemented for sm_100a; use "
                            "static_persistent or clc";
    // The CTAs of an MMA pair are neighbours along M inside the cluster.
    if (ctaGroup == 2 && cluster[0] % 2 != 0)
      return emitError() << "cta_group 2 pairs the CTAs of a cluster along "
                            "M, so the cluster's M size must be even, got "
                         << cluster[0] << "; use cluster = [2, " << cluster[1]
                         << "]";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult
TmaDescriptorType::verify(function_ref<InFlightDiagnostic()> emitError,
                          Type elementType, ArrayRef<int64_t> box,
                          int64_t swizzle) {
  int64_t elementBytes = getElementBytes(elementType);
  if (elementBytes == 0)
    return emitError() << "TMA element type must be an integer or float, got "
                       << elementType;
  if (box.size() != 2 && box.size() != 3)
    return emitError() << "TMA box must have 2 dimensions (3 for a batch of "
                          "matrices), got "
                       << box.size();
  if (box.size() == 3 && box[2] != 1)
    return emitError() << "a batched TMA box holds one matrix of the batch "
                          "(third dimension 1), got "
                       << box[2];
  for (int64_t dim : box)
    if (dim < 1 || dim > 256)
      return emitError() << "TMA box dimensions must be in [1, 256], got "
                         << dim;
  if (!isValidSwizzle(swizzle))
    return emitError() << "swizzle must be 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  int64_t innerBytes = box[0] * elementBytes;
  if (innerBytes % 16 != 0)
    return emitError() << "TMA box inner dimension must span a multiple of 16 "
                          "bytes, got "
                       << innerBytes;
  if (swizzle != 0 && innerBytes > swizzle)
    return emitError() << "TMA box inner dimension of " << innerBytes
                       << " bytes exceeds the " << swizzle
                       << "-byte swizzle span";
  return success();
}

int64_t TmaDescriptorType::getBoxBytes() const {
  int64_t elements = 1;
  for (int64_t dim : getBox())
    elements *= dim;
  return elements * getElementBytes(getElementType());
}

LogicalResult
SmemBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t stages, int64_t rows, int64_t cols,
                       Type elementType, int64_t swizzle, Major major) {
  if (stages < 1 || rows < 1 || cols < 1)
    return emitError() << "shared-memory buffer sizes must be positive";
  // Far above any buffer that fits the 227 KB budget, and small enough that
  // the byte counts (stages x rows x cols x element bytes) cannot overflow.
  constexpr int64_t kMaxSize = 1 << 16;
  if (stages > kMaxSize || rows > kMaxSize || cols > kMaxSize)
    return emitError() << "shared-memory buffer sizes must be at most "
                       << kMaxSize << ", got " << stages << " x " << rows
                       << " x " << cols;
  int64_t elementBytes = getElementBytes(elementType);
  if (elementBytes == 0)
    return emitError() << "shared-memory element type must be an integer or "
                          "float, got "
                       << elementType;
  if (!isValidSwizzle(swizzle))
    return emitError() << "swizzle must be 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  if (major == Major::mn) {
    // Blocks of one swizzle span of M (N) elements, each a column of K
    // lines grouped by 8 (the swizzle atom).
    if (swizzle == 0)
      return emitError() << "an MN-major buffer needs a swizzle (its blocks "
                            "are swizzle spans of M or N elements)";
    if (rows * elementBytes % swizzle != 0)
      return emitError() << "an MN-major buffer needs rows that make whole "
                         << swizzle << "-byte swizzle spans, got " << rows
                         << " x " << elementType;
    if (cols % 8 != 0)
      return emitError() << "an MN-major swizzled buffer needs a multiple of 8 "
                            "columns (K lines of one swizzle atom), got "
                         << cols;
    return success();
  }
  int64_t rowBytes = cols * elementBytes;
  if (swizzle != 0 && rowBytes != swizzle)
    return emitError() << "a " << swizzle
                       << "-byte swizzled buffer needs rows of exactly "
                       << swizzle << " bytes, got " << rowBytes;
  if (swizzle != 0 && rows % 8 != 0)
    return emitError() << "a swizzled buffer needs a multiple of 8 rows, got "
                       << rows;
  return success();
}

int64_t SmemBufferType::getStageBytes() const {
  return getRows() * getCols() * getElementBytes(getElementType());
}

int64_t SmemBufferType::getSpanRows() const {
  return getSwizzle() / getElementBytes(getElementType());
}

int64_t SmemBufferType::getBlockBytes() const {
  return getCols() * getSwizzle();
}

LogicalResult PipelineType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t stages, int64_t producers,
                                   int64_t consumers) {
  if (stages < 1)
    return emitError() << "pipeline needs at least one stage, got " << stages;
  // Far above any ring that fits the shared-memory budget, and small enough
  // that its barriers' byte count (16 per stage) cannot overflow and its
  // initialisation (two mbarrier.init per stage) stays short.
  constexpr int64_t kMaxStages = 1024;
  if (stages > kMaxStages)
    return emitError() << "pipeline stages must be at most " << kMaxStages
                       << ", got " << stages;
  if (producers < 1 || consumers < 1)
    return emitError() << "pipeline arrival counts must be positive";
  return success();
}

LogicalResult
AccumulatorType::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t rows, int64_t cols, Type elementType) {
  if (!elementType.isF32() && !elementType.isSignlessInteger(32))
    return emitError() << "accumulators are f32 (or signless i32 for 8-bit "
                          "integer MMA), got "
                       << elementType;
  if (rows < 64 || rows % 64 != 0)
    return emitError() << "accumulator rows must be a multiple of 64 (one "
                          "WGMMA atom), got "
                       << rows;
  if (cols < 8 || cols > 256 || cols % 8 != 0)
    return emitError() << "accumulator columns must be a multiple of 8 in "
                          "[8, 256] (a WGMMA N), got "
                       << cols;
  return success();
}
