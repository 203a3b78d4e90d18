//===- GemmOps.cpp - gemm dialect operations -----------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "AccumValueRange.h"
#include "gemm/Dialect/Gemm/IR/WgmmaTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

using namespace mlir;
using namespace mlir::gemm;

LogicalResult mlir::gemm::verifyEpilogueRegion(Operation *op, Region &region,
                                               Type accType, Type resultType) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return op->emitOpError("epilogue region must have one block");
  Block &block = region.front();
  if (block.empty() || !block.mightHaveTerminator())
    return op->emitOpError("epilogue region must end with gemm.yield");
  if (block.getNumArguments() != 1 || block.getArgument(0).getType() != accType)
    return op->emitOpError("epilogue region must take one ")
           << accType << " accumulator value";
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues()[0].getType() != resultType)
    return op->emitOpError("epilogue region must yield one ")
           << resultType << " value";
  // The region is cloned into every thread's store of every sub-tile, in a
  // kernel of either arch: it may only compute (an op with a memory effect,
  // a barrier or an arch-specific instruction, say, has no place there).
  for (Operation &inner : block.without_terminator()) {
    if (isMemoryEffectFree(&inner))
      continue;
    return op->emitOpError("epilogue region ops must be free of memory "
                           "effects (arithmetic on the accumulator value), "
                           "got '")
           << inner.getName() << "'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  // The symbol names the kernel (a PTX .entry, whose identifiers take no
  // spaces or dots) and its bundle files (NAME.ptx, NAME.json: no path
  // separators).
  StringRef name = getSymName();
  auto identifierChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (name.empty() || llvm::isDigit(name.front()) ||
      !llvm::all_of(name, identifierChar))
    return emitOpError("symbol @\"")
           << name
           << "\" must be an identifier ([A-Za-z_][A-Za-z0-9_]*): it names "
              "the PTX kernel and its bundle files";
  Type aType = getAType(), cType = getCType();
  // The element types and scales; on sm_90a also that 8-bit and tf32
  // operands are K-major (WGMMA transposes only 16-bit operands).
  if (failed(verifyMatmulTypes(*this)))
    return failure();

  ConfigAttr config = getConfig();
  ArrayRef<int64_t> tile = config.getTile();
  int64_t bm = tile[0], bn = tile[1], bk = tile[2];
  int64_t elementBytes = getElementBytes(aType);
  if (failed(verifyLayouts()) || failed(verifyBatched()) ||
      failed(verifyGrouped()))
    return failure();
  // Compared as a quotient: bk x element bytes could overflow.
  if (bk != 128 / elementBytes)
    return emitOpError("tile K of ")
           << bk << " must span 128 bytes of " << aType
           << " (one 128-byte swizzle row): use BK = " << 128 / elementBytes;
  if (config.getArch() == Arch::sm_90a) {
    if (bm % 64 != 0 || bm > 256)
      return emitOpError("tile M of ")
             << bm
             << " is not a multiple of the 64-row WGMMA atom (64, 128, "
                "192 or 256)";
    WgmmaOperands mma = *getWgmmaOperands(aType, getBType());
    if (!mma.isLegalN(bn))
      return emitOpError("tile N of ")
             << bn << " is not a legal WGMMA N (" << mma.legalNRule() << ")";
    if (config.getSchedule() == Schedule::pingpong && bm > 128)
      return emitOpError("pingpong gives each consumer warpgroup a whole "
                         "tile; tile M must be 64 or 128, got ")
             << bm;
  } else {
    // The epilogue reads TMEM with tcgen05.ld .32x32b, the layout of an
    // M = 128 accumulator in each CTA.
    if (bm != 128)
      return emitOpError("sm_100a tiles have M = 128 rows per CTA (the "
                         "128-lane accumulator layout the epilogue reads), "
                         "got ")
             << bm;
    // M = 128 (cta_group 1) and M = 256 (cta_group 2) both take N in
    // steps of 16 up to 256.
    if (bn % 16 != 0 || bn > 256)
      return emitOpError("tile N of ")
             << bn << " is not a legal tcgen05.mma N for M = "
             << bm * config.getCtaGroup() << " (a multiple of 16 in [16, 256])";
    int64_t columns = config.getAccumStages() * bn;
    if (columns > 512)
      return emitOpError("accum_stages = ")
             << config.getAccumStages() << " accumulators of N = " << bn
             << " need " << columns
             << " TMEM columns, over the 512 a CTA has: use fewer "
                "accum_stages or a narrower tile";
  }
  ArrayRef<int64_t> cluster = config.getCluster();
  // Multicast splits the shared operand's box into one slice per CTA of the
  // cluster row/column; each slice must stay a whole number of 8-line
  // swizzle atoms. A K-major operand is sliced along M or N, an MN-major one
  // along K (its blocks are one swizzle span of M or N wide; narrower slices
  // would not land in the swizzled layout).
  auto verifySlices = [&](int64_t lines, const char *dim, const char *operand,
                          int64_t ctas,
                          const char *clusterDim) -> LogicalResult {
    if (lines % (8 * ctas) == 0)
      return success();
    return emitOpError("tile ")
           << dim << " of " << lines << " cannot be split into " << ctas
           << " multicast slices of whole 8-line swizzle atoms of " << operand
           << " (cluster " << clusterDim << " = " << ctas
           << "): use a cluster that divides " << lines / 8;
  };
  if (failed(getBLayout() == Layout::row
                 ? verifySlices(bk, "K", "the N-major B", cluster[0], "M")
                 : verifySlices(bn, "N", "B", cluster[0], "M")))
    return failure();
  if (failed(getALayout() == Layout::col
                 ? verifySlices(bk, "K", "the M-major A", cluster[1], "N")
                 : verifySlices(bm, "M", "A", cluster[1], "N")))
    return failure();
  return verifyEpilogueRegion(getOperation(), getEpilogue(),
                              getEpilogueValueType(),
                              getEpilogueResultType(cType));
}

LogicalResult MatmulOp::verifyBatched() {
  if (!getBatched())
    return success();
  if (getConfig().getArch() != Arch::sm_90a)
    return emitOpError("batched is implemented for sm_90a kernels");
  // The batched kernels address their entries through rank-3 TMA
  // descriptors; the direct kernel takes plain pointers and has no batch.
  if (getConfig().getSchedule() == Schedule::direct)
    return emitOpError("schedule = direct has no batched form (it takes "
                       "plain pointers, one problem a launch): use "
                       "schedule = cooperative or pingpong for a batch");
  // One scale tensor serves every entry of the batch: per-tensor scales
  // (and the fp8 output's scale and amax) are those of the whole batch;
  // per-row, per-column and block scales would need a batch dimension.
  QuantAttr quant = getQuantOrDefault();
  if (quant.getA() != ScaleMode::none && quant.getA() != ScaleMode::tensor)
    return emitOpError("batched kernels take per-tensor scales (one for the "
                       "whole batch); a = ")
           << stringifyScaleMode(quant.getA())
           << " is not implemented: use a = tensor, or one kernel call per "
              "batch entry";
  if (quant.getB() != ScaleMode::none && quant.getB() != ScaleMode::tensor)
    return emitOpError("batched kernels take per-tensor scales (one for the "
                       "whole batch); b = ")
           << stringifyScaleMode(quant.getB())
           << " is not implemented: use b = tensor, or one kernel call per "
              "batch entry";
  return success();
}

LogicalResult MatmulOp::verifyGrouped() {
  if (getGeneral() && !getGrouped())
    return emitOpError("`general` is a form of grouped kernels: write "
                       "grouped(general)");
  if (!getGrouped())
    return success();
  ConfigAttr config = getConfig();
  if (getBatched())
    return emitOpError("grouped and batched exclude each other (a grouped "
                       "kernel's B is already a batch of G matrices): use one");
  if (config.getArch() != Arch::sm_90a)
    return emitOpError("grouped is implemented for sm_90a kernels");
  if (config.getSchedule() == Schedule::direct)
    return emitOpError("schedule = direct has no grouped form (it takes "
                       "plain pointers, one problem a launch): use schedule "
                       "= cooperative or pingpong for a grouped problem");
  if (config.getScheduler() != TileScheduler::static_persistent)
    return emitOpError("grouped kernels walk the groups' tiles with the "
                       "static persistent scheduler; scheduler = ")
           << stringifyTileScheduler(config.getScheduler())
           << " is not implemented for them: use scheduler = "
              "static_persistent";
  Type aType = getAType();
  if (!(aType.isBF16() || aType.isF16()) || getBType() != aType)
    return emitOpError("grouped kernels take bf16 or f16 operands (both the "
                       "same), got ")
           << aType << " and " << getBType();
  // Types spelled as in the op's syntax (a diagnostic quotes a Type).
  auto spelled = [](Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    return text;
  };
  // A general grouped kernel has three descriptors of its own per group,
  // so every storage order the plain kernel takes is one it takes too (the
  // prep kernel orders each descriptor's dims by the op's layouts).
  if (getGeneral())
    return success();
  // A's rows of one group are a range of the [sum of M, K] matrix; the
  // kernel reads them K-major, one row offset per group.
  if (getALayout() != Layout::row)
    return emitOpError("grouped kernels read A as [sum of M, K] rows "
                       "(K-major): use a(")
           << spelled(aType) << ", row)";
  // The crossing tiles' masked stores and the TMA stores both write rows
  // of C; a column-major C would need both transposed.
  if (getCLayout() != Layout::row)
    return emitOpError("grouped kernels write C as [sum of M, N] rows: use "
                       "c(")
           << spelled(getCType()) << ", row)";
  return success();
}

LogicalResult MatmulOp::verifyLayouts() {
  bool aMMajor = getALayout() == Layout::col;
  bool bNMajor = getBLayout() == Layout::row;
  bool cColumns = getCLayout() == Layout::col;
  if (!aMMajor && !bNMajor && !cColumns)
    return success();
  std::string layouts = "a(" + stringifyLayout(getALayout()).str() + ") b(" +
                        stringifyLayout(getBLayout()).str() + ") c(" +
                        stringifyLayout(getCLayout()).str() + ")";
  if (getConfig().getArch() != Arch::sm_90a)
    return emitOpError(layouts)
           << " is implemented for sm_90a; sm_100a kernels take a(row) "
              "b(col) c(row) (K-major A and B, row-major C)";
  // That 8-bit and tf32 A and B are K-major (WGMMA transposes only 16-bit
  // operands) is checked with the types (verifyMatmulTypes).
  Type aType = getAType();
  // The transposed staging of a column-major C holds 4- and 2-byte values:
  // a 128-column fp8 sub-tile would be 128 lines of 64 bytes.
  if (cColumns && getElementBytes(getCType()) == 1)
    return emitOpError(layouts)
           << ": a column-major " << getCType()
           << " C is not implemented (the epilogue stages fp8 sub-tiles "
              "row-major only): use c(row) and transpose the result, or a "
              "bf16/f16/f32 C";
  int64_t bn = getConfig().getTile()[1];
  int64_t span = 128 / getElementBytes(aType);
  // The direct kernel loads element by element into K-major shared memory
  // whatever the layout: no TMA block constraint.
  if (bNMajor && bn % span != 0 &&
      getConfig().getSchedule() != Schedule::direct)
    return emitOpError("an N-major B (b(row)) is loaded in blocks of ")
           << span << " columns (one 128-byte swizzle span); tile N of " << bn
           << " is not a multiple";
  return success();
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  int64_t consumers = getConsumers();
  if (consumers < 1 || consumers > 3)
    return emitOpError("needs 1 to 3 consumer warpgroups, got ") << consumers;
  for (int64_t regs : {getProducerRegs(), getConsumerRegs()})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError("setmaxnreg register counts must be multiples of 8 "
                         "in [24, 256], got ")
             << regs;
  int64_t total = 128 * (getProducerRegs() + consumers * getConsumerRegs());
  if (total > 65536)
    return emitOpError("register budget does not fit: 128 * (")
           << getProducerRegs() << " + " << consumers << " * "
           << getConsumerRegs() << ") = " << total
           << " registers exceeds the 65536-register file";
  if (getConsumer().front().getNumArguments() != 1 ||
      !getConsumer().front().getArgument(0).getType().isInteger(32))
    return emitOpError("consumer region must take the consumer index (i32)");
  if (getProducer().front().getNumArguments() != 0)
    return emitOpError("producer region takes no arguments");
  return success();
}

//===----------------------------------------------------------------------===//
// SmemPlanOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> SmemPlanOp::getOffsets(TypeRange objects) {
  SmallVector<int64_t> offsets;
  int64_t offset = 0;
  for (Type type : objects) {
    if (auto buffer = dyn_cast<SmemBufferType>(type)) {
      offset = llvm::alignTo(offset, 1024);
      offsets.push_back(offset);
      offset += buffer.getTotalBytes();
      continue;
    }
    auto pipeline = cast<PipelineType>(type);
    offset = llvm::alignTo(offset, 8);
    offsets.push_back(offset);
    offset += pipeline.getBarrierBytes();
  }
  return offsets;
}

int64_t SmemPlanOp::getTotalBytes(TypeRange objects) {
  int64_t total = 0;
  SmallVector<int64_t> offsets = getOffsets(objects);
  for (auto [offset, type] : llvm::zip(offsets, objects)) {
    int64_t bytes = isa<SmemBufferType>(type)
                        ? cast<SmemBufferType>(type).getTotalBytes()
                        : cast<PipelineType>(type).getBarrierBytes();
    total = std::max(total, offset + bytes);
  }
  return total;
}

LogicalResult SmemPlanOp::verify() {
  int64_t total = getTotalBytes();
  if (total > kMaxBytes)
    return emitOpError("shared-memory plan needs ")
           << total << " bytes, over the " << kMaxBytes
           << "-byte (227 KB) per-block budget: use fewer stages or a "
              "smaller tile";
  return success();
}

//===----------------------------------------------------------------------===//
// Pipeline ops
//===----------------------------------------------------------------------===//

/// The optional cta_group of the ops that take part in an SM100 MMA pair's
/// loads: 1 or 2, and only in sm_100a kernels.
static LogicalResult verifyOptionalCtaGroup(Operation *op,
                                            std::optional<uint64_t> group) {
  if (!group)
    return success();
  if (*group != 1 && *group != 2)
    return op->emitOpError("cta_group must be 1 or 2, got ")
           << static_cast<int64_t>(*group);
  return verifyArch(op, Arch::sm_100a);
}

LogicalResult ProducerCommitOp::verify() {
  // The mbarrier transaction count is a 20-bit field.
  auto txBytes = static_cast<int64_t>(getTxBytes());
  if (txBytes <= 0 || txBytes >= (1 << 20))
    return emitOpError("tx bytes must be in [1, 2^20 - 1], got ") << txBytes;
  return verifyOptionalCtaGroup(*this, getCtaGroup());
}

LogicalResult ConsumerReleaseOp::verify() {
  if (static_cast<bool>(getPeerMask()) != getClusterSize().has_value())
    return emitOpError("peers(...) and cluster_size(...) go together");
  if (getClusterSize() && (*getClusterSize() < 1 || *getClusterSize() > 16))
    return emitOpError("cluster_size must be in [1, 16], got ")
           << *getClusterSize();
  return success();
}

//===----------------------------------------------------------------------===//
// TMA ops
//===----------------------------------------------------------------------===//

/// A TMA box lands in (or leaves) one ring slot: same element type and
/// swizzle.
static LogicalResult verifyBoxType(Operation *op, TmaDescriptorType descriptor,
                                   SmemBufferType buffer) {
  if (descriptor.getElementType() != buffer.getElementType())
    return op->emitOpError("descriptor element type ")
           << descriptor.getElementType() << " differs from the buffer's "
           << buffer.getElementType();
  if (descriptor.getSwizzle() != buffer.getSwizzle())
    return op->emitOpError("descriptor swizzle ")
           << descriptor.getSwizzle() << " differs from the buffer's "
           << buffer.getSwizzle();
  return success();
}

/// A K-major slot: the inner box dimension is the whole row of the slot.
static LogicalResult verifyBoxMatchesSlot(Operation *op,
                                          TmaDescriptorType descriptor,
                                          SmemBufferType buffer) {
  if (failed(verifyBoxType(op, descriptor, buffer)))
    return failure();
  if (descriptor.getBox()[0] != buffer.getCols())
    return op->emitOpError("box inner dimension ")
           << descriptor.getBox()[0] << " must equal the buffer's row length "
           << buffer.getCols();
  return success();
}

int64_t TmaLoadOp::getSlices() {
  SmemBufferType buffer = getBuffer().getType();
  int64_t outer = buffer.isMNMajor() ? buffer.getCols() : buffer.getRows();
  return outer / getDescriptor().getType().getBox()[1];
}

/// A load into an MN-major slot: one block (a swizzle span of M or N
/// elements, the box's inner dimension) of some of its K lines (the box's
/// outer dimension), in whole swizzle atoms of 8 lines.
static LogicalResult verifyMNMajorLoad(TmaLoadOp op) {
  auto descriptor = op.getDescriptor().getType();
  auto buffer = op.getBuffer().getType();
  if (failed(verifyBoxType(op, descriptor, buffer)))
    return failure();
  int64_t span = buffer.getSpanRows();
  if (descriptor.getBox()[0] != span)
    return op.emitOpError("box inner dimension ")
           << descriptor.getBox()[0] << " must be one " << buffer.getSwizzle()
           << "-byte swizzle span (" << span
           << " elements) of the MN-major buffer";
  int64_t lines = descriptor.getBox()[1];
  if (lines % 8 != 0 || buffer.getCols() % lines != 0)
    return op.emitOpError("box of ")
           << lines << " K lines does not tile the MN-major buffer's "
           << buffer.getCols() << " K lines in whole 8-line swizzle atoms";
  if (lines != buffer.getCols() && !op.getKOffset())
    return op.emitOpError("a box of fewer K lines than the slot needs a "
                          "k_offset");
  if (span != buffer.getRows() && !op.getRow())
    return op.emitOpError("an MN-major slot of several blocks needs a row "
                          "offset for each box");
  return success();
}

/// A rank-3 (batched) descriptor is addressed with a batch coordinate, a
/// rank-2 one without.
static LogicalResult
verifyCoordinates(Operation *op, TmaDescriptorType descriptor, Value batch) {
  if (descriptor.getRank() == 3 && !batch)
    return op->emitOpError("a batched (rank-3) descriptor needs a batch "
                           "coordinate: [inner, outer, batch]");
  if (descriptor.getRank() == 2 && batch)
    return op->emitOpError("a batch coordinate needs a batched (rank-3) "
                           "descriptor, got box [")
           << descriptor.getBox()[0] << ", " << descriptor.getBox()[1] << "]";
  return success();
}

LogicalResult TmaPrefetchOp::verify() {
  return verifyCoordinates(*this, getDescriptor().getType(), getBatch());
}

LogicalResult TmaLoadOp::verify() {
  auto descriptor = getDescriptor().getType();
  auto buffer = getBuffer().getType();
  if (failed(verifyCoordinates(*this, descriptor, getBatch())))
    return failure();
  if (buffer.isMNMajor()) {
    if (failed(verifyMNMajorLoad(*this)))
      return failure();
  } else {
    if (failed(verifyBoxMatchesSlot(getOperation(), descriptor, buffer)))
      return failure();
    if (getKOffset())
      return emitOpError("k_offset applies to MN-major buffers; a K-major "
                         "box covers all K of its rows");
    int64_t boxRows = descriptor.getBox()[1];
    if (boxRows > buffer.getRows() || buffer.getRows() % boxRows != 0)
      return emitOpError("box of ")
             << boxRows << " rows does not tile the buffer's "
             << buffer.getRows() << " rows";
    if (boxRows != buffer.getRows() && !getRow())
      return emitOpError("a box smaller than the slot needs a row offset");
  }
  if (getIssue() && (getMulticastMask() || getCtaGroup()))
    return emitOpError("a load with `when` completes a skipped box's bytes on "
                       "this CTA's barrier only; it cannot be multicast or "
                       "use cta_group");
  return verifyOptionalCtaGroup(*this, getCtaGroup());
}

LogicalResult TmaStoreWaitOp::verify() {
  int64_t pending = getPending();
  if (pending < 0 || pending > std::numeric_limits<int32_t>::max())
    return emitOpError("pending(")
           << pending
           << ") is out of range: the number of store groups left in flight "
              "is 0 .. 2147483647 (cp.async.bulk.wait_group takes a 32-bit "
              "constant)";
  return success();
}

bool TmaStoreOp::storesPackedBox() {
  TmaDescriptorType descriptor = getDescriptor().getType();
  SmemBufferType buffer = getBuffer().getType();
  return descriptor.getSwizzle() == 0 && buffer.getSwizzle() != 0 &&
         descriptor.getBox()[0] < buffer.getCols() &&
         descriptor.getElementType() == buffer.getElementType();
}

LogicalResult TmaStoreOp::verify() {
  auto descriptor = getDescriptor().getType();
  auto buffer = getBuffer().getType();
  if (failed(verifyCoordinates(*this, descriptor, getBatch())))
    return failure();
  // A packed sub-tile: the slot's first rows x inner elements, row after
  // row.
  if (storesPackedBox()) {
    if (descriptor.getBox()[1] != buffer.getRows() || getRow())
      return emitOpError("a packed narrow box (swizzle 0, ")
             << descriptor.getBox()[0] << " of the slot's " << buffer.getCols()
             << " columns) covers the slot's " << buffer.getRows()
             << " rows, without a row offset";
    return success();
  }
  if (failed(verifyBoxMatchesSlot(getOperation(), descriptor, buffer)))
    return failure();
  int64_t boxRows = descriptor.getBox()[1];
  if (boxRows > buffer.getRows() || buffer.getRows() % boxRows != 0)
    return emitOpError("box of ")
           << boxRows << " rows does not tile the slot's " << buffer.getRows()
           << " rows";
  if (boxRows != buffer.getRows() && !getRow())
    return emitOpError("a box smaller than the slot needs a row offset");
  return success();
}

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

// The WGMMA group ops lower to sm_90a-only instructions (wgmma.*.aligned):
// a kernel for any other chip gets a diagnostic, not IR the NVVM verifier
// rejects after the conversion.
LogicalResult WgmmaFenceOp::verify() { return verifyArch(*this, Arch::sm_90a); }

LogicalResult WgmmaCommitOp::verify() {
  return verifyArch(*this, Arch::sm_90a);
}

LogicalResult WgmmaWaitOp::verify() { return verifyArch(*this, Arch::sm_90a); }

LogicalResult MmaSm90Op::verify() {
  if (failed(verifyArch(*this, Arch::sm_90a)))
    return failure();
  auto acc = getAccumulator().getType();
  auto a = getA().getType();
  auto b = getB().getType();
  std::string why;
  std::optional<WgmmaOperands> mma =
      getWgmmaOperands(a.getElementType(), b.getElementType(), &why);
  if (!mma)
    return emitOpError(why);
  Type accType = mma->getAccumulatorType(getContext());
  if (acc.getElementType() != accType)
    return emitOpError("a WGMMA of ")
           << a.getElementType() << " x " << b.getElementType()
           << " accumulates into " << accType << ", not "
           << acc.getElementType();
  if (!mma->isLegalN(acc.getCols()))
    return emitOpError("illegal WGMMA N of ")
           << acc.getCols() << " (" << mma->legalNRule() << ")";
  // The transposed (MN-major) shared-memory operands of wgmma exist for
  // 16-bit types only: 8-bit and tf32 operands must be K-major.
  for (auto [name, operand] : {std::pair{"A", a}, std::pair{"B", b}})
    if (operand.isMNMajor() && mma->requiresKMajor())
      return emitOpError("an MN-major ")
             << name << " operand must be 16-bit (WGMMA transposes only "
             << ".f16/.bf16 operands), got " << operand.getElementType();
  if (a.getSwizzle() != 128 || b.getSwizzle() != 128)
    return emitOpError("WGMMA operands must be 128-byte swizzled tiles");
  if (!getBCol()) {
    if (b.getRows() != acc.getCols())
      return emitOpError("illegal WGMMA shape: B slot has ")
             << b.getRows()
             << " rows but the accumulator has N = " << acc.getCols();
  } else {
    int64_t first = getBColOffset();
    int64_t step = b.isMNMajor() ? b.getSpanRows() : 8;
    if (first < 0 || first % step != 0)
      return emitOpError("cols(")
             << first << ") must be a multiple of " << step
             << (b.isMNMajor() ? " (an MN-major B's block of columns)"
                               : " (8 rows of a K-major B)");
    if (first + acc.getCols() > b.getRows())
      return emitOpError("cols(")
             << first << ") with N = " << acc.getCols() << " reads past the "
             << b.getRows() << " rows of the B slot";
  }
  if (a.getRows() < acc.getRows())
    return emitOpError("A slot has ")
           << a.getRows() << " rows, fewer than the accumulator's "
           << acc.getRows();
  if (a.getStages() != b.getStages())
    return emitOpError("A and B rings must have the same number of stages");
  return success();
}

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

LogicalResult mlir::gemm::verifyStagingBuffer(Operation *op,
                                              SmemBufferType buffer,
                                              int64_t rows, bool lowPrecision) {
  Type element = buffer.getElementType();
  if (lowPrecision && (isa<Float8E4M3FNType, Float8E5M2Type>(element) ||
                       element.isSignlessInteger(32))) {
    // fp8 and s32 outputs (the SM90 epilogue).
  } else if (!isa<BFloat16Type, Float16Type, Float32Type>(element)) {
    return op->emitOpError("staging element type must be bf16, f16 or f32")
           << (lowPrecision ? " (or f8E4M3FN, f8E5M2, i32)" : "") << ", got "
           << element;
  }
  if (buffer.getRows() != rows || buffer.getSwizzle() != 128)
    return op->emitOpError("staging slots hold ")
           << rows << " rows of 128 bytes in the 128-byte swizzle, got "
           << buffer;
  return success();
}

int64_t AccumStoreSmemOp::getColumnCount() {
  if (std::optional<uint64_t> columns = getColumns())
    return static_cast<int64_t>(*columns);
  return 128 / getElementBytes(getBuffer().getType().getElementType());
}

LogicalResult AccumStoreSmemOp::verify() {
  auto acc = getAccumulator().getType();
  auto buffer = getBuffer().getType();
  int64_t elementBytes = getElementBytes(buffer.getElementType());
  // One slot per 64-row WGMMA atom.
  if (failed(verifyStagingBuffer(*this, buffer, 64, /*lowPrecision=*/true)))
    return failure();
  // The attributes are signless: read them as signed so that negative
  // values are rejected rather than wrapped.
  auto atom = static_cast<int64_t>(getAtom());
  auto col = static_cast<int64_t>(getCol());
  if (atom < 0 || atom >= acc.getAtoms())
    return emitOpError("atom ") << atom << " is outside the accumulator's "
                                << acc.getAtoms() << " atoms";
  int64_t width = 128 / elementBytes;
  int64_t count = getColumns() ? static_cast<int64_t>(*getColumns()) : width;
  if (col < 0 || col % width != 0 || col + count > acc.getCols())
    return emitOpError("col ")
           << col << " must be a multiple of " << width << " with its " << count
           << " columns inside the accumulator's " << acc.getCols()
           << " columns";
  if (failed(verifyStoreConversion(*this)))
    return failure();
  if (getTransposed() && elementBytes == 1)
    return emitOpError("transposed staging takes 16- and 32-bit slots (boxes "
                       "of 128 / sizeof(elem) lines), not ")
           << buffer.getElementType();
  if (getColumns()) {
    // Whole 8-column groups of the WGMMA fragment.
    int64_t step = 8;
    auto columns = static_cast<int64_t>(*getColumns());
    if (!getTransposed() && elementBytes == 1)
      return emitOpError("columns(")
             << columns
             << ") of a row-major sub-tile takes 16- and 32-bit slots, not "
             << buffer.getElementType();
    if (columns <= 0 || columns >= width || columns % step != 0)
      return emitOpError("columns(")
             << columns << ") must be a multiple of " << step << " below "
             << width << " (a narrower last sub-tile)";
  }
  return verifyEpilogueRegion(getOperation(), getEpilogue(),
                              acc.getElementType(),
                              getEpilogueResultType(buffer.getElementType()));
}

//===----------------------------------------------------------------------===//
// Schedulers
//===----------------------------------------------------------------------===//

LogicalResult StaticTileOp::verify() {
  auto swizzle = static_cast<int64_t>(getSwizzle());
  if (swizzle < 1 || swizzle > ::gemm::bundle::MaxRasterSwizzle)
    return emitOpError("swizzle must be in [1, ")
           << ::gemm::bundle::MaxRasterSwizzle << "] tiles, got " << swizzle;
  return success();
}

std::pair<int64_t, int64_t> AccumLoadAddGlobalOp::getValueRange() {
  AccumulatorType type = getAccumulator().getType();
  if (!getFirst())
    return {0, type.getAtoms() * type.getValuesPerAtom()};
  return {static_cast<int64_t>(*getFirst()),
          static_cast<int64_t>(getCount().value_or(0))};
}

LogicalResult AccumLoadAddGlobalOp::verify() {
  if (getFirst().has_value() != getCount().has_value())
    return emitOpError("values(first, count) needs both");
  AccumulatorType type = getAccumulator().getType();
  int64_t total = type.getAtoms() * type.getValuesPerAtom();
  auto [first, count] = getValueRange();
  if (!isWholeValueRange(first, count, total))
    return emitOpError("values ")
           << formatValueRange(first, count)
           << " must be a non-empty range of whole 16-byte steps (multiples "
              "of 4) within the thread's "
           << total << " accumulator values";
  return success();
}

LogicalResult BarrierAnyOp::verify() {
  auto threads = static_cast<int64_t>(getThreads());
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitOpError("threads must be a multiple of 32 in [32, 1024], got ")
           << threads;
  return success();
}

LogicalResult SplitKArriveOp::verify() {
  // One partial tile is the whole tile: nothing to count.
  APInt arrivals;
  if (matchPattern(getArrivals(), m_ConstantInt(&arrivals)) &&
      arrivals.getZExtValue() < 2)
    return emitOpError("arrivals must be at least 2, got ")
           << arrivals.getZExtValue();
  return success();
}

LogicalResult StreamKPlanOp::verify() {
  auto maxWorkers = static_cast<int64_t>(getMaxWorkersPerUnit());
  if (maxWorkers < 1)
    return emitOpError("max_workers_per_unit must be at least 1, got ")
           << maxWorkers;
  return success();
}

LogicalResult SplitKRangeOp::verify() {
  auto splits = static_cast<int64_t>(getSplits());
  if (splits < 1)
    return emitOpError("splits must be at least 1, got ") << splits;
  return success();
}

/// gemm.matmul's `grouped` and `grouped(general)`.
static ParseResult parseGrouped(OpAsmParser &parser, UnitAttr &grouped,
                                UnitAttr &general) {
  if (failed(parser.parseOptionalKeyword("grouped")))
    return success();
  grouped = parser.getBuilder().getUnitAttr();
  if (failed(parser.parseOptionalLParen()))
    return success();
  if (parser.parseKeyword("general") || parser.parseRParen())
    return failure();
  general = parser.getBuilder().getUnitAttr();
  return success();
}

static void printGrouped(OpAsmPrinter &printer, Operation *, UnitAttr grouped,
                         UnitAttr general) {
  if (!grouped)
    return;
  printer << "grouped";
  if (general)
    printer << "(general)";
}

/// gemm.accum.promote's types: the accumulator's, or `partial into
/// accumulator` for a column slice (each without the `!gemm.accum` prefix,
/// as the other ops print it).
static ParseResult parseSliceTypes(OpAsmParser &parser, Type &partial,
                                   Type &accumulator) {
  AccumulatorType partialType, accumulatorType;
  if (parser.parseCustomTypeWithFallback(partialType))
    return failure();
  accumulatorType = partialType;
  if (succeeded(parser.parseOptionalKeyword("into")) &&
      parser.parseCustomTypeWithFallback(accumulatorType))
    return failure();
  partial = partialType;
  accumulator = accumulatorType;
  return success();
}

static void printSliceTypes(OpAsmPrinter &printer, Operation *, Type partial,
                            Type accumulator) {
  printer.printStrippedAttrOrType(cast<AccumulatorType>(partial));
  if (partial != accumulator) {
    printer << " into ";
    printer.printStrippedAttrOrType(cast<AccumulatorType>(accumulator));
  }
}

#define GET_OP_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmOps.cpp.inc"
